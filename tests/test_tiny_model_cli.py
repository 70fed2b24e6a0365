"""``mmjudge tiny-model``: a tiny random checkpoint and a judge config, and the eval line it prints runs.

The printed ``mmjudge eval`` line (``--limit 1``) is run as printed, through :func:`mmjudge.cli.main`, on the
session's sample data; it must exit 0 with no item failed with an error. Random weights prove the
plumbing, not the scores.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from mmjudge.cli import main

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("tokenizers")


def _eval_line(stdout: str) -> list[str]:
    """The printed ``mmjudge eval`` line's arguments (one item: ``--limit 1``)."""
    (line,) = [ln.strip() for ln in stdout.splitlines() if ln.strip().startswith("mmjudge eval ")]
    assert line.endswith("--limit 1") or "--limit 1 " in line, line
    return shlex.split(line)[1:]


@pytest.mark.parametrize(
    ("judge", "family", "benchmark"),
    [
        ("label_choice", "qwen2_vl", "mist"),
        ("vlm_digit", "gemma3", "isovrbench"),
        ("pairwise_describe", "smolvlm", "emoprefer"),
        ("video_reward", "qwen2_vl", "isovrbench"),
        ("audio_visual", "qwen2_5_omni", "emorealm"),
        ("audio_language", "qwen2_audio", "emoprefer"),
        ("clip_score", "clip", "isovrbench"),
    ],
)
def test_the_folder_loads_offline_and_the_printed_eval_line_runs(
    judge: str,
    family: str,
    benchmark: str,
    sample_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "tiny"
    argv = [
        "tiny-model",
        "--judge",
        judge,
        "--family",
        family,
        "--out",
        str(out),
        "--sample-data",
        str(sample_data),
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "RANDOM WEIGHTS" in printed and "mmjudge sample-data" not in printed  # the sample data exist
    config = yaml.safe_load((out / f"{judge}.yaml").read_text(encoding="utf-8"))
    assert config["model"] == str((out / "model").resolve()) and Path(config["model"]).is_absolute()
    assert config["local_files_only"] is True and config["dtype"] == "float32"
    if judge == "audio_language":  # hears the clip's sound, decodes no frames
        assert "frames" not in config and "fps" not in config
    else:
        assert config["frames"] == 4 or config["fps"] == 2.0  # few frames
    model_type = json.loads((out / "model" / "config.json").read_text())["model_type"]
    assert model_type == {"qwen2_5_omni": "qwen2_5_omni_thinker"}.get(family, family)

    run = _eval_line(printed)
    assert run[:3] == ["eval", "--benchmark", benchmark]
    assert main(run) == 0
    run_dir = Path(run[run.index("--out") + 1])
    records = [json.loads(line) for line in (run_dir / "predictions.jsonl").read_text().splitlines()[1:]]
    errored = [r for r in records if r.get("error") and "label in the reply" not in r["error"]]
    assert records and not errored, errored[:2]
    assert (run_dir / "results.json").is_file()


def test_without_sample_data_it_prints_the_line_that_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tiny"
    assert main(["tiny-model", "--judge", "clip_score", "--out", str(out)]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    sample = out / "sample-data"
    assert f"mmjudge sample-data --out {sample} --benchmark isovrbench" in lines
    assert f"--data {sample / 'isovrbench'}" in next(ln for ln in lines if ln.startswith("mmjudge eval "))
    assert (out / "model" / "config.json").is_file()


@pytest.mark.parametrize(
    ("judge", "family", "message"),
    [
        ("label_choice", "clip", r"judge 'label_choice' cannot run a tiny 'clip' checkpoint.*runs with: clip_score"),
        ("vlm_digit", "qwen2_5_omni", r"cannot run a tiny 'qwen2_5_omni' checkpoint.*runs with: audio_visual"),
        ("audio_visual", "gemma3", r"it takes one of \['qwen2_5_omni'\]; a tiny 'gemma3' checkpoint runs with: "
         r"vlm_digit, label_choice, pairwise_describe"),
    ],
)  # fmt: skip
def test_a_family_the_judge_cannot_run_is_refused_before_anything_is_written(
    judge: str, family: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tiny-model", "--judge", judge, "--family", family, "--out", str(tmp_path / "t")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mmjudge tiny-model: error: ")
    assert re.search(message, err), err
    assert not (tmp_path / "t").exists()


def test_an_existing_model_folder_needs_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "model").mkdir()
    assert main(["tiny-model", "--judge", "clip_score", "--out", str(tmp_path)]) == 1
    assert "already exists: pass --overwrite" in capsys.readouterr().err
