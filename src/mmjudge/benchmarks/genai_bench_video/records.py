"""GenAI-Bench (video) prediction records: one per vote, ``id`` = ``pair_id``, the left and right clips' scores (a
number or one per head; the ``overall`` head is read) or no judgment."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._pairwise.judging import VALUE_FIELDS, expected_ids, long_inputs
from mmjudge.benchmarks.genai_bench_video.scoring import ASPECTS

__all__ = ["VALUE_FIELDS", "expected_ids", "score_inputs"]


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The arguments of :func:`~mmjudge.benchmarks.genai_bench_video.score` for complete records."""
    inputs = long_inputs(records, rows, ASPECTS)
    del inputs["aspect"]  # one aspect
    return inputs
