"""Which columns a benchmark's board has, as the benchmark declares them (``Benchmark.present.leaderboard``):
its views, each view's columns, the column that ranks the rows and its direction. Read by the service (the key a
Ladder rule follows) and the board model alike."""

from __future__ import annotations

from mmjudge.benchmarks import Benchmark, Column, View, get_benchmark

__all__ = [
    "ROBUSTNESS",
    "columns",
    "higher_is_better",
    "ranked_column",
    "ranked_index",
    "ranking_key",
    "view_of",
    "views",
]

ROBUSTNESS = "robustness"
"""Key of a row's ``side_results`` holding its ``mmjudge robustness`` summary (``<probe>/<effect>`` -> value)."""


def higher_is_better(benchmark: str, col: Column) -> bool:
    """The sort direction of ``col``: its result key's, as the benchmark declares it.

    >>> higher_is_better("mist", ranked_column("mist"))
    False
    """
    return get_benchmark(benchmark).metrics.higher_is_better(col.key)


def views(benchmark: str) -> tuple[str, ...]:
    """The view names of ``benchmark``'s table; the first is the default."""
    return tuple(v.name for v in get_benchmark(benchmark).present.leaderboard.views)


def view_of(spec: Benchmark, view: str | None) -> View:
    """The view named ``view`` (``None``: the default); a benchmark with one view shows it whatever the name."""
    known = spec.present.leaderboard.views
    if view is None or len(known) == 1:
        return known[0]
    for candidate in known:
        if candidate.name == view:
            return candidate
    raise ValueError(f"view must be one of {tuple(v.name for v in known)}, got {view!r}")


def columns(benchmark: str, view: str | None = None) -> list[Column]:
    """Score columns of ``benchmark`` in ``view`` (default: its first view), as the benchmark declares them."""
    spec = get_benchmark(benchmark)
    return list(view_of(spec, view).columns)


def ranked_column(benchmark: str, view: str | None = None) -> Column:
    """The column ranking ``benchmark``'s rows in ``view`` (default: its first view).

    >>> ranked_column("mist").key
    'change_rate/none_to_misleading/explicit'
    """
    spec = get_benchmark(benchmark)
    chosen = view_of(spec, view)
    return chosen.columns[ranked_index(spec, chosen)]

def ranking_key(benchmark: str) -> str:
    """The result key ranking ``benchmark``'s default view.

    >>> ranking_key("mist")
    'change_rate/none_to_misleading/explicit'
    """
    return ranked_column(benchmark).key


def ranked_index(spec: Benchmark, view: View) -> int:
    """Index of the view column the rows are ranked by: the view's ``rank_by`` key, else the benchmark's
    first headline key."""
    key = view.rank_by or (spec.metrics.headline[0] if spec.metrics.headline else view.columns[0].key)
    return next((i for i, c in enumerate(view.columns) if c.key == key and not c.text), 0)
