"""How a score's interval is spelled in a flat result dict, and its typed record in ``results.json``.

A scorer writes each score key ``K`` with its interval as ``K_ci_low`` / ``K_ci_high`` (in ``K``'s own
unit). This module is the one place that spelling lives: scorers, result-key declarations, reports, figures,
the leaderboard, exports, robustness summaries and the human study read an interval through
:func:`interval_of` (an :class:`Interval`, or ``None``), write one through :func:`interval_keys` /
:func:`with_interval`, name its keys through :func:`ci_keys` and tell them apart through :func:`is_ci_key` /
:func:`ci_owner`; they write it as text through :func:`interval_text`. ``results.json`` (schema 3) also carries a typed :class:`Estimate` per score: value,
interval, confidence, the method that made it (which units or clusters it resampled) and the counts.

Every display of intervals words them from those records: :func:`interval_caption` names the methods,
:func:`interval_caveat` says when an interval is thin or withheld, :class:`Footnotes` marks such cells in a
table, and :func:`interval_notes` lists them in one line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeGuard

__all__ = [
    "CI_SUFFIXES", "DIFFERENCE_RANGE", "DOMINANT_SHARE", "FEW_CLUSTERS", "MIN_CLUSTERS", "RANDOMISATION_BELOW",
    "Estimate", "Footnotes", "Interval", "ci_keys", "ci_owner", "comparison_methods", "dominant_note",
    "estimates_from", "interval_caption", "interval_caveat", "interval_keys", "interval_notes", "interval_of",
    "interval_text", "is_ci_key", "no_test_reaches", "number_text", "score_keys", "strata_note", "thin_note",
    "with_interval", "with_its_interval",
]  # fmt: skip

CI_SUFFIXES: tuple[str, str] = ("_ci_low", "_ci_high")
"""Suffixes of the two CI keys of a score key."""

FEW_CLUSTERS = 30
"""Below this many independent clusters an interval is marked *thin*: it rests on a small-sample correction
(t quantiles with the clusters' degrees of freedom) that the coverage benchmark checks only down to
:data:`MIN_CLUSTERS` (``docs/performance.md``, "Interval coverage")."""

MIN_CLUSTERS = 5
"""Fewer independent clusters than this: no interval at all (the estimate says why)."""

RANDOMISATION_BELOW = 100
"""Below this many clusters (and from :data:`MIN_CLUSTERS`) a paired comparison's p-value is the sign-flip test's
and its interval the one made by inverting that test; from it on, the paired cluster bootstrap's."""


def comparison_methods() -> str:
    """How a paired comparison (``mmjudge compare``, the leaderboard's stars) is made at each number of clusters,
    in words, from the constants that decide it (help and docs text read it, so it never says otherwise).

    >>> comparison_methods()
    'paired cluster bootstrap from 100 clusters; from 5 to 99, the sign-flip test over clusters and the interval that inverts it (none where no test at that size can reach p < alpha); below 5, neither'
    """
    return (
        f"paired cluster bootstrap from {RANDOMISATION_BELOW} clusters; from {MIN_CLUSTERS} to "
        f"{RANDOMISATION_BELOW - 1}, the sign-flip test over clusters and the interval that inverts it (none where "
        f"no test at that size can reach p < alpha); below {MIN_CLUSTERS}, neither"
    )


def no_test_reaches(n_clusters: int, alpha: float) -> bool:
    """Whether no paired test over ``n_clusters`` clusters can reach ``p < alpha``: the exact sign-flip test's
    smallest p is ``2 / 2^G``. ``mmjudge compare`` and the leaderboard's stars read this one rule, so the same
    data never gets a star in one place and "no test possible" in the other.

    >>> no_test_reaches(5, 0.05), no_test_reaches(6, 0.05)
    (True, False)
    """
    return 2.0 ** (1 - n_clusters) >= alpha


DIFFERENCE_RANGE = (-100.0, 100.0)
"""Where the difference of two judges' paired keys lies: every paired key is a 0-100 rate or mean of rates (its
``ResultKey`` says so; a test holds every registered benchmark to it). ``mmjudge compare``'s Wilson bound and
the leaderboard's vs-best interval stay within it."""


def number_text(value: float, digits: int = 1, *, style: str = "fixed") -> str:
    """A number as reports write it: ``fixed`` (``digits`` decimals), ``signed`` (the same with its sign) or
    ``significant`` (``digits`` significant figures, whole numbers from ``10**digits`` on).

    >>> number_text(48.125), number_text(10.0, 2, style="signed"), number_text(0.012345, 3, style="significant")
    ('48.1', '+10.00', '0.0123')
    >>> number_text(123456.7, 3, style="significant")
    '123457'
    """
    if style == "signed":
        return f"{value:+.{digits}f}"
    if style == "significant":
        return f"{value:.{digits}g}" if abs(value) < 10**digits else f"{value:.0f}"
    return f"{value:.{digits}f}"


def interval_text(low: float, high: float, digits: int = 1, *, style: str = "fixed") -> str:
    """The one written form of an interval, in reports, terminal tables, leaderboard cells, comparisons,
    robustness reports, the human study and exported eval results (``style``: :func:`number_text`'s).

    >>> interval_text(48.125, 75.0), interval_text(2.0, 18.0, 2, style="signed")
    ('[48.1, 75.0]', '[+2.00, +18.00]')
    """
    return f"[{number_text(low, digits, style=style)}, {number_text(high, digits, style=style)}]"


class Interval(NamedTuple):
    """A score's stored interval, in the score's own unit (both ends finite)."""

    low: float
    """Lower end."""
    high: float
    """Upper end."""


def ci_keys(key: str) -> tuple[str, str]:
    """The two CI keys of ``key``.

    >>> ci_keys("overall")
    ('overall_ci_low', 'overall_ci_high')
    """
    return key + CI_SUFFIXES[0], key + CI_SUFFIXES[1]


def is_ci_key(key: str) -> bool:
    """Whether ``key`` is one end of an interval.

    >>> is_ci_key("average_ci_high"), is_ci_key("average")
    (True, False)
    """
    return key.endswith(CI_SUFFIXES)


def ci_owner(key: str) -> str:
    """The score key whose interval ``key`` is one end of; ``key`` itself when it is no CI key.

    >>> ci_owner("kappa/blind_ci_low"), ci_owner("kappa/blind")
    ('kappa/blind', 'kappa/blind')
    """
    for suffix in CI_SUFFIXES:
        if key.endswith(suffix):
            return key.removesuffix(suffix)
    return key


def interval_of(scores: Mapping[str, Any], key: str) -> Interval | None:
    """``key``'s stored interval when both ends are finite numbers, else ``None`` (no interval, a withheld
    one, one end only, or an end that is not a finite number).

    >>> interval_of({"acc": 50.0, "acc_ci_low": 40.0, "acc_ci_high": 60.0}, "acc")
    Interval(low=40.0, high=60.0)
    >>> interval_of({"acc": 50.0, "acc_ci_low": float("nan"), "acc_ci_high": 60.0}, "acc") is None
    True
    """
    low, high = (scores.get(k) for k in ci_keys(key))
    if not (_finite(low) and _finite(high)):
        return None
    return Interval(float(low), float(high))


def interval_keys(key: str, low: Any, high: Any) -> dict[str, Any]:
    """``{key_ci_low: low, key_ci_high: high}``, the two CI keys a scorer stores beside ``key`` (written as
    given: a scorer decides before whether it has an interval).

    >>> interval_keys("average", 1.5, 2.5)
    {'average_ci_low': 1.5, 'average_ci_high': 2.5}
    """
    lo, hi = ci_keys(key)
    return {lo: low, hi: high}


def with_interval(key: str, value: Any, low: Any, high: Any) -> dict[str, Any]:
    """``{key: value, key_ci_low: low, key_ci_high: high}``; the CI keys only when both ends are given.

    >>> with_interval("rate", 10.0, 5.0, 20.0)
    {'rate': 10.0, 'rate_ci_low': 5.0, 'rate_ci_high': 20.0}
    >>> with_interval("rate", 10.0, None, None)
    {'rate': 10.0}
    """
    out = {key: value}
    if low is not None and high is not None:
        out.update(interval_keys(key, low, high))
    return out


def with_its_interval(scores: Mapping[str, Any], key: str) -> dict[str, Any]:
    """``key`` and its two CI keys, those of them that ``scores`` holds.

    >>> with_its_interval({"a": 1.0, "a_ci_low": 0.5, "a_ci_high": 2.0, "b": 3.0}, "a")
    {'a': 1.0, 'a_ci_low': 0.5, 'a_ci_high': 2.0}
    """
    return {k: scores[k] for k in (key, *ci_keys(key)) if k in scores}


def score_keys(scores: Iterable[str]) -> list[str]:
    """The keys of ``scores`` that are not CI ends, in order.

    >>> score_keys(["a", "a_ci_low", "a_ci_high", "n"])
    ['a', 'n']
    """
    return [k for k in scores if not is_ci_key(k)]


class Estimate(NamedTuple):
    """One score as ``results.json`` (schema 3) records it under ``estimates``."""

    value: float | None
    """The score (``None`` when undefined)."""
    low: float | None
    """Lower end of its interval (``None``: no interval)."""
    high: float | None
    """Upper end."""
    confidence: float
    """Nominal coverage of the interval."""
    method: str
    """How the interval was made, as the scorer names it: ``Wilson score interval over independent pairs
    (repaired next to 0 and 100)``, ``Wilson score interval on the effective sample size (jackknife over
    prompts, stratified; t quantile)``, ``t interval (jackknife over items; t quantile)``, ...; ``none:
    <reason>`` when the scorer withheld the interval (``none`` where no reason is recorded); files written
    before these methods name theirs (``percentile bootstrap over prompts (stratified), 10000 resamples``)."""
    n_units: int | None
    """Scored units behind the interval."""
    n_clusters: int | None
    """Independent clusters the interval resampled (``n_units`` when the units are independent)."""
    unit: str | None = None
    """What a unit is (``pair``, ``cell``, ``question``, ``item``), when the scorer says."""
    higher_is_better: bool | None = None
    """The score's direction (``None`` for counts and descriptive keys; the stats layer's bootstraps do not
    know it)."""
    cluster: str | None = None
    """What an independent cluster is (``prompt``, ``item``, ``clip``), when the scorer says."""
    note: str | None = None
    """A caveat the scorer recorded about an interval it gave, from the data's design (``thin: ...``:
    :func:`strata_note`); :func:`interval_caveat` shows it where the cluster count raises none."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object with NaN as ``null`` (``note`` only when there is one)."""
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in self._asdict().items()
                if k != "note" or v is not None}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Estimate:
        """Read :meth:`to_json`'s object back (missing fields as ``None``)."""
        return cls(
            value=_number_or_none(data.get("value")),
            low=_number_or_none(data.get("low")),
            high=_number_or_none(data.get("high")),
            confidence=float(data.get("confidence", 0.95)),
            method=str(data.get("method", "none")),
            n_units=_int_or_none(data.get("n_units")),
            n_clusters=_int_or_none(data.get("n_clusters")),
            unit=None if data.get("unit") is None else str(data["unit"]),
            higher_is_better=None if data.get("higher_is_better") is None else bool(data["higher_is_better"]),
            cluster=None if data.get("cluster") is None else str(data["cluster"]),
            note=None if not data.get("note") else str(data["note"]),
        )


DOMINANT_SHARE = 0.5
"""A cluster holding this share of a key's units or more leaves no interval: the key's spread is then mostly one
cluster's, which a jackknife over clusters cannot measure (with one prompt holding half the pairs, the intervals
covered 99-100% at a width that said nothing; ``docs/performance.md``)."""


def dominant_note(largest: float, n_units: float, cluster: str | None = None) -> str:
    """Why a key whose largest cluster holds ``largest`` of its ``n_units`` units has no interval (``""`` below
    :data:`DOMINANT_SHARE`).

    >>> dominant_note(20, 40, "prompt"), dominant_note(19, 40, "prompt")
    ('no interval: one prompt holds 50% of the units (half or more: the interval would rest on it)', '')
    """
    if n_units <= 0 or largest / n_units < DOMINANT_SHARE:
        return ""
    share = number_text(100.0 * largest / n_units, 0)
    return f"no interval: one {cluster or 'cluster'} holds {share}% of the units (half or more: the interval would rest on it)"


def thin_note(n_clusters: int | None, cluster: str | None = None) -> str:
    """Why an interval over ``n_clusters`` independent clusters is thin or absent (``""`` when neither).

    >>> thin_note(12, "prompt"), thin_note(3, "clip"), thin_note(400, "item"), thin_note(None)
    ('thin: 12 prompts (under 30)', 'no interval: 3 clips (at least 5 needed)', '', '')
    """
    if n_clusters is None or n_clusters >= FEW_CLUSTERS:
        return ""
    if n_clusters < MIN_CLUSTERS:
        return f"no interval: {_clusters(n_clusters, cluster)} (at least {MIN_CLUSTERS} needed)"
    return f"thin: {_clusters(n_clusters, cluster)} (under {FEW_CLUSTERS})"


def strata_note(clusters: Mapping[str, int], cluster: str | None = None) -> str:
    """Why a mean of the rates of strata (each weighed alike) whose strata hold ``clusters`` independent
    clusters each is thin although the mean holds enough: its smallest stratum has fewer than
    :data:`FEW_CLUSTERS` (``""`` when none has, or when there is one stratum).

    A mean over strata weighs a stratum of 5 pairs as much as one of 1,000, so its spread is mostly the small
    strata's, and its interval rests on the small-sample corrections of those (Price and Bonett's pseudo-counts,
    the t quantile): over interventions of 15, 8 and 5 pairs ``dimension_accuracy/overall`` covered 97.8%
    (exactly, 99.0% in a run of 1,000), above the 97.5% the coverage benchmark accepts
    (``docs/performance.md``).

    >>> strata_note({"a": 1000, "b": 8, "c": 5}, "pair")
    'thin: stratum c has 5 pairs (under 30; 2 of the 3 strata the mean weighs alike are)'
    >>> strata_note({"a": 1000, "b": 30}, "pair"), strata_note({"a": 5}, "pair")
    ('', '')
    """
    if len(clusters) < 2:
        return ""
    small = {name: n for name, n in clusters.items() if n < FEW_CLUSTERS}
    if not small:
        return ""
    name = min(small, key=lambda k: (small[k], k))
    return (f"thin: stratum {name} has {_clusters(small[name], cluster)} (under {FEW_CLUSTERS}; {len(small)} of the "
            f"{len(clusters)} strata the mean weighs alike {'is' if len(small) == 1 else 'are'})")


def interval_caveat(estimate: Estimate | None) -> str:
    """What a reader must know about a recorded estimate's interval: when the scorer withheld it (no ends),
    why (its method, ``none: <reason>``, else :func:`thin_note`); else whether it is thin (fewer than
    :data:`FEW_CLUSTERS` clusters, else the caveat the scorer recorded in ``note``: :func:`strata_note`);
    ``""`` for ``None`` or an interval over enough clusters without a recorded caveat.

    >>> e = Estimate(50.0, 30.0, 70.0, 0.95, "m", 40, 12, "pair", True, "prompt")
    >>> interval_caveat(e), interval_caveat(e._replace(n_clusters=3))
    ('thin: 12 prompts (under 30)', 'thin: 3 prompts (under 30)')
    >>> interval_caveat(e._replace(low=None, high=None, method="none: every outcome equal", n_clusters=40))
    'no interval: every outcome equal'
    >>> interval_caveat(e._replace(n_clusters=40, note="thin: stratum c has 5 prompts (under 30)"))
    'thin: stratum c has 5 prompts (under 30)'
    """
    if estimate is None:
        return ""
    note = thin_note(estimate.n_clusters, estimate.cluster)
    if not _withheld(estimate):  # an interval that is there is thin, never absent
        if note:
            return f"thin: {_clusters(estimate.n_clusters, estimate.cluster)} (under {FEW_CLUSTERS})"
        return estimate.note or ""
    reason = estimate.method.removeprefix("none").lstrip(": ")
    if reason:
        return reason if reason.startswith("no interval") else f"no interval: {reason}"
    return note if note.startswith("no interval") else "no interval"


def estimates_from(
    scores: Mapping[str, Any],
    intervals: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    method: str = "not recorded",
    higher_is_better: Callable[[str], bool | None] | None = None,
) -> dict[str, Estimate]:
    """The typed estimate of every score key of ``scores`` that has an interval (``<key>_ci_low`` and
    ``_ci_high``) or whose interval the scorer withheld (a recorded method beginning ``none:``, with the reason).

    ``intervals`` records how each interval was made (default: the ``intervals`` a scorer's ``Scores``
    carries); ``method`` names the interval where that record is absent (an older file, a plain dict);
    ``higher_is_better`` gives a key's direction.

    >>> e = estimates_from({"acc": 50.0, "acc_ci_low": 30.0, "acc_ci_high": 70.0, "avg": 40.0, "n": 4},
    ...                    {"avg": {"method": "none: 2 prompts", "n_clusters": 2}})
    >>> [(k, v.method, v.low) for k, v in e.items()]
    [('acc', 'not recorded', 30.0), ('avg', 'none: 2 prompts', None)]
    """
    made = dict(getattr(scores, "intervals", None) or {}) if intervals is None else intervals
    out: dict[str, Estimate] = {}
    for key in score_keys(scores):
        interval = interval_of(scores, key)
        how = made.get(key, {})
        if interval is None and not str(how.get("method", "")).startswith("none:"):
            continue  # no interval, and no record of why: not an estimate
        low, high = interval if interval is not None else (None, None)
        higher = higher_is_better(key) if higher_is_better is not None else None
        out[key] = Estimate.from_json({"method": method, **how, "value": scores.get(key), "low": low,
                                       "high": high, "higher_is_better": higher})  # fmt: skip
    return out


def interval_caption(estimates: Mapping[str, Estimate], keys: Iterable[str] | None = None) -> str:
    """The caption naming how the intervals of ``keys`` (default: all of ``estimates``) were made, read from
    their records: keys grouped by confidence and method (``P/*`` for every captioned key under ``P/``), then
    the withheld ones with the reason; ``""`` when no key has an estimate.

    >>> e = Estimate(50.0, 30.0, 70.0, 0.95, "wilson", 40, 40, "pair", True, "pair")
    >>> estimates = {"acc/a": e, "acc/b": e, "avg": e._replace(method="bootstrap over prompts", n_clusters=12),
    ...              "mean": e._replace(low=None, high=None, method="none: no interval: 3 prompts", n_clusters=3)}
    >>> interval_caption(estimates)
    '95% intervals: acc/* — wilson; avg — bootstrap over prompts. Withheld: mean — no interval: 3 prompts.'
    """
    chosen = [k for k in (estimates if keys is None else dict.fromkeys(keys)) if k in estimates]
    made: dict[float, dict[str, list[str]]] = {}
    withheld: dict[str, list[str]] = {}
    for key in chosen:
        estimate = estimates[key]
        if _withheld(estimate):
            withheld.setdefault(interval_caveat(estimate), []).append(key)
        else:
            made.setdefault(estimate.confidence, {}).setdefault(estimate.method, []).append(key)
    parts = [
        f"{number_text(100 * confidence, 0)}% intervals: "
        + "; ".join(f"{_compact(group, chosen)} — {how}" for how, group in methods.items())
        for confidence, methods in made.items()
    ]
    if withheld:
        why = "; ".join(f"{_compact(group, chosen)} — {reason}" for reason, group in withheld.items())
        parts.append(f"Withheld: {why}")
    return "".join(f"{part}." if k == 0 else f" {part}." for k, part in enumerate(parts))


def interval_notes(estimates: Mapping[str, Estimate], keys: Iterable[str] | None = None) -> str:
    """The thin and withheld intervals among ``keys`` (default: all of ``estimates``), grouped by their
    :func:`interval_caveat`; ``""`` when none is.

    >>> e = Estimate(50.0, 30.0, 70.0, 0.95, "wilson", 12, 12, "item", True, "item")
    >>> interval_notes({"acc/a": e, "acc/b": e, "f1": e._replace(n_clusters=400)})
    'acc/* — thin: 12 items (under 30)'
    """
    chosen = [k for k in (estimates if keys is None else dict.fromkeys(keys)) if k in estimates]
    groups: dict[str, list[str]] = {}
    for key in chosen:
        note = interval_caveat(estimates[key])
        if note:
            groups.setdefault(note, []).append(key)
    return "; ".join(f"{_compact(group, chosen)} — {note}" for note, group in groups.items())


class Footnotes:
    """Marks for thin or withheld intervals (one mark per distinct :func:`interval_caveat`) and the footnote
    lines that explain them, for a table that shows intervals.

    >>> notes = Footnotes()
    >>> e = Estimate(50.0, 30.0, 70.0, 0.95, "wilson", 12, 12, "item", True, "item")
    >>> notes.mark(e), notes.mark(e._replace(n_clusters=400)), notes.mark(e._replace(n_clusters=20)), notes.mark(e)
    ('†', '', '‡', '†')
    >>> notes.lines()
    ['† thin: 12 items (under 30)', '‡ thin: 20 items (under 30)']
    """

    MARKS = ("†", "‡", "§", "¶")
    """The first marks; later notes get ``†5``, ``†6``, ..."""

    def __init__(self) -> None:
        self._marks: dict[str, str] = {}

    def mark(self, estimate: Estimate | None) -> str:
        """The mark of ``estimate``'s caveat (``""`` without one), numbered in order of first use."""
        note = interval_caveat(estimate)
        if not note:
            return ""
        if note not in self._marks:
            n = len(self._marks)
            self._marks[note] = self.MARKS[n] if n < len(self.MARKS) else f"{self.MARKS[0]}{n + 1}"
        return self._marks[note]

    def lines(self) -> list[str]:
        """One line per mark used: ``<mark> <caveat>``."""
        return [f"{mark} {note}" for note, mark in self._marks.items()]


def _withheld(estimate: Estimate) -> bool:
    return estimate.low is None or estimate.high is None


def _clusters(n: int | None, cluster: str | None) -> str:
    return f"{n} {cluster or 'cluster'}{'' if n == 1 else 's'}"


def _compact(group: list[str], chosen: list[str]) -> str:
    """``group``'s keys, each ``P/*`` under the shortest prefix ``P`` whose captioned keys are all in ``group``
    (two or more of them).

    >>> _compact(["a/x", "a/y", "b/x", "c"], ["a/x", "a/y", "b/x", "b/y", "c"])
    'a/*, b/x, c'
    """
    members = set(group)
    shown: dict[str, None] = {}
    for key in group:
        parts = key.split("/")
        name = key
        for depth in range(1, len(parts)):
            prefix = "/".join(parts[:depth]) + "/"
            under = [k for k in chosen if k.startswith(prefix)]
            if len(under) >= 2 and members.issuperset(under):
                name = prefix + "*"
                break
        shown.setdefault(name, None)
    return ", ".join(shown)


def _finite(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _number_or_none(value: Any) -> float | None:
    return float(value) if _finite(value) else None


def _int_or_none(value: Any) -> int | None:
    return None if value is None or isinstance(value, bool) else int(value)
