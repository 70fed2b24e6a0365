"""IsoVRBench prediction records: one per pair, ``id`` = ``pair_id``, two finite scores (or no judgment)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["VALUE_FIELDS", "cluster_of", "expected_ids", "score_inputs"]

VALUE_FIELDS: dict[str, tuple[type, ...]] = {"score_chosen": (int, float), "score_rejected": (int, float)}
"""Verdict fields: the two clips' scores (null with ``no_judgment``)."""


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Every pair id, in the folder's order.

    >>> expected_ids([{"pair_id": "p1"}, {"pair_id": "p2"}])
    ['p1', 'p2']
    """
    return [str(r["pair_id"]) for r in rows]


def cluster_of(row: Mapping[str, Any]) -> str:
    """A pair's top cluster: its anchor prompt, shared by every pair and clip made from it (the pair id for a
    row without one).

    >>> cluster_of({"pair_id": "p1", "prompt": "a fox"}), cluster_of({"pair_id": "p2"})
    ('a fox', 'p2')
    """
    return str(row.get("prompt", row["pair_id"]))


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The arguments of :func:`~mmjudge.benchmarks.isovrbench.score` for complete records."""
    ids = [str(r["pair_id"]) for r in rows]
    by_id = {str(r["id"]): r for r in records}
    ordered = [by_id[i] for i in ids]
    return {
        "intervention": [r["intervention"] for r in rows],
        "score_chosen": [r.get("score_chosen") for r in ordered],
        "score_rejected": [r.get("score_rejected") for r in ordered],
        "no_judgment": [bool(r.get("no_judgment")) for r in ordered],
        "pair_id": ids,
        "cluster": [cluster_of(r) for r in rows],
    }
