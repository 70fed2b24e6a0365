"""The generation config and the prompt file: what is accepted, and what is refused before any weight loads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mmjudge.benchmarks.isovrbench import INTERVENTIONS as SCORED
from mmjudge.benchmarks.isovrbench.generate import (
    INTERVENTIONS,
    config_from_mapping,
    load_config,
    read_prompts,
)
from mmjudge.benchmarks.isovrbench.generate._plan import check_edits
from mmjudge.errors import ConfigError, SchemaError, UnknownNameError

from .conftest import tiny_config_data

DIRS = {name: Path(f"/nowhere/{name}") for name in ("t2v", "i2v", "ti2v", "small")}


def _config(**changes: Any) -> Any:
    return config_from_mapping(tiny_config_data(DIRS, **changes))


def test_the_package_builds_exactly_the_interventions_isovrbench_scores() -> None:
    assert INTERVENTIONS == SCORED


def test_the_shipped_config_is_the_papers_set_up() -> None:
    config = load_config("isovrbench")
    assert (config.clip.num_frames, config.clip.fps, config.clip.height, config.clip.width) == (
        81,
        16.0,
        480,
        832,
    )
    assert config.anchor.steps == 50 and config.label(config.anchor.generator) == "Wan2.2-T2V-A14B"
    options = config.interventions
    assert tuple(options) == SCORED
    assert options["motion_regen"].keyframes == [8, 12] and options["motion_regen"].steps == 30
    assert options["reduced_steps"].steps == 8 and options["frame_hold"].kept == [8, 12]
    assert config.label(options["motion_regen"].generator) == "Wan2.2-I2V-A14B"  # first-last-frame capable
    assert {config.label(options[k].generator) for k in ("i2v_continuation", "t2v_5b")} == {"Wan2.2-TI2V-5B"}
    assert config.label(options["t2v_1_3b"].generator) == "Wan2.1-T2V-1.3B"


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"seeds": 1}, ConfigError, "unknown key 'seeds'"),
        ({"anchor": {"generator": "nope"}}, ConfigError, "anchor.generator 'nope' is not a key"),
        ({"anchor": {"generator": "anchor", "steps": "50"}}, ConfigError, "anchor: key 'steps' expects int, got str '50'"),
        ({"seed": True}, ConfigError, "key 'seed' expects int, got bool True"),
        ({"interventions": {"motion_regen": {"generator": "flf", "keyframes": [8, "12"]}}}, ConfigError,
         "interventions.motion_regen: key 'keyframes' expects a list of int, got list \\[8, '12'\\]"),
        ({"clip": {"num_frames": 80}}, ConfigError, "4k \\+ 1"),
        ({"clip": {"height": 30}}, ConfigError, "multiples of 16"),
        ({"interventions": {"shuffle": {}}}, UnknownNameError, "unknown intervention 'shuffle'"),
        ({"interventions": {"reduced_steps": {"steps": 2}}}, ConfigError, "fewer than the anchor's 2 steps"),
        (
            {"interventions": {"motion_regen": {"generator": "flf", "keyframes": [4]}}},
            ConfigError,
            "4 keyframes need 3 gaps",
        ),
        (
            {"interventions": {"motion_regen": {"keyframes": [3]}}},
            ConfigError,
            "missing required keys \\['generator'\\]",
        ),
        ({"interventions": {"frame_hold": {"kept": [3, 12]}}}, ConfigError, "1 <= low <= high <= 9"),
        ({"interventions": {"t2v_5b": {"generator": "ti2v", "step": 3}}}, ConfigError, "unknown key 'step'"),
    ],
)
def test_bad_configs_are_refused_with_the_key(changes: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        _config(**changes)


def _prompt_file(tmp_path: Path, *lines: Any) -> Path:
    path = tmp_path / "prompts.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([{"prompt": "a"}, {"prompt": "a"}], "line 2: prompt_id 'p.*' again \\(first on line 1\\)"),
        ([{"prompt_id": "../x", "prompt": "a"}], "names a folder"),
        ([{"prompt": "a", "negative": "b"}], "unknown key 'negative'"),
        ([{"prompt": "a cat", "edited_prompt": "a cat"}], "edited_prompt is the prompt itself"),
        ([{"prompt": "a", "seed": -1}], "seed must be a whole number"),
        (["{not json"], "line 1: expected one JSON object"),
        ([{"prompt": ""}], "prompt must be a non-empty string"),
    ],
)
def test_bad_prompt_files_are_refused_with_the_line(tmp_path: Path, lines: list[Any], message: str) -> None:
    with pytest.raises(SchemaError, match=message):
        read_prompts(_prompt_file(tmp_path, *lines))


def test_ids_are_stable_under_reordering(tmp_path: Path) -> None:
    first = read_prompts(_prompt_file(tmp_path, {"prompt": "a"}, {"prompt": "b"}))
    second = read_prompts(_prompt_file(tmp_path, {"prompt": "b"}, {"prompt": "a"}))
    assert {r.prompt: r.prompt_id for r in first} == {r.prompt: r.prompt_id for r in second}


def test_a_prompt_without_an_edit_and_no_editor_is_refused_before_anything_runs(tmp_path: Path) -> None:
    prompts = read_prompts(_prompt_file(tmp_path, {"prompt_id": "a", "prompt": "a red car", "edited_prompt": "a car"},
                                        {"prompt_id": "b", "prompt": "a dog"}))  # fmt: skip
    with pytest.raises(ConfigError, match="1 prompts have no `edited_prompt` \\(first: \\['b'\\]\\)"):
        check_edits(_config(), prompts)
    with_editor = _config(interventions={"attribute_edit": {"editor": {"model": "some/lm"}}})
    check_edits(with_editor, prompts)


def test_importing_the_packages_pulls_no_heavy_library() -> None:
    import subprocess
    import sys

    code = "import sys, mmjudge.benchmarks.isovrbench.generate, mmjudge.benchmarks.isovrbench.human_study; print(','.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
        .stdout.strip()
        .split(",")
    )
    assert not loaded & {"torch", "diffusers", "transformers", "gradio", "av", "accelerate"}
