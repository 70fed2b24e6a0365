"""Caption ranking as judge queries: every caption of a question rated against its video, once.

A judge that rates a clip against a text (kind :class:`~mmjudge.queries.ScoreQuery`) rates each caption as the
clip's text. A (video, caption) pair asked by several questions (TemporalBench repeats a video's right caption in
each of its binary questions) is one query (:func:`caption_item`). The score read is the judge's text-alignment
output: the ``TA`` head of a per-dimension verdict (VideoReward, VideoScore, VideoScore2, UnifiedReward's
alignment score), the single score of a one-score judge (PickScore), else ``overall``
(:func:`mmjudge.queries.score_at`), as the IsoVRBench paper's Appendix M scores reward models.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._base import QuerySource
from mmjudge.queries import Query, ScoreQuery, Verdict, score_at

__all__ = ["TEXT_HEAD", "build_queries", "caption_item", "records_from_verdicts"]

TEXT_HEAD = "TA"
"""The verdict head read for a caption: text alignment."""


def caption_item(video_path: str, caption: str) -> str:
    """The query id of one caption on one video (stable across runs and questions).

    >>> caption_item("v/1.mp4", "a cat") == caption_item("v/1.mp4", "a cat"), caption_item("v/1.mp4", "a cat")[:4]
    (True, 'cap-')
    """
    digest = hashlib.sha256(f"{video_path}\x00{caption}".encode()).hexdigest()
    return f"cap-{digest[:20]}"


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """One query per distinct (video, caption) of ``rows``, in the order they first appear."""
    queries: dict[str, Query] = {}
    for row in rows:
        for caption in row["captions"]:
            item = caption_item(str(row["video_path"]), str(caption))
            if item not in queries:
                queries[item] = ScoreQuery(item_id=item, video=source.media(str(row["video_path"])), prompt=str(caption))
    return list(queries.values())


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per question, in the order of ``rows``: ``scores``, one per caption in the question's order
    (``None`` with ``no_judgment`` when any caption's rating failed, with the first error)."""
    by_id = {v.item_id: v for v in verdicts}
    records = []
    for row in rows:
        found = [by_id[caption_item(str(row["video_path"]), str(c))] for c in row["captions"]]
        failed = [v for v in found if v.no_judgment]
        record: dict[str, Any] = {"id": str(row["id"])}
        if failed:
            record.update(scores=None, no_judgment=True, error=failed[0].error or "no score")
        else:
            record.update(scores=[score_at(v.value, TEXT_HEAD) for v in found], no_judgment=False)
        records.append(record)
    return records
