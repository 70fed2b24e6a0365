"""IsoVRBench judge queries and prediction records: each unique clip is rated once, pairs are put together after.

A judge rates clips (kind :class:`~mmjudge.queries.ScoreQuery`, each clip against its generation prompt):
the anchor and the intervened clip of a pair are two queries, and a clip shared by several pairs is rated
once. A pair's record takes the two
clips' scores; a judge returning per-dimension scores (VideoReward's VQ/MQ/TA heads) is read at the
head of the pair's quality dimension (:data:`DIMENSION_HEADS`).

A pairwise reward model that sees both clips at once (kind :class:`~mmjudge.queries.ClipPairQuery`, asked
only of judges that answer no :class:`~mmjudge.queries.ScoreQuery`) gets one query per pair. Which clip it
is shown first is fixed per pair by the pair id (:func:`chosen_shown_first`: half the pairs each way, the
same in every run), so a judge that prefers a position gains nothing. Its answer becomes the pair's two
scores: 1 for the clip it prefers and 0 for the other, 0.5 each for ``same`` (a tie, wrong as in Table 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._base import QuerySource
from mmjudge.queries import ClipPairQuery, Query, ScoreQuery, Verdict, item_key, score_at

__all__ = [
    "DIMENSION_HEADS",
    "build_queries",
    "chosen_shown_first",
    "clip_score",
    "pair_scores",
    "records_from_verdicts",
]

DIMENSION_HEADS: dict[str, str] = {"motion": "MQ", "text": "TA", "visual": "VQ", "overall": "overall"}
"""Which per-dimension score an IsoVRBench pair of each dimension uses (VideoReward heads)."""


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """The unique clips of the pairs ``rows`` to rate, in the order of the folder's ``clips`` config; for
    :class:`~mmjudge.queries.ClipPairQuery`, one query per pair, in the order of ``rows``."""
    from mmjudge.data.rows import load_rows

    clips = load_rows(source.data_dir, "clips")
    if source.kind is ClipPairQuery:
        return _pair_queries(rows, source, {str(c["clip_id"]): c for c in clips})
    used = {str(r[k]) for r in rows for k in ("clip_id_chosen", "clip_id_rejected")}
    return [
        ScoreQuery(item_id=str(c["clip_id"]), video=source.media(c["video_path"]), prompt=str(c["prompt"]))
        for c in clips
        if str(c["clip_id"]) in used
    ]


def chosen_shown_first(pair_id: str) -> bool:
    """Whether a pairwise judge is shown the pair's chosen clip first (even :func:`~mmjudge.queries.item_key`).

    >>> sum(chosen_shown_first(f"pair-{i}") for i in range(1000))
    520
    """
    return item_key(pair_id) % 2 == 0


def _pair_queries(
    rows: Sequence[Mapping[str, Any]], source: QuerySource, clips: Mapping[str, Mapping[str, Any]]
) -> list[Query]:
    queries: list[Query] = []
    for row in rows:
        pair = (str(row["clip_id_chosen"]), str(row["clip_id_rejected"]))
        first, second = pair if chosen_shown_first(str(row["pair_id"])) else pair[::-1]
        queries.append(
            ClipPairQuery(
                item_id=str(row["pair_id"]),
                video=source.media(clips[first]["video_path"]),
                video_b=source.media(clips[second]["video_path"]),
                prompt=str(clips[first]["prompt"]),
                clips=(first, second),
            )
        )
    return queries


def pair_scores(answer: str, chosen_first: bool) -> tuple[float, float]:
    """``(score_chosen, score_rejected)`` of a pairwise answer: 1 for the preferred clip, 0 for the other,
    0.5 each for ``same``.

    >>> pair_scores("first", True), pair_scores("first", False), pair_scores("same", False)
    ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
    """
    if answer == "same":
        return 0.5, 0.5
    if answer not in ("first", "second"):
        raise ValueError(f"a pairwise answer is 'first', 'second' or 'same', got {answer!r}")
    return (1.0, 0.0) if (answer == "first") == chosen_first else (0.0, 1.0)


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per pair, in the order of ``rows``."""
    by_id = {v.item_id: v for v in verdicts}
    if queries and isinstance(queries[0], ClipPairQuery):
        return [_compared_record(row, by_id[str(row["pair_id"])]) for row in rows]
    return [_pair_record(row, by_id) for row in rows]


def _compared_record(row: Mapping[str, Any], verdict: Verdict) -> dict[str, Any]:
    record: dict[str, Any] = {"id": str(row["pair_id"])}
    if verdict.no_judgment:
        record.update(score_chosen=None, score_rejected=None, no_judgment=True, error=verdict.error)
        return record
    chosen, rejected = pair_scores(str(verdict.value), chosen_shown_first(str(row["pair_id"])))
    record.update(score_chosen=chosen, score_rejected=rejected, no_judgment=False)
    return record


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


clip_score = score_at
"""A clip verdict's score at ``head`` (:func:`mmjudge.queries.score_at`: a per-dimension verdict without that head
gives its ``overall``), the name IsoVRBench's records and probes read it by."""
