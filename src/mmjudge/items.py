"""Judge items and verdicts: what a benchmark asks and what a judge answers (a low-level module).

A benchmark builds items of one *kind*; a judge declares the kinds it accepts
(:attr:`mmjudge.judges.Judge.accepts`), never benchmark ids, and the runner matches the two. Four kinds:

* :class:`ClipItem` -- one clip with the prompt it was generated from; the judge scores it (a number,
  or one number per quality dimension). Pairs of clips are put together by the benchmark afterwards.
* :class:`SentenceItem` -- a sentence with an optional image; the judge picks one of the item's labels.
* :class:`DescriptionPairItem` -- a clip with two descriptions ``a1`` and ``a2``; the judge answers
  ``a1``, ``a2`` or ``same``.
* :class:`QuestionItem` -- a multiple-choice question about a clip (video and audio); the judge answers
  a choice letter.

The last three carry the benchmark's protocol prompts: a benchmark implements each kind as a frozen
dataclass (e.g. MIST's grid cell, ``MistCell``) whose methods render the prompts of its paper and
parse free-text replies, so a judge asks ``item.prompt(...)`` and needs to know no benchmark.
"""

from __future__ import annotations

import abc
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from mmjudge.errors import SchemaError

__all__ = [
    "ClipItem",
    "DescriptionPairItem",
    "Diagnostics",
    "Item",
    "LabelPrompt",
    "QuestionItem",
    "SentenceItem",
    "Verdict",
    "VerdictValue",
    "choice_letters",
    "free_text_prompt",
    "item_key",
    "parsed_answer",
]

_LETTER = re.compile(r"^\s*(?:\(([A-Za-z])\)|([A-Za-z])[.:])")


@dataclass(frozen=True)
class ClipItem:
    """Kind *clip*: one unique clip, judged once and shared by the pairs that use it."""

    kind: ClassVar[str] = "clip with its prompt"
    media: ClassVar[frozenset[str]] = frozenset({"video"})
    """What an item of this kind carries for the judge to see or hear (``video``, ``audio``, ``image``)."""
    item_id: str
    """Clip id (content hash)."""
    video: Path
    """Resolved path of the clip."""
    prompt: str
    """The generation prompt the clip is judged against."""


class LabelPrompt(NamedTuple):
    """What a judge is asked for a :class:`SentenceItem`."""

    text: str
    """User message text (the image, if any, is attached beside it)."""
    labels: tuple[str, ...]
    """Allowed answers."""
    answer_prefix: str = ""
    """Assistant text the label follows (e.g. ``{"final_label": "``)."""
    answer_suffix: str = ""
    """Assistant text that closes the answer after the label (e.g. ``"}``)."""
    reasoning: bool = False
    """The judge reasons freely before the answer prefix."""


class SentenceItem(abc.ABC):
    """Kind *sentence*: a sentence with an optional image; the judge picks one of :attr:`labels`."""

    kind: ClassVar[str] = "sentence with an optional image"
    media: ClassVar[frozenset[str]] = frozenset({"image"})
    """An optional image, never video: frame options do not apply."""
    item_id: str
    """Item id (the prediction record id)."""
    sentence: str
    """The sentence."""
    image: Path | None
    """Resolved image path, or ``None`` (text only)."""

    @property
    @abc.abstractmethod
    def labels(self) -> tuple[str, ...]:
        """The answers a judge may give."""

    @abc.abstractmethod
    def prompt(self, *, seed: int = 0) -> LabelPrompt:
        """The benchmark's prompt for this item (``seed``: the judge's seed, e.g. for few-shot draws)."""

    @abc.abstractmethod
    def parse_label(self, text: str) -> str | None:
        """The label a free-text reply gives, or ``None``."""


class DescriptionPairItem(abc.ABC):
    """Kind *two descriptions of one clip*: the judge answers ``a1``, ``a2`` or ``same``."""

    kind: ClassVar[str] = "two descriptions of one clip"
    media: ClassVar[frozenset[str]] = frozenset({"video", "audio"})
    """The clip and its audio."""
    labels: ClassVar[tuple[str, ...]] = ("a1", "a2", "same")
    """The answers: the first description is better, the second is, or they are equally good."""
    item_id: str
    """Item id (the prediction record id)."""
    video: Path | None
    """Resolved clip path (``None`` when media are missing)."""
    audio: Path | None
    """Resolved audio path (``None`` when media are missing)."""
    a1: str
    """First description as shown to the judge."""
    a2: str
    """Second description as shown to the judge."""

    @abc.abstractmethod
    def choose_prompt(self) -> str:
        """The clip is attached: which description matches it better (one step)."""

    @abc.abstractmethod
    def describe_prompt(self) -> str:
        """Two-step strategies, step one: describe the clip."""

    @abc.abstractmethod
    def compare_prompt(self, description: str, *, reason: bool = False) -> str:
        """Two-step strategies, step two: compare a reference description with a1 and a2 in text."""

    @abc.abstractmethod
    def extract_prompt(self, analysis: str) -> str:
        """Read the answer out of a reasoning text."""

    @abc.abstractmethod
    def parse_answer(self, text: str) -> str:
        """The answer (one of :attr:`labels`) the benchmark's official parser reads in ``text``."""


class QuestionItem(abc.ABC):
    """Kind *multiple-choice question with media*: the judge answers one choice letter."""

    kind: ClassVar[str] = "multiple-choice question with media"
    media: ClassVar[frozenset[str]] = frozenset({"video", "audio"})
    """The clip and its audio."""
    item_id: str
    """Question id."""
    video: Path | None
    """Resolved clip path."""
    audio: Path | None
    """Resolved audio path."""
    question: str
    """The question text."""
    choices: tuple[str, ...]
    """Lettered choices, e.g. ``("(A) Yes", "(B) No")``."""
    audio_from_video: ClassVar[bool] = True
    """Without an audio file, the runner decodes the video's audio track (an ablation sets it False)."""

    def letters(self) -> tuple[str, ...]:
        """The distinct answer letters of :attr:`choices`, in order (see :func:`choice_letters`)."""
        return tuple(dict.fromkeys(choice_letters(self.choices)))

    @abc.abstractmethod
    def prompt(self) -> str:
        """The benchmark's question prompt (free-text answer)."""

    @abc.abstractmethod
    def answer_prompt(self) -> str:
        """The question prompt with a request to answer with a letter (constrained answers)."""

    @abc.abstractmethod
    def parse_answer(self, text: str) -> str | None:
        """The letter a reply gives, or ``None``."""


Item = ClipItem | SentenceItem | DescriptionPairItem | QuestionItem
"""Any judge item."""
KINDS: tuple[type, ...] = (ClipItem, SentenceItem, DescriptionPairItem, QuestionItem)
"""The four item kinds."""


def choice_letters(choices: Sequence[str]) -> list[str]:
    """The answer letter of each choice: ``(X)``, ``X.`` or ``X:`` at the start, else its position letter.

    >>> choice_letters(["(A) Yes", "(B) No"]), choice_letters(["b. sad", "happy"])
    (['A', 'B'], ['B', 'B'])
    """
    letters = []
    for position, choice in enumerate(choices):
        match = _LETTER.match(choice)
        letters.append((match.group(1) or match.group(2)).upper() if match else chr(ord("A") + position))
    return letters


def free_text_prompt(item: Item) -> str:
    """The prompt of a judge answering in free text: a question's :meth:`~QuestionItem.prompt`, or a
    description pair's :meth:`~DescriptionPairItem.choose_prompt`; other kinds raise SchemaError."""
    if isinstance(item, QuestionItem):
        return item.prompt()
    if isinstance(item, DescriptionPairItem):
        return item.choose_prompt()
    raise SchemaError(
        f"expected a {QuestionItem.kind} or {DescriptionPairItem.kind} item, got a {type(item).__name__}"
    )


def parsed_answer(item: Item, text: str) -> str | None:
    """The answer a free-text reply gives, as the benchmark reads it (``None`` for other kinds)."""
    if isinstance(item, (QuestionItem, DescriptionPairItem)):
        return item.parse_answer(text)
    return None


def item_key(item_id: str) -> int:
    """A stable 64-bit integer of an item id (first 8 bytes of its SHA-256, big-endian), to seed per-item draws.

    >>> item_key("clip-1") == item_key("clip-1"), item_key("clip-1") == item_key("clip-2")
    (True, False)
    """
    return int.from_bytes(hashlib.sha256(item_id.encode("utf-8")).digest()[:8], "big")


def kind_of(item_type: type) -> type:
    """The kind (one of :data:`KINDS`) an item class implements.

    >>> kind_of(ClipItem).__name__
    'ClipItem'
    """
    for kind in KINDS:
        if issubclass(item_type, kind):
            return kind
    raise TypeError(f"{item_type.__name__} implements none of the item kinds {[k.__name__ for k in KINDS]}")


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
"""A clip score (float, or per-dimension scores), a label, an a1/a2/same answer or a free-text reply."""


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
