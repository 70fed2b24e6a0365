"""IsoVRBench per-unit paired data: each pair's correct/wrong verdict, clustered by its anchor clip.

``average`` is the mean over interventions of the per-intervention accuracy (ties and missing judgments
wrong, the scorer's rule with the run's ``tie_tolerance``), so each pair is one unit of the stratified
``"ratio"`` statistic with its intervention as the stratum. The pairs made from one anchor share its
clip and prompt, so they are resampled together (cluster = ``clip_id_chosen``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._pairing import PairingSpec, UnitScores
from mmjudge.benchmarks.isovrbench.records import score_inputs
from mmjudge.benchmarks.isovrbench.scoring import choices_from_scores

__all__ = ["PAIRING", "units"]


def units(
    key: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Any],
) -> UnitScores:
    """Per-pair data of ``average`` (the only headline key).

    >>> rows = [{"pair_id": "p1", "intervention": "frame_hold", "clip_id_chosen": "a"},
    ...         {"pair_id": "p2", "intervention": "t2v_5b", "clip_id_chosen": "a"}]
    >>> recs = [{"id": "p1", "score_chosen": 2.0, "score_rejected": 1.0}, {"id": "p2", "score_chosen": 0.0,
    ...         "score_rejected": 1.0}]
    >>> units("average", recs, rows, {"tie_tolerance": 0.0}).outcomes
    (1.0, 0.0)
    """
    if key != "average":
        raise KeyError(f"isovrbench pairs only `average`, not {key!r}")
    inputs = score_inputs(records, rows)
    verdicts = choices_from_scores(
        inputs["score_chosen"],
        inputs["score_rejected"],
        float(scores.get("tie_tolerance", 0.0)),
        no_judgment=inputs["no_judgment"],
    )
    correct = tuple(1.0 if v == "chosen" else 0.0 for v in verdicts)
    return UnitScores(
        key=key,
        statistic="ratio",
        units=tuple(inputs["pair_id"]),
        clusters=tuple(str(r.get("clip_id_chosen", r["pair_id"])) for r in rows),
        values=tuple((c, 1.0) for c in correct),
        strata=tuple(inputs["intervention"]),
        outcomes=correct,
    )


PAIRING = PairingSpec(units=units)
"""IsoVRBench's pairing: ``average`` over pairs clustered by anchor."""
