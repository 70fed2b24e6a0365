"""Shared types of the scoring core: result keys and benchmark specs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ResultKey:
    """One documented, stable score the leaderboard can read."""

    name: str
    """Key in the result dict, e.g. ``"accuracy/temporal_shuffle"``."""
    higher_is_better: bool
    """Direction of the score; ranking tables sort by it."""
    description: str
    """One line saying what the number is and its range."""


@dataclass(frozen=True)
class BenchmarkSpec:
    """What the registry holds for a benchmark id."""

    id: str
    """Benchmark id, one of :data:`mmjudge.BENCHMARK_IDS`."""
    title: str
    """Human-readable name."""
    score: Callable[..., Mapping[str, Any]]
    """The core scoring function."""
    result_keys: tuple[ResultKey, ...] = field(default_factory=tuple)
    """Documented keys of ``score``'s result, each with ``higher_is_better``."""

    def higher_is_better(self, key: str) -> bool:
        """Direction of result ``key``; unknown keys raise ``KeyError`` naming the known ones."""
        for item in self.result_keys:
            if item.name == key:
                return item.higher_is_better
        raise KeyError(f"{self.id} has no result key {key!r}; known: {[k.name for k in self.result_keys]}")
