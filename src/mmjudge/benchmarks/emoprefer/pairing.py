"""EmoPrefer per-unit paired data: each pair's parsed label against the gold, clustered by video.

* ``waf_2class``: the pairs whose gold label is a1/a2, predicted ``same`` read as ``a1``; the
  ``"weighted_f1"`` statistic of (gold, predicted) over 2 classes (not a mean of per-unit outcomes, so
  no McNemar test);
* ``acc_3class``: each pair's exact match (``"ratio"``), a correct/wrong outcome;
* ``swap_consistency``: each pair's agreement with its reversed twin mapped back (runs with ``--swap``).

Pairs that describe one video are resampled together (cluster = ``video_path``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._pairing import PairingSpec, UnitScores
from mmjudge.benchmarks.emoprefer.records import score_inputs
from mmjudge.benchmarks.emoprefer.scoring import LABELS, flip_labels, parse_response

__all__ = ["PAIRING", "units"]


def units(
    key: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Any],
) -> UnitScores:
    """Per-pair data of one headline key.

    >>> rows = [{"name": "c1", "preference": "a1", "video_path": "v1"}, {"name": "c2", "preference": "same",
    ...          "video_path": "v1"}]
    >>> recs = [{"id": "c1", "prediction": "a2"}, {"id": "c2", "prediction": "same"}]
    >>> units("acc_3class", recs, rows, {}).outcomes, units("waf_2class", recs, rows, {}).units
    ((0.0, 1.0), ('c1',))
    """
    inputs = score_inputs(records, rows)
    names, golds = inputs["ids"], list(inputs["references"])
    preds = [parse_response(p) for p in inputs["predictions"]]
    clusters = [str(r.get("video_path", r["name"])) for r in rows]
    if key == "waf_2class":
        keep = [k for k, g in enumerate(golds) if g != "same"]
        code = {label: k for k, label in enumerate(LABELS)}
        values = tuple(
            (float(code[golds[k]]), float(code["a1" if preds[k] == "same" else preds[k]])) for k in keep
        )
        return UnitScores(
            key, "weighted_f1", tuple(names[k] for k in keep), tuple(clusters[k] for k in keep), values,
            params={"classes": 2.0},
        )  # fmt: skip
    if key == "acc_3class":
        hits = [float(p == g) for p, g in zip(preds, golds, strict=True)]
    elif key == "swap_consistency" and "swapped_predictions" in inputs:
        back = flip_labels([parse_response(p) for p in inputs["swapped_predictions"]])
        hits = [float(p == b) for p, b in zip(preds, back, strict=True)]
    else:
        raise KeyError(
            f"emoprefer pairs waf_2class, acc_3class and swap_consistency (with --swap), not {key!r}"
        )
    return UnitScores(
        key, "ratio", tuple(names), tuple(clusters), tuple((h, 1.0) for h in hits), outcomes=tuple(hits)
    )


PAIRING = PairingSpec(units=units)
"""EmoPrefer's pairing: the three headline keys over pairs clustered by video."""
