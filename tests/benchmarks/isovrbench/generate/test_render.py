"""Rendering with tiny random Wan pipelines loaded through ``from_pretrained(path, local_files_only=True)``:
seeds, frame counts, the first-last-frame refusal, and what the motion_regen and frame-reuse builders make.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from mmjudge.benchmarks.isovrbench.generate import GeneratorPool, config_from_mapping, read_prompts
from mmjudge.benchmarks.isovrbench.generate._builders import BUILDERS, Context
from mmjudge.benchmarks.isovrbench.generate._plan import plan_jobs
from mmjudge.errors import ConfigError

from .conftest import FRAMES, SIZE, tiny_config_data, write_prompts

pytest.importorskip("diffusers")


@pytest.fixture
def config(tiny_wan_dirs: dict[str, Path]):
    return config_from_mapping(tiny_config_data(tiny_wan_dirs))


def test_same_seed_same_frames_and_the_clip_length_is_kept(config) -> None:
    one, two = GeneratorPool(config, "cpu"), GeneratorPool(config, "cpu")
    first = one.renderer("anchor", "t2v").text_to_video("a cat walks", seed=5, steps=2, clip=config.clip)
    again = two.renderer("anchor", "t2v").text_to_video("a cat walks", seed=5, steps=2, clip=config.clip)
    other = one.renderer("anchor", "t2v").text_to_video("a cat walks", seed=6, steps=2, clip=config.clip)
    assert first.frames.shape == (FRAMES, SIZE, SIZE, 3) and first.frames.dtype == np.uint8
    assert first.frames.tobytes() == again.frames.tobytes()
    assert first.frames.tobytes() != other.frames.tobytes()
    assert first.call == again.call and first.call["seed"] == 5 and first.call["seed_device"] == "cpu"
    assert one.loads == 1 and two.loads == 1


def test_first_last_frame_is_refused_with_expand_timesteps(config) -> None:
    pool = GeneratorPool(config, "cpu")
    ti2v = pool.renderer("ti2v", "i2v")  # Wan2.2-TI2V-5B layout saved as WanPipeline, loaded as I2V
    frame = np.zeros((SIZE, SIZE, 3), np.uint8)
    assert ti2v.expand_timesteps and type(ti2v.pipe).__name__ == "WanImageToVideoPipeline"
    out = ti2v.image_to_video(
        "a cat", frame, seed=0, steps=1, clip=config.clip, num_frames=FRAMES, image_ref={"frame": 0}
    )
    assert out.frames.shape[0] == FRAMES and out.call["mode"] == "first_frame"
    with pytest.raises(ConfigError, match="silently ignores last_image"):
        ti2v.image_to_video("a cat", frame, last_image=frame, seed=0, steps=1, clip=config.clip,
                            num_frames=FRAMES, image_ref={"frame": 0}, last_ref={"frame": 8})  # fmt: skip
    flf = pool.renderer("flf", "i2v")
    out = flf.image_to_video("a cat", frame, last_image=frame, seed=0, steps=1, clip=config.clip, num_frames=5,
                             image_ref={"frame": 0}, last_ref={"frame": 4})  # fmt: skip
    assert out.frames.shape[0] == 5 and out.call["mode"] == "first_last_frame" and pool.loads == 2


def test_one_generator_serves_both_modes_without_a_second_load(config) -> None:
    pool = GeneratorPool(config, "cpu")
    t2v = pool.renderer("ti2v", "t2v")
    i2v = pool.renderer("ti2v", "i2v")
    assert pool.loads == 1 and i2v.pipe.transformer is t2v.pipe.transformer
    assert i2v.pipe.config["expand_timesteps"] is True


def _context(config, tmp_path: Path) -> tuple[Context, dict]:
    prompts = read_prompts(write_prompts(tmp_path / "prompts.jsonl"))
    plan = plan_jobs(config, prompts)
    ctx = Context(config, GeneratorPool(config, "cpu"), tmp_path)
    from mmjudge.benchmarks.isovrbench.generate._build import _write_clip

    anchor = plan["cat"][0]
    _write_clip(ctx, anchor, BUILDERS["anchor"](anchor, ctx), 0.0)
    return ctx, {job.role: job for job in plan["cat"]}


def test_motion_regen_keeps_the_anchor_keyframes_byte_for_byte(config, tmp_path: Path) -> None:
    ctx, jobs = _context(config, tmp_path)
    anchor = ctx.anchor_frames(jobs["motion_regen"])
    made = BUILDERS["motion_regen"](jobs["motion_regen"], ctx)
    keys = made.extra["keyframes"]
    assert made.frames.shape == anchor.shape  # the clip keeps its length
    assert (
        keys[0] == 0 and keys[-1] == FRAMES - 1 and all((b - a) % 4 == 0 for a, b in itertools.pairwise(keys))
    )
    assert made.frames[keys].tobytes() == anchor[keys].tobytes()
    between = [i for i in range(FRAMES) if i not in keys]
    assert made.frames[between].tobytes() != anchor[between].tobytes()  # the motion was regenerated
    assert [c["num_frames"] for c in made.calls] == [b - a + 1 for a, b in itertools.pairwise(keys)]
    assert [(c["image"]["frame"], c["last_image"]["frame"]) for c in made.calls] == list(
        itertools.pairwise(keys)
    )
    assert {c["mode"] for c in made.calls} == {"first_last_frame"} and made.generator == "tiny-I2V-A14B"


def test_frame_reuse_reindexes_the_decoded_anchor(config, tmp_path: Path) -> None:
    ctx, jobs = _context(config, tmp_path)
    anchor = ctx.anchor_frames(jobs["temporal_shuffle"])
    for role in ("temporal_shuffle", "frame_hold"):
        made = BUILDERS[role](jobs[role], ctx)
        index_map = np.asarray(made.extra["index_map"])
        assert made.frames.shape == anchor.shape and made.calls == []
        assert made.frames.tobytes() == anchor[index_map].tobytes()
        again = BUILDERS[role](jobs[role], ctx)  # its random draws depend on the prompt and role only
        assert again.extra["index_map"] == made.extra["index_map"]
