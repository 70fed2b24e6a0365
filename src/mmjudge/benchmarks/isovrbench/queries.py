"""IsoVRBench judge queries and prediction records: each unique clip is rated once, pairs are put together after.

A judge rates clips (kind :class:`~mmjudge.queries.ScoreQuery`, each clip against its generation prompt):
the anchor and the intervened clip of a pair are two queries, and a clip shared by several pairs is rated
once. A pair's record takes the two
clips' scores; a judge returning per-dimension scores (VideoReward's VQ/MQ/TA heads) is read at the
head of the pair's quality dimension (:data:`DIMENSION_HEADS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._base import QuerySource
from mmjudge.queries import Query, ScoreQuery, Verdict

__all__ = ["DIMENSION_HEADS", "build_queries", "clip_score", "records_from_verdicts"]

DIMENSION_HEADS: dict[str, str] = {"motion": "MQ", "text": "TA", "visual": "VQ", "overall": "overall"}
"""Which per-dimension score an IsoVRBench pair of each dimension uses (VideoReward heads)."""


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """The unique clips of the pairs ``rows`` to rate, in the order of the folder's ``clips`` config."""
    from mmjudge.data.rows import load_rows

    used = {str(r[k]) for r in rows for k in ("clip_id_chosen", "clip_id_rejected")}
    clips = load_rows(source.data_dir, "clips")
    return [
        ScoreQuery(item_id=str(c["clip_id"]), video=source.media(c["video_path"]), prompt=str(c["prompt"]))
        for c in clips
        if str(c["clip_id"]) in used
    ]


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per pair, in the order of ``rows``."""
    by_id = {v.item_id: v for v in verdicts}
    return [_pair_record(row, by_id) for row in rows]


def _pair_record(row: Mapping[str, Any], by_id: Mapping[str, Verdict]) -> dict[str, Any]:
    chosen, rejected = by_id[str(row["clip_id_chosen"])], by_id[str(row["clip_id_rejected"])]
    record: dict[str, Any] = {"id": str(row["pair_id"])}
    failed = [v for v in (chosen, rejected) if v.no_judgment]
    if failed:
        record.update(score_chosen=None, score_rejected=None, no_judgment=True, error=failed[0].error)
        return record
    head = DIMENSION_HEADS.get(str(row.get("dimension") or "overall"), "overall")
    record.update(
        score_chosen=clip_score(chosen.value, head), score_rejected=clip_score(rejected.value, head)
    )
    record["no_judgment"] = False
    return record


def clip_score(value: Any, head: str) -> float:
    """A clip verdict's score at ``head`` (a per-dimension verdict without that head: its ``overall``).

    >>> clip_score({"VQ": 1.0, "overall": 3.0}, "TA"), clip_score(2, "VQ")
    (3.0, 2.0)
    """
    if isinstance(value, dict):
        return float(value[head] if head in value else value["overall"])
    return float(value)
