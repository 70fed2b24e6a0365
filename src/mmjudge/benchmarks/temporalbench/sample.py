"""Sample TemporalBench release: short clips and binary caption questions in the release's own format.

Written as the real release lays it out, which :func:`build_tables` reads: ``temporalbench_short_qa.json`` (a JSON
list of ``idx, video_name, category, dataset, question, GT``) beside ``short_video/<dataset>/<clip>.mp4``. Each
clip gets two or three questions that share its right caption and change one detail of it (the release's negative
captions), in the release's categories; the right caption's letter is drawn at random.

Everything is synthetic: clips are :func:`~mmjudge.media.synthetic.moving_texture_clip`, captions templated, so no
clip supports its caption.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mmjudge.benchmarks.temporalbench.release import SHORT_QA
from mmjudge.data.raw import RawSource
from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip

__all__ = ["CATEGORIES", "SIZES", "write_raw"]

SIZES = {"small": 6, "medium": 24}
"""Clips per sample size."""
CATEGORIES = ("Action Order", "Action Frequency", "Action Type", "Motion Magnitude", "Motion Direction/Orientation",
              "Action Effector", "Event Order", "Others")  # fmt: skip
"""The short QA file's categories, in the official script's order."""
SAMPLE_NOTE = (
    "**This folder is sample data written by `mmjudge sample-data`, not TemporalBench.** Clips are procedural "
    "moving textures and the captions are templated, so no clip shows what its captions describe."
)
_DATASETS = ("COIN", "Charades", "FineGym")
_SUBJECTS = ("The person", "A man", "A woman")
_CHANGES = {  # category -> (the right caption's phrase, the negative's)
    "Action Order": ("picks up the cup and then opens the box", "opens the box and then picks up the cup"),
    "Action Frequency": ("taps the table twice", "taps the table three times"),
    "Action Type": ("pushes the door", "pulls the door"),
    "Motion Magnitude": ("moves the hand slightly", "moves the hand far"),
    "Motion Direction/Orientation": ("turns the knob clockwise", "turns the knob counterclockwise"),
    "Action Effector": ("lifts the bag with the left hand", "lifts the bag with the right hand"),
    "Event Order": ("sits down before waving", "waves before sitting down"),
    "Others": ("smiles at the camera", "frowns at the camera"),
}
PROMPT = "Which caption best describes this video?"
ANSWER_HINT = "Answer with the option's letter from the given choices directly."


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir`` (the QA file and the clips under ``short_video/``).

    >>> import tempfile
    >>> raw = write_raw(Path(tempfile.mkdtemp()) / "temporalbench")
    >>> items = json.loads(raw.source.read_text())
    >>> raw.source.name, len({i["video_name"] for i in items}), sorted({i["GT"] for i in items})
    ('temporalbench_short_qa.json', 6, ['A', 'B'])
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}: expected one of {sorted(SIZES)}")
    raw_dir = Path(raw_dir)
    rng = np.random.default_rng(seed)
    items: list[dict[str, str]] = []
    for clip in range(SIZES[size]):
        dataset = _DATASETS[clip % len(_DATASETS)]
        video = f"short_video/{dataset}/clip_{seed:02d}_{clip:03d}.mp4"
        frames = moving_texture_clip(16, 64, 96, seed=seed * 1000 + clip, num_objects=2)
        write_video(raw_dir / video, frames, 8, crf=30, preset="veryfast", x264_params={"mbtree": "0"})
        subject = _SUBJECTS[clip % len(_SUBJECTS)]
        for k in range(2 + clip % 2):
            category = CATEGORIES[(clip + 3 * k) % len(CATEGORIES)]
            right, wrong = (f"{subject} {phrase}." for phrase in _CHANGES[category])
            right_first = bool(rng.integers(2))
            first, second = (right, wrong) if right_first else (wrong, right)
            items.append({
                "idx": f"{video}_{k}", "video_name": video, "category": category, "dataset": dataset,
                "question": f"{PROMPT}\nA. {first}\nB. {second}\n{ANSWER_HINT}", "GT": "A" if right_first else "B",
            })  # fmt: skip
    source = raw_dir / SHORT_QA
    source.write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return RawSource(source, raw_dir, {"card_notes": SAMPLE_NOTE})
