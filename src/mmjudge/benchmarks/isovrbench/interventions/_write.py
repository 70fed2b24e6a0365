"""Writing a counterpart clip with the anchor's frame rate and codec settings.

The anchor is decoded in full, the intervention re-indexes its frames, and every output frame is
encoded as a fresh picture by :func:`mmjudge.media.encode.write_video` (new pts, no picture type
carried over, so libx264 places keyframes by its own settings and not where the anchor had them).
The counterpart is a second-generation encode while the anchor file is a first-generation one; pass
``reencoded_anchor`` to write the anchor's decoded frames through the same pipeline, so that codec
generation is not a difference between the two sides of the pair.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mmjudge._deps import require
from mmjudge.benchmarks.isovrbench.interventions._frames import (
    InterventionResult,
    frame_hold,
    temporal_shuffle,
)
from mmjudge.errors import MediaError, UnknownNameError
from mmjudge.media.encode import write_video
from mmjudge.media.video import read_all, video_info

__all__ = [
    "FRAME_INTERVENTIONS",
    "EncodeSettings",
    "WrittenCounterpart",
    "read_x264_settings",
    "write_counterpart",
]

logger = logging.getLogger(__name__)

Intervention = Callable[..., InterventionResult]
FRAME_INTERVENTIONS: dict[str, Intervention] = {
    "temporal_shuffle": temporal_shuffle,
    "frame_hold": frame_hold,
}
"""Interventions that only re-index frames, by IsoVRBench intervention id."""

_SEI_MARK = b"x264 - core"


@dataclass(frozen=True)
class EncodeSettings:
    """libx264 settings for :func:`mmjudge.media.encode.write_video` (its defaults when unknown)."""

    crf: int = 20
    """Constant rate factor (x264 reports a float; rounded)."""
    preset: str = "medium"
    """x264 preset (not recorded in the stream; the caller's choice or the default)."""
    gop: int | None = None
    """Fixed keyframe interval when the anchor had scene-cut detection off; else ``None``."""
    bframes: int | None = None
    """Consecutive B-frames."""
    open_gop: bool = False
    """Open GOPs."""
    x264_params: dict[str, str] = field(default_factory=dict)
    """Extra x264 options: ``keyint`` when scene cuts were on and the interval not the default,
    ``mbtree=0`` when the anchor was encoded without macroblock-tree rate control."""


class WrittenCounterpart(NamedTuple):
    """What :func:`write_counterpart` wrote."""

    counterpart: Path
    """The counterpart clip (the rejected side of the pair)."""
    anchor: Path
    """The anchor clip to pair it with: the re-encoded copy when one was asked for, else the input."""
    index_map: np.ndarray
    """``int64 (T,)``: counterpart frame ``i`` is decoded anchor frame ``index_map[i]``."""
    fps: float
    """Frame rate of both clips (the anchor's)."""
    settings: EncodeSettings
    """Encoder settings used."""


def read_x264_settings(path: str | Path) -> EncodeSettings | None:
    """The encoder settings libx264 wrote into the clip's first packet, or ``None`` when absent.

    libx264 stores its options as text in an SEI message ("x264 - core ... options: ... crf=20.0");
    ``crf``, ``bframes``, ``open_gop`` and the keyframe interval are read back from it.

    >>> import tempfile, os
    >>> from mmjudge.media.encode import write_video
    >>> clip = np.zeros((6, 16, 16, 3), dtype=np.uint8)
    >>> p = write_video(os.path.join(tempfile.mkdtemp(), "c.mp4"), clip, 16, crf=27, gop=4, bframes=1)
    >>> s = read_x264_settings(p)
    >>> s.crf, s.gop, s.bframes, s.open_gop
    (27, 4, 1, False)
    """
    av = require("av", "video", purpose="reading codec settings")
    try:
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            for index, packet in enumerate(container.demux(stream)):
                data = bytes(packet)
                start = data.find(_SEI_MARK)
                if start >= 0:
                    return _parse_x264(data[start:].split(b"\x00", 1)[0].decode("latin-1"))
                if index >= 4:
                    break
    except (av.error.FFmpegError, IndexError) as exc:
        raise MediaError(f"cannot read the video stream of {path}: {exc}") from exc
    return None


def _parse_x264(text: str) -> EncodeSettings:
    options = dict(re.findall(r"(\w+)=(\S+)", text.partition("options:")[2]))
    keyint = options.get("keyint", "250")
    scenecut_off = options.get("scenecut", "40") == "0"
    params = {} if scenecut_off or keyint in ("250", "infinite") else {"keyint": keyint}
    if options.get("mbtree") == "0":
        params["mbtree"] = "0"
    return EncodeSettings(
        crf=round(float(options.get("crf", 20))),
        gop=int(keyint) if scenecut_off and keyint.isdigit() else None,
        bframes=int(options["bframes"]) if "bframes" in options else None,
        open_gop=options.get("open_gop", "0") not in ("0", "none"),
        x264_params=params,
    )


def write_counterpart(
    anchor: str | Path,
    counterpart: str | Path,
    intervention: str | Intervention,
    *,
    rng: np.random.Generator,
    settings: EncodeSettings | None = None,
    preset: str | None = None,
    reencoded_anchor: str | Path | None = None,
    backend: str | None = None,
) -> WrittenCounterpart:
    """Decode ``anchor``, apply a frame-level intervention and encode the counterpart like the anchor.

    Args:
        anchor: anchor clip.
        counterpart: output path of the counterpart clip.
        intervention: an id in :data:`FRAME_INTERVENTIONS` or a callable ``f(frames, rng=...)``
            returning an :class:`~mmjudge.benchmarks.isovrbench.interventions.InterventionResult`.
        rng: random generator passed to the intervention.
        settings: encoder settings; default: read from the anchor (:func:`read_x264_settings`), else
            ``write_video``'s defaults with a warning.
        preset: x264 preset (the stream does not record it); overrides ``settings.preset``.
        reencoded_anchor: when given, also write the anchor's decoded frames there through the same
            encoder, and return it as the pair's anchor.
        backend: video decoder backend (see :mod:`mmjudge.media.video`).

    >>> import tempfile, os
    >>> from mmjudge.media.encode import write_video
    >>> from mmjudge.media.synthetic import moving_texture_clip
    >>> d = tempfile.mkdtemp()
    >>> a = write_video(os.path.join(d, "a.mp4"), moving_texture_clip(24, 32, 48), fps=16)
    >>> out = write_counterpart(a, os.path.join(d, "b.mp4"), "temporal_shuffle",
    ...                         rng=np.random.default_rng(0), reencoded_anchor=os.path.join(d, "a2.mp4"))
    >>> out.anchor.name, out.fps, len(out.index_map)
    ('a2.mp4', 16.0, 24)
    """

    apply = _resolve(intervention)
    fps = video_info(anchor, backend=backend).fps
    frames = read_all(anchor, backend=backend)
    if settings is None:
        settings = read_x264_settings(anchor)
        if settings is None:
            logger.warning("%s carries no x264 settings; encoding with write_video's defaults", anchor)
            settings = EncodeSettings()
    if preset is not None:
        settings = replace(settings, preset=preset)
    result = apply(frames, rng=rng)
    encode = dict(
        crf=settings.crf,
        preset=settings.preset,
        gop=settings.gop,
        bframes=settings.bframes,
        open_gop=settings.open_gop,
        x264_params=settings.x264_params,
    )
    out = write_video(counterpart, result.frames, fps, **encode)  # type: ignore[arg-type]
    paired = Path(anchor)
    if reencoded_anchor is not None:
        paired = write_video(reencoded_anchor, frames, fps, **encode)  # type: ignore[arg-type]
    return WrittenCounterpart(out, paired, result.index_map, fps, settings)


def _resolve(intervention: str | Intervention) -> Intervention:
    if callable(intervention):
        return intervention
    if intervention not in FRAME_INTERVENTIONS:
        raise UnknownNameError(
            f"unknown frame-level intervention {intervention!r}; expected one of "
            f"{sorted(FRAME_INTERVENTIONS)} or a callable f(frames, rng=...)"
        )
    return FRAME_INTERVENTIONS[intervention]
