"""MIST input tables: validation of the flat columns and their conversion to pandas frames.

Layout (long format, one row per label):

* judge labels: ``item_id, judge, prompt_strategy, arm, image_condition, label``. ``image_condition``
  is ``none`` (text only), ``aligned`` or ``misleading``. ``arm`` is ``explicit`` (the prompt tells the
  judge to ignore the image) or ``silent`` (the same prompt with that paragraph deleted: the control);
  text-only rows carry ``arm="none"`` because there is no image to ignore.
* item metadata: ``item_id, cell`` (T1..T4), optional ``trio`` and ``sentence_sense``. The cell fixes
  the sentence sense (T1, T2 figurative; T3, T4 literal); the aligned image depicts the sentence's
  sense, the misleading image the other one; the humans saw the cell's image (aligned for T2/T3,
  misleading for T1/T4).
* human labels: ``item_id, annotator, label``.

Labels are FF, WF, FL, LL with ordinal codes FF=0, WF=1, FL=2, LL=3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import pandas as pd

from mmjudge._checks import check_labels, check_nonempty, check_same_length, check_unique
from mmjudge.errors import SchemaError, summarize

LABELS: tuple[str, ...] = ("FF", "WF", "FL", "LL")
"""MIST labels in ordinal order (FF=0 ... LL=3)."""
CODES: dict[str, int] = {label: code for code, label in enumerate(LABELS)}
NO_LABEL = -1
"""Code of a cell the judge gave no label for (``None``; kept only in strict mode)."""
CONDITIONS: tuple[str, ...] = ("none", "aligned", "misleading")
IMAGE_CONDITIONS: tuple[str, ...] = ("aligned", "misleading")
ARMS: tuple[str, ...] = ("explicit", "silent")
CELLS: dict[str, str] = {"T1": "figurative", "T2": "figurative", "T3": "literal", "T4": "literal"}
"""Cell -> sentence sense."""
HUMAN_CONDITION: dict[str, str] = {"T1": "misleading", "T2": "aligned", "T3": "aligned", "T4": "misleading"}
"""Cell -> the image condition the human trio saw."""


class MistTables(NamedTuple):
    """Validated MIST inputs as pandas frames."""

    judge: pd.DataFrame
    """Columns item_id, judge, prompt, arm, condition, code (int ordinal label)."""
    items: pd.DataFrame | None
    """Columns item_id, cell, sense, trio, human_condition; None without metadata."""
    humans: pd.DataFrame | None
    """Columns item_id, annotator, code, trio; None without human labels."""


def _check_strings(name: str, values: Sequence[Any], allow_none: bool = False) -> None:
    bad = [i for i, v in enumerate(values) if not (isinstance(v, str) or (allow_none and v is None))]
    if bad:
        kinds, hint = ("NaN or non-string", " (None marks a cell without a label)") if allow_none else (
            "None/NaN", "")  # fmt: skip
        raise SchemaError(
            f"`{name}` has {len(bad)} missing or non-string values ({kinds}) at positions "
            f"{summarize(bad)}: expected strings{hint}; fill or drop those rows"
        )


def judge_frame(
    item_ids: Sequence[Any],
    image_conditions: Sequence[Any],
    arms: Sequence[Any],
    prompt_strategies: Sequence[Any],
    predictions: Sequence[Any],
    judges: Sequence[Any] | None,
    *,
    allow_missing: bool = False,
) -> pd.DataFrame:
    """Validate the judge-label columns and return the frame (see :class:`MistTables`).

    With ``allow_missing`` a ``None`` prediction is a cell without a label (code :data:`NO_LABEL`).
    """
    judges = ["judge"] * len(item_ids) if judges is None else judges
    fields = dict(
        item_ids=item_ids, image_conditions=image_conditions, arms=arms,
        prompt_strategies=prompt_strategies, predictions=predictions, judges=judges,
    )  # fmt: skip
    check_same_length(**fields)
    check_nonempty("predictions", predictions)
    for name, values in fields.items():
        _check_strings(name, values, allow_none=allow_missing and name == "predictions")
    check_labels("predictions", [p for p in predictions if p is not None or not allow_missing], LABELS)
    check_labels("image_conditions", image_conditions, CONDITIONS)
    check_labels("arms", arms, (*ARMS, "none"))
    wrong = [
        i
        for i, (c, a) in enumerate(zip(image_conditions, arms, strict=True))
        if (c == "none") != (a == "none")
    ]
    if wrong:
        raise SchemaError(
            f"`arms` has {len(wrong)} rows at positions {summarize(wrong)} that break the rule: text-only rows "
            f"(image_condition 'none') have arm 'none', image rows have arm 'explicit' or 'silent'"
        )
    keys = list(zip(item_ids, judges, prompt_strategies, arms, image_conditions, strict=True))
    check_unique("(item_id, judge, prompt_strategy, arm, image_condition)", keys)
    return pd.DataFrame(
        {
            "item_id": list(item_ids), "judge": list(judges), "prompt": list(prompt_strategies),
            "arm": list(arms), "condition": list(image_conditions),
            "code": [NO_LABEL if p is None else CODES[p] for p in predictions],
        }
    )  # fmt: skip


def item_frame(
    meta_item_ids: Sequence[Any],
    meta_cells: Sequence[Any],
    meta_trios: Sequence[Any] | None,
    meta_sentence_senses: Sequence[Any] | None,
) -> pd.DataFrame:
    """Validate the item metadata columns and return the frame (see :class:`MistTables`)."""
    trios = ["all"] * len(meta_item_ids) if meta_trios is None else meta_trios
    fields = {"meta_item_ids": meta_item_ids, "meta_cells": meta_cells, "meta_trios": trios}
    if meta_sentence_senses is not None:
        fields["meta_sentence_senses"] = meta_sentence_senses
    check_same_length(**fields)
    check_nonempty("meta_item_ids", meta_item_ids)
    check_unique("meta_item_ids", meta_item_ids)
    _check_strings("meta_cells", meta_cells)
    check_labels("meta_cells", meta_cells, CELLS)
    senses = [CELLS[c] for c in meta_cells]
    if meta_sentence_senses is not None:
        off = [i for i, (s, t) in enumerate(zip(meta_sentence_senses, senses, strict=True)) if s != t]
        if off:
            raise SchemaError(
                f"`meta_sentence_senses` disagrees with `meta_cells` at {len(off)} positions {summarize(off)}: "
                f"T1/T2 are figurative sentences, T3/T4 literal"
            )
    return pd.DataFrame(
        {
            "item_id": list(meta_item_ids), "cell": list(meta_cells), "sense": senses,
            "trio": ["" if t is None else str(t) for t in trios],
            "human_condition": [HUMAN_CONDITION[c] for c in meta_cells],
        }
    )  # fmt: skip


def human_frame(
    human_item_ids: Sequence[Any],
    human_annotators: Sequence[Any],
    human_labels: Sequence[Any],
    items: pd.DataFrame | None,
) -> pd.DataFrame:
    """Validate the human-label columns and return the frame, with each item's trio."""
    check_same_length(
        human_item_ids=human_item_ids, human_annotators=human_annotators, human_labels=human_labels
    )
    check_nonempty("human_labels", human_labels)
    _check_strings("human_labels", human_labels)
    check_labels("human_labels", human_labels, LABELS)
    check_unique("(human_item_id, human_annotator)", list(zip(human_item_ids, human_annotators, strict=True)))
    frame = pd.DataFrame(
        {
            "item_id": list(human_item_ids), "annotator": list(human_annotators),
            "code": [CODES[x] for x in human_labels],
        }
    )  # fmt: skip
    if items is None:
        frame["trio"] = "all"
        return frame
    trio = dict(zip(items["item_id"], items["trio"], strict=True))
    unknown = sorted({i for i in frame["item_id"] if i not in trio}, key=str)
    if unknown:
        raise SchemaError(
            f"`human_item_ids` has {len(unknown)} items absent from `meta_item_ids`: {summarize(unknown)}; "
            f"add their metadata (cell, trio) or drop their human labels"
        )
    frame["trio"] = frame["item_id"].map(trio)
    return frame
