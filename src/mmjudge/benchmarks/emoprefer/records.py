"""EmoPrefer prediction records: one per pair, and one per reversed pair when the run swapped them.

A record's ``id`` is ``name`` (forward) or ``name::reversed`` (:func:`record_id`); its verdict is
``prediction`` (a raw response or a1/a2/same, read with the official parser when scored).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "FIELD_VALUES",
    "KEY_FIELDS",
    "ORDERS",
    "VALUE_FIELDS",
    "expected_ids",
    "missing_groups",
    "record_id",
    "score_inputs",
]

ORDERS: tuple[str, ...] = ("forward", "reversed")
"""Record orders: the pair as released, or with a1/a2 swapped (``--swap``)."""
KEY_FIELDS: tuple[str, ...] = ("name", "order")
"""String fields that place a record; always required."""
VALUE_FIELDS: dict[str, tuple[type, ...]] = {"prediction": (str,)}
"""The verdict field (null with ``no_judgment``)."""
FIELD_VALUES: dict[str, tuple[str, ...]] = {"order": ORDERS}
"""The values ``order`` may take."""


def record_id(record: Mapping[str, Any]) -> str:
    """The id a record must carry.

    >>> record_id({"name": "clip_7", "order": "reversed"}), record_id({"name": "clip_7", "order": "forward"})
    ('clip_7::reversed', 'clip_7')
    """
    name = str(record.get("name"))
    return name if record.get("order") == "forward" else f"{name}::reversed"


def _has_reversed(records: Sequence[Mapping[str, Any]]) -> bool:
    return any(r.get("order") == "reversed" for r in records)


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Every pair, then every reversed pair when any record is reversed (a run with ``--swap``).

    >>> expected_ids([{"name": "c1"}], [{"order": "reversed"}])
    ['c1', 'c1::reversed']
    """
    orders = ORDERS if _has_reversed(records) else ORDERS[:1]
    return [record_id({"name": r["name"], "order": o}) for o in orders for r in rows]


def missing_groups(missing: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Missing ids as forward and reversed pairs (one group named ``pairs`` when none is reversed)."""
    reversed_ = [i for i in missing if i.endswith("::reversed")]
    forward = [i for i in missing if i not in set(reversed_)]
    if not reversed_:
        return [("pairs", forward)]
    return [("forward pairs", forward), ("reversed pairs", reversed_)]


def _choice_text(record: Mapping[str, Any]) -> str:
    """A no-judgment record scores as the empty response, which the official parser reads as ``same``
    (its fallback for an answer naming no option)."""
    value = record.get("prediction")
    return "" if record.get("no_judgment") or value is None else str(value)


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The arguments of :func:`~mmjudge.benchmarks.emoprefer.score` for complete records."""
    names = [str(r["name"]) for r in rows]
    by_id = {str(r["id"]): r for r in records}
    inputs: dict[str, Any] = {
        "predictions": [_choice_text(by_id[n]) for n in names],
        "references": [r["preference"] for r in rows],
        "ids": names,
        "clusters": [str(r.get("video_path") or r["name"]) for r in rows],  # the clip
    }
    if _has_reversed(records):
        inputs["swapped_predictions"] = [_choice_text(by_id[f"{n}::reversed"]) for n in names]
    return inputs
