"""Sample TempCompass release: short clips and caption-matching questions in the release's own format.

Written as the release lays it out, which :func:`build_tables` reads: ``questions/caption_matching.json`` (video id
-> dimension -> ``{"question", "answer"}``), ``meta_info.json`` (each dimension's aspect) and
``videos/<video id>.mp4``. Each clip gets one question in each of two dimensions, with the release's three ways of
labelling options (``Option 1``, ``Sentence A``, ``Caption A``); the right option's place is drawn at random.

Everything is synthetic: clips are :func:`~mmjudge.media.synthetic.moving_texture_clip`, captions templated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from mmjudge.benchmarks.tempcompass.release import CAPTION_MATCHING, DIMENSIONS, META_INFO
from mmjudge.data.raw import RawSource
from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip

__all__ = ["SIZES", "write_raw"]

SIZES = {"small": 6, "medium": 24}
"""Clips per sample size."""
SAMPLE_NOTE = (
    "**This folder is sample data written by `mmjudge sample-data`, not TempCompass.** Clips are procedural "
    "moving textures and the captions are templated, so no clip shows what its captions describe."
)
_CAPTIONS = {  # dimension -> (aspect, right caption, wrong caption)
    "action": ("fine-grained action", "A man is dunking a basketball.", "A man is dribbling a basketball."),
    "direction": ("object motion", "The car is moving from left to right.", "The car is moving from right to left."),
    "speed": ("absolute speed", "The clip plays in slow motion.", "The clip plays at normal speed."),
    "order": ("order", "The light turns on and then the door opens.", "The door opens and then the light turns on."),
    "attribute_change": ("color & light change", "The sky turns from blue to orange.", "The sky turns from orange to blue."),
}  # fmt: skip
_ASKS = (("Which caption matches the video better?", "Caption A", "Caption B"),
         ("Which sentence better captures the essence of the video?", "Sentence A", "Sentence B"),
         ("Which description is a more suitable match for the video?", "Option 1", "Option 2"))  # fmt: skip


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir``.

    >>> import tempfile
    >>> raw = write_raw(Path(tempfile.mkdtemp()) / "tempcompass")
    >>> data = json.loads((raw.source / "questions" / "caption_matching.json").read_text())
    >>> len(data), sum(len(q) for dims in data.values() for q in dims.values())
    (6, 12)
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}: expected one of {sorted(SIZES)}")
    raw_dir = Path(raw_dir)
    rng = np.random.default_rng(seed)
    questions: dict[str, dict[str, list[dict[str, str]]]] = {}
    meta: dict[str, Any] = {}
    for clip in range(SIZES[size]):
        video = f"{1000000000 + seed * 1000 + clip}"
        frames = moving_texture_clip(16, 64, 96, seed=seed * 1000 + clip, num_objects=2)
        write_video(raw_dir / "videos" / f"{video}.mp4", frames, 8, crf=30, preset="veryfast", x264_params={"mbtree": "0"})
        questions[video] = {}
        meta[video] = {"eval_dim": {d: None for d in DIMENSIONS}, "content": ["synthetic"]}
        for k in range(2):
            dimension = DIMENSIONS[(clip + 2 * k) % len(DIMENSIONS)]
            aspect, right, wrong = _CAPTIONS[dimension]
            ask, first_label, second_label = _ASKS[(clip + k) % len(_ASKS)]
            right_first = bool(rng.integers(2))
            first, second = (right, wrong) if right_first else (wrong, right)
            lines = (f"{first_label}: {first}", f"{second_label}: {second}")
            questions[video][dimension] = [{"question": f"{ask}\n{lines[0]}\n{lines[1]}",
                                            "answer": lines[0] if right_first else lines[1]}]  # fmt: skip
            if dimension != "order":
                meta[video]["eval_dim"][dimension] = {"type": aspect}
    (raw_dir / CAPTION_MATCHING).parent.mkdir(parents=True, exist_ok=True)
    (raw_dir / CAPTION_MATCHING).write_text(json.dumps(questions, indent=1) + "\n", encoding="utf-8")
    (raw_dir / META_INFO).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return RawSource(raw_dir, raw_dir, {"card_notes": SAMPLE_NOTE})
