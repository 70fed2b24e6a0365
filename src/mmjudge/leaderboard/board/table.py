"""Per-benchmark tables with the paper's breakdown; every number with its 95% CI where one exists.

The columns, their order, the view switch and the headline that ranks the rows are the benchmark's
(``Benchmark.present.leaderboard.views``); each column's direction is its result key's ``higher_is_better``
and its CI the ``<key>_ci_low``/``<key>_ci_high`` pair the scorer stored with the result (Wilson
intervals for rates, bootstraps for means and F1 scores). The leaderboard computes no statistic. A
:class:`Table` holds raw values (numbers, for sorting and export) and display strings in one format
(``62.5 [48.1, 75.0]``, :func:`mmjudge.leaderboard.board.facets.score_text`), and each column's group. Submitter text is kept as submitted: ``gr.Dataframe`` shows ``str`` cells as
text and the exports carry the name as submitted; only Markdown and HTML contexts escape it, where they
render it (``mmjudge.leaderboard.app.ui``). A reported row shows the spread its paper prints (``<key>_std``
over rounds) or the number alone, as printed. Every table ends with the file's coverage and ``no_judgment`` rate
(verified rows). A column may show a key as scored in one scoring mode: a benchmark ranked in one mode
(e.g. strict, missing answers wrong) can show another mode's value (a side scoring stored beside it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from mmjudge.benchmarks import Benchmark, Column, View, get_benchmark
from mmjudge.estimates import FEW_CLUSTERS, Estimate, Interval, interval_caveat, is_ci_key
from mmjudge.estimates import interval_of as stored_interval
from mmjudge.leaderboard.board import facets
from mmjudge.leaderboard.board.grid import Cell, Role, Table, TableColumn
from mmjudge.leaderboard.board.significance import THIN, RankCache, RankSource, RowRank, stored_estimates
from mmjudge.leaderboard.core.columns import (
    ROBUSTNESS,
    ranked_index,
    view_of,
)
from mmjudge.leaderboard.store import SUBMITTED, StoredSubmission

__all__ = [
    "DETAILS",
    "DETAIL_COLUMNS",
    "DETAIL_HEADERS",
    "FILE_COLUMNS",
    "INFO_COLUMNS",
    "TOP_ROW_NOTE",
    "Board",
    "board_of",
    "build_table",
    "has_interval",
    "interval_of",
    "is_laddered",
    "public_row",
    "robustness_table",
    "spread_of",
    "value_of",
]

FILE = "coverage"
"""Column group of the file's coverage and no-judgment rate."""
NO_CI = "(no CI)"
"""Beside a verified score whose stored result has no interval (rows stored before their scorer gave one)."""
SIGNIFICANCE_HEADER = "vs best (paired)"
"""Title of the significance column (``build_table(..., significance=True)``)."""
RANK_SET_HEADER = "Rank set (95%)"
"""Title of the rank-set column beside it (sorted by the set's first rank; exported as text and both ends)."""
LADDER_CELL = "private labels: Ladder score only"
"""The significance cell of a submitted row in private-label mode."""
SIGNIFICANCE = "paired test"
"""Column group of the significance column."""
Results = Mapping[str, Any]


DETAILS = "details"
"""Column group of :data:`DETAIL_COLUMNS`."""
DETAIL_COLUMNS: tuple[TableColumn, ...] = tuple(
    TableColumn(header, role, "number" if role is Role.ID else "str", DETAILS)
    for header, role in (("Tier", Role.TIER), ("Scored on", Role.SCORED_ON), ("Note", Role.NOTE), ("Type", Role.TYPE),
                         ("Model", Role.MODEL), ("Revision", Role.REVISION), ("Weights", Role.WEIGHTS),
                         ("Submitter", Role.SUBMITTER), ("id", Role.ID))
)  # fmt: skip
"""Trailing columns of a ranked table: the row's provenance tier, the set it was scored on, why it is not
ranked (when it is not), its judge type, what was run, and its store id."""
DETAIL_HEADERS: tuple[str, ...] = tuple(c.header for c in DETAIL_COLUMNS)
INFO_COLUMNS: tuple[TableColumn, ...] = (
    TableColumn("id", Role.ID, "number"), TableColumn("Tier", Role.TIER), TableColumn("Judge", Role.JUDGE),
    TableColumn("Model", Role.MODEL), TableColumn("Revision", Role.REVISION), TableColumn("Weights", Role.WEIGHTS),
    TableColumn("Submitter", Role.SUBMITTER),
)  # fmt: skip
"""Leading columns of the robustness table (its rows are not ranked, so the store id leads)."""


FILE_PREFIX = "file:"
"""How the file's coverage keys appear in the mapping a column reads (``file:coverage``)."""
FILE_COLUMNS: tuple[Column, ...] = (
    Column("Coverage %", f"{FILE_PREFIX}coverage", group=FILE, exact=True),
    Column("No judgment %", f"{FILE_PREFIX}no_judgment_rate", group=FILE, exact=True),
)
"""Coverage and no-judgment rate of the submitted file (verified rows; ``—`` for reported ones)."""


def value_of(col: Column, results: Results, mode: str = "") -> float | str | None:
    """The number (or short text) ``col`` shows from a result mapping; ``None`` when absent.

    ``mode``: the scorer's default scoring mode (a result naming none is in it), for a column in a mode.

    >>> value_of(Column("A", "acc"), {"acc": 50}), value_of(Column("n", "ok", text=True, out_of="all"), {"ok": 3, "all": 4})
    (50.0, '3/4')
    >>> value_of(Column("A", "acc", mode="lenient"), {"acc": 50, "lenient:acc": 60}, "strict")
    60.0
    """
    if col.text:
        return _text(results, col.key, col.out_of)
    scored = _in_mode(col, results, mode)
    return None if scored is None else _number(scored, col.key)


def has_interval(col: Column) -> bool:
    """Whether ``col`` shows a stored interval: a score column (not text, not a count of the file)."""
    return not (col.text or col.exact)


def interval_of(col: Column, results: Results, mode: str = "") -> Interval | None:
    """``col``'s stored 95% CI (``<key>_ci_low``/``<key>_ci_high`` from the scorer), in its mode; ``None`` when
    absent or for a column without one (:func:`has_interval`).

    >>> interval_of(Column("A", "acc"), {"acc": 50, "acc_ci_low": 40, "acc_ci_high": 60})
    Interval(low=40.0, high=60.0)
    """
    scored = _in_mode(col, results, mode) if has_interval(col) else None
    if scored is None:
        return None
    return stored_interval(scored, col.key)


def spread_of(col: Column, results: Results) -> float | None:
    """The spread over rounds a paper prints beside a mean (``<key>_std``), shown when there is no CI; only a
    score column of the ranked scoring has one."""
    if not has_interval(col) or col.mode is not None:
        return None
    return _number(results, f"{col.key}_std")



def _number(results: Results, key: str) -> float | None:
    value = results.get(key)
    return None if value is None or isinstance(value, (str, bool)) else float(value)


def _text(results: Results, key: str, out_of: str | None) -> str | None:
    """The stored value as text, or ``"<key>/<out_of>"`` of two stored counts."""
    value = results.get(key)
    if out_of is None:
        return None if value is None else str(value)
    total = results.get(out_of)
    return None if value is None or total is None else f"{int(value)}/{int(total)}"


def _in_mode(col: Column, results: Results, default: str) -> Results | None:
    """What ``col`` reads: ``results`` for a column in no mode, or when the ranked result is in the column's mode
    (a result naming none is in the scorer's ``default`` mode); else the side scoring labelled with that mode
    (``None`` when there is none)."""
    if col.mode is None or results.get("mode", default) == col.mode:
        return results
    side = {k[len(col.mode) + 1 :]: v for k, v in results.items() if k.startswith(f"{col.mode}:")}
    return side or None


def _view(sub: StoredSubmission) -> dict[str, Any]:
    """The mapping the columns read: the ranked results, side scorings and the file's coverage."""
    view = dict(sub.results)
    for label, side in (sub.side_results or {}).items():
        view.update({f"{label}:{key}": value for key, value in side.items()})
    view.update({f"{FILE_PREFIX}{key}": value for key, value in (sub.coverage or {}).items()})
    return view



class Board(NamedTuple):
    """A benchmark's visible rows in table order, with what their cells read (:func:`board_of`)."""

    spec: Benchmark
    """The benchmark."""
    view: View
    """The view shown."""
    columns: list[Column]
    """The score columns, the headline first, then the file's coverage."""
    ordered: list[facets.Ordered]
    """The rows (public views) in table order, with their places."""
    mapped: dict[int, dict[str, Any]]
    """Row id -> the mapping its columns read."""
    laddered: set[int]
    """The rows showing only their Ladder score."""
    mode: str
    """The scorer's default scoring mode."""
    groups: dict[str, str]
    """The published rows' judge groups (:func:`~mmjudge.leaderboard.board.facets.reported_groups`)."""

    @property
    def key(self) -> str:
        """The ranking key: the view's headline column's."""
        return self.view.columns[ranked_index(self.spec, self.view)].key

    def compared(self) -> list[StoredSubmission]:
        """The rows the significance column compares: a baseline or a flagged row is never "best", and a Ladder
        score has no paired data to test."""
        return [e.row for e in self.ordered if e.compared and e.row.id not in self.laddered]


def board_of(benchmark: str, submissions: Sequence[StoredSubmission], view: str | None = None, *,
             private: bool = False) -> Board:  # fmt: skip
    """``benchmark``'s visible rows of ``submissions`` as its table in ``view`` orders them (``private``: in
    private-label mode, :func:`public_row`)."""
    spec = get_benchmark(benchmark)
    chosen = view_of(spec, view)
    cols = [*chosen.columns, *FILE_COLUMNS]
    first = ranked_index(spec, chosen)
    cols = [replace(cols[first], group=""), *cols[:first], *cols[first + 1 :]]  # the headline is always shown
    stored = [s for s in submissions if s.benchmark == benchmark and not s.hidden]
    rows = [public_row(s, private=private) for s in stored]
    mapped = {s.id: _view(s) for s in rows}
    mode = spec.metrics.modes[0] if spec.metrics.modes else ""
    check = spec.present.leaderboard.degenerate
    # the companion check reads what the server stores: a Ladder row shows one number, but is flagged all the same
    flags = {s.id: check(s.results) if check is not None else None for s in stored}
    higher = spec.metrics.higher_is_better(cols[0].key)
    ordered = facets.order_rows(spec, rows, lambda s: _finite(value_of(cols[0], mapped[s.id], mode)), higher,
                                lambda s: flags[s.id])  # fmt: skip
    laddered = {s.id for s in rows if is_laddered(s, private=private)}
    return Board(spec, chosen, cols, ordered, mapped, laddered, mode, facets.reported_groups(benchmark))


def build_table(
    benchmark: str,
    submissions: Sequence[StoredSubmission],
    view: str | None = None,
    *,
    significance: bool = False,
    private: bool = False,
    ranks: RankSource | None = None,
) -> Table:
    """The leaderboard table of ``benchmark`` (hidden rows left out), ranked by the view's headline column.

    ``private`` (private-label mode): a submitted row shows its Ladder score as the headline and nothing
    else (:func:`public_row`).

    Columns: ``Rank``, ``Judge``, the headline, the view's other score columns, with ``significance`` the
    row's rank set among the verified rows scored on the same items (:data:`RANK_SET_HEADER`) and a text
    column saying whether another of them is significantly better on the headline key, paired and
    simultaneous (:mod:`mmjudge.leaderboard.board.significance`), the file's coverage, then the row's
    details (:data:`DETAIL_HEADERS`, the store id last). Text cells hold the text as submitted (a ``str``
    cell of ``gr.Dataframe`` is shown as text). Rows are grouped by the set they were scored on and ranked
    only within it, published and run-here rows above submitted ones; baselines and rows the benchmark
    flags as degenerate are shown unranked (:func:`~mmjudge.leaderboard.board.facets.order_rows`).

    Building a table reads and computes nothing else: the significance cells come from ``ranks`` (a server's
    rank keeper, which reads them from its store, a row whose cells the store lacks saying so:
    :class:`~mmjudge.leaderboard.board.ranks.RankKeeper`; or, for rows in hand,
    :class:`~mmjudge.leaderboard.board.significance.ComputedRanks`), and the thin marks from the pairing
    summaries stored with the rows (read through ``ranks``' cache when given).

    Raises:
        ValueError: ``significance`` without ``ranks``.
    """
    if significance and ranks is None:
        raise ValueError(
            "build_table(..., significance=True) needs ranks=: a server's rank keeper (mmjudge.leaderboard.board."
            "ranks.keeper_of(board)) or, for rows not read from a store, significance.ComputedRanks()"
        )
    board = board_of(benchmark, submissions, view, private=private)
    marked: list[Estimate] = []
    rows_out = [_row_cells(board, entry, marked, None if ranks is None else ranks.cache) for entry in board.ordered]
    columns = [TableColumn("Rank", Role.RANK, "number"), TableColumn("Judge", Role.JUDGE),
               *(_score_column(c) for c in board.columns), *DETAIL_COLUMNS]  # fmt: skip
    found: dict[int, RowRank] = {}
    if ranks is not None and significance:
        found = ranks.ranks(benchmark, board.compared(), board.key)
        found.update({i: RowRank(None, NO_RANK_SET, LADDER_CELL, "") for i in board.laddered})
        _insert_rank_columns(board, rows_out, columns, found)
    return Table(benchmark, tuple(columns), tuple(tuple(r) for r in rows_out), rank_column=2,
                 caption=_caption(marked, list(found.values())))  # fmt: skip


def _row_cells(board: Board, entry: facets.Ordered, marked: list[Estimate], cache: RankCache | None) -> list[Cell]:
    """One row's cells (rank, judge, scores, details); the estimates behind its thin score cells go to ``marked``."""
    sub, place, results = entry.row, entry.place, board.mapped[entry.row.id]
    made = stored_estimates(sub, cache)  # a laddered row keeps no paired data in its public view
    found = [(c, _estimate(c, made, results, board.mode)) for c in board.columns]
    ladder = sub.id in board.laddered
    cells = [_cell(c, results, board.mode, sub.kind, ladder=ladder, estimate=e) for c, e in found]
    marked += [e for c, e in found if e is not None and _thin(c, results, board.mode, e)]
    details = [facets.row_tier(sub), facets.set_text(sub, board.spec), entry.note, facets.judge_type(sub, board.groups),
               *(str(v) for v in (sub.model, sub.revision, sub.weights, sub.submitter))]  # fmt: skip
    return [Cell(place.number, place.text), Cell(str(sub.judge), str(sub.judge)), *cells,
            *(Cell(d, d) for d in details), Cell(sub.id, str(sub.id))]  # fmt: skip


def _insert_rank_columns(board: Board, rows_out: list[list[Cell]], columns: list[TableColumn],
                         found: Mapping[int, RowRank]) -> None:  # fmt: skip
    """Put the rank-set and test columns after the score columns, before the file's."""
    at = 2 + len(board.view.columns)
    for entry, row_cells in zip(board.ordered, rows_out, strict=True):
        ranked = found.get(entry.row.id, RowRank(None, NO_RANK_SET, facets.NOT_RANKED, ""))
        rank_set = ranked.rank
        row_cells[at:at] = [
            Cell(None if rank_set is None else rank_set.lower, ranked.rank_text,
                 None if rank_set is None else (rank_set.lower, rank_set.upper)),
            Cell(ranked.cell, ranked.cell),
        ]  # fmt: skip
    columns[at:at] = [
        TableColumn(RANK_SET_HEADER, Role.RANK_SET, "number", SIGNIFICANCE, bounds=True, exports_text=True),
        TableColumn(SIGNIFICANCE_HEADER, Role.TEST, "str", SIGNIFICANCE),
    ]


def _score_column(col: Column) -> TableColumn:
    """The table column showing the benchmark's ``col``."""
    return TableColumn(col.header, Role.SCORE, "str" if col.text else "number", col.group, bounds=has_interval(col))


NO_RANK_SET = "—"
"""The rank cell of a row without a rank set (published numbers, no paired data, a baseline, a Ladder score)."""


def _estimate(col: Column, made: Mapping[str, Estimate], results: Results, mode: str) -> Estimate | None:
    """The scorer's stored estimate behind ``col``'s cell: the ranked scoring's, or for a column in another mode
    the side scoring's (stored as ``<mode>:<key>``); ``mode`` is the scorer's default mode, which a result naming
    none is in."""
    if not has_interval(col):
        return None
    if col.mode is not None and results.get("mode", mode) != col.mode:
        return made.get(f"{col.mode}:{col.key}")
    return made.get(col.key)


def _thin(col: Column, results: Results, mode: str, estimate: Estimate | None) -> bool:
    """Whether ``col``'s cell is a number whose interval the estimate marks thin or absent (few clusters)."""
    return isinstance(value_of(col, results, mode), (int, float)) and bool(interval_caveat(estimate))


def _caption(marked: Sequence[Estimate], ranks: Sequence[RowRank]) -> str:
    """What the table's marks mean, from the estimates behind the marked cells and the rows' rank sets.

    >>> e = Estimate(50.0, 30.0, 70.0, 0.95, "jackknife over prompts", 40, 12, "pair", True, "prompt")
    >>> print(_caption([e, e._replace(n_clusters=20)], []))
    `†` after a score: its interval rests on 12–20 prompts (under 30): jackknife over prompts.
    """
    return "\n\n".join([*_score_caption(marked), *_rank_caption(ranks)])


def _score_caption(marked: Sequence[Estimate]) -> list[str]:
    lines = []
    thin = [e for e in marked if e.low is not None]
    if thin:
        rests = f"its interval rests on {', '.join(_spans(thin))} (under {FEW_CLUSTERS})"
        lines.append(f"`{THIN}` after a score: {rests}: {'; '.join(sorted({e.method for e in thin}))}.")
    absent = sorted({e.method.removeprefix("none: ") for e in marked if e.low is None})
    if absent:
        lines.append(f"`{THIN}` after `{NO_CI}`: {'; '.join(absent)}.")
    return lines


def _spans(thin: Sequence[Estimate]) -> list[str]:
    """How many clusters of each kind the thin estimates rest on (``"12–20 prompts"``)."""
    spans = []
    for what in sorted({e.cluster or "cluster" for e in thin}):
        counts = sorted({e.n_clusters or 0 for e in thin if (e.cluster or "cluster") == what})
        spans.append(f"{counts[0]}{f'–{counts[-1]}' if len(counts) > 1 else ''} {what}s")
    return spans


TOP_ROW_NOTE = (
    "The `best` row's score interval is the scorer's own for that row alone, not adjusted for its being chosen as "
    "the highest (among equal judges it held the true score on about 90% of simulated boards, "
    "`benchmarks/_coverage_ranks.py`): its rank set is the statement that allows for the selection."
)
"""The caption's note that the top row's score interval is not adjusted for selection (shown with rank sets)."""


def _rank_caption(ranks: Sequence[RowRank]) -> list[str]:
    lines = []
    methods = sorted({r.method for r in ranks if r.method})
    if methods:
        lines.append(f"`{RANK_SET_HEADER}`: the ranks a row may hold among the rows scored on the same items, every "
                     f"row's set holding at once with 95% probability; a `*` in `{SIGNIFICANCE_HEADER}`: another of "
                     f"those rows is significantly better (the set starts after 1). {'; '.join(methods)}.")  # fmt: skip
        lines.append(TOP_ROW_NOTE)
    notes = sorted({r.thin for r in ranks if r.thin and r.rank is not None})
    if notes:
        lines.append(f"`{THIN}` after a rank set or a test: {'; '.join(notes)}.")
    return lines


def _finite(value: float | str | None) -> float | None:
    return value if isinstance(value, (int, float)) and not math.isnan(value) else None


def is_laddered(sub: StoredSubmission, *, private: bool) -> bool:
    """Whether the public sees only ``sub``'s Ladder score: with private labels, a submitted row, and a ``run
    here`` row of a request a non-admin made (:attr:`~mmjudge.leaderboard.store.StoredSubmission.laddered`):
    whatever a non-admin chooses, an upload or a request's model, settings and seed, shows its Ladder score only.

    >>> row = StoredSubmission("mist", "verified", "j", "m", "u", {}, tier="run here", laddered=True)
    >>> is_laddered(row, private=True), is_laddered(row, private=False)
    (True, False)
    """
    return private and (sub.tier == SUBMITTED or sub.laddered)


def public_row(sub: StoredSubmission, *, private: bool) -> StoredSubmission:
    """``sub`` as the public may see it: with private labels, a laddered row (:func:`is_laddered`) keeps only
    its Ladder score (under the headline key, in the ranked scoring's mode where the headline column names
    one) and the file's own coverage; every other row, and every row with public labels, as stored.

    >>> row = StoredSubmission("mist", "verified", "j", "m", "u", {"change_rate/control": 3.0}, tier="submitted",
    ...                        ladder=12.0)
    >>> public_row(row, private=True).results
    {'change_rate/none_to_misleading/explicit': 12.0}
    >>> public_row(replace(row, benchmark="emorealm", ladder=40.0), private=True).results
    {'overall': 40.0, 'mode': 'strict'}
    """
    if not is_laddered(sub, private=private):
        return sub
    spec = get_benchmark(sub.benchmark)
    chosen = view_of(spec, None)
    headline = chosen.columns[ranked_index(spec, chosen)]
    shown: dict[str, Any] = {} if sub.ladder is None else {headline.key: sub.ladder}
    if shown and headline.mode is not None:  # the headline column reads the score in its mode only
        shown["mode"] = headline.mode
    return replace(sub, results=shown, side_results=None, paired="", pairing="")



def _cell(col: Column, results: Results, mode: str = "", kind: str = "verified", *, ladder: bool = False,
          estimate: Estimate | None = None) -> Cell:  # fmt: skip
    """One cell of ``col``, with the stored interval behind a number; ``†`` after a number whose stored
    ``estimate`` says its interval is thin or absent (fewer than :data:`~mmjudge.estimates.FEW_CLUSTERS`
    independent clusters)."""
    value = value_of(col, results, mode)
    if value is None:
        return Cell(None, "—")
    if isinstance(value, str):
        return Cell(value, value)
    ci, spread = interval_of(col, results, mode), spread_of(col, results)
    # a reported row without a spread is the number as printed (the table's legend says so); a count of
    # the file is exact; a verified estimate without its interval says so
    missing = "" if col.exact or kind == "reported" else "(Ladder)" if ladder else NO_CI
    text = facets.score_text(value, ci, spread, results.get("n_rounds"), missing=missing)
    shown = f"{text} {THIN}" if _thin(col, results, mode, estimate) else text
    return Cell(round(value, 4), shown, ci if has_interval(col) else None)


def _has_robustness(sub: StoredSubmission) -> bool:
    """Whether ``sub`` is a visible verified row with a robustness summary."""
    return not sub.hidden and sub.kind == "verified" and bool((sub.side_results or {}).get(ROBUSTNESS))


def robustness_table(benchmark: str, submissions: Sequence[StoredSubmission]) -> Table:
    """The robustness summaries of ``benchmark``'s verified, visible rows that have one, by row id.

    One column per summary key (each probe's headline effect, in first-seen order), with the interval
    stored beside it (``<key>_ci_low``/``_ci_high``); the rows are not ranked (effects have no common
    direction). The figures are the ones ``mmjudge robustness`` wrote: nothing is computed here.
    """
    rows = [s for s in submissions if s.benchmark == benchmark and _has_robustness(s)]
    summaries = {s.id: dict((s.side_results or {})[ROBUSTNESS]) for s in sorted(rows, key=lambda s: s.id)}
    keys = list(
        dict.fromkeys(k for summary in summaries.values() for k in summary if not is_ci_key(k))
    )
    cols = [Column(key, key) for key in keys]
    rows_out = []
    for sub in sorted(rows, key=lambda s: s.id):
        info = [Cell(sub.id, str(sub.id)), Cell(facets.row_tier(sub), facets.row_tier(sub)),
                *(Cell(str(v), str(v)) for v in (sub.judge, sub.model, sub.revision, sub.weights, sub.submitter))]  # fmt: skip
        rows_out.append((*info, *(_cell(c, summaries[sub.id]) for c in cols)))
    columns = (*INFO_COLUMNS, *(_score_column(c) for c in cols))
    return Table(benchmark, columns, tuple(rows_out), rank_column=len(INFO_COLUMNS))

