"""Judge queries and verdicts: what a benchmark asks a judge, and what the judge answers (a low-level module).

A benchmark turns its reference rows into *queries* (:attr:`mmjudge.benchmarks.RecordSpec.build_queries`)
and maps the judge's verdicts back to prediction records. A query says what is asked, not which benchmark
asks it: the media to look at or hear, the text, and the answer space. There are four kinds:

* :class:`ScoreQuery` -- rate one clip against a text: a number, or one number per quality dimension.
* :class:`ChoiceQuery` -- choose one of the query's :attr:`~ChoiceQuery.labels` (labels, choice letters).
  The benchmark supplies the prompt asking for a constrained answer, the prompt asking in free text, the
  parser that reads a label in a free-text reply, and whether it scores the reply text itself
  (:attr:`~ChoiceQuery.keeps_text`, as an official matcher does).
* :class:`PairQuery` -- a choice between two candidate texts about one clip (``a1``, ``a2`` or the tie
  ``same``), which also offers the prompts of two-step strategies (describe the clip, then compare).
* :class:`ClipPairQuery` -- which of two clips of one prompt is better (``first``, ``second`` or the tie
  ``same``), for pairwise reward models that see both clips at once.

A judge declares the kinds it answers and the media it reads (:attr:`mmjudge.judges.Judge.answers`,
:attr:`~mmjudge.judges.Judge.reads`), never benchmark ids or benchmark classes; a benchmark declares the
kinds it can ask, in order of preference, and the media its queries need. The runner matches the two.

They are called queries, not requests: on the leaderboard a *request* is a model request, and a judge's
:class:`~mmjudge.judges.MediaRequest` is what it asks the runner to decode.
"""

from __future__ import annotations

import abc
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

__all__ = [
    "KINDS",
    "MEDIA",
    "ChoiceQuery",
    "ClipPairQuery",
    "Diagnostics",
    "LabelPrompt",
    "PairQuery",
    "Query",
    "ScoreQuery",
    "Verdict",
    "VerdictValue",
    "choice_letters",
    "item_key",
    "kind_name",
    "score_at",
]

MEDIA: tuple[str, ...] = ("video", "audio", "image")
"""The media a query can carry."""
_LETTER = re.compile(r"^\s*(?:\(([A-Za-z])\)|([A-Za-z])[.:])")


class Query(abc.ABC):
    """What every query carries: the id of the unit it asks about and the paths of its media.

    A query class gives all three media (``video = None`` in its body for a medium it never has: a default
    here would become a dataclass field default of every subclass)."""

    kind: ClassVar[str] = "query"
    """What the kind asks, in words (messages, ``mmjudge info``)."""
    item_id: str
    """Id of what is asked about (a clip, a grid cell, a pair, a question); the verdict carries it."""
    video: Path | None
    """Resolved clip path (``None``: no clip, or its media are missing)."""
    audio: Path | None
    """Resolved audio path (``None``: none, or the clip's own track when :attr:`audio_from_video`)."""
    image: Path | None
    """Resolved image path (``None``: no image)."""
    audio_from_video: ClassVar[bool] = True
    """Without an audio file, the runner decodes the clip's own audio track (an ablation turns it off)."""

    @property
    def needs(self) -> frozenset[str]:
        """The media a judge must have decoded to answer faithfully (a judge gives ``no_judgment`` without them)."""
        return frozenset({"video"})

    def text_pair(self) -> PairQuery | None:
        """This query as a pair of texts about one clip (two-step strategies apply), else ``None``: the kind
        answers, so judges ask it instead of testing classes.

        >>> ScoreQuery("c1", Path("c1.mp4"), "a cat").text_pair() is None
        True
        """
        return None

    def clip_pair(self) -> ClipPairQuery | None:
        """This query as two clips to compare (a second clip to decode), else ``None``.

        >>> q = ClipPairQuery("p1", Path("a.mp4"), Path("b.mp4"), "a cat")
        >>> q.clip_pair() is q, ScoreQuery("c1", Path("c1.mp4"), "a cat").clip_pair()
        (True, None)
        """
        return None


@dataclass(frozen=True)
class ScoreQuery(Query):
    """Rate one clip against :attr:`prompt`: a number, or one number per quality dimension."""

    kind: ClassVar[str] = "a clip to rate against its prompt"
    item_id: str
    """Clip id (content hash)."""
    video: Path | None
    """Resolved path of the clip."""
    prompt: str
    """The text the clip is judged against (its generation prompt)."""
    audio = None
    image = None


class LabelPrompt(NamedTuple):
    """What a judge answering under a constraint is asked (:meth:`ChoiceQuery.prompt`)."""

    text: str
    """User message text (the media, if any, are attached beside it)."""
    labels: tuple[str, ...]
    """Allowed answers."""
    answer_prefix: str = ""
    """Assistant text the label follows (e.g. ``{"final_label": "``)."""
    answer_suffix: str = ""
    """Assistant text that closes the answer after the label (e.g. ``"}``)."""
    reasoning: bool = False
    """The judge reasons freely before the answer prefix."""


class ChoiceQuery(Query):
    """Choose one of :attr:`labels` given the query's media and text (implemented by a benchmark)."""

    kind: ClassVar[str] = "a choice among labels"
    tie: ClassVar[str | None] = None
    """The label that says "no preference" (``None``: no such label)."""
    keeps_text: ClassVar[bool] = False
    """The benchmark scores a free-text reply itself (an official matcher): a judge answering in free text
    returns the reply text; otherwise it returns the label :meth:`parse` reads in it (none: ``no_judgment``)."""

    @property
    @abc.abstractmethod
    def labels(self) -> tuple[str, ...]:
        """The answers a judge may give."""

    @abc.abstractmethod
    def prompt(self, *, seed: int = 0) -> LabelPrompt:
        """The benchmark's prompt for a constrained answer (``seed``: the judge's, e.g. for few-shot draws)."""

    @abc.abstractmethod
    def free_prompt(self, *, seed: int = 0) -> str:
        """The benchmark's prompt for an answer in free text."""

    @abc.abstractmethod
    def parse(self, text: str) -> str | None:
        """The label the benchmark's parser reads in a free-text reply, or ``None``."""


class PairQuery(ChoiceQuery):
    """Choose between two candidate texts :attr:`a1` and :attr:`a2` about one clip: ``a1``, ``a2`` or ``same``."""

    kind: ClassVar[str] = "a pair of texts about one clip to rank"
    tie: ClassVar[str | None] = "same"
    a1: str
    """First candidate as shown to the judge."""
    a2: str
    """Second candidate as shown to the judge."""

    @property
    def labels(self) -> tuple[str, ...]:
        """``a1`` (the first is better), ``a2`` (the second is), ``same`` (equally good)."""
        return ("a1", "a2", "same")

    def text_pair(self) -> PairQuery:
        """Itself: a pair of texts about one clip."""
        return self

    @abc.abstractmethod
    def describe_prompt(self) -> str:
        """Two-step strategies, step one: describe the clip."""

    @abc.abstractmethod
    def compare_prompt(self, description: str, *, reason: bool = False) -> str:
        """Two-step strategies, step two: compare a reference description with a1 and a2 in text."""

    @abc.abstractmethod
    def extract_prompt(self, analysis: str) -> str:
        """Read the answer out of a reasoning text."""


@dataclass(frozen=True)
class ClipPairQuery(Query):
    """Which of two clips generated for one :attr:`prompt` is better: ``first`` (:attr:`video`, shown first),
    ``second`` (:attr:`video_b`) or ``same``. The runner decodes both clips with the judge's one media request
    (the second in :attr:`mmjudge.judges.JudgeInput.other`); the benchmark chooses which clip is shown first."""

    kind: ClassVar[str] = "two clips of one prompt to compare"
    labels: ClassVar[tuple[str, ...]] = ("first", "second", "same")
    """The answers: the first clip is better, the second is, or they are equally good."""
    item_id: str
    """Id of the pair."""
    video: Path | None
    """Resolved path of the clip shown first."""
    video_b: Path | None
    """Resolved path of the clip shown second."""
    prompt: str
    """The text both clips were generated from."""
    clips: tuple[str, str] = ("", "")
    """Ids of the clips shown first and second (the benchmark maps the answer back to its pair with them)."""
    audio = None
    image = None

    def clip_pair(self) -> ClipPairQuery:
        """Itself: two clips to compare."""
        return self


KINDS: tuple[type, ...] = (ScoreQuery, ChoiceQuery, PairQuery, ClipPairQuery)
"""The query kinds (a :class:`PairQuery` is also a :class:`ChoiceQuery`)."""


def kind_name(kind: type) -> str:
    """The words of a query kind (its :attr:`Query.kind`).

    >>> kind_name(ScoreQuery)
    'a clip to rate against its prompt'
    """
    return str(getattr(kind, "kind", kind.__name__))


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


def item_key(item_id: str) -> int:
    """A stable 64-bit integer of an item id (first 8 bytes of its SHA-256, big-endian), to seed per-item draws.

    >>> item_key("clip-1") == item_key("clip-1"), item_key("clip-1") == item_key("clip-2")
    (True, False)
    """
    return int.from_bytes(hashlib.sha256(item_id.encode("utf-8")).digest()[:8], "big")


@dataclass(frozen=True)
class Diagnostics:
    """What a verdict came with, for audits and reports."""

    raw_text: str | None = None
    """Generated or returned text, if any."""
    valid_mass: float | None = None
    """Probability mass the model put on the valid answers (digits, labels, letters)."""
    latency_s: float | None = None
    """Seconds spent judging this query (batch time divided by batch size)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Backend-specific values (e.g. per-dimension raw rewards, the decoding method used)."""


VerdictValue = float | str | dict[str, float] | None
"""A clip score (float, or per-dimension scores), a label, an a1/a2/same answer or a free-text reply."""


@dataclass(frozen=True)
class Verdict:
    """A judge's answer to one query."""

    item_id: str
    """The query's :attr:`~Query.item_id`."""
    value: VerdictValue
    """The verdict; ``None`` with ``no_judgment``."""
    no_judgment: bool = False
    """True when the verdict holds no judgment: the judging failed with an error (:attr:`errored`), or
    the judge answered without a label the benchmark can read (an answer the benchmark scores as its
    paper does)."""
    error: str | None = None
    """The error message behind a ``no_judgment`` (what failed, or the reply that held no label)."""
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    """Raw text, valid-answer mass, latency."""
    transient: bool = False
    """The failure says nothing about the query (connection, timeout, 5xx, out of memory): the verdict
    is used for this run but not cached, so a rerun into the same output folder judges the query again."""
    errored: bool = False
    """The judging failed with an error (unreadable or missing media, the model raised, a request failed):
    set by :meth:`failed`, implies ``no_judgment``. ``False`` for a ``no_judgment`` answer, a reply without
    a label the benchmark can read. ``mmjudge eval`` exits non-zero on errored verdicts (beyond
    ``--max-failed-share``); a no-judgment answer alone never fails a run."""

    def __post_init__(self) -> None:
        if self.errored and not self.no_judgment:
            raise ValueError(
                f"verdict {self.item_id!r}: errored=True needs no_judgment=True (an error holds no judgment)"
            )

    @classmethod
    def failed(cls, item_id: str, error: str, *, transient: bool = False) -> Verdict:
        """An errored ``no_judgment`` verdict carrying ``error`` (the judging failed; not an answer).

        >>> v = Verdict.failed("c1", "MediaError: unreadable")
        >>> v.no_judgment, v.errored
        (True, True)
        """
        return cls(item_id, None, no_judgment=True, error=error, transient=transient, errored=True)

    def record(self, value_field: str, **fields: Any) -> dict[str, Any]:
        """The verdict as a prediction record: ``id``, the benchmark's key ``fields``, the value under
        ``value_field``, ``no_judgment``, and ``error`` when there is one (in this order).

        >>> Verdict.failed("c1", "MediaError: unreadable").record("label", arm="explicit")
        {'id': 'c1', 'arm': 'explicit', 'label': None, 'no_judgment': True, 'error': 'MediaError: unreadable'}
        """
        record: dict[str, Any] = {
            "id": self.item_id,
            **fields,
            value_field: self.value,
            "no_judgment": self.no_judgment,
        }
        if self.error:
            record["error"] = self.error
        return record


def score_at(value: Any, head: str) -> float:
    """A clip verdict's score at ``head`` (``"TA"``: text alignment; a per-dimension verdict without that head:
    its ``overall``; a single score: itself).

    >>> score_at({"VQ": 1.0, "overall": 3.0}, "TA"), score_at(2, "VQ"), score_at({"TA": 0.5, "overall": 1.0}, "TA")
    (3.0, 2.0, 0.5)
    """
    if isinstance(value, dict):
        return float(value[head] if head in value else value["overall"])
    return float(value)
