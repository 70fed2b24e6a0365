"""The benchmark registry: the built-ins plus any package's ``mmjudge.benchmarks`` entry points.

The built-ins are also declared as entry points in ``pyproject.toml``; the table below finds them when
the installed metadata is older than the source tree (an editable install of another checkout).
"""

from __future__ import annotations

from mmjudge.benchmarks._base import Benchmark
from mmjudge.errors import ConfigError
from mmjudge.registry import BENCHMARK_ENTRY_POINT_GROUP, Registry

__all__ = ["BENCHMARKS", "BUILTIN_BENCHMARKS", "benchmark_ids", "get_benchmark"]

BUILTIN_BENCHMARKS: dict[str, str] = {
    "isovrbench": "mmjudge.benchmarks.isovrbench:BENCHMARK",
    "mist": "mmjudge.benchmarks.mist:BENCHMARK",
    "emoprefer": "mmjudge.benchmarks.emoprefer:BENCHMARK",
    "emorealm": "mmjudge.benchmarks.emorealm:BENCHMARK",
    "temporalbench": "mmjudge.benchmarks.temporalbench:BENCHMARK",
    "tempcompass": "mmjudge.benchmarks.tempcompass:BENCHMARK",
    "videogen_rewardbench": "mmjudge.benchmarks.videogen_rewardbench:BENCHMARK",
    "genai_bench_video": "mmjudge.benchmarks.genai_bench_video:BENCHMARK",
    "mj_bench_video": "mmjudge.benchmarks.mj_bench_video:BENCHMARK",
}
"""Built-in benchmark id -> ``"module:attribute"`` of its :class:`Benchmark`, in the canonical order."""

BENCHMARKS: Registry[Benchmark] = Registry("benchmark", BUILTIN_BENCHMARKS, BENCHMARK_ENTRY_POINT_GROUP)
"""Every benchmark: built-ins first, then other packages' entry points (sorted by id)."""


def get_benchmark(benchmark_id: str) -> Benchmark:
    """The :class:`Benchmark` registered as ``benchmark_id``; an unknown id raises
    :class:`~mmjudge.errors.UnknownNameError` listing the known ones.

    >>> get_benchmark(benchmark_ids()[0]).id == benchmark_ids()[0]
    True
    """
    found = BENCHMARKS.get(benchmark_id)
    if not isinstance(found, Benchmark) or found.id != benchmark_id:
        raise ConfigError(
            f"the entry point {benchmark_id!r} of group {BENCHMARK_ENTRY_POINT_GROUP!r} must name a "
            f"mmjudge.benchmarks.Benchmark with id {benchmark_id!r}, got {type(found).__name__} "
            f"{getattr(found, 'id', '')!r}"
        )
    return found


def benchmark_ids() -> tuple[str, ...]:
    """Every registered benchmark id, in the canonical order (built-ins first)."""
    return tuple(BENCHMARKS.names())
