"""MIST per-unit paired data: one unit per grid cell (item, prompt strategy), clustered by item.

Each headline key is a rate over cells (``"ratio"``: numerator and denominator per cell), with the
scorer's rules (:mod:`mmjudge.benchmarks.mist._measures`) and the run's ``mode``:

* ``change_rate/none_to_<condition>/<arm>``: the cell's label changed between the text-only input and
  the image; counted when both are labelled (official) or always, a missing label counting as changed
  (strict). A 0/1 outcome per counted cell, so McNemar applies;
* ``direction/<arm>``: among cells whose label differs between the aligned and the misleading image
  (both labelled, either mode), whether it moves toward the misleading image's sense. The cells counted
  differ between judges, so there is no McNemar test;
* ``agreement/none``: the text-only label equals the human trio majority (a missing label disagrees in
  strict mode and is skipped in official mode); a 0/1 outcome.

The four prompt strategies of one sentence share it, so the cells of an item are resampled together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mmjudge.benchmarks._pairing import PairingSpec, UnitScores
from mmjudge.benchmarks.mist._inputs import CELLS, CODES, NO_LABEL
from mmjudge.benchmarks.mist._measures import majority_label

__all__ = ["PAIRING", "units"]

Grid = dict[tuple[str, str], dict[tuple[str, str], int]]


def units(
    key: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Any],
) -> UnitScores:
    """Per-cell data of a change rate, a direction or ``agreement/none``.

    >>> rows = [{"item_id": "m1", "cell": "T1", "human_labels": ["FF", "FF", "LL"]}]
    >>> recs = [{"item_id": "m1", "prompt_strategy": "zs", "image_condition": c, "arm": a, "label": lab}
    ...         for c, a, lab in [("none", "none", "FF"), ("misleading", "explicit", "LL")]]
    >>> units("change_rate/none_to_misleading/explicit", recs, rows, {"mode": "official"}).values
    ((1.0, 1.0),)
    """
    grid = _grid(records)
    strict = scores.get("mode", "official") == "strict"
    parts = key.split("/")
    if key.startswith("change_rate/none_to_") and len(parts) == 3:
        columns = [
            _change(codes, (parts[1].removeprefix("none_to_"), parts[2]), strict) for codes in grid.values()
        ]
        binary = True
    elif parts[0] == "direction" and len(parts) == 2:
        sense = {str(r["item_id"]): CELLS[str(r["cell"])] for r in rows}
        columns = [_direction(codes, parts[1], sense[cell[0]]) for cell, codes in grid.items()]
        binary = False
    elif key == "agreement/none":
        majority = {
            str(r["item_id"]): majority_label(np.array([CODES[x] for x in r["human_labels"]]))
            for r in rows
            if len(r["human_labels"]) > 0
        }
        columns = [_agreement(codes, majority.get(cell[0]), strict) for cell, codes in grid.items()]
        binary = True
    else:
        raise KeyError(
            f"mist pairs change_rate/none_to_<condition>/<arm>, direction/<arm> and agreement/none, not {key!r}"
        )
    outcomes = tuple(num if den > 0 else math.nan for num, den in columns) if binary else None
    return UnitScores(
        key=key,
        statistic="ratio",
        units=tuple(f"{item}::{prompt}" for item, prompt in grid),
        clusters=tuple(item for item, _ in grid),
        values=tuple(columns),
        outcomes=outcomes,
    )


def _grid(records: Sequence[Mapping[str, Any]]) -> Grid:
    """(item, prompt strategy) -> (image condition, arm) -> label code (``NO_LABEL`` without a label)."""
    grid: Grid = {}
    for r in records:
        cell = grid.setdefault((str(r["item_id"]), str(r["prompt_strategy"])), {})
        label = None if r.get("no_judgment") else r.get("label")
        cell[(str(r["image_condition"]), str(r["arm"]))] = NO_LABEL if label is None else CODES[str(label)]
    return grid


def _change(codes: Mapping[tuple[str, str], int], slot: tuple[str, str], strict: bool) -> tuple[float, float]:
    a, b = codes.get(("none", "none")), codes.get(slot)
    if a is None or b is None or (not strict and NO_LABEL in (a, b)):
        return 0.0, 0.0
    return float(a != b or NO_LABEL in (a, b)), 1.0


def _direction(codes: Mapping[tuple[str, str], int], arm: str, sense: str) -> tuple[float, float]:
    a, b = codes.get(("aligned", arm)), codes.get(("misleading", arm))
    if a is None or b is None or NO_LABEL in (a, b) or a == b:
        return 0.0, 0.0
    # the misleading image shows the other sense: toward it is a rise for a figurative sentence
    toward = np.sign(b - a) == (1 if sense == "figurative" else -1)
    return float(toward), 1.0


def _agreement(
    codes: Mapping[tuple[str, str], int], majority: int | None, strict: bool
) -> tuple[float, float]:
    code = codes.get(("none", "none"))
    if majority is None or code is None or (code == NO_LABEL and not strict):
        return 0.0, 0.0
    return float(code == majority), 1.0


PAIRING = PairingSpec(units=units)
"""MIST's pairing: the three headline keys over grid cells clustered by item."""
