"""``mmjudge build-interventions`` end to end on tiny random Wan generators: a prompt file becomes a raw
IsoVRBench release with all eight interventions, every generation parameter recorded; a killed build
resumes without regenerating finished clips; ranks split the prompts; ``build-dataset`` ingests the folder.
"""

from __future__ import annotations

import itertools
import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from mmjudge.benchmarks.isovrbench.generate import DiffusersLoader, build_interventions, config_from_mapping
from mmjudge.benchmarks.isovrbench.generate._pipelines import Renderer
from mmjudge.benchmarks.isovrbench.generate._table import PAIR_COLUMNS
from mmjudge.cli import main

from .conftest import FRAMES, tiny_config_data, write_prompts

pytest.importorskip("diffusers")

ROLES = ("anchor", "temporal_shuffle", "frame_hold", "motion_regen", "attribute_edit", "reduced_steps",
         "i2v_continuation", "t2v_5b", "t2v_1_3b")  # fmt: skip
RENDERS_PER_PROMPT = 8  # anchor, edit, reduced steps, 2 motion_regen intervals, three substitutions


@pytest.fixture(scope="module")
def built(tiny_wan_dirs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two prompts built through the CLI, as a user would."""
    root = tmp_path_factory.mktemp("built")
    config = root / "generate.yaml"
    config.write_text(yaml.safe_dump(tiny_config_data(tiny_wan_dirs)), encoding="utf-8")
    prompts = write_prompts(root / "prompts.jsonl", 2)
    argv = ["build-interventions", "--prompts", str(prompts), "--config", str(config), "--out", str(root / "out"),
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    return root / "out"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_prompt_file_becomes_a_raw_isovrbench_release(built: Path) -> None:
    from mmjudge.media.video import read_all, video_info

    rows = _lines(built / "test.jsonl")
    assert [(r["prompt_id"], r["intervention"]) for r in rows] == [
        (p, i) for p in ("cat", "car") for i in ROLES[1:]
    ]
    assert {r["video_chosen"] for r in rows} == {"clips/cat/anchor.mp4", "clips/car/anchor.mp4"}
    assert all(tuple(r) == PAIR_COLUMNS for r in rows)
    assert all(isinstance(r["motion_score"], float) and r["motion_score"] > 0 for r in rows)
    for clip in {r["video_chosen"] for r in rows} | {r["video_rejected"] for r in rows}:
        assert read_all(built / clip).shape == (FRAMES, 32, 32, 3), clip  # every clip keeps the length
        assert video_info(built / clip).fps == 16.0
    by = {(r["prompt_id"], r["intervention"]): r for r in rows}
    assert by["car", "reduced_steps"]["seed"] == 11  # the prompt file's seed
    assert by["cat", "attribute_edit"]["edited_prompt"] == "a dog walks on the beach at sunset"
    assert (
        by["cat", "attribute_edit"]["prompt"] == "a cat walks on the beach at sunset"
    )  # scored under the original
    assert sorted(by["cat", "temporal_shuffle"]["index_map"]) == list(range(FRAMES))
    assert json.loads(by["cat", "motion_regen"]["keyframes"]) == [0, 4, 8]
    generators = {i: by["cat", i]["generator_rejected"] for i in ROLES[1:]}
    assert generators == {
        "temporal_shuffle": "tiny-T2V-A14B", "frame_hold": "tiny-T2V-A14B", "motion_regen": "tiny-I2V-A14B",
        "attribute_edit": "tiny-T2V-A14B", "reduced_steps": "tiny-T2V-A14B", "i2v_continuation": "tiny-TI2V-5B",
        "t2v_5b": "tiny-TI2V-5B", "t2v_1_3b": "tiny-T2V-1.3B",
    }  # fmt: skip
    meta = json.loads((built / "generation.json").read_text())
    assert meta["versions"]["diffusers"].startswith("0.42") and meta["config"]["anchor"]["steps"] == 2


def _calls(built: Path, prompt_id: str) -> dict[str, list[dict[str, Any]]]:
    return {c["role"]: c["calls"] for c in _lines(built / "clips.jsonl") if c["prompt_id"] == prompt_id}


def _differences(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
    return {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}


def test_reduced_steps_and_attribute_edit_differ_from_the_anchor_call_in_one_parameter(built: Path) -> None:
    calls = _calls(built, "cat")
    anchor = calls["anchor"][0]
    assert anchor["num_inference_steps"] == 2 and anchor["num_frames"] == FRAMES and anchor["height"] == 32
    assert _differences(anchor, calls["reduced_steps"][0]) == {"num_inference_steps"}
    assert calls["reduced_steps"][0]["num_inference_steps"] == 1
    assert _differences(anchor, calls["attribute_edit"][0]) == {"prompt"}
    assert calls["attribute_edit"][0]["prompt"] == "a dog walks on the beach at sunset"
    regen = calls["motion_regen"]
    assert [(c["num_frames"], c["seed"] - anchor["seed"], c["mode"]) for c in regen] == [
        (5, 0, "first_last_frame"), (5, 1, "first_last_frame")]  # fmt: skip
    first = calls["i2v_continuation"][0]
    assert (first["mode"], first["image"], first["expand_timesteps"]) == (
        "first_frame",
        {"clip": "clips/cat/anchor.mp4", "frame": 0},
        True,
    )
    assert calls["temporal_shuffle"] == [] and calls["frame_hold"] == []
    for role in ("t2v_5b", "t2v_1_3b"):
        assert _differences(anchor, calls[role][0]) >= {"generator", "path", "num_inference_steps"}
        assert calls[role][0]["seed"] == anchor["seed"] and calls[role][0]["prompt"] == anchor["prompt"]


def test_build_dataset_ingests_the_folder_with_all_eight_interventions(built: Path, tmp_path: Path) -> None:
    import datasets

    assert main(["build-dataset", "isovrbench", "--source", str(built), "--out", str(tmp_path / "data")]) == 0
    configs = datasets.get_dataset_config_names(str(tmp_path / "data"))
    assert set(configs) == {"all", "clips", *ROLES[1:]}
    rows = datasets.load_dataset(str(tmp_path / "data"), "all", split="test")
    assert rows.num_rows == 16 and set(rows["dimension"]) == {"motion", "text", "visual", "overall"}
    clips = datasets.load_dataset(str(tmp_path / "data"), "clips", split="test")
    assert clips.num_rows == 18  # two anchors and sixteen counterparts, each judged once


class _Killed(RuntimeError):
    pass


def test_a_killed_build_resumes_without_regenerating_finished_clips(
    built: Path, tiny_wan_dirs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders: list[str] = []
    render = Renderer._render

    def counting(self: Renderer, prompt: str, *args: Any, **kwargs: Any) -> Any:
        if len(renders) == limit[0]:
            raise _Killed("killed mid-build")
        renders.append(self.label)
        return render(self, prompt, *args, **kwargs)

    limit: list[float] = [
        4
    ]  # dies on the second motion_regen interval: anchor, edit, reduced steps, interval 1 done
    monkeypatch.setattr(Renderer, "_render", counting)
    prompts, config = (
        write_prompts(tmp_path / "prompts.jsonl", 1),
        config_from_mapping(tiny_config_data(tiny_wan_dirs)),
    )
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        build_interventions(prompts, config, out, progress=False)
    finished = {p.name: p.stat().st_mtime_ns for p in (out / "clips" / "cat").glob("*.mp4")}
    assert sorted(finished) == [
        "anchor.mp4",
        "attribute_edit.mp4",
        "frame_hold.mp4",
        "reduced_steps.mp4",
        "temporal_shuffle.mp4",
    ]
    assert not (out / "test.jsonl").exists()

    renders.clear()
    limit[0] = float("inf")
    result = build_interventions(prompts, config, out, progress=False)
    assert (result.reused, result.generated, len(renders)) == (5, 4, RENDERS_PER_PROMPT - 3)
    assert {p: (out / "clips" / "cat" / p).stat().st_mtime_ns for p in finished} == finished  # not rewritten
    fresh = [r for r in _lines(built / "test.jsonl") if r["prompt_id"] == "cat"]
    assert _lines(out / "test.jsonl") == fresh  # the same table as an uninterrupted build
    for role in ROLES:  # and the same bytes: rendering and encoding are deterministic
        assert (out / f"clips/cat/{role}.mp4").read_bytes() == (
            built / f"clips/cat/{role}.mp4"
        ).read_bytes(), role

    renders.clear()  # a changed setting regenerates only the clips it determines
    data = tiny_config_data(tiny_wan_dirs)
    data["interventions"]["t2v_1_3b"]["steps"] = 2
    again = build_interventions(prompts, config_from_mapping(data), out, progress=False)
    assert (again.generated, renders) == (1, ["tiny-T2V-1.3B"])

    damaged = out / "clips" / "cat" / "frame_hold.mp4"  # a clip changed on disk is made again
    damaged.write_bytes(b"not a video")
    renders.clear()
    repaired = build_interventions(prompts, config_from_mapping(data), out, progress=False)
    assert (repaired.generated, renders) == (1, [])  # frame reuse renders nothing
    assert damaged.read_bytes() == (built / "clips/cat/frame_hold.mp4").read_bytes()


class _LockedLoader(DiffusersLoader):
    """Loads one pipeline at a time: ``from_pretrained`` builds modules under a process-wide meta-device
    patch (``init_empty_weights``), which two threads must not enter together. Processes need no lock."""

    lock = threading.Lock()

    def load(self, spec: Any, mode: str, device: str) -> Any:
        with self.lock:
            return super().load(spec, mode, device)


class _ThreadRanks:
    """Two ranks in two threads of one process: shard like the runner's ``Dist``, gather through a dict."""

    def __init__(
        self, rank: int, world: int, shared: dict[int, list[Any]], barrier: threading.Barrier
    ) -> None:
        self.rank, self.world, self.device = rank, world, "cpu"
        self._shared, self._barrier = shared, barrier

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    def barrier(self) -> None:
        self._barrier.wait(timeout=120)

    def shard(self, items: list[Any]) -> list[Any]:
        return list(items[self.rank :: self.world])

    def gather(self, values: list[Any]) -> list[Any]:
        self._shared[self.rank] = values
        self.barrier()
        return [v for rank in sorted(self._shared) for v in self._shared[rank]]


def test_two_ranks_split_the_prompts_and_write_the_same_table(
    built: Path, tiny_wan_dirs: dict[str, Path], tmp_path: Path
) -> None:
    prompts = write_prompts(tmp_path / "prompts.jsonl", 2)
    config = config_from_mapping(tiny_config_data(tiny_wan_dirs))
    shared: dict[int, list[Any]] = {}
    barrier = threading.Barrier(2)
    results: dict[int, Any] = {}
    errors: list[BaseException] = []

    def run(rank: int) -> None:
        try:
            ranks = _ThreadRanks(rank, 2, shared, barrier)
            results[rank] = build_interventions(
                prompts, config, tmp_path / "out", ranks=ranks, loader=_LockedLoader(), progress=False
            )
        except BaseException as exc:  # reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(rank,)) for rank in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert sorted(p.name for p in (tmp_path / "out" / "records").iterdir()) == ["rank0.jsonl", "rank1.jsonl"]
    per_rank = {
        r: {
            json.loads(x)["prompt_id"]
            for x in (tmp_path / f"out/records/rank{r}.jsonl").read_text().splitlines()
        }
        for r in (0, 1)
    }
    assert per_rank == {0: {"cat"}, 1: {"car"}}  # each prompt with all its clips on one rank
    assert results[0].generated == 18 and results[0].world == 2
    assert (tmp_path / "out" / "test.jsonl").read_bytes() == (built / "test.jsonl").read_bytes()


def test_a_text_model_writes_the_edit_when_the_prompt_file_has_none(
    tiny_wan_dirs: dict[str, Path], tmp_path: Path
) -> None:
    from tiny_wan import build_editor_lm

    lm, expected = build_editor_lm(tmp_path / "lm", max_new_tokens=3)
    editor = {"model": str(lm), "dtype": "float32", "local_files_only": True, "max_new_tokens": 3}
    data = tiny_config_data(tiny_wan_dirs, interventions={"attribute_edit": {"editor": editor}})
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text(
        json.dumps({"prompt_id": "cat", "prompt": "a cat walks on the beach at sunset"}) + "\n"
    )
    build_interventions(prompts, config_from_mapping(data), tmp_path / "out", progress=False)
    (row,) = _lines(tmp_path / "out" / "test.jsonl")
    (clip,) = [c for c in _lines(tmp_path / "out" / "clips.jsonl") if c["role"] == "attribute_edit"]
    assert row["edited_prompt"] == expected == clip["calls"][0]["prompt"] and expected
    assert clip["edit_source"]["source"] == "text_model" and clip["edit_source"]["model"] == str(lm)


def test_a_first_last_frame_generator_with_expand_timesteps_is_refused_before_any_clip(
    tiny_wan_dirs: dict[str, Path], tmp_path: Path
) -> None:
    from mmjudge.errors import ConfigError

    data = tiny_config_data(tiny_wan_dirs)
    data["interventions"]["motion_regen"]["generator"] = "ti2v"
    with pytest.raises(ConfigError, match="expand_timesteps"):
        build_interventions(
            write_prompts(tmp_path / "p.jsonl"), config_from_mapping(data), tmp_path / "out", progress=False
        )
    assert not (tmp_path / "out" / "clips").exists()


@pytest.mark.slow
def test_torchrun_two_processes_write_the_same_table(built: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    config = built.parent / "generate.yaml"
    torchrun = str(Path(sys.executable).with_name("torchrun"))
    command = [torchrun, "--nproc_per_node", "2", "--standalone", "-m", "mmjudge", "build-interventions",
               "--prompts", str(built.parent / "prompts.jsonl"), "--config", str(config), "--out", str(tmp_path / "out"),
               "--no-progress"]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "out" / "test.jsonl").read_bytes() == (built / "test.jsonl").read_bytes()
    assert len(list((tmp_path / "out" / "records").glob("rank*.jsonl"))) == 2
    shutil.rmtree(tmp_path / "out")


def test_guidance_for_a_second_expert_is_refused_for_a_one_expert_pipeline(
    tiny_wan_dirs: dict[str, Path], tmp_path: Path
) -> None:
    from mmjudge.errors import ConfigError

    data = tiny_config_data(tiny_wan_dirs)
    data["generators"]["small"]["call"]["guidance_scale_2"] = 3.0  # the 1.3B stand-in has one transformer
    with pytest.raises(ConfigError, match=r"generators.small.call sets guidance_scale_2"):
        build_interventions(
            write_prompts(tmp_path / "p.jsonl"), config_from_mapping(data), tmp_path / "out", progress=False
        )
    assert not (tmp_path / "out" / "clips").exists()


@pytest.mark.slow
def test_paper_sized_clips_and_keyframes_on_tiny_generators(
    tiny_wan_dirs: dict[str, Path], tmp_path: Path
) -> None:
    """81 frames, six shuffle segments, 8-12 held frames, 8 or 12 keyframes (the paper's settings; tiny models)."""
    from mmjudge.media.video import read_all

    data = tiny_config_data(tiny_wan_dirs, clip={"height": 32, "width": 32, "num_frames": 81, "fps": 16})
    data["interventions"].update(temporal_shuffle={"segments": 6}, frame_hold={"kept": [8, 12]})
    data["interventions"]["motion_regen"]["keyframes"] = [8, 12]
    result = build_interventions(
        write_prompts(tmp_path / "p.jsonl", 3), config_from_mapping(data), tmp_path / "out", progress=False
    )
    assert (result.pairs, result.clips) == (24, 27)
    for clip in _lines(tmp_path / "out" / "clips.jsonl"):
        assert read_all(tmp_path / "out" / clip["clip"]).shape[0] == 81, clip["clip"]
        if clip["role"] == "motion_regen":
            keys = clip["keyframes"]
            assert len(keys) in (8, 12) and keys[0] == 0 and keys[-1] == 80
            assert [c["num_frames"] for c in clip["calls"]] == [
                b - a + 1 for a, b in itertools.pairwise(keys)
            ]
            assert all((c["num_frames"] - 1) % 4 == 0 for c in clip["calls"])
        if clip["role"] == "frame_hold":
            assert 8 <= len(set(clip["index_map"])) <= 12
