"""Sample EmoPrefer-Data release: short clips with audio and description pairs in the CSV trio.

Written in the real raw format that :func:`mmjudge.benchmarks.build_dataset` reads for ``emoprefer``:
``emoprefer.csv`` (``name, a1, a2, preference``), ``emoprefer_reverse.csv`` (a1/a2 swapped, label
flipped) and ``emoprefer_with_modelnames.csv`` (``name, model1, a1, model2, a2, preference``), plus a
stand-in MER2025 media root ``MER2025/video/{name}.mp4`` and ``MER2025/audio/{name}.wav``.

Everything is synthetic: the clips are :func:`~mmjudge.media.synthetic.moving_texture_clip` with a
:func:`~mmjudge.media.synthetic.tone` audio track (no faces, no speech), and the descriptions are
templated sentences; ``preference`` favours the description whose emotion matches the sample's
assigned emotion, ``same`` when both match or both miss.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from mmjudge.data.raw import RawSource
from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video, write_wav
from mmjudge.media.synthetic import moving_texture_clip, tone

__all__ = ["SIZES", "write_raw"]

SIZES = {"small": 6, "medium": 24}
"""Number of samples (clips, and description pairs) per size."""
SAMPLE_NOTE = (
    "**This folder is sample data written by `mmjudge sample-data`, not EmoPrefer-Data.** Every field is "
    "synthetic: `name` values are invented, `a1`/`a2` are templated descriptions, `model1`/`model2` are "
    "assigned at random, and `preference` follows a fixed rule (the description naming the sample's "
    "assigned emotion wins; `same` when both do). The clips under the stand-in media root are "
    "procedural moving textures with a two-tone audio track: no faces, no speech."
)
"""Card note passed to the build (``RawSource.options["card_notes"]``)."""
FPS = 8
NUM_FRAMES = 16
SAMPLE_RATE = 16_000
MODELS = ("merrfine", "mercaptionplus")
_EMOTIONS = ("happy", "sad", "angry", "surprised", "worried", "neutral")
_VISUAL_CUES = (
    "the corners of the mouth rise",
    "the brows draw together",
    "the eyes widen",
    "the head turns away",
)
_AUDIO_CUES = (
    "the voice gets louder and sharper",
    "the speech slows and the pitch drops",
    "the voice trembles",
)


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir`` (CSV trio + ``MER2025/`` media root).

    >>> import tempfile
    >>> raw = write_raw(Path(tempfile.mkdtemp()) / "emoprefer")
    >>> sorted(p.name for p in raw.source.glob("*.csv"))
    ['emoprefer.csv', 'emoprefer_reverse.csv', 'emoprefer_with_modelnames.csv']
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}: expected one of {sorted(SIZES)}")
    raw_dir = Path(raw_dir)
    media = raw_dir / "MER2025"
    rng = np.random.default_rng(seed)
    rows = []
    for index in range(SIZES[size]):
        name = f"sample_{seed:02d}{index:06d}"
        clip = moving_texture_clip(NUM_FRAMES, 64, 96, seed=seed * 1000 + index, num_objects=2)
        audio = tone(NUM_FRAMES / FPS, SAMPLE_RATE, seed=seed * 1000 + index)
        write_video(media / "video" / f"{name}.mp4", clip, FPS, crf=30, preset="veryfast", audio=audio,
                    x264_params={"mbtree": "0"})  # mbtree off: the same bytes in every run
        write_wav(media / "audio" / f"{name}.wav", audio, SAMPLE_RATE)
        rows.append(_pair(name, index, rng))
    _write(
        raw_dir / "emoprefer_with_modelnames.csv",
        ["name", "model1", "a1", "model2", "a2", "preference"],
        rows,
    )
    _write(raw_dir / "emoprefer.csv", ["name", "a1", "a2", "preference"], rows)
    flipped = [
        {
            **r,
            "a1": r["a2"],
            "a2": r["a1"],
            "model1": r["model2"],
            "model2": r["model1"],
            "preference": _flip(r),
        }
        for r in rows
    ]
    _write(raw_dir / "emoprefer_reverse.csv", ["name", "a1", "a2", "preference"], flipped)
    return RawSource(raw_dir, media, {"card_notes": SAMPLE_NOTE})


def _pair(name: str, index: int, rng: np.random.Generator) -> dict[str, str]:
    truth = _EMOTIONS[index % len(_EMOTIONS)]
    # Cycle through the three outcomes so every label occurs: first right, second right, both right.
    outcome = index % 3
    emotions = [
        truth if outcome in (0, 2) else _other(truth, rng),
        truth if outcome in (1, 2) else _other(truth, rng),
    ]
    descriptions = [_describe(e, rng) for e in emotions]
    order = list(MODELS) if rng.random() < 0.5 else list(reversed(MODELS))
    preference = ("a1", "a2", "same")[outcome]
    return {
        "name": name,
        "model1": order[0],
        "a1": descriptions[0],
        "model2": order[1],
        "a2": descriptions[1],
        "preference": preference,
    }


def _other(truth: str, rng: np.random.Generator) -> str:
    choices = [e for e in _EMOTIONS if e != truth]
    return choices[int(rng.integers(len(choices)))]


def _describe(emotion: str, rng: np.random.Generator) -> str:
    visual = _VISUAL_CUES[int(rng.integers(len(_VISUAL_CUES)))]
    audio = _AUDIO_CUES[int(rng.integers(len(_AUDIO_CUES)))]
    return (
        f"In the video, {visual}, and in the audio, {audio}. "
        f'Taken together, the person most likely feels "{emotion}".'
    )


def _flip(row: dict[str, str]) -> str:
    return {"a1": "a2", "a2": "a1"}.get(row["preference"], row["preference"])


def _write(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
