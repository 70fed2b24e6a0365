"""One matplotlib figure per tab, drawn by the benchmark from the stored rows (``Benchmark.present.leaderboard.figure``).

The figure gets the rows the table shows, in the table's order (best first, or as a column sort on the
page orders them), each with its rank, so every mark can be labelled as the table labels it; the text in
the table's filter box leaves out of the figure the rows it leaves out of the table
(:mod:`mmjudge.leaderboard.board.arrange`). The published (``reported``) rows give the context,
the ``verified`` rows are drawn over it, and every error bar is an interval the scorer stored (or the
spread over rounds a paper prints); nothing is computed here. Figures use no pyplot state, so nothing
accumulates.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mmjudge.benchmarks import get_benchmark
from mmjudge.leaderboard.board import facets
from mmjudge.leaderboard.board.arrange import Order, arrange, matching
from mmjudge.leaderboard.board.grid import Role
from mmjudge.leaderboard.board.significance import RankSource
from mmjudge.leaderboard.board.table import build_table, public_row
from mmjudge.leaderboard.store import StoredSubmission

__all__ = ["RankedRow", "figure", "ranked_rows"]


@dataclass(frozen=True)
class RankedRow:
    """A stored row as a figure reads it (``mmjudge.benchmarks.BoardRow``), with its rank in the table."""

    kind: str
    """``verified`` or ``reported`` (as stored)."""
    tier: str
    """The tier the table shows (:data:`mmjudge.leaderboard.board.facets.SHOWN_TIERS`)."""
    judge: str
    """Judge display name."""
    results: Mapping[str, Any]
    """The stored result dict."""
    rank: str
    """The rank the table shows (``"2="`` for a tie, ``"—"`` unranked)."""


def ranked_rows(benchmark: str, rows: Sequence[StoredSubmission], view: str | None = None,
                tiers: Collection[str] | None = None, types: Collection[str] | None = None, *,
                groups: Collection[str] | None = None, order: Order | None = None, search: str | None = None,
                private: bool = False, ranks: RankSource | None = None) -> list[RankedRow]:  # fmt: skip
    """The rows the table of ``benchmark`` shows (same view, filters, sort and filter text, the text
    searched in the column ``groups`` shown), in its order, with their ranks; ``ranks``: where the table's
    significance cells come from (needed with a filter text, which searches them too).

    >>> ranked_rows("mist", [])
    []
    """
    # with a filter text, the table as the page has it (its paired-test column searched too)
    table = build_table(benchmark, rows, view, significance=bool(search), private=private, ranks=ranks)
    table = facets.select(table, tiers=tiers, types=types)
    columns = facets.select(table, None if groups is None else [g for g in groups if g in table.groups])
    table = table.take(matching(columns, search))
    table = arrange(table, order)
    by_id = {r.id: public_row(r, private=private) for r in rows}
    ids, places = table.cells(Role.ID), table.cells(Role.RANK)
    shown = [(by_id[int(i.value)], rank.text) for i, rank in zip(ids, places, strict=True)]
    return [RankedRow(sub.kind, facets.row_tier(sub), sub.judge, sub.results, rank) for sub, rank in shown]


def figure(benchmark: str, rows: Sequence[StoredSubmission], view: str | None = None,
           tiers: Collection[str] | None = None, types: Collection[str] | None = None, *,
           groups: Collection[str] | None = None, order: Order | None = None, search: str | None = None,
           private: bool = False, ranks: RankSource | None = None) -> Any:  # fmt: skip
    """The tab's figure from the rows its table shows (a ``matplotlib.figure.Figure``)."""
    shown = ranked_rows(benchmark, rows, view, tiers, types, groups=groups, order=order, search=search,
                        private=private, ranks=ranks)  # fmt: skip
    return get_benchmark(benchmark).present.leaderboard.figure(shown)
