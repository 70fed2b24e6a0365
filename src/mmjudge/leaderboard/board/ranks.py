"""Keeping a board's stored rank cells current, and handing them to the tables that read them.

A new or hidden row changes the families of its benchmark, and with them the rank sets
(:mod:`~mmjudge.leaderboard.board.significance`); computing them costs seconds on a large board (about 9 s per
view at 450 IsoVRBench rows, 2 cores). A :class:`RankKeeper` computes and stores them: the service tells it the
benchmark that changed (:attr:`Leaderboard.on_change <mmjudge.leaderboard.core.service.Leaderboard.on_change>`),
and it stores the cells of every view (:func:`store_ranks`). The server's :class:`RankRefresher` does it in one
background thread, so a submission returns at once; the worker, itself a background process, stores them
inline (:class:`InlineRanks`).

A table only reads: the keeper is its rank source (:meth:`RankKeeper.ranks`), which reads the cells from the
store; a row whose cells the store lacks (an older store, a failed refresh) says so (:data:`NOT_STORED`), and
the app, seeing it (:func:`lacks_cells`), asks the keeper to store them (:meth:`RankKeeper.request`) and
builds the table again (:func:`read_table`). A failure is logged with its traceback. The keeper owns the server's :class:`~mmjudge.leaderboard.board.significance.RankCache`
(its lifetime is the server's): everything that reads or computes rank cells goes through it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from mmjudge.leaderboard.board.grid import Role, Table
from mmjudge.leaderboard.board.significance import (
    NO_RANK,
    RankCache,
    RowRank,
    read_ranks,
    store_board_ranks,
)
from mmjudge.leaderboard.board.table import RANK_SET_HEADER, board_of, build_table
from mmjudge.leaderboard.core.columns import views
from mmjudge.leaderboard.core.service import Leaderboard
from mmjudge.leaderboard.store import Store, StoredSubmission

__all__ = ["NOT_STORED", "InlineRanks", "RankKeeper", "RankRefresher", "keeper_of", "lacks_cells", "read_table",
           "store_ranks"]  # fmt: skip

logger = logging.getLogger(__name__)

NOT_STORED = "rank cells not stored yet (see the server log)"
"""The cells of a row whose family's rank cells the keeper has not stored (yet): it is computing them, or failed."""
REQUEST_WAIT_S = 120.0
"""How long a table waits for the background refresher to store the cells it asked for."""


def store_ranks(store: Store, benchmark: str, *, private: bool = False, cache: RankCache | None = None) -> None:
    """Compute the significance cells of ``benchmark``'s board as the store holds it now, in every view, and
    store them (the next render reads them); ``private``: the board's private-label mode; ``cache``: the
    server's (default: a new one)."""
    cache = cache or RankCache()
    rows = store.submissions(benchmark)
    for view in views(benchmark):
        board = board_of(benchmark, rows, view, private=private)
        store_board_ranks(store, benchmark, board.compared(), board.key, cache=cache, latest=True)


class RankKeeper:
    """Computes and stores a board's rank cells (when told it changed, or asked by a table), and is the rank
    source of the tables (:class:`~mmjudge.leaderboard.board.significance.RankSource`); owns the server's
    :attr:`cache`. Subclasses say when the cells are computed (:meth:`request`)."""

    def __init__(self, store: Store, *, private: bool = False, cache: RankCache | None = None) -> None:
        self.store, self.private = store, private
        self.cache = cache or RankCache()
        """What this server keeps in memory of its boards."""

    def __call__(self, benchmark: str) -> None:
        """``benchmark``'s board changed: store its cells (now or soon)."""
        raise NotImplementedError

    def wait(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        """Block until ``benchmark`` (default: every benchmark) has nothing pending; ``False`` on timeout."""
        raise NotImplementedError

    def request(self, benchmark: str) -> None:
        """A table found cells missing: have ``benchmark``'s cells stored before returning (or give up waiting)."""
        raise NotImplementedError

    def ranks(self, benchmark: str, rows: Sequence[StoredSubmission], key: str) -> dict[int, RowRank]:
        """Row id -> the cells of ``rows`` on ``key`` as the store holds them (read through :attr:`cache`; nothing
        is computed or written); the rows whose cells it lacks say :data:`NOT_STORED` (:func:`lacks_cells`: the
        caller asks for them, :meth:`request`, and reads again)."""
        found = read_ranks(benchmark, rows, key, store=self.store, cache=self.cache)
        return {**{i: RowRank(None, NO_RANK, NOT_STORED, "") for i in found.missing}, **found.cells}

    def _store(self, benchmark: str) -> None:
        """:func:`store_ranks`, a failure logged with its traceback (the row is stored; a table asks again)."""
        try:
            store_ranks(self.store, benchmark, private=self.private, cache=self.cache)
        except Exception:
            logger.exception("rank cells of %s not stored", benchmark)


class InlineRanks(RankKeeper):
    """Store the rank cells at once, in the caller's thread (the worker's choice)."""

    def __call__(self, benchmark: str) -> None:
        self._store(benchmark)

    def wait(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        """Nothing is ever pending."""
        return True

    def request(self, benchmark: str) -> None:
        """Store ``benchmark``'s cells now."""
        self._store(benchmark)


class RankRefresher(RankKeeper):
    """One daemon thread storing the rank cells of the benchmarks it is told changed, in the order told (a
    benchmark told twice before its turn is done once)."""

    def __init__(self, store: Store, *, private: bool = False, cache: RankCache | None = None,
                 request_wait_s: float = REQUEST_WAIT_S) -> None:  # fmt: skip
        super().__init__(store, private=private, cache=cache)
        self.request_wait_s = request_wait_s
        self._pending: list[str] = []
        self._running: str | None = None
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name="mmjudge-rank-cells", daemon=True)
        self._thread.start()

    def __call__(self, benchmark: str) -> None:
        with self._cond:
            if benchmark not in self._pending:
                self._pending.append(benchmark)
            self._cond.notify_all()

    def wait(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        """Block until ``benchmark`` (default: every benchmark) has no pending or running refresh; ``False``
        when ``timeout`` seconds passed first."""

        def settled() -> bool:
            busy = [*self._pending, *([self._running] if self._running else [])]
            return not busy if benchmark is None else benchmark not in busy

        with self._cond:
            return self._cond.wait_for(settled, timeout)

    def request(self, benchmark: str) -> None:
        """Queue ``benchmark`` and wait (at most :attr:`request_wait_s`) for the thread to store its cells."""
        self(benchmark)
        self.wait(benchmark, self.request_wait_s)

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._pending))
                self._running = self._pending.pop(0)
            self._store(self._running)
            with self._cond:
                self._running = None
                self._cond.notify_all()


def read_table(keeper: RankKeeper, benchmark: str, view: str | None = None, *, private: bool = False) -> Table:
    """``benchmark``'s table in ``view`` with its rank cells, as ``keeper``'s store holds them; when some are
    missing (:func:`lacks_cells`), ``keeper`` is asked to store them (:meth:`RankKeeper.request`) and the table is
    read again (``Handlers.table`` of the app)."""

    def read() -> Table:
        rows = keeper.store.submissions(benchmark)
        return build_table(benchmark, rows, view, significance=True, private=private, ranks=keeper)

    table = read()
    if lacks_cells(table):
        keeper.request(benchmark)
        table = read()
    return table


def lacks_cells(table: Table) -> bool:
    """Whether ``table`` shows a row whose rank cells the store did not hold (:data:`NOT_STORED`)."""
    return RANK_SET_HEADER in table.headers and any(c.text == NOT_STORED for c in table.cells(Role.TEST))


def keeper_of(board: Leaderboard) -> RankKeeper:
    """The rank keeper of ``board``'s tables: the one its service tells of changes
    (:func:`~mmjudge.leaderboard.app.startup.open_leaderboard` gives it one), else a new :class:`InlineRanks` on
    its store, which stores the cells the tables ask for."""
    if isinstance(board.on_change, RankKeeper):
        return board.on_change
    return InlineRanks(board.store, private=board.settings.private_labels)
