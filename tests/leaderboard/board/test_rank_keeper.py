"""A table only reads what the store holds: the rank keeper computes and stores the rank cells (when a row is
stored or hidden, and when a table finds some missing), and owns the server's caches."""

from __future__ import annotations

import collections
import importlib
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.board import significance as sig
from mmjudge.leaderboard.board.ranks import NOT_STORED, InlineRanks, RankKeeper, keeper_of
from mmjudge.leaderboard.board.table import RANK_SET_HEADER, SIGNIFICANCE_HEADER, build_table
from mmjudge.leaderboard.core.columns import views
from mmjudge.leaderboard.core.pairing import LRU
from mmjudge.leaderboard.core.validation import SubmissionMeta

from ..conftest import BENCHMARKS, prediction_bytes


class AskedOnly(RankKeeper):
    """A keeper that records what it is asked and stores nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.asked: list[str] = []

    def __call__(self, benchmark: str) -> None:
        self.asked.append(benchmark)

    def wait(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        return True

    def request(self, benchmark: str) -> None:
        self.asked.append(benchmark)


@contextmanager
def no_writes(store: Any) -> Iterator[list[str]]:
    """Every write transaction on ``store`` is recorded and refused (reads go on)."""
    writes: list[str] = []

    def refused(*args: Any, **kwargs: Any) -> Any:
        writes.append("transaction")
        raise AssertionError("a write while building a table")

    real = store.transaction
    store.transaction = refused
    try:
        yield writes
    finally:
        store.transaction = real


def _fill(board: Any, reference: dict[str, Any]) -> None:
    for benchmark in BENCHMARKS:
        for seed in (1, 2, 3):
            meta = SubmissionMeta(judge=f"j{seed}", model=f"org/m{seed}", revision="r", weights="open")
            board.submit(prediction_bytes(benchmark, reference[benchmark], seed=seed), meta, "u")


def _forget_the_cells(board: Any) -> None:
    """The store as one migrated from version 6 holds it: no pairing summaries, no rank cells."""
    with board.store.transaction() as conn:
        conn.execute("UPDATE submissions SET pairing = ''")
        conn.execute("DELETE FROM rank_cells")


def _every_table(handlers: Handlers) -> list[tuple[str | None, Any]]:
    """``(view, table)`` of every benchmark's every view (and its figure with a filter text)."""
    tables = []
    for benchmark in BENCHMARKS:
        for view in views(benchmark):
            tables.append((view, handlers.table(benchmark, view)))
            handlers.plot(benchmark, view, search="n.s.")  # a filter text searches the significance column too
    return tables


def _cells(table: Any) -> dict[int, tuple[str, str]]:
    at, ids = table.headers.index(RANK_SET_HEADER), table.column("id")
    return {int(i): (d[at], d[at + 1]) for i, d in zip(ids, table.display, strict=True)}


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_building_every_table_writes_nothing_and_reads_the_stored_cells(board_factory, reference, monkeypatch) -> None:
    board = board_factory(daily_limit=100)
    _fill(board, reference)  # the inline keeper stored every board's cells
    calls: list[int] = []
    real = sig.rank_sets
    monkeypatch.setattr(sig, "rank_sets", lambda *a, **k: calls.append(1) or real(*a, **k))
    board.on_change = keeper = AskedOnly(board.store)  # a fresh server: nothing in memory
    with no_writes(board.store) as writes:
        tables = _every_table(Handlers(board))
    assert writes == [] and keeper.asked == [] and calls == []
    assert len(tables) == 4
    for view, table in tables:
        computed = build_table(table.benchmark, board.store.submissions(table.benchmark), view, significance=True,
                               ranks=sig.ComputedRanks())  # fmt: skip
        assert _cells(table) == _cells(computed) and table.values == computed.values


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_table_missing_cells_asks_the_keeper_and_neither_computes_nor_writes(board_factory, reference) -> None:
    board = board_factory(daily_limit=100)
    _fill(board, reference)
    _forget_the_cells(board)
    board.on_change = keeper = AskedOnly(board.store)
    with no_writes(board.store) as writes:
        tables = _every_table(Handlers(board))
    assert writes == []
    assert sorted(set(keeper.asked)) == sorted(BENCHMARKS)  # asked, once per table missing cells
    for _, table in tables:
        verified = {s.id for s in board.store.submissions(table.benchmark) if s.kind == "verified"}
        shown = _cells(table)
        assert verified and {shown[i] for i in verified} == {("—", NOT_STORED)}


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_a_missing_cell_is_stored_by_the_keeper_and_the_table_then_shows_it(board_factory, reference) -> None:
    board = board_factory(daily_limit=100)
    _fill(board, reference)
    expected = {b: _cells(Handlers(board).table(b)) for b in BENCHMARKS}
    _forget_the_cells(board)
    board.on_change = InlineRanks(board.store)  # a fresh server's keeper
    handlers = Handlers(board)
    stacks: list[list[str]] = []
    real = board.store.transaction

    def spy(*args: Any, **kwargs: Any) -> Any:
        stacks.append([frame.name for frame in traceback.extract_stack()])
        return real(*args, **kwargs)

    board.store.transaction = spy
    for benchmark in BENCHMARKS:
        assert _cells(handlers.table(benchmark)) == expected[benchmark]
        assert all(s.pairing for s in board.store.submissions(benchmark) if s.paired)  # stored by the keeper
    board.store.transaction = real
    assert stacks and all("request" in s and "build_table" not in s for s in stacks)  # the keeper wrote, asked
    board.on_change = AskedOnly(board.store)  # and now read back by a table alone
    with no_writes(board.store) as writes:
        assert {b: _cells(Handlers(board).table(b)) for b in BENCHMARKS} == expected
    assert writes == [] and board.on_change.asked == []


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_rank_cells_stay_equal_to_a_fresh_computation_as_rows_come_and_go(board_factory, reference) -> None:
    board = board_factory(daily_limit=100, admins=frozenset({"root"}))
    rows = reference["emorealm"]
    handlers = Handlers(board)
    for seed in range(1, 5):
        meta = SubmissionMeta(judge=f"j{seed}", model=f"org/m{seed}", revision="r", weights="open")
        stored = board.submit(prediction_bytes("emorealm", rows, seed=seed), meta, "u")
        computed = build_table("emorealm", board.store.submissions("emorealm"), significance=True,
                               ranks=sig.ComputedRanks())  # fmt: skip
        assert _cells(handlers.table("emorealm")) == _cells(computed)
    board.hide(stored.id, "root")
    computed = build_table("emorealm", board.store.submissions("emorealm"), significance=True, ranks=sig.ComputedRanks())
    assert stored.id not in _cells(handlers.table("emorealm")) and _cells(handlers.table("emorealm")) == _cells(computed)


def test_a_table_with_significance_needs_a_rank_source() -> None:
    with pytest.raises(ValueError, match="needs ranks="):
        build_table("emorealm", [], significance=True)
    assert SIGNIFICANCE_HEADER not in build_table("emorealm", []).headers


def test_no_module_of_the_board_keeps_a_cache() -> None:
    """The caches belong to a server's rank keeper: no module of the leaderboard holds one (or any mutable
    container) at module level."""
    import mmjudge.leaderboard

    names = ["core.pairing", "core.columns", "core.service", "board.significance", "board.ranks", "board.table",
             "board.plots", "board.facets", "board.grid"]  # fmt: skip
    held = {
        f"{module}.{name}": type(value).__name__
        for module in names
        for name, value in vars(importlib.import_module(f"{mmjudge.leaderboard.__name__}.{module}")).items()
        if not name.startswith("__")
        and isinstance(value, (LRU, dict, list, set, bytearray, collections.OrderedDict, collections.deque))
    }
    assert held == {}


def test_two_servers_in_one_process_share_no_cache(tmp_path, data_root, reference) -> None:
    from mmjudge.leaderboard.app.startup import open_leaderboard

    one, two = (open_leaderboard(tmp_path / f"{n}.sqlite", data_root=data_root, require_login=False, daily_limit=100,
                                 rank_cells="inline") for n in ("one", "two"))  # fmt: skip
    for seed in (1, 2):
        meta = SubmissionMeta(judge=f"j{seed}", model=f"org/m{seed}", revision="r", weights="open")
        one.submit(prediction_bytes("emorealm", reference["emorealm"], seed=seed), meta, "u")
    Handlers(one).table("emorealm")
    Handlers(two).table("emorealm")
    first, second = keeper_of(one), keeper_of(two)
    assert first is Handlers(one).ranks and first.cache is not second.cache
    assert len(first.cache.pairings) > 0 and len(second.cache.pairings) == 0  # two holds none of one's rows
    assert all(len(getattr(second.cache, name)) == 0 for name in ("families", "outcomes", "shared", "made"))
