"""The guides in ``docs/`` followed step by step: their files written, their commands run, the new judge judged.

``docs/adding-a-judge.md`` marks each file it asks for with ``<!-- file: PATH -->`` before its code block and
the commands to run with ``<!-- run -->`` before a bash block. The test writes those files into a temporary
folder (a package of its own) and runs the commands there, with two changes that keep the machine as it was:
``pip install`` installs into a folder of the test (``--target``) that the commands then find on
``PYTHONPATH``, and ``mmjudge`` is this Python's ``-m mmjudge``. Then the judge's predictions are checked against
the rule written out here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_FILE = re.compile(r"<!-- file: (?P<path>\S+) -->\s*```[a-z]*\n(?P<body>.*?)```", re.DOTALL)
_RUN = re.compile(r"<!-- run -->\s*```bash\n(?P<body>.*?)```", re.DOTALL)


def guide_steps(text: str) -> tuple[dict[str, str], list[str]]:
    """The files (path -> text) and the command lines a guide asks for, in order."""
    files = {m["path"]: m["body"] for m in _FILE.finditer(text)}
    commands = [line for m in _RUN.finditer(text) for line in m["body"].splitlines() if line.strip()]
    return files, commands


def _command(line: str, site: Path) -> list[str]:
    words = shlex.split(line)
    if words[0] == "pip":
        return [sys.executable, "-m", "pip", *words[1:], "--quiet", "--target", str(site)]
    if words[0] == "mmjudge":
        return [sys.executable, "-m", "mmjudge", *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    raise AssertionError(f"the guide runs a command this test does not know: {line!r}")


def follow(guide: str, folder: Path) -> tuple[dict[str, str], list[str]]:
    """Write ``guide``'s files into ``folder`` and run its commands there (each must exit 0)."""
    files, commands = guide_steps((REPO / "docs" / guide).read_text(encoding="utf-8"))
    for path, body in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(body, encoding="utf-8")
    site = folder / "site"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    for line in commands:
        done = subprocess.run(_command(line, site), cwd=folder, env=env, capture_output=True, text=True,
                              timeout=300, check=False)  # fmt: skip
        assert done.returncode == 0, (line, done.stdout[-2000:], done.stderr[-4000:])
    return files, commands


def test_adding_a_judge_guide_runs_the_new_judge_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("setuptools")
    av = pytest.importorskip("av")
    files, commands = follow("adding-a-judge.md", tmp_path)
    assert set(files) == {"mmjudge_brightness/__init__.py", "pyproject.toml", "judges/brightness/config.yaml"}
    assert [c.split()[:2] for c in commands] == [["pip", "install"], ["mmjudge", "sample-data"], ["mmjudge", "eval"]]
    out = tmp_path / "runs" / "brightness"
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["benchmark"] == "isovrbench" and "brightness" in json.dumps(results["judge"])
    records = [json.loads(line) for line in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()[1:]]
    assert records and not any(r.get("no_judgment") for r in records)
    # the rule, written out: the mean 8-bit level of 4 frames at round(linspace(0, total - 1, 4)), read with PyAV
    clips = {
        str(row["clip_id"]): tmp_path / "sample" / "isovrbench" / str(row["video_path"])
        for row in _rows(tmp_path / "sample" / "isovrbench")
    }
    first = records[0]
    chosen = _pair_clip(tmp_path / "sample" / "isovrbench", first["id"])
    frames = _frames(av, clips[chosen], 4)
    assert first["score_chosen"] == pytest.approx(float(frames.mean()), abs=1e-9)


def _rows(folder: Path) -> list[dict[str, object]]:
    from mmjudge.data.rows import load_rows

    return list(load_rows(folder, "clips"))


def _pair_clip(folder: Path, pair_id: str) -> str:
    from mmjudge.data.rows import load_rows

    return next(str(r["clip_id_chosen"]) for r in load_rows(folder, "all") if str(r["pair_id"]) == pair_id)


def _frames(av: object, path: Path, count: int) -> object:
    import numpy as np

    with av.open(str(path)) as container:  # type: ignore[attr-defined]
        decoded = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    picks = np.round(np.linspace(0, len(decoded) - 1, count)).astype(int)
    return np.stack([decoded[i] for i in picks])


def test_adding_a_family_guide_runs_a_judge_on_the_new_family_end_to_end(tmp_path: Path) -> None:
    """The family comes from the package's entry point alone: without it the same config is refused."""
    pytest.importorskip("setuptools")
    pytest.importorskip("transformers")
    files, _ = follow("adding-a-family.md", tmp_path)
    assert set(files) == {"mmjudge_llava/__init__.py", "mmjudge_llava/tiny.py", "pyproject.toml",
                          "judges/vlm-llava.yaml"}  # fmt: skip
    out = tmp_path / "runs" / "llava"
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["benchmark"] == "isovrbench" and results["judge"] == "tiny-llava-digit"
    records = [json.loads(line) for line in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()[1:]]
    assert len(records) == 2 and not any(r.get("error") for r in records)
    # the same run without the package on the path: the model type is refused by name, before judging
    elsewhere = tmp_path / "elsewhere"  # not the package's source folder, whose build left an .egg-info there
    elsewhere.mkdir()
    config = (tmp_path / "judges" / "vlm-llava.yaml").read_text(encoding="utf-8")
    (elsewhere / "vlm-llava.yaml").write_text(config.replace("tiny-llava", str(tmp_path / "tiny-llava")), "utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "mmjudge", "eval", "--benchmark", "isovrbench", "--judge", "vlm-llava.yaml",
         "--data", str(tmp_path / "sample" / "isovrbench"), "--out", "refused", "--limit", "2"],
        cwd=elsewhere, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert refused.returncode != 0 and "model_type 'llava'" in refused.stderr
