"""VideoGen-RewardBench judge queries and pair records: the shared pairwise video layer
(:mod:`mmjudge.benchmarks._pairwise.judging`): each distinct clip rated once, a record per pair."""

from __future__ import annotations

from mmjudge.benchmarks._pairwise.judging import build_queries, records_from_verdicts

__all__ = ["build_queries", "records_from_verdicts"]
