"""Sample IsoVRBench release: procedural anchor clips and one counterpart per intervention.

Written in the pair-table raw format that :func:`mmjudge.benchmarks.build_dataset` reads for
``isovrbench``: a folder holding ``test.csv`` (``pair_id, prompt, intervention, dimension,
video_chosen, video_rejected, generator_chosen, generator_rejected, seed, num_frames, fps,
index_map, synthetic`` plus the extra columns ``motion_score`` and ``edited_prompt``) and the clips
under ``clips/<anchor>/``. Clips are 81 frames at 16 fps in both sizes, like the benchmark's.

What is real and what is a stand-in (the ``synthetic`` column says it per row):

- Anchors are :func:`~mmjudge.media.synthetic.moving_texture_clip` clips (camera pan over texture,
  textured objects moving), not Wan2.2-T2V-A14B generations; the highest-motion candidates are kept
  with :func:`~mmjudge.benchmarks.isovrbench.interventions.select_anchors_by_motion` on ``motion_score(step=3)``.
- ``temporal_shuffle`` and ``frame_hold`` counterparts are the real interventions; ``index_map``
  records them (counterpart frame ``i`` = anchor frame ``index_map[i]``).
- The re-rendering interventions are visible stand-ins: ``motion_regen`` keeps 8 or 12 evenly spaced
  keyframes and cross-fades between them; ``attribute_edit`` renders the same seed with one object
  removed (``edited_prompt``); ``reduced_steps`` is Gaussian blur plus noise; ``i2v_continuation``
  starts on the anchor's first frame and cross-fades into a clip of another seed; ``t2v_5b`` and
  ``t2v_1_3b`` are clips of other seeds, mildly and strongly degraded. The generator columns name
  the model the real benchmark uses for that side.

Anchor and counterparts are all encoded once from arrays with the same settings, so codec generation
does not differ between the two sides.
"""

from __future__ import annotations

import csv
import json
import logging
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mmjudge.benchmarks.isovrbench.interventions import (
    frame_hold,
    motion_score,
    select_anchors_by_motion,
    temporal_shuffle,
)
from mmjudge.benchmarks.isovrbench.scoring import DIMENSIONS, INTERVENTIONS
from mmjudge.data.raw import RawSource
from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip

__all__ = ["FPS", "NUM_FRAMES", "SIZES", "SampleSize", "card_note", "write_raw"]

logger = logging.getLogger(__name__)

NUM_FRAMES = 81
"""Frames per clip (the benchmark's 5.1 s at 16 fps)."""
FPS = 16
"""Frame rate of every clip."""


class SampleSize(NamedTuple):
    """Dimensions of one sample size."""

    height: int
    """Frame height in pixels."""
    width: int
    """Frame width in pixels."""
    anchors: int
    """Anchors kept (each gets all eight interventions)."""
    candidates: int
    """Candidate anchors rendered; the ``anchors`` with most motion are kept."""
    crf: int
    """x264 constant rate factor of every clip."""
    preset: str
    """x264 preset of every clip."""


SIZES: dict[str, SampleSize] = {
    "small": SampleSize(128, 224, anchors=2, candidates=3, crf=28, preset="veryfast"),
    "medium": SampleSize(480, 832, anchors=4, candidates=6, crf=24, preset="fast"),
}
"""``small`` is the default of tests and ``make demo``; ``medium`` has the benchmark's 480x832 frames."""

_ANCHOR_GENERATOR = "Wan2.2-T2V-A14B"
_GENERATORS = {
    "i2v_continuation": "Wan2.2-TI2V-5B",
    "t2v_5b": "Wan2.2-TI2V-5B",
    "t2v_1_3b": "Wan2.1-T2V-1.3B",
}
"""Generator of the rejected clip in the real benchmark where it is not the anchor's."""


def _interventions() -> list[tuple[str, str, str]]:
    """(intervention id, dimension, generator of the rejected side), in the paper's order."""
    return [
        (name, dim, _GENERATORS.get(name, _ANCHOR_GENERATOR))
        for name in INTERVENTIONS
        for dim, members in DIMENSIONS.items()
        if name in members
    ]


_ANCHOR_NOTE = "anchor: procedural moving-texture clip standing in for a Wan2.2-T2V-A14B generation"
_COUNTERPART_NOTES = {
    "temporal_shuffle": "counterpart: the real temporal_shuffle of the anchor (six segments, none in place)",
    "frame_hold": "counterpart: the real frame_hold of the anchor (8-12 held frames)",
    "motion_regen": "counterpart: stand-in, evenly spaced anchor keyframes with cross-faded in-betweens",
    "attribute_edit": "counterpart: stand-in, same seed rendered with one object removed",
    "reduced_steps": "counterpart: stand-in, Gaussian blur plus noise instead of 8-step sampling",
    "i2v_continuation": "counterpart: stand-in, anchor first frame cross-faded into another seed's clip",
    "t2v_5b": "counterpart: stand-in, another seed's clip, mildly blurred and noisy",
    "t2v_1_3b": "counterpart: stand-in, another seed's clip, blurred and colour-banded",
}
_SURFACES = ("weathered stone", "mossy bark", "rippled sand", "woven fabric", "cracked clay", "coral")
_OBJECTS = ("patterned tiles", "painted cards", "mosaic blocks", "printed stamps")
_COUNT_WORDS = ("one", "two", "three", "four", "five")


class _Anchor(NamedTuple):
    name: str
    seed: int
    num_objects: int
    pan: tuple[float, float]
    speed: float
    motion: float

    def render(self, spec: SampleSize, *, num_objects: int | None = None) -> np.ndarray:
        return moving_texture_clip(
            NUM_FRAMES,
            spec.height,
            spec.width,
            seed=self.seed,
            pan=self.pan,
            num_objects=self.num_objects if num_objects is None else num_objects,
            object_speed=self.speed,
        )


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample IsoVRBench pair table and clips under ``raw_dir``.

    Args:
        raw_dir: output folder (created); gets ``test.csv`` and ``clips/``.
        size: ``"small"`` or ``"medium"`` (see :data:`SIZES`).
        seed: seeds every random choice; the same arguments write the same files.

    Returns:
        The folder as both ``source`` and ``media_root`` (clip paths are relative to it), with
        ``options["card_notes"]`` = :func:`card_note` for the built card.

    The small size takes a few seconds (``tests/data/test_sample.py`` runs it); its clips are:

    >>> SIZES["small"].height, SIZES["small"].width, NUM_FRAMES, FPS
    (128, 224, 81, 16)
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}; expected one of {sorted(SIZES)}")
    spec = SIZES[size]
    raw_dir = Path(raw_dir)
    raw_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, 7])
    anchors = _select_anchors(spec, rng, seed)
    rows = []
    for anchor in anchors:
        rows.extend(_write_anchor_pairs(raw_dir, anchor, spec, rng))
    _write_table(raw_dir / "test.csv", rows)
    logger.info(
        "isovrbench sample: %d anchors, %d pairs at %dx%d", len(anchors), len(rows), spec.width, spec.height
    )
    return RawSource(raw_dir, raw_dir, {"card_notes": card_note(size)})


def card_note(size: str) -> str:
    """Markdown for the built card: sizes of this sample and which fields are synthetic stand-ins.

    >>> "128x224" in card_note("small")
    True
    """
    spec = SIZES[size]
    stand_ins = "\n".join(
        f"- `{name}`: {note.removeprefix('counterpart: ')}" for name, note in _COUNTERPART_NOTES.items()
    )
    return (
        f"IsoVRBench sample ({size}): {spec.anchors} anchors kept by motion score (every third frame) out "
        f"of {spec.candidates} candidates, each with all eight interventions ({spec.anchors * 8} pairs); "
        f"clips {NUM_FRAMES} frames at {FPS} fps, {spec.height}x{spec.width} (height x width), H.264 "
        f"crf {spec.crf} preset {spec.preset} mbtree off; every clip is encoded once from arrays with the same settings.\n\n"
        "Synthetic fields: every clip. Anchors are procedural moving-texture clips (camera pan, textured "
        "objects), not Wan2.2 generations; `generator_chosen`/`generator_rejected` name the models the real "
        "benchmark uses for each side, not what made these clips; the `synthetic` column says per row what "
        "is a stand-in. Counterparts:\n\n" + stand_ins + "\n"
    )


def _select_anchors(spec: SampleSize, rng: np.random.Generator, seed: int) -> list[_Anchor]:
    candidates = []
    for i in range(spec.candidates):
        pan = (float(rng.uniform(-1.0, 1.0)), float(rng.choice([-1, 1]) * rng.uniform(1.0, 4.0)))
        anchor = _Anchor(
            f"a{i:03d}", seed * 1000 + i, int(rng.integers(2, 5)), pan, float(rng.uniform(2, 8)), 0.0
        )
        candidates.append(anchor._replace(motion=motion_score(anchor.render(spec))))
    keep = select_anchors_by_motion([c.motion for c in candidates], spec.anchors)
    return [candidates[i] for i in sorted(keep.tolist())]


def _prompt(anchor: _Anchor, num_objects: int) -> str:
    surface = _SURFACES[anchor.seed % len(_SURFACES)]
    objects = _OBJECTS[anchor.seed % len(_OBJECTS)]
    count = _COUNT_WORDS[num_objects - 1]
    return f"A camera pans across {surface} while {count} {objects} slide and bounce around the frame."


def _write_anchor_pairs(
    raw_dir: Path, anchor: _Anchor, spec: SampleSize, rng: np.random.Generator
) -> list[dict]:
    folder = Path("clips") / anchor.name
    anchor_rel = (folder / "anchor.mp4").as_posix()
    frames = anchor.render(spec)
    _encode(raw_dir / anchor_rel, frames, spec)
    prompt = _prompt(anchor, anchor.num_objects)
    rows = []
    for intervention, dimension, generator in _interventions():
        counterpart, index_map = _counterpart(intervention, frames, anchor, spec, rng)
        rel = (folder / f"{intervention}.mp4").as_posix()
        _encode(raw_dir / rel, counterpart, spec)
        edited = _prompt(anchor, anchor.num_objects - 1) if intervention == "attribute_edit" else ""
        rows.append(
            {
                "pair_id": f"{anchor.name}_{intervention}",
                "prompt": prompt,
                "intervention": intervention,
                "dimension": dimension,
                "video_chosen": anchor_rel,
                "video_rejected": rel,
                "generator_chosen": _ANCHOR_GENERATOR,
                "generator_rejected": generator,
                "seed": anchor.seed,
                "num_frames": NUM_FRAMES,
                "fps": FPS,
                "index_map": json.dumps(index_map.tolist()) if index_map is not None else "",
                "synthetic": f"{_ANCHOR_NOTE}; {_COUNTERPART_NOTES[intervention]}",
                "motion_score": round(anchor.motion, 4),
                "edited_prompt": edited,
            }
        )
    return rows


def _counterpart(
    intervention: str, frames: np.ndarray, anchor: _Anchor, spec: SampleSize, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray | None]:
    """The rejected clip of one intervention and, for the frame-level ones, the index map applied."""
    if intervention in ("temporal_shuffle", "frame_hold"):
        result = (temporal_shuffle if intervention == "temporal_shuffle" else frame_hold)(frames, rng=rng)
        return result.frames, result.index_map
    if intervention == "motion_regen":
        return _blend_keyframes(frames, int(rng.choice([8, 12]))), None
    if intervention == "attribute_edit":
        return anchor.render(spec, num_objects=anchor.num_objects - 1), None
    if intervention == "reduced_steps":
        return _degrade(frames, rng, blur=2.0, noise=10.0), None
    other = _Anchor(
        "", anchor.seed + 500_000 + len(intervention), anchor.num_objects, anchor.pan, anchor.speed, 0.0
    )
    clip = other.render(spec)
    if intervention == "i2v_continuation":
        first = frames[0].astype(np.float32)
        for t in range(1, 8):  # cross-fade from the anchor's first frame over eight frames
            clip[t] = ((1 - t / 8) * first + (t / 8) * clip[t]).round().astype(np.uint8)
        clip[0] = frames[0]
        return _degrade(clip, rng, blur=0.8, noise=3.0), None
    if intervention == "t2v_5b":
        return _degrade(clip, rng, blur=1.0, noise=4.0), None
    return _degrade((clip // 32) * 32 + 16, rng, blur=1.5, noise=2.0), None


def _blend_keyframes(frames: np.ndarray, keyframes: int) -> np.ndarray:
    """Keep ``keyframes`` evenly spaced frames (first and last included); linearly blend between them."""
    keys = np.unique(np.linspace(0, len(frames) - 1, keyframes).round().astype(np.int64))
    out = np.empty_like(frames)
    for t in range(len(frames)):
        right = int(np.searchsorted(keys, t))
        if keys[right] == t:
            out[t] = frames[t]
            continue
        a, b = keys[right - 1], keys[right]
        w = (t - a) / (b - a)
        out[t] = ((1 - w) * frames[a].astype(np.float32) + w * frames[b]).round().astype(np.uint8)
    return out


def _degrade(frames: np.ndarray, rng: np.random.Generator, *, blur: float, noise: float) -> np.ndarray:
    """Gaussian blur of radius ``blur`` (Pillow) then Gaussian noise of std ``noise`` (8-bit levels)."""
    from PIL import Image, ImageFilter

    out = np.empty_like(frames)
    for t, frame in enumerate(frames):  # frame by frame: float temporaries stay one frame large
        blurred = np.asarray(Image.fromarray(frame).filter(ImageFilter.GaussianBlur(blur)), dtype=np.float32)
        blurred += rng.normal(0.0, noise, size=blurred.shape).astype(np.float32)
        out[t] = np.clip(blurred, 0, 255).round().astype(np.uint8)
    return out


def _encode(path: Path, frames: np.ndarray, spec: SampleSize) -> None:
    # mbtree off: with it on, libx264 (PyAV 18.1's build) wrote different bytes for the same frames
    # from run to run on our AVX-512 machine; off, the sample is byte-for-byte reproducible.
    write_video(path, frames, FPS, crf=spec.crf, preset=spec.preset, x264_params={"mbtree": "0"})


def _write_table(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
