"""What a reader of a leaderboard table filters and ranks by: the rank rule, a row's tier and judge type,
the cell format, and the choice of column groups and rows (:func:`select`).

Rank rule (standard competition ranking): rows are ordered by the headline in its direction; rows with
equal headline values (as stored) share the best rank of their run, written ``"2="``, and the next row
takes the rank after the run (``1, 2=, 2=, 4``); a row without a headline number is unranked (``"—"``)
and comes last. The rank is the row's place in the whole visible table: filters and a header sort leave
it as it is.

Tier (a row's provenance, set by the server, never read from a file): ``published`` (a paper table,
with its source), ``run here`` (the server's own worker ran the model), ``submitted`` (uploaded
predictions: the labels are public, so such a row proves only that a file was scored), and ``baseline``
(a weight-free judge the operator stored with ``mmjudge demo``: shown, never ranked; stored as ``run here``
with ``reference_line`` set, the names the store keeps). Judge
type: a verified row's backend (the header's ``provenance.judge_config.judge`` when it names a registered judge,
``"unknown"`` otherwise: the submitter's claim, shown as such and never as free text); a reported row's group in its benchmark's
``reported.json`` (e.g. ``reward model``), else ``"published"``.

Order (:func:`order_rows`): rows are grouped by the set they were scored on (dataset, revision or content
hash; the published set first) and ranked only within their set; in a set, published and run-here rows
come first and take ranks ``1..k``, submitted rows follow with ranks from ``k + 1``; then the reference
baselines (rank ``baseline``), the rows the benchmark flags as degenerate (rank ``flagged``, the reason in the
row's note) and rows without a headline number (``—``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from mmjudge._text import unsafe_char
from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import UnknownNameError
from mmjudge.judges import JUDGES
from mmjudge.leaderboard.board.grid import Role, Table
from mmjudge.leaderboard.store import PUBLISHED, RUN_HERE, SUBMITTED, StoredSubmission
from mmjudge.report import interval_text

if TYPE_CHECKING:
    from mmjudge.benchmarks import Benchmark

__all__ = [
    "BASELINE",
    "NOT_RANKED",
    "SHOWN_TIERS",
    "Ordered",
    "Place",
    "judge_type",
    "known_backend",
    "order_rows",
    "ranks",
    "reported_groups",
    "row_tier",
    "score_text",
    "select",
    "set_text",
]

BASELINE = "baseline"
"""The tier shown for a weight-free baseline of the operator (stored ``run here`` with ``reference_line``
set; never ranked). Its one name wherever a user reads it: tier filter, ``Tier`` column, rank cell, figure."""
SHOWN_TIERS: tuple[str, ...] = (PUBLISHED, RUN_HERE, SUBMITTED, BASELINE)
"""The tiers a row shows, and the tier filter's choices (see the module docstring)."""
UNRANKED = "—"
UNKNOWN_TYPE = "unknown"
"""The judge type of a verified row whose header names no registered judge."""
NOT_RANKED = "not ranked"
"""The significance cell of a baseline or a flagged row."""


class Place(NamedTuple):
    """A row's rank: the number (for sorting) and its text (``"2="`` for a tie)."""

    number: int | None
    """Rank, 1 for the best; ``None`` for a row without a headline number."""
    text: str
    """``"1"``, ``"2="`` (tied), or ``"—"`` (unranked)."""


def ranks(values: Sequence[float | None], higher_is_better: bool = True) -> list[Place]:
    """Competition ranks of ``values`` (in their order): 1 + how many values are better; ties marked ``=``.

    >>> [p.text for p in ranks([75.0, 80.0, None, 75.0, 60.0])]
    ['2=', '1', '—', '2=', '4']
    >>> [p.number for p in ranks([3.0, 1.0, 1.0], higher_is_better=False)]
    [3, 1, 1]
    """
    numbers = sorted((-v if higher_is_better else v) for v in values if v is not None)
    places = []
    for value in values:
        if value is None:
            places.append(Place(None, UNRANKED))
            continue
        key = -value if higher_is_better else value
        first, last = bisect_left(numbers, key), bisect_right(numbers, key)
        places.append(Place(first + 1, f"{first + 1}=" if last - first > 1 else str(first + 1)))
    return places


def score_text(value: float, ci: tuple[float, float] | None = None, spread: float | None = None,
               rounds: Any = None, *, missing: str = "") -> str:  # fmt: skip
    """The one format of a score cell: the number, then its 95% CI, else the spread over rounds.

    ``missing`` follows a number with neither (e.g. ``"(no CI)"``); empty, the number stands alone.

    >>> score_text(62.5, (48.125, 75.0))
    '62.5 [48.1, 75.0]'
    >>> score_text(67.2, spread=0.08, rounds=2)
    '67.2 ± 0.08 (2 rounds)'
    >>> score_text(73.3), score_text(40.0, missing="(no CI)")
    ('73.3', '40.0 (no CI)')
    """
    if ci is not None:
        return f"{value:.1f} {interval_text(*ci)}"
    if spread is not None:
        return f"{value:.1f} ± {spread:.2f} ({rounds if rounds is not None else '?'} rounds)"
    return f"{value:.1f} {missing}".rstrip()


def _judge_config(sub: StoredSubmission) -> Mapping[str, Any]:
    provenance = (sub.header or {}).get("provenance")
    config = provenance.get("judge_config") if isinstance(provenance, Mapping) else None
    return config if isinstance(config, Mapping) else {}


def row_tier(sub: StoredSubmission) -> str:
    """The tier a row shows: its stored tier, or ``baseline`` for an operator's weight-free baseline.

    >>> row_tier(StoredSubmission("mist", "verified", "j", "m", "u", {}, tier="submitted", reference_line=False))
    'submitted'
    """
    return BASELINE if sub.reference_line else sub.tier


def set_key(sub: StoredSubmission) -> tuple[str, str]:
    """What identifies the set a row was scored on: ``(dataset, revision)`` (empty when unknown)."""
    scored = sub.scored_on or {}
    return str(scored.get("dataset", "")), str(scored.get("revision", ""))


def set_text(sub: StoredSubmission, spec: Benchmark | None = None) -> str:
    """The set a row was scored on, as the table shows it.

    >>> set_text(StoredSubmission("mist", "verified", "j", "m", "u", {},
    ...          scored_on={"dataset": "org/mist-labels", "revision": "ab" * 20, "units": 40}))
    'org/mist-labels@abababababab (40 units)'
    """
    scored = sub.scored_on or {}
    if not scored:
        return "unknown (stored before sets were recorded)"
    if scored.get("revision") == "paper":
        return "the paper's test set, as published"
    unit = spec.records.unit if spec is not None else "units"
    size = "" if scored.get("units") is None else f" ({scored['units']} {unit})"
    return f"{scored.get('dataset', '')}@{str(scored.get('revision', ''))[:12]}{size}"


class Ordered(NamedTuple):
    """A row in table order with its place and why it is not ranked."""

    row: StoredSubmission
    """The stored row."""
    place: Place
    """Its rank within its set (``ref``, ``flagged`` or ``—`` when not ranked)."""
    note: str
    """Why the row is not ranked, or ``""``."""
    compared: bool
    """Whether the row is compared with the others (not a baseline, not flagged as degenerate)."""


def order_rows(spec: Benchmark, rows: Sequence[StoredSubmission], rank_value: Any, higher_is_better: bool,
               flag: Callable[[StoredSubmission], str | None] | None = None) -> list[Ordered]:  # fmt: skip
    """The rows in table order with their places (the rule is the module docstring's).

    ``rank_value(row)`` is the row's number in the ranking column (``None`` when it has none); ``flag(row)`` why the row is
    degenerate, or ``None`` (default: the benchmark's companion check on the row's results; a caller showing
    fewer results than it stores passes the check of the stored ones).
    """
    if flag is None:
        check = spec.present.leaderboard.degenerate

        def flag(sub: StoredSubmission) -> str | None:
            return check(sub.results) if check is not None else None
    sets: dict[tuple[str, str], list[StoredSubmission]] = {}
    for sub in rows:
        sets.setdefault(set_key(sub), []).append(sub)

    def set_order(item: tuple[int, tuple[tuple[str, str], list[StoredSubmission]]]) -> tuple[int, int, int]:
        index, (_, members) = item
        published = any(m.tier == PUBLISHED for m in members)
        return (0 if published else 1, -sum(_trusted(m) for m in members), index)

    out: list[Ordered] = []
    for _, (_, members) in sorted(enumerate(sets.items()), key=set_order):
        out += _placed(_classes(members, rank_value, flag), higher_is_better)
    return out


_Classed = list[tuple[StoredSubmission, float | None, str]]
"""One class of rows of a set: each row with its number and why it is not ranked."""


def _trusted(sub: StoredSubmission) -> bool:
    """A published or run-here row that is not a baseline (ranked above the submitted rows of its set)."""
    return sub.tier in (PUBLISHED, RUN_HERE) and not sub.reference_line


def _classes(members: Sequence[StoredSubmission], rank_value: Any,
             flag: Callable[[StoredSubmission], str | None]) -> list[_Classed]:  # fmt: skip
    """One set's rows in five classes, in table order: trusted and ranked, submitted and ranked, baselines,
    flagged rows, rows without a number; each row with its number and why it is not ranked."""
    classes: list[_Classed] = [[], [], [], [], []]
    for sub in members:
        value = rank_value(sub)
        reason = flag(sub)
        if sub.reference_line:
            classes[2].append((sub, value, "baseline: a weight-free judge, not ranked"))
        elif reason:
            classes[3].append((sub, value, f"flagged: {reason}; not ranked"))
        elif value is None:
            classes[4].append((sub, value, ""))
        else:
            classes[0 if _trusted(sub) else 1].append((sub, value, ""))
    return classes


def _placed(classes: list[_Classed], higher_is_better: bool) -> list[Ordered]:
    """One set's classes (:func:`_classes`) in table order with their places: the first two ranked on, the
    others unranked."""
    out: list[Ordered] = []
    offset = 0
    for k, members_k in enumerate(classes):
        members_k.sort(key=lambda e: (-(e[1] or 0.0) if higher_is_better else (e[1] or 0.0), e[0].id))
        if k < 2:
            places = ranks([v for _, v, _ in members_k], higher_is_better)
            for (sub, _, note), p in zip(members_k, places, strict=True):
                number = (p.number or 0) + offset
                text = f"{number}=" if p.text.endswith("=") else str(number)
                out.append(Ordered(sub, Place(number, text), note, True))
            offset += len(members_k)
        else:
            text = (BASELINE, "flagged", UNRANKED)[k - 2]
            out.extend(Ordered(sub, Place(None, text), note, k == 4) for sub, _, note in members_k)
    return out


def judge_type(sub: StoredSubmission, groups: Mapping[str, str] | None = None) -> str:
    """The row's judge type: a verified row's backend, a reported row's group (``groups``: judge -> group).

    >>> judge_type(StoredSubmission("isovrbench", "reported", "VideoReward", "m", "paper", {}), {"VideoReward": "reward model"})
    'reward model'
    """
    if sub.kind == "reported":
        return (groups or {}).get(sub.judge, "published")
    return known_backend(_judge_config(sub).get("judge"))


def known_backend(claimed: Any) -> str:
    """A file header's judge backend as the Type column and its filter show it: a registered judge's name, else
    ``unknown`` (the header is the submitter's claim: any other text, an override or a zero-width character
    included, never reaches a cell or a filter choice).

    >>> known_backend("vlm_digit"), known_backend("vlm_digit\u202e"), known_backend("x" * 5000), known_backend(None)
    ('vlm_digit', 'unknown', 'unknown', 'unknown')
    """

    if not isinstance(claimed, str) or not 0 < len(claimed) <= 100 or unsafe_char(claimed) is not None:
        return UNKNOWN_TYPE
    return claimed if claimed in JUDGES.names() else UNKNOWN_TYPE


def reported_groups(benchmark: str) -> dict[str, str]:
    """Judge name -> group of the published rows in ``benchmark``'s ``reported.json`` (rows with one)."""
    rows = get_benchmark(benchmark).reported().get("rows", [])
    return {str(r["judge"]): str(r["group"]) for r in rows if r.get("group")}


def select(table: Table, groups: Collection[str] | None = None, tiers: Collection[str] | None = None,
           types: Collection[str] | None = None) -> Table:  # fmt: skip
    """``table`` with only the column groups in ``groups`` and the rows of the ``tiers`` and ``types`` given.

    ``None`` (or, for ``types``, empty) keeps everything; columns of group ``""`` (rank, judge, headline)
    are always kept. Rows keep their rank.

    Raises:
        UnknownNameError: a group or tier the table does not have (the message names the known ones).
    """
    known = [g for g in dict.fromkeys(table.groups) if g]
    _check("column group", groups, known)
    _check("tier", tiers, SHOWN_TIERS)
    keep = [k for k, col in enumerate(table.columns) if not col.group or groups is None or col.group in groups]
    tier, kind = table.cells(Role.TIER), table.cells(Role.TYPE)
    rows = [i for i in range(len(table.rows))
            if (tiers is None or tier[i].value in tiers) and (not types or kind[i].value in types)]  # fmt: skip
    return table.take(rows).keep(keep)


def _check(what: str, chosen: Collection[str] | None, known: Sequence[str]) -> None:
    unknown = sorted(set(chosen or ()) - set(known))
    if unknown:
        raise UnknownNameError(
            f"unknown {what} {unknown}: expected some of {list(known)}; pick from the table's choices"
        )
