"""Caption-ranking prediction records: one per question, ``id`` = the question id, ``scores`` = one per caption."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["VALUE_FIELDS", "expected_ids", "score_inputs"]

VALUE_FIELDS: dict[str, tuple[type, ...]] = {"scores": (list,)}
"""The verdict field: the judge's score of each caption, in the question's order (null with ``no_judgment``)."""


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Every question id, in the folder's order.

    >>> expected_ids([{"id": "q1"}, {"id": "q2"}])
    ['q1', 'q2']
    """
    return [str(r["id"]) for r in rows]


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The scorer's arguments (:func:`mmjudge.benchmarks._captions.scoring.score`); a no-judgment answer is
    missing (``None``)."""
    ids = [str(r["id"]) for r in rows]
    by_id = {str(r["id"]): r for r in records}
    return {
        "scores": [None if by_id[i].get("no_judgment") else by_id[i].get("scores") for i in ids],
        "answers": [int(r["answer"]) for r in rows],
        "videos": [str(r["video_path"]) for r in rows],
        "categories": [str(r["category"]) for r in rows],
        "num_captions": [len(r["captions"]) for r in rows],
        "ids": ids,
    }
