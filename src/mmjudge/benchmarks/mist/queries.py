"""MIST judge queries: one :class:`MistCell` (kind :class:`~mmjudge.queries.ChoiceQuery`) per grid cell.

A cell is a choice among the four labels, a sentence with the aligned image, the misleading one or none.
It carries its protocol prompt: :meth:`MistCell.prompt` renders the cell of the MIST prompt grid
(:mod:`mmjudge.benchmarks.mist.prompts`), the label following ``{"final_label": "``, and
:meth:`MistCell.parse` reads ``{"final_label": ...}`` in a free-text reply (the label is the verdict).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from mmjudge.benchmarks._base import QuerySource
from mmjudge.benchmarks.mist._inputs import LABELS
from mmjudge.benchmarks.mist.prompts import ANSWER_PREFIX, STRATEGIES, mist_prompt, parse_final_label
from mmjudge.benchmarks.mist.records import CELLS
from mmjudge.data.images import image_path
from mmjudge.data.media_paths import resolve_media
from mmjudge.queries import ChoiceQuery, LabelPrompt, Query, Verdict

__all__ = ["MistCell", "build_queries", "records_from_verdicts"]


@dataclass(frozen=True)
class MistCell(ChoiceQuery):
    """One (item, prompt strategy, arm, image condition) cell of the MIST judge grid."""

    item_id: str
    """Cell id ``"<item>::<strategy>::<arm>::<condition>"`` (the prediction record id)."""
    mist_item: str
    """The MIST item id."""
    sentence: str
    """Sentence with the compound marked ``**...**``."""
    compound: str
    """The idiom compound."""
    image: Path | None
    """Resolved image path, or ``None`` for the text-only condition."""
    prompt_strategy: str
    """One of ``zero_shot``, ``few_shot``, ``cot``, ``few_shot_cot``."""
    arm: str
    """``explicit`` (told to ignore the image), ``silent`` (image not mentioned), ``none`` (no image)."""
    image_condition: str
    """``none``, ``aligned`` or ``misleading``."""
    video = None
    audio = None

    @property
    def labels(self) -> tuple[str, ...]:
        """FF, WF, FL, LL."""
        return LABELS

    @property
    def needs(self) -> frozenset[str]:
        """The image, when the cell shows one (a judge without it is not asked this cell blind)."""
        return frozenset({"image"}) if self.image_condition != "none" else frozenset()

    def prompt(self, *, seed: int = 0) -> LabelPrompt:
        """The cell of the MIST prompt grid; the label follows ``{"final_label": "``."""
        rendered = mist_prompt(self, seed=seed)
        return LabelPrompt(rendered.text, LABELS, ANSWER_PREFIX, '"}', rendered.reasoning)

    def free_prompt(self, *, seed: int = 0) -> str:
        """The same cell of the grid, answered in free text (its JSON answer format included)."""
        return self.prompt(seed=seed).text

    def parse(self, text: str) -> str | None:
        """The label of the last ``{"final_label": ...}`` in ``text`` (see :func:`parse_final_label`)."""
        return parse_final_label(text)


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """The 20 cells of every item in ``rows`` (images live in the folder: the media root is not used)."""
    return [cell for r in rows for cell in _cells(r, source.data_dir)]


def _cells(row: Mapping[str, Any], data_dir: Path) -> list[MistCell]:
    # a built folder stores images as {"bytes", "path"} (older folders: path strings); judges read the file
    paths = {
        "none": None,
        "aligned": image_path(row["aligned_image"]),
        "misleading": image_path(row["misleading_image"]),
    }
    images = {condition: resolve_media(path, data_dir) if path else None for condition, path in paths.items()}
    return [
        MistCell(
            item_id=f"{row['item_id']}::{strategy}::{arm}::{condition}",
            mist_item=str(row["item_id"]),
            sentence=str(row["sentence"]),
            compound=str(row["compound"]),
            image=images[condition],
            prompt_strategy=strategy,
            arm=arm,
            image_condition=condition,
        )
        for strategy in STRATEGIES
        for condition, arm in CELLS
    ]


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per cell, in query order."""
    by_id = {v.item_id: v for v in verdicts}
    return [
        by_id[cell.item_id].record(
            "label", item_id=cell.mist_item, prompt_strategy=cell.prompt_strategy, arm=cell.arm,
            image_condition=cell.image_condition,
        )
        for cell in cast("Sequence[MistCell]", queries)
    ]  # fmt: skip
