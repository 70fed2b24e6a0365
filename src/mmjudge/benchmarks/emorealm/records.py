"""EmoReAlM prediction records: one per question, ``id`` = the question id, ``prediction`` = the raw response."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["VALUE_FIELDS", "expected_ids", "score_inputs"]

VALUE_FIELDS: dict[str, tuple[type, ...]] = {"prediction": (str,)}
"""The verdict field (null with ``no_judgment``)."""


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Every question id, in the folder's order.

    >>> expected_ids([{"id": "q1"}, {"id": "q2"}])
    ['q1', 'q2']
    """
    return [str(r["id"]) for r in rows]


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The arguments of :func:`~mmjudge.benchmarks.emorealm.score`; a no-judgment answer is missing (``None``)."""
    ids = [str(r["id"]) for r in rows]
    by_id = {str(r["id"]): r for r in records}
    predictions = [None if by_id[i].get("no_judgment") else by_id[i].get("prediction") for i in ids]
    return {
        "predictions": predictions,
        "references": [r["answer"] for r in rows],
        "tasks": [r["task"] for r in rows],
        "choices": [list(r["choices"]) for r in rows],
        "ids": ids,
        "clusters": [str(r.get("video") or r["id"]) for r in rows],  # the clip: its questions go together
    }
