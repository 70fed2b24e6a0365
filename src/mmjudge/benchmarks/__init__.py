"""Scoring core, one module per benchmark (``isovrbench``, ``mist``, ``emoprefer``, ``emorealm``).

Each module registers a :class:`~mmjudge.benchmarks._base.BenchmarkSpec` and exposes ``score(...)``,
a pure function the evaluate modules, the CLI and the leaderboard all call.
"""

from mmjudge.benchmarks._base import BenchmarkSpec, ResultKey

__all__ = ["BenchmarkSpec", "ResultKey"]
