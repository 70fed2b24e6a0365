"""The judge protocol: a :class:`Judge` answers batches of decoded queries with :class:`Verdict` s.

A backend subclasses :class:`Judge`, sets ``answers`` (the query kinds of :mod:`mmjudge.queries` it
answers; never benchmark ids or benchmark classes), ``reads`` (the media it looks at or hears),
``version`` (bump when a change alters results) and optionally an ``Options`` dataclass, implements
:meth:`Judge.judge_batch`, and registers itself with ``@register_judge("<name>")``. A judge that answers
several kinds registers one handler per kind (``functools.singledispatchmethod``) instead of testing the
query's class. Heavy libraries are imported in :meth:`Judge.load`, which the runner calls once per
process with the rank's device.

Which benchmarks a judge judges follows from the two declarations: a benchmark lists the kinds it can ask,
in order of preference, and the media its queries need (``Benchmark.records``); the judge takes the first
kind it answers, provided it reads the media needed (a ``blind`` floor needs none). A judge that hears and
does not look (reads ``audio``, not ``video``: an audio-language model) is accepted only where the benchmark
says its clips carry sound (``RecordSpec.sound``), and each of its queries then needs the clip's audio
(:func:`media_needed`): a clip without sound fails alone, never judged blind.
"""

from __future__ import annotations

import abc
import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from mmjudge._configs import config_dataclass
from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.judges._config import JudgeConfig, fingerprint, validate_options
from mmjudge.judges._registry import get_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.profiles import VisionProfile
from mmjudge.queries import ChoiceQuery, Diagnostics, Query, Verdict, kind_name


class _AnsweredBenchmarks:
    """``Judge.benchmarks``: the registered benchmarks the judge can answer (derived)."""

    def __get__(self, obj: object, owner: type[Judge]) -> frozenset[str]:

        return frozenset(b for b in benchmark_ids() if owner.query_kind(b) is not None)


@config_dataclass
class NoOptions:
    """Options of a judge that takes none."""


class Judge(abc.ABC):
    """Base class of every judge backend."""

    answers: ClassVar[frozenset[type]] = frozenset()
    """Query kinds (:data:`mmjudge.queries.KINDS`) this judge answers."""
    reads: ClassVar[frozenset[str]] = frozenset()
    """Media (:data:`mmjudge.queries.MEDIA`) this judge looks at or hears."""
    blind: ClassVar[bool] = False
    """A floor that answers without any media (``random``, ``constant``): no benchmark's media needs apply."""
    benchmarks = _AnsweredBenchmarks()
    """The registered benchmark ids whose queries the judge can answer (derived from :attr:`answers`,
    :attr:`reads` and each benchmark's kinds and media)."""
    version: ClassVar[str] = "1"
    """Judge code version; part of the fingerprint, bump it when results change."""
    Options: ClassVar[type] = NoOptions
    """Dataclass of backend-specific options (``config.options`` is validated against it)."""
    default_frames: ClassVar[int | None] = 8
    """Frames sampled per clip when the config sets neither ``frames`` nor ``fps``."""
    profile: ClassVar[VisionProfile | None] = None
    """The preprocessing profile of the judge's reference inference code (:mod:`mmjudge.judges.profiles`);
    ``None`` for judges without one (the weight-free baselines)."""
    own_prompts: ClassVar[str | None] = None
    """Why the judge takes no ``prompt_template`` (it asks each query's own prompt); ``None``: it takes one."""
    records_option_defaults: ClassVar[bool] = False
    """Write the option defaults into ``config.options`` (so results.json and the prediction header name
    them, and the fingerprint covers them)."""

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config
        self.options: Any = validate_options(self.Options, config.options, source=f"{config.judge} options")
        if self.own_prompts is not None and config.prompt_template is not None:
            raise ConfigError(
                f"{config.judge} {self.own_prompts} and takes no `prompt_template`; remove it from the config"
            )
        if self.records_option_defaults:
            self.config = dataclasses.replace(config, options=dataclasses.asdict(self.options))
        self.fingerprint = fingerprint(self.config, self.version)

    @classmethod
    def answers_kind(cls, kind: type) -> bool:
        """Whether the judge answers queries of ``kind`` (a query kind or a class implementing one)."""
        return any(issubclass(kind, answered) for answered in cls.answers)

    @classmethod
    def query_kind(cls, benchmark: str) -> type | None:
        """The first kind ``benchmark`` asks that this judge answers, with the media it needs read (``None``: none)."""

        records = get_benchmark(benchmark).records
        if not (cls.blind or records.media <= cls.reads or hears_clips(records, cls.reads)):
            return None
        return next((kind for kind in records.query_kinds if cls.answers_kind(kind)), None)

    def check_benchmark(self, benchmark: str) -> type:
        """The kind of query this judge answers for ``benchmark``; a benchmark it cannot judge is refused."""

        kind = self.query_kind(benchmark)
        if kind is not None:
            return kind
        records = get_benchmark(benchmark).records
        raise ConfigError(
            f"judge {self.config.judge!r} judges {sorted(self.benchmarks)}, not {benchmark!r}: it answers "
            f"{describe_kinds(self.answers)} and reads {describe_media(self.reads, self.blind)}, and {benchmark!r} "
            f"asks {describe_kinds(records.query_kinds)} and needs {describe_needs(records)}; pick a judge "
            f"for {benchmark!r} (`mmjudge info` lists the registered judges)"
        )

    @property
    def frames_as_video(self) -> bool:
        """Whether a clip's frames go to the model as one video (the profile's frame rule and size apply)."""
        return False

    def media_request(self, query: Query) -> MediaRequest:
        """What to decode for ``query``: its clip's frames (from the config) and its image, where it has them
        and the judge reads them."""
        request = MediaRequest()
        if query.video is not None and "video" in self.reads:
            request = self.frames_request(as_video=self.frames_as_video)
        if query.image is not None and "image" in self.reads:
            request = dataclasses.replace(request, image=True)
        return request

    def frames_request(self, *, as_video: bool = False) -> MediaRequest:
        """Frames as the config asks: ``fps`` if set, else ``frames``, else :attr:`default_frames`.

        ``as_video`` with a :attr:`profile`: the frames go to the model as one video, so their count follows
        the profile's rule and they come at full size (the judge resizes them with the model's factor).
        """
        cfg = self.config
        num = None if cfg.fps is not None else (cfg.frames or self.default_frames)
        if as_video and self.profile is not None:
            return MediaRequest(num_frames=num, target_fps=cfg.fps, profile=self.profile)
        return MediaRequest(num_frames=num, target_fps=cfg.fps, max_pixels=cfg.max_pixels)

    def model_inputs(self, x: JudgeInput) -> Any:
        """The model inputs of one decoded query (its processor's output), or ``None`` when the judge has
        nothing to prepare or ``x`` lacks its media. The runner's decode workers call it ahead of the judge
        (``--decode-workers`` > 0), so the judging process only moves tensors; :meth:`judge_batch` uses
        ``x.model_inputs`` when set and makes them itself otherwise."""
        return None

    def check_model(self) -> None:  # noqa: B027 - optional hook
        """Check the configured model before the run (its family, options that cannot work with it); the
        runner calls it before anything is decoded or written. Weight-free judges have nothing to check."""

    def load(self, device: str) -> None:  # noqa: B027 - optional hook
        """Load weights onto ``device`` (``"cpu"``, ``"cuda:0"``, ...); weight-free judges do nothing."""

    @abc.abstractmethod
    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Judge a batch; return one verdict per input, in order (``Verdict.failed`` for per-query errors)."""


def describe_kinds(kinds: Sequence[type] | frozenset[type]) -> str:
    """Query kinds in words, for messages.

    >>> from mmjudge.queries import ScoreQuery
    >>> describe_kinds([ScoreQuery])
    "['a clip to rate against its prompt']"
    """
    return str(sorted(kind_name(k) for k in kinds))


def describe_media(media: frozenset[str], blind: bool = False) -> str:
    """Media in words, for messages.

    >>> describe_media(frozenset({"video", "audio"})), describe_media(frozenset()), describe_media(frozenset(), True)
    ("['audio', 'video']", 'no media', 'no media (it answers blind)')
    """
    if blind:
        return "no media (it answers blind)"
    return str(sorted(media)) if media else "no media"


def hears_clips(records: Any, reads: frozenset[str]) -> bool:
    """Whether a judge that reads ``reads`` judges a benchmark (its ``RecordSpec``) by ear: it hears and does not
    look (``audio``, not ``video``), the benchmark's clips carry sound (``sound``), and it reads every other
    medium the benchmark needs.

    >>> from types import SimpleNamespace
    >>> sounding, silent = SimpleNamespace(media=frozenset({"video"}), sound=True), SimpleNamespace(
    ...     media=frozenset({"video"}), sound=False)
    >>> hears_clips(sounding, frozenset({"audio"})), hears_clips(silent, frozenset({"audio"}))
    (True, False)
    >>> hears_clips(sounding, frozenset()), hears_clips(sounding, frozenset({"video", "audio"}))
    (False, False)
    """
    if not getattr(records, "sound", False) or "audio" not in reads or "video" in reads:
        return False
    return "video" in records.media and records.media - {"video"} <= reads


def describe_needs(records: Any) -> str:
    """What a benchmark's judges must read, in words (its media, and whether its clips can be judged by ear).

    >>> from types import SimpleNamespace
    >>> describe_needs(SimpleNamespace(media=frozenset({"video"}), sound=True))
    "['video'] (or, by ear, the clips' sound)"
    >>> describe_needs(SimpleNamespace(media=frozenset({"video"}), sound=False))
    "['video'] (its clips carry no sound to judge by ear)"
    """
    media = describe_media(records.media)
    if "video" not in records.media:
        return media
    return media + (" (or, by ear, the clips' sound)" if getattr(records, "sound", False)
                    else " (its clips carry no sound to judge by ear)")  # fmt: skip


def media_needed(query: Query, reads: frozenset[str] | None = None) -> frozenset[str]:
    """The media a judge that reads ``reads`` must have decoded to answer ``query`` faithfully: the query's
    :attr:`~mmjudge.queries.Query.needs` (``reads`` ``None``: as every judge that looks), except that a judge
    that hears and does not look (accepted by :func:`hears_clips`) needs the clip's audio in place of its frames.

    >>> from pathlib import Path
    >>> from mmjudge.queries import ScoreQuery
    >>> query = ScoreQuery("c1", Path("c1.mp4"), "a cat")
    >>> sorted(media_needed(query)), sorted(media_needed(query, frozenset({"audio"})))
    (['video'], ['audio'])
    """
    needs = query.needs
    if reads is not None and "video" in needs and "video" not in reads and "audio" in reads:
        return (needs - {"video"}) | {"audio"}
    return needs


def missing_media(x: JudgeInput, reads: frozenset[str] | None = None) -> str | None:
    """Why an input lacks a medium its query needs (:func:`media_needed` for a judge that reads ``reads``: no
    clip frames, no image, no audio), or ``None``.

    >>> from pathlib import Path
    >>> from mmjudge.queries import ScoreQuery
    >>> missing_media(JudgeInput(ScoreQuery("c1", Path("c1.mp4"), "a cat")))
    "MediaError: 'c1' has no video frames (clip c1.mp4)"
    """
    query, needs, pair = x.query, media_needed(x.query, reads), x.query.clip_pair()
    if "video" in needs and (x.frames is None or len(x.frames) == 0):
        return f"MediaError: {query.item_id!r} has no video frames (clip {query.video})"
    if pair is not None and "video" in needs and (x.other is None or not _has_frames(x.other)):
        return f"MediaError: {query.item_id!r} has no video frames of its second clip (clip {pair.video_b})"
    if "image" in needs and x.image is None:
        return f"MediaError: {query.item_id!r} has no image (path {query.image})"
    if "audio" in needs and (x.audio is None or len(x.audio) == 0):
        return f"MediaError: {query.item_id!r} has no audio (path {query.audio or query.video})"
    return None


def _has_frames(x: JudgeInput) -> bool:
    return x.frames is not None and len(x.frames) > 0


def timed_verdicts(judge_fn: Callable[[Sequence[Any]], list[Any]], inputs: Sequence[Any]) -> list[Any]:
    """``judge_fn(inputs)`` with ``diagnostics.latency_s`` set to the batch time divided by the batch size."""
    started = time.perf_counter()
    verdicts = judge_fn(inputs)
    latency = (time.perf_counter() - started) / max(1, len(inputs))
    return [
        dataclasses.replace(v, diagnostics=dataclasses.replace(v.diagnostics, latency_s=latency))
        for v in verdicts
    ]


def with_media(
    judge_fn: Callable[[Sequence[JudgeInput]], list[Verdict]],
    inputs: Sequence[JudgeInput],
    reads: frozenset[str] | None = None,
) -> list[Verdict]:
    """``judge_fn`` on the inputs that have the media their query needs (:func:`missing_media`, for a judge that
    reads ``reads``), timed (each verdict's ``latency_s`` is the call's time over its inputs); the others fail
    alone, never judged blind. One verdict per input, in order."""
    missing = {x.query.item_id: why for x in inputs if (why := missing_media(x, reads)) is not None}
    ready = [x for x in inputs if x.query.item_id not in missing]
    verdicts = {v.item_id: v for v in timed_verdicts(judge_fn, ready)} if ready else {}
    return [
        verdicts.get(x.query.item_id) or Verdict.failed(x.query.item_id, missing[x.query.item_id])
        for x in inputs
    ]


def free_text_verdict(query: ChoiceQuery, text: str, diagnostics: Diagnostics | None = None) -> Verdict:
    """A free-text reply to a choice as its benchmark scores it: the text itself where the benchmark reads it
    (:attr:`~mmjudge.queries.ChoiceQuery.keeps_text`; the parsed label in ``extra["parsed"]``), else the
    label the benchmark's parser reads in it (none: ``no_judgment``). ``raw_text`` is set to ``text``."""
    parsed = query.parse(text)
    diagnostics = diagnostics or Diagnostics()
    shown = dataclasses.replace(diagnostics, raw_text=text)
    if query.keeps_text:
        extra = {"parsed": parsed, **diagnostics.extra}
        return Verdict(query.item_id, text, diagnostics=dataclasses.replace(shown, extra=extra))
    if parsed is None:
        return Verdict(query.item_id, None, True, f"no {'/'.join(query.labels)} label in the reply {text[:200]!r}",
                       shown)  # fmt: skip
    return Verdict(query.item_id, parsed, diagnostics=shown)


def with_frames(config: JudgeConfig, frames: int) -> JudgeConfig:
    """The same config with ``frames`` set (and ``fps`` cleared), for frame-count sweeps.

    >>> with_frames(JudgeConfig(judge="random", fps=2.0), 16).frames
    16
    """
    return dataclasses.replace(config, frames=frames, fps=None)


def make_judge(config: JudgeConfig) -> Judge:
    """Instantiate the registered backend named by ``config.judge``."""
    cls = get_judge(config.judge)
    judge: Judge = cls(config)
    return judge


def judge_batch_checked(judge: Judge, inputs: Sequence[JudgeInput]) -> list[Verdict]:
    """Call ``judge.judge_batch`` on queries of kinds it answers, and check it returned one verdict per
    input with matching ids."""
    unanswered = sorted({kind_name(type(x.query)) for x in inputs if not judge.answers_kind(type(x.query))})
    if unanswered:
        raise SchemaError(f"judge {judge.config.judge!r} answers {describe_kinds(judge.answers)}, got queries "
                          f"asking {unanswered}")  # fmt: skip
    verdicts = judge.judge_batch(inputs)
    expected = [i.query.item_id for i in inputs]
    got = [v.item_id for v in verdicts]
    if got != expected:
        raise RuntimeError(
            f"judge {judge.config.judge!r} returned verdicts for {got[:3]}..., expected {expected[:3]}..."
        )
    return verdicts


__all__: Sequence[str] = [
    "Judge",
    "NoOptions",
    "describe_kinds",
    "describe_media",
    "describe_needs",
    "free_text_verdict",
    "hears_clips",
    "judge_batch_checked",
    "make_judge",
    "media_needed",
    "missing_media",
    "with_frames",
    "with_media",
]
