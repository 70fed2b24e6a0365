"""Sample EmoReAlM release: short clips with audio and questions of all five task types.

Written in the real raw format that :func:`mmjudge.benchmarks.build_dataset` reads for ``emorealm``: one
JSON list ``emorealm_v1.json`` (``id, video, task, question, choices, answer``) and a stand-in DFEW
clip root ``DFEW/clips/{nnnnn}.mp4`` with the audio beside it as ``.wav`` (16 kHz mono).

Everything is synthetic: clips are :func:`~mmjudge.media.synthetic.moving_texture_clip` at 24 fps
with a :func:`~mmjudge.media.synthetic.tone` track, and questions are templated. Basic reasoning
tasks are four-way multiple choice; the stress tasks and ``modality_agreement`` are Yes/No questions
given as lettered choices ``(A) Yes``/``(B) No`` (the official scorer reads all three with its yes/no
metrics; a stress question asks whether a cue, present or not, shows an emotion). Answers are spread
over the letters.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mmjudge.benchmarks.emorealm.scoring import TASKS
from mmjudge.data.raw import RawSource
from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video, write_wav
from mmjudge.media.synthetic import moving_texture_clip, tone

__all__ = ["SIZES", "TASKS", "write_raw"]

SIZES = {"small": 5, "medium": 20}
"""Number of clips per size; each clip gets two questions, so every task occurs twice per 5 clips."""
SAMPLE_NOTE = (
    "**This folder is sample data written by `mmjudge sample-data`, not EmoReAlM.** Every field is "
    "synthetic: ids, clip paths, questions, choices and answers are templated (answers drawn at random, "
    "so no clip actually supports its answer). Clips under the stand-in DFEW root are procedural "
    "moving textures at 24 fps with a two-tone 16 kHz track: no faces, no speech."
)
"""Card note passed to the build (``RawSource.options["card_notes"]``)."""
_YES_NO_TASKS = ("reasoning_stress_audio", "reasoning_stress_video", "modality_agreement")
FPS = 24
NUM_FRAMES = 24
SAMPLE_RATE = 16_000
_EMOTIONS = ("happiness", "sadness", "anger", "surprise", "fear", "disgust", "neutral")
_QUESTIONS = {
    "reasoning_basic_audio": "Which audio cue best supports the emotion the person shows?",
    "reasoning_basic_video": "Which visual cue best supports the emotion the person shows?",
    "reasoning_stress_audio": "Does the trembling voice in the audio show that the person feels {emotion}?",
    "reasoning_stress_video": "Do the raised eyebrows in the video show that the person feels {emotion}?",
    "modality_agreement": "Do the audio and the video express the same emotion?",
}


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """Write the sample release into ``raw_dir`` (``emorealm_v1.json`` + ``DFEW/`` clip root).

    >>> import tempfile
    >>> raw = write_raw(Path(tempfile.mkdtemp()) / "emorealm")
    >>> raw.source.name, sorted({q["task"] for q in json.loads(raw.source.read_text())}) == sorted(TASKS)
    ('emorealm_v1.json', True)
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}: expected one of {sorted(SIZES)}")
    raw_dir = Path(raw_dir)
    root = raw_dir / "DFEW"
    rng = np.random.default_rng(seed)
    items: list[dict[str, object]] = []
    for index in range(SIZES[size]):
        video = f"clips/{seed * 10000 + index + 1:05d}.mp4"
        clip = moving_texture_clip(NUM_FRAMES, 64, 96, seed=seed * 1000 + index, num_objects=2)
        audio = tone(NUM_FRAMES / FPS, SAMPLE_RATE, seed=seed * 1000 + index)
        write_video(root / video, clip, FPS, crf=30, preset="veryfast", audio=audio,
                    x264_params={"mbtree": "0"})  # mbtree off: the same bytes in every run
        write_wav(root / Path(video).with_suffix(".wav"), audio, SAMPLE_RATE)
        for k in range(2):
            task = TASKS[(2 * index + k) % len(TASKS)]
            items.append(_question(len(items), video, task, rng))
    source = raw_dir / "emorealm_v1.json"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return RawSource(source, root, {"card_notes": SAMPLE_NOTE})


def _question(number: int, video: str, task: str, rng: np.random.Generator) -> dict[str, object]:
    question = _QUESTIONS[task]
    if task in _YES_NO_TASKS:
        options = ["Yes", "No"]
        answer = int(rng.integers(2))
        question = question.format(emotion=_EMOTIONS[int(rng.integers(len(_EMOTIONS)))])
    else:
        picks = rng.choice(len(_EMOTIONS), size=4, replace=False)
        options = [_EMOTIONS[p] for p in picks]
        answer = int(rng.integers(4))
    letters = "ABCD"
    return {
        "id": f"emorealm_{number:05d}",
        "video": video,
        "task": task,
        "question": question,
        "choices": [f"({letters[i]}) {text}" for i, text in enumerate(options)],
        "answer": letters[answer],
    }
