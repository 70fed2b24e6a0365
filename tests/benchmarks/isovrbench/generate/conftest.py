"""Fixtures of the generation tests: tiny random Wan pipeline folders (built once per session) and configs.

``tiny_wan_dirs`` holds four saved pipelines loaded back through ``from_pretrained(...,
local_files_only=True)``: ``t2v`` (the anchor's generator, two experts like Wan2.2-T2V-A14B), ``i2v``
(first-last-frame capable), ``ti2v`` (``expand_timesteps``, like Wan2.2-TI2V-5B) and ``small`` (a second
T2V model standing in for Wan2.1-T2V-1.3B). :func:`tiny_config` writes a generation config over them.
Tests must not modify the folders.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

FRAMES, SIZE = 9, 32
"""Tiny clips: 9 frames (4k + 1) of 32x32 (the TI2V layout needs multiples of 32)."""


@pytest.fixture(scope="module", autouse=True)
def _one_torch_thread():
    """One intra-op thread while a generation test module runs (renders are then bitwise repeatable across
    the in-process, threaded and torchrun builds the tests compare), restored afterwards."""
    torch = pytest.importorskip("torch")
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="session")
def tiny_wan_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("diffusers")
    pytest.importorskip("av")
    from tiny_wan import build_i2v, build_t2v, build_ti2v

    root = tmp_path_factory.mktemp("tiny-wan")
    return {
        "t2v": build_t2v(root / "t2v", seed=0, two_experts=True),
        "i2v": build_i2v(root / "i2v", seed=1),
        "ti2v": build_ti2v(root / "ti2v", seed=2),
        "small": build_t2v(root / "small", seed=3),
    }


def tiny_config_data(dirs: dict[str, Path], **changes: Any) -> dict[str, Any]:
    """A generation config over the tiny folders: all eight interventions, tiny steps and clips."""

    def generator(name: str, label: str) -> dict[str, Any]:
        return {"path": str(dirs[name]), "label": label, "dtype": "float32", "local_files_only": True,
                "call": {"guidance_scale": 1.0, "max_sequence_length": 16}}  # fmt: skip

    data: dict[str, Any] = {
        "seed": 0,
        "clip": {"height": SIZE, "width": SIZE, "num_frames": FRAMES, "fps": 16},
        "encode": {"crf": 20, "preset": "ultrafast"},
        "generators": {
            "anchor": generator("t2v", "tiny-T2V-A14B"),
            "flf": generator("i2v", "tiny-I2V-A14B"),
            "ti2v": generator("ti2v", "tiny-TI2V-5B"),
            "small": generator("small", "tiny-T2V-1.3B"),
        },
        "anchor": {"generator": "anchor", "steps": 2},
        "interventions": {
            "temporal_shuffle": {"segments": 3},
            "frame_hold": {"kept": [2, 3]},
            "motion_regen": {"generator": "flf", "keyframes": [3], "steps": 1},
            "attribute_edit": {},
            "reduced_steps": {"steps": 1},
            "i2v_continuation": {"generator": "ti2v", "steps": 1},
            "t2v_5b": {"generator": "ti2v", "steps": 1},
            "t2v_1_3b": {"generator": "small", "steps": 1},
        },
    }
    for key, value in changes.items():
        data[key] = value
    return data


def write_prompts(path: Path, count: int = 1) -> Path:
    """A prompt file of ``count`` prompts, each with its edited prompt."""
    lines = [
        {"prompt_id": "cat", "prompt": "a cat walks on the beach at sunset",
         "edited_prompt": "a dog walks on the beach at sunset", "edit": "cat -> dog"},
        {"prompt_id": "car", "prompt": "a red car drives fast through the city at night",
         "edited_prompt": "a blue car drives fast through the city at night", "seed": 11},
        {"prompt_id": "rain", "prompt": "two people dance in the rain under a yellow umbrella",
         "edited_prompt": "two people dance in the rain"},
    ][:count]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path
