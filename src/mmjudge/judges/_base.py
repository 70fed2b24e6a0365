"""The judge protocol: a :class:`Judge` takes batches of decoded items and returns :class:`Verdict` s.

A backend subclasses :class:`Judge`, sets ``benchmarks`` (ids it can judge), ``version`` (bump when a
change alters results) and optionally an ``Options`` dataclass, implements :meth:`Judge.judge_batch`,
and registers itself with ``@register_judge("<name>")``. Heavy libraries are imported in
:meth:`Judge.load`, which the runner calls once per process with the rank's device.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mmjudge.errors import ConfigError
from mmjudge.judges._config import JudgeConfig, fingerprint, validate_options
from mmjudge.judges._types import ClipItem, Item, JudgeInput, LabelItem, MediaRequest, Verdict


@dataclass(frozen=True)
class NoOptions:
    """Options of a judge that takes none."""


class Judge(abc.ABC):
    """Base class of every judge backend."""

    benchmarks: ClassVar[frozenset[str]] = frozenset()
    """Benchmark ids this judge can judge."""
    version: ClassVar[str] = "1"
    """Judge code version; part of the fingerprint, bump it when results change."""
    Options: ClassVar[type] = NoOptions
    """Dataclass of backend-specific options (``config.options`` is validated against it)."""
    default_frames: ClassVar[int | None] = 8
    """Frames sampled per clip when the config sets neither ``frames`` nor ``fps``."""

    def __init__(self, config: JudgeConfig) -> None:
        self.config = config
        self.options: Any = validate_options(self.Options, config.options, source=f"{config.judge} options")
        self.fingerprint = fingerprint(config, self.version)

    def check_benchmark(self, benchmark: str) -> None:
        """Refuse a benchmark this judge cannot judge."""
        if benchmark not in self.benchmarks:
            raise ConfigError(
                f"judge {self.config.judge!r} judges {sorted(self.benchmarks)}, not {benchmark!r}; "
                f"pick a judge for {benchmark!r} (`mmjudge info` lists the registered judges)"
            )

    def media_request(self, item: Item) -> MediaRequest:
        """What to decode for ``item``: by default frames from the config for clips, the image for MIST."""
        if isinstance(item, ClipItem):
            return self.frames_request()
        if isinstance(item, LabelItem):
            return MediaRequest(image=item.image is not None)
        return MediaRequest()

    def frames_request(self) -> MediaRequest:
        """Frames as the config asks: ``fps`` if set, else ``frames``, else :attr:`default_frames`."""
        cfg = self.config
        num = None if cfg.fps is not None else (cfg.frames or self.default_frames)
        return MediaRequest(num_frames=num, target_fps=cfg.fps, max_pixels=cfg.max_pixels)

    def load(self, device: str) -> None:  # noqa: B027 - optional hook
        """Load weights onto ``device`` (``"cpu"``, ``"cuda:0"``, ...); weight-free judges do nothing."""

    @abc.abstractmethod
    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Judge a batch; return one verdict per input, in order (``Verdict.failed`` for per-item errors)."""


def with_frames(config: JudgeConfig, frames: int) -> JudgeConfig:
    """The same config with ``frames`` set (and ``fps`` cleared), for frame-count sweeps.

    >>> with_frames(JudgeConfig(judge="random", fps=2.0), 16).frames
    16
    """
    return dataclasses.replace(config, frames=frames, fps=None)


def make_judge(config: JudgeConfig) -> Judge:
    """Instantiate the registered backend named by ``config.judge``."""
    from mmjudge.registry import get_judge

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
