"""VideoGen-RewardBench prediction records: one per pair, ``id`` = ``pair_id``, the two clips' scores (a number or
one per head) or no judgment; scored once per aspect at the aspect's head."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._pairwise.judging import VALUE_FIELDS, expected_ids, long_inputs
from mmjudge.benchmarks.videogen_rewardbench.scoring import ASPECTS

__all__ = ["VALUE_FIELDS", "expected_ids", "score_inputs"]


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The arguments of :func:`~mmjudge.benchmarks.videogen_rewardbench.score` for complete records: one entry per
    pair and aspect (``VQ``, ``MQ``, ``TA``, ``Overall``)."""
    return long_inputs(records, rows, ASPECTS)
