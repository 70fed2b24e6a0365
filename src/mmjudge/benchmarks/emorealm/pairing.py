"""EmoReAlM per-unit paired data: each question's correct/wrong answer, clustered by video.

``overall`` is the mean over tasks of the per-task accuracy, so each question is one unit of the
stratified ``"ratio"`` statistic, its task the stratum. In the official mode a missing answer is
skipped (denominator 0; a task with every answer missing scores 0, as the scorer says); in strict mode
it is wrong. The questions on one video share its clip, so they are resampled together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._pairing import PairingSpec, UnitScores
from mmjudge.benchmarks.emorealm.records import score_inputs
from mmjudge.benchmarks.emorealm.scoring import is_correct

__all__ = ["PAIRING", "units"]


def units(
    key: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Any],
) -> UnitScores:
    """Per-question data of ``overall`` in the run's ``mode`` and ``matcher``.

    >>> rows = [{"id": "q1", "answer": "A", "task": "modality_agreement", "choices": ["(A) Yes", "(B) No"],
    ...          "video": "v1"}]
    >>> units("overall", [{"id": "q1", "prediction": None}], rows, {"mode": "strict"}).values
    ((0.0, 1.0),)
    """
    if key != "overall":
        raise KeyError(f"emorealm pairs only `overall`, not {key!r}")
    inputs = score_inputs(records, rows)
    strict = scores.get("mode", "official") == "strict"
    matcher = str(scores.get("matcher", "official"))
    values, outcomes = [], []
    for prediction, gold, choices in zip(
        inputs["predictions"], inputs["references"], inputs["choices"], strict=True
    ):
        missing = prediction is None
        correct = (
            0.0 if missing else float(is_correct(prediction, gold.upper(), matcher=matcher, choices=choices))
        )
        values.append((correct, 1.0 if strict or not missing else 0.0))
        outcomes.append(math.nan if missing and not strict else correct)
    return UnitScores(
        key=key,
        statistic="ratio",
        units=tuple(inputs["ids"]),
        clusters=tuple(str(r.get("video", r["id"])) for r in rows),
        values=tuple(values),
        strata=tuple(inputs["tasks"]),
        outcomes=tuple(outcomes),
        params={"empty": 0.0},
    )


PAIRING = PairingSpec(units=units)
"""EmoReAlM's pairing: ``overall`` over questions clustered by video."""
