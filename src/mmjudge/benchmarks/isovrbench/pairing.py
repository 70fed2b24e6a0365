"""IsoVRBench per-unit paired data: each pair's verdict, clustered by its anchor clip.

``average`` is the mean over interventions of the per-intervention accuracy (ties and missing judgments
wrong, the scorer's rule with the run's ``tie_tolerance``), so each pair is one unit of the stratified
``"ratio"`` statistic with its intervention as the stratum, and a correct/wrong outcome for McNemar.
``decided_average`` (the leaderboard's second view) is the same mean over the decided pairs only: a tie or
a missing judgment has denominator 0, so the pairs counted differ between judges and there is no McNemar
test. The pairs made from one anchor share its clip and prompt, so they are resampled together
(cluster = ``clip_id_chosen``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._pairing import PairingSpec, UnitScores
from mmjudge.benchmarks.isovrbench.records import score_inputs
from mmjudge.benchmarks.isovrbench.scoring import choices_from_scores

__all__ = ["PAIRED_KEYS", "PAIRING", "units"]

PAIRED_KEYS: tuple[str, ...] = ("average", "decided_average")
"""The keys compared pairwise: the headline and the decided-pairs view's ranking key."""


def units(
    key: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Any],
) -> UnitScores:
    """Per-pair data of ``average`` or ``decided_average``.

    >>> rows = [{"pair_id": "p1", "intervention": "frame_hold", "clip_id_chosen": "a"},
    ...         {"pair_id": "p2", "intervention": "t2v_5b", "clip_id_chosen": "a"}]
    >>> recs = [{"id": "p1", "score_chosen": 2.0, "score_rejected": 1.0}, {"id": "p2", "score_chosen": 0.0,
    ...         "score_rejected": 1.0}]
    >>> units("average", recs, rows, {"tie_tolerance": 0.0}).outcomes
    (1.0, 0.0)
    """
    if key not in PAIRED_KEYS:
        raise KeyError(f"isovrbench pairs {list(PAIRED_KEYS)}, not {key!r}")
    inputs = score_inputs(records, rows)
    verdicts = choices_from_scores(
        inputs["score_chosen"],
        inputs["score_rejected"],
        float(scores.get("tie_tolerance", 0.0)),
        no_judgment=inputs["no_judgment"],
    )
    correct = tuple(1.0 if v == "chosen" else 0.0 for v in verdicts)
    decided = key == "decided_average"
    return UnitScores(
        key=key,
        statistic="ratio",
        units=tuple(inputs["pair_id"]),
        clusters=tuple(str(r.get("clip_id_chosen", r["pair_id"])) for r in rows),
        values=tuple(
            (c, float(v in ("chosen", "rejected")) if decided else 1.0)
            for c, v in zip(correct, verdicts, strict=True)
        ),
        strata=tuple(inputs["intervention"]),
        outcomes=None if decided else correct,
    )


PAIRING = PairingSpec(units=units, keys=PAIRED_KEYS)
"""IsoVRBench's pairing: ``average`` and ``decided_average`` over pairs clustered by anchor."""
