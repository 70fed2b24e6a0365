"""Typed boundaries of the judge protocol: the items a judge sees, decoded media, and verdicts.

One item type per benchmark. The runner builds items from a built dataset folder
(:func:`mmjudge.judges.items.build_items`), decodes what the judge's :class:`MediaRequest` asks for,
and hands :class:`JudgeInput` batches to :meth:`mmjudge.judges.Judge.judge_batch`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True)
class ClipItem:
    """IsoVRBench: one unique clip (the ``clips`` view), judged once and shared by the pairs using it."""

    item_id: str
    """Clip id (content hash)."""
    video: Path
    """Resolved path of the clip."""
    prompt: str
    """The generation prompt (an attribute_edit clip is still scored under the original prompt)."""


@dataclass(frozen=True)
class LabelItem:
    """MIST: one (item, prompt strategy, arm, image condition) cell of the judge grid."""

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


@dataclass(frozen=True)
class PreferenceItem:
    """EmoPrefer: a clip with two emotion descriptions; the judge answers a1, a2 or same."""

    item_id: str
    """``name`` for the forward order, ``name::reversed`` for the swapped pair."""
    name: str
    """The clip name of the release."""
    video: Path | None
    """Resolved ``video/{name}.mp4`` (``None`` when media are missing)."""
    audio: Path | None
    """Resolved ``audio/{name}.wav`` (``None`` when media are missing)."""
    a1: str
    """First description as shown to the judge."""
    a2: str
    """Second description as shown to the judge."""
    order: str
    """``forward`` or ``reversed`` (a1/a2 swapped, the label flipped)."""


@dataclass(frozen=True)
class QuestionItem:
    """EmoReAlM: an audio-visual question with lettered choices."""

    item_id: str
    """Question id."""
    video: Path | None
    """Resolved clip path."""
    audio: Path | None
    """Resolved wav path (same relative path as the clip, ``.wav``)."""
    question: str
    """The question text."""
    choices: tuple[str, ...]
    """Lettered choices, e.g. ``("(A) Yes", "(B) No")``."""
    task: str
    """One of the five EmoReAlM tasks."""


Item = ClipItem | LabelItem | PreferenceItem | QuestionItem
"""Any judge item."""


@dataclass(frozen=True)
class MediaRequest:
    """What a judge needs decoded for an item; the runner decodes it (once per clip per run)."""

    num_frames: int | None = None
    """Frames to sample from the clip (``None``: no video frames)."""
    target_fps: float | None = None
    """Sample at this rate instead of a fixed count."""
    policy: str = "linspace"
    """Index policy of :func:`mmjudge.media.video.sample_indices`."""
    min_frames: int | None = None
    """Lower clamp on the sampled count."""
    max_frames: int | None = None
    """Upper clamp on the sampled count."""
    multiple_of: int | None = None
    """Round the sampled count to a multiple of this (VideoAlign: 2)."""
    max_pixels: int | None = None
    """Resize frames to at most this many pixels (smart resize, factor 28)."""
    audio_sample_rate: int | None = None
    """Decode the audio track at this rate (``None``: no audio)."""
    image: bool = False
    """Load the item's image (MIST)."""


@dataclass
class JudgeInput:
    """One item with its decoded media."""

    item: Item
    """The item."""
    frames: np.ndarray | None = None
    """``uint8 (T, H, W, 3)`` frames, or ``None``."""
    frame_indices: tuple[int, ...] = ()
    """Indices of ``frames`` in the clip."""
    fps: float | None = None
    """Frame rate of the clip."""
    audio: np.ndarray | None = None
    """Mono float32 audio at the requested rate."""
    image: Any = None
    """PIL image (MIST), or ``None``."""


@dataclass(frozen=True)
class Diagnostics:
    """What a verdict came with, for audits and reports."""

    raw_text: str | None = None
    """Generated or returned text, if any."""
    valid_mass: float | None = None
    """Probability mass the model put on the valid answers (digits, labels, letters)."""
    latency_s: float | None = None
    """Seconds spent judging this item (batch time divided by batch size)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Backend-specific values (e.g. per-dimension raw rewards, the decoding method used)."""


VerdictValue = float | str | dict[str, float] | None
"""A clip score (float, or per-dimension scores), a MIST label, an EmoPrefer response or an EmoReAlM response."""


@dataclass(frozen=True)
class Verdict:
    """A judge's answer for one item."""

    item_id: str
    """The item's id."""
    value: VerdictValue
    """The verdict; ``None`` with ``no_judgment``."""
    no_judgment: bool = False
    """True when the judge could not answer (unreadable media, model error, unparseable reply)."""
    error: str | None = None
    """The error message behind a ``no_judgment``."""
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    """Raw text, valid-answer mass, latency."""
    transient: bool = False
    """The failure says nothing about the item (connection, timeout, 5xx, out of memory): the verdict
    is used for this run but not cached, so a rerun into the same output folder judges the item again."""

    @classmethod
    def failed(cls, item_id: str, error: str, *, transient: bool = False) -> Verdict:
        """A ``no_judgment`` verdict carrying ``error``.

        >>> Verdict.failed("c1", "MediaError: unreadable").no_judgment
        True
        """
        return cls(item_id=item_id, value=None, no_judgment=True, error=error, transient=transient)
