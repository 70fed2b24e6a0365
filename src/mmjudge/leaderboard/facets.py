"""What a reader of a leaderboard table filters and ranks by: the rank rule, a row's kind and judge type,
the cell format, and the choice of column groups and rows (:func:`select`).

Rank rule (standard competition ranking): rows are ordered by the headline in its direction; rows with
equal headline values (as stored) share the best rank of their run, written ``"2="``, and the next row
takes the rank after the run (``1, 2=, 2=, 4``); a row without a headline number is unranked (``"—"``)
and comes last. The rank is the row's place in the whole visible table: filters and a header sort leave
it as it is.

Kind: ``reported`` (published numbers), ``baseline`` (a verified row whose prediction file says its judge
ran without weights: the header's ``provenance.judge_config.model`` is null, as for the weight-free
judges of ``mmjudge demo``) or ``verified``. Judge type: a verified row's backend (the header's
``provenance.judge_config.judge``, ``"unknown"`` when the header does not say); a reported row's group in
its benchmark's ``reported.json`` (e.g. ``reward model``), else ``"published"``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import UnknownNameError
from mmjudge.leaderboard.store import StoredSubmission
from mmjudge.report import interval_text

if TYPE_CHECKING:
    from mmjudge.leaderboard.tables import Table

__all__ = [
    "KINDS",
    "Place",
    "judge_type",
    "ranks",
    "reported_groups",
    "row_kind",
    "score_text",
    "select",
]

KINDS: tuple[str, ...] = ("reported", "verified", "baseline")
"""The kinds a row shows (see the module docstring)."""
UNRANKED = "—"


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


def row_kind(sub: StoredSubmission) -> str:
    """``reported``, ``baseline`` or ``verified`` (see the module docstring).

    >>> row_kind(StoredSubmission("mist", "reported", "j", "m", "paper", {}))
    'reported'
    """
    if sub.kind != "verified":
        return sub.kind
    config = _judge_config(sub)
    return "baseline" if "model" in config and config["model"] is None else "verified"


def judge_type(sub: StoredSubmission, groups: Mapping[str, str] | None = None) -> str:
    """The row's judge type: a verified row's backend, a reported row's group (``groups``: judge -> group).

    >>> judge_type(StoredSubmission("isovrbench", "reported", "VideoReward", "m", "paper", {}), {"VideoReward": "reward model"})
    'reward model'
    """
    if sub.kind == "reported":
        return (groups or {}).get(sub.judge, "published")
    backend = _judge_config(sub).get("judge")
    return str(backend) if isinstance(backend, str) and backend else "unknown"


def reported_groups(benchmark: str) -> dict[str, str]:
    """Judge name -> group of the published rows in ``benchmark``'s ``reported.json`` (rows with one)."""
    rows = get_benchmark(benchmark).reported().get("rows", [])
    return {str(r["judge"]): str(r["group"]) for r in rows if r.get("group")}


def select(table: Table, groups: Collection[str] | None = None, kinds: Collection[str] | None = None,
           types: Collection[str] | None = None) -> Table:  # fmt: skip
    """``table`` with only the column groups in ``groups`` and the rows of the ``kinds`` and ``types`` given.

    ``None`` (or, for ``types``, empty) keeps everything; columns of group ``""`` (rank, judge, headline)
    are always kept. Rows keep their rank.

    Raises:
        UnknownNameError: a group or kind the table does not have (the message names the known ones).
    """
    known = [g for g in dict.fromkeys(table.groups) if g]
    _check("column group", groups, known)
    _check("kind", kinds, KINDS)
    keep = [
        i
        for i, g in enumerate(table.groups or [""] * len(table.headers))
        if not g or groups is None or g in groups
    ]
    kind_at, type_at = table.headers.index("Kind"), table.headers.index("Type")
    rows = [i for i, row in enumerate(table.values)
            if (kinds is None or row[kind_at] in kinds) and (not types or row[type_at] in types)]  # fmt: skip
    return replace(
        table,
        headers=[table.headers[i] for i in keep],
        values=[[table.values[r][i] for i in keep] for r in rows],
        display=[[table.display[r][i] for i in keep] for r in rows],
        datatypes=[table.datatypes[i] for i in keep],
        headline=keep.index(table.headline),
        groups=[table.groups[i] for i in keep] if table.groups else [],
    )


def _check(what: str, chosen: Collection[str] | None, known: Sequence[str]) -> None:
    unknown = sorted(set(chosen or ()) - set(known))
    if unknown:
        raise UnknownNameError(
            f"unknown {what} {unknown}: expected some of {list(known)}; pick from the table's choices"
        )
