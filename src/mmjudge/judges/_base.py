"""The judge protocol: a :class:`Judge` takes batches of decoded items and returns :class:`Verdict` s.

A backend subclasses :class:`Judge`, sets ``accepts`` (the item kinds of :mod:`mmjudge.items` it can
judge; never benchmark ids), ``version`` (bump when a change alters results) and optionally an
``Options`` dataclass, implements :meth:`Judge.judge_batch`, and registers itself with
``@register_judge("<name>")``. Heavy libraries are imported in
:meth:`Judge.load`, which the runner calls once per process with the rank's device.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mmjudge.errors import ConfigError
from mmjudge.items import ClipItem, Item, SentenceItem, Verdict
from mmjudge.judges._config import JudgeConfig, fingerprint, validate_options
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.profiles import VisionProfile


class _AcceptedBenchmarks:
    """``Judge.benchmarks``: the registered benchmarks whose item kind the judge accepts (derived)."""

    def __get__(self, obj: object, owner: type[Judge]) -> frozenset[str]:
        from mmjudge.benchmarks import benchmark_ids, get_benchmark

        return frozenset(b for b in benchmark_ids() if owner.accepts_kind(get_benchmark(b).records.item_kind))


@dataclass(frozen=True)
class NoOptions:
    """Options of a judge that takes none."""


class Judge(abc.ABC):
    """Base class of every judge backend."""

    accepts: ClassVar[frozenset[type]] = frozenset()
    """Item kinds (:data:`mmjudge.items.KINDS`) this judge can judge."""
    benchmarks = _AcceptedBenchmarks()
    """The registered benchmark ids whose item kind the judge accepts (derived from :attr:`accepts`)."""
    version: ClassVar[str] = "1"
    """Judge code version; part of the fingerprint, bump it when results change."""
    Options: ClassVar[type] = NoOptions
    """Dataclass of backend-specific options (``config.options`` is validated against it)."""
    default_frames: ClassVar[int | None] = 8
    """Frames sampled per clip when the config sets neither ``frames`` nor ``fps``."""
    profile: ClassVar[VisionProfile | None] = None
    """The preprocessing profile of the judge's reference inference code (:mod:`mmjudge.judges.profiles`);
    ``None`` for judges without one (the weight-free baselines)."""

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config
        self.options: Any = validate_options(self.Options, config.options, source=f"{config.judge} options")
        self.fingerprint = fingerprint(config, self.version)

    @classmethod
    def accepts_kind(cls, kind: type) -> bool:
        """Whether the judge accepts items of ``kind`` (an item kind or a class implementing one)."""
        return any(issubclass(kind, accepted) for accepted in cls.accepts)

    def check_benchmark(self, benchmark: str) -> None:
        """Refuse a benchmark whose item kind this judge does not accept."""
        from mmjudge.benchmarks import get_benchmark

        kind = get_benchmark(benchmark).records.item_kind
        if not self.accepts_kind(kind):
            raise ConfigError(
                f"judge {self.config.judge!r} judges {sorted(self.benchmarks)}, not {benchmark!r}: it accepts "
                f"{sorted(_kind_name(k) for k in self.accepts)}, and {benchmark!r} asks a {_kind_name(kind)}; pick a judge "
                f"for {benchmark!r} (`mmjudge info` lists the registered judges)"
            )

    def media_request(self, item: Item) -> MediaRequest:
        """What to decode for ``item``: by default frames from the config for clips, the image of a sentence."""
        if isinstance(item, ClipItem):
            return self.frames_request()
        if isinstance(item, SentenceItem):
            return MediaRequest(image=item.image is not None)
        return MediaRequest()

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

    def load(self, device: str) -> None:  # noqa: B027 - optional hook
        """Load weights onto ``device`` (``"cpu"``, ``"cuda:0"``, ...); weight-free judges do nothing."""

    @abc.abstractmethod
    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Judge a batch; return one verdict per input, in order (``Verdict.failed`` for per-item errors)."""


def _kind_name(kind: type) -> str:
    return str(getattr(kind, "kind", kind.__name__))


def with_frames(config: JudgeConfig, frames: int) -> JudgeConfig:
    """The same config with ``frames`` set (and ``fps`` cleared), for frame-count sweeps.

    >>> with_frames(JudgeConfig(judge="random", fps=2.0), 16).frames
    16
    """
    return dataclasses.replace(config, frames=frames, fps=None)


def make_judge(config: JudgeConfig) -> Judge:
    """Instantiate the registered backend named by ``config.judge``."""
    from mmjudge.judges._registry import get_judge

    cls = get_judge(config.judge)
    judge: Judge = cls(config)
    return judge


def judge_batch_checked(judge: Judge, inputs: Sequence[JudgeInput]) -> list[Verdict]:
    """Call ``judge.judge_batch`` and check it returned one verdict per input with matching ids."""
    verdicts = judge.judge_batch(inputs)
    expected = [i.item.item_id for i in inputs]
    got = [v.item_id for v in verdicts]
    if got != expected:
        raise RuntimeError(
            f"judge {judge.config.judge!r} returned verdicts for {got[:3]}..., expected {expected[:3]}..."
        )
    return verdicts


__all__: Sequence[str] = ["Judge", "NoOptions", "judge_batch_checked", "make_judge", "with_frames"]
