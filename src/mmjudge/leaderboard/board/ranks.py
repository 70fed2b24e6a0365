"""Keeping a board's stored rank cells current, off the submission's response path.

A new or hidden row changes the families of its benchmark, and with them the rank sets
(:func:`~mmjudge.leaderboard.board.significance.board_ranks`); computing them costs seconds on a large board
(about 9 s per view at 450 IsoVRBench rows, 2 cores). :class:`RankRefresher` does it in one background
thread: the service calls it with the benchmark that changed (:attr:`Leaderboard.on_change
<mmjudge.leaderboard.core.service.Leaderboard.on_change>`) and returns at once; the thread stores the cells of
every view (:func:`store_ranks`), and a render waits for a pending benchmark (:meth:`RankRefresher.wait`)
instead of computing the same cells again. The worker, itself a background process, stores them inline
(:class:`InlineRanks`). A failure is logged with its traceback; the next render computes the cells itself.
"""

from __future__ import annotations

import logging
import threading

from mmjudge.leaderboard.board.table import build_table
from mmjudge.leaderboard.core.columns import views
from mmjudge.leaderboard.store import Store

__all__ = ["InlineRanks", "RankRefresher", "store_ranks"]

logger = logging.getLogger(__name__)


def store_ranks(store: Store, benchmark: str, *, private: bool = False) -> None:
    """Compute the significance cells of ``benchmark``'s board as the store holds it now, in every view, and
    store them (the next render reads them); ``private``: the board's private-label mode."""
    rows = store.submissions(benchmark)
    for view in views(benchmark):
        build_table(benchmark, rows, view, significance=True, private=private, store=store, latest=True)


def _store_or_log(store: Store, benchmark: str, private: bool) -> None:
    """:func:`store_ranks`, a failure logged with its traceback (the row is stored; a render computes the cells)."""
    try:
        store_ranks(store, benchmark, private=private)
    except Exception:
        logger.exception("rank cells of %s not stored", benchmark)


class InlineRanks:
    """Store the rank cells at once, in the caller's thread (the worker's choice)."""

    def __init__(self, store: Store, *, private: bool = False) -> None:
        self.store, self.private = store, private

    def __call__(self, benchmark: str) -> None:
        _store_or_log(self.store, benchmark, self.private)

    def wait(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        """Nothing is ever pending."""
        return True


class RankRefresher:
    """One daemon thread storing the rank cells of the benchmarks it is told changed, in the order told (a
    benchmark told twice before its turn is done once)."""

    def __init__(self, store: Store, *, private: bool = False) -> None:
        self.store, self.private = store, private
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

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._pending))
                self._running = self._pending.pop(0)
            _store_or_log(self.store, self._running, self.private)
            with self._cond:
                self._running = None
                self._cond.notify_all()
