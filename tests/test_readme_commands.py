"""The tour's commands, run verbatim (``bash -c``) in a fresh folder, as a new user copies them.

The tour is the README's five-minute tour and the docs pages it leads to (:data:`TOUR_PAGES`: getting
started, running at scale). Every shell command of those pages is either run here, at its first appearance in
page order, and must exit 0 and write the files it says it writes, or is listed in ``SKIPPED`` with the reason
it cannot run in a test (weights, network, GPUs, a raw release, a served board). A command added to those
pages fails :func:`test_every_tour_command_is_run_or_skipped_with_a_reason` until it is placed in one of the
two.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOUR_PAGES = (REPO / "README.md", REPO / "docs" / "getting-started.md", REPO / "docs" / "running-at-scale.md")
"""The pages whose shell commands form the tour, in reading order (the README's tour links to the other two)."""

SAMPLE = [f"sample/{b}/README.md" for b in ("isovrbench", "mist", "emoprefer", "emorealm")]
RUN_FILES = ["predictions.jsonl", "results.json", "report.md"]

RUN: dict[str, list[str]] = {
    "mmjudge sample-data --out sample": [*SAMPLE, "sample/raw/emorealm/DFEW"],
    "mmjudge tiny-model --judge label_choice --family gemma3 --out tiny --sample-data sample": [
        "tiny/model/config.json",
        "tiny/label_choice.yaml",
    ],
    "mmjudge eval --benchmark mist --judge tiny/label_choice.yaml --data sample/mist --out tiny/run-mist --limit 1": [
        f"tiny/run-mist/{name}" for name in RUN_FILES
    ],
    "mmjudge eval --benchmark emorealm --judge random --data sample/emorealm --media-root "
    "sample/raw/emorealm/DFEW --out runs/random": [f"runs/random/{name}" for name in RUN_FILES],
    "mmjudge eval --benchmark emorealm --judge constant --data sample/emorealm --media-root "
    "sample/raw/emorealm/DFEW --out runs/constant": [f"runs/constant/{name}" for name in RUN_FILES],
    "mmjudge compare runs/random runs/constant --out runs/compare": [
        f"runs/compare/compare.{ext}" for ext in ("json", "md", "png")
    ],
    "mmjudge score runs/random/predictions.jsonl --json": [],
    "mmjudge metric build emoprefer --out metric-emoprefer": [
        f"metric-emoprefer/{name}" for name in ("README.md", "app.py", "requirements.txt", "metric-emoprefer.py")
    ],
    "mmjudge metric push emoprefer --repo my-org/emoprefer --folder metric-emoprefer --dry-run": [],
    "mmjudge correlate --out runs/correlate": [f"runs/correlate/correlate.{ext}" for ext in ("json", "md", "png")],
}
"""Commands run verbatim, in the order they first appear in :data:`TOUR_PAGES`, with the files each must leave in
the folder."""

NEEDS: dict[str, str] = {
    "mmjudge tiny-model ": "torch",
    "mmjudge eval --benchmark mist --judge tiny/": "torch",
}
"""Commands of :data:`RUN` that need a module of an extra (``judges``): left out where it is not installed
(the torch-free venvs of ``make test-pythons``), run everywhere else."""

LEADERBOARD = "mmjudge leaderboard "
"""Leaderboard lines serve a board until stopped: they are parsed, and their ``--data-root`` is checked."""

SKIPPED: dict[str, str] = {
    "make demo": "runs in the repository checkout (its Makefile), not a fresh folder; tests/test_demo.py runs the demo",
    "make test": "the whole test suite, of which this test is part",
    "git clone": "needs the repository's address and the network",
    "pip install": "installs into the environment (the network; this test runs in an installed one)",
    "mmjudge build-dataset": "reads a raw release (emorealm_v1.json, EmoPrefer-Data/, pairs.csv, AdMIRe) and gated "
    "media (DFEW, MER2025) that only their owners hand out; tests/data builds the sample's raw files",
    "mmjudge push-dataset": "uploads to the Hub (network, login)",
    "python -c \"import datasets; datasets.Video()": "a check outside the project's environment (no clip.mp4)",
    "pip download torchcodec": "downloads a wheel (network)",
    "PYTHONPATH=/tmp/tc": "needs the torchcodec wheel downloaded above",
    "mmjudge metric push emoprefer --repo my-org/emoprefer --folder metric-emoprefer": "uploads to the Hub "
    "(network, login); its --dry-run is run",
    "mmjudge eval --benchmark isovrbench --judge judges/vlm_digit": "downloads a Qwen-VL checkpoint (weights)",
    "mmjudge eval --benchmark emorealm --judge judges/audio_visual": "downloads Qwen2.5-Omni (weights) and "
    "reads DFEW (gated media)",
    "torchrun ": "eight GPUs",
    "accelerate launch ": "eight GPUs",
    "mmjudge score runs/vlm_digit/": "scores the vlm_digit run above, which needs weights",
    "mmjudge eval --benchmark emorealm --judge random --data my-org/emorealm@v1": "reads a Hub dataset (network)",
    "mmjudge eval --benchmark isovrbench --judge judges/sharpness/config.yaml": "reads judges/sharpness/config.yaml "
    "from a checkout of this repository; tests/test_eval_cli.py runs the same judge",
    "mmjudge robustness ": "reads judges/ from a checkout and runs every probe (minutes); tests/robustness runs it",
}
"""Command prefixes not run here, each with why."""


def _key(line: str) -> str:
    """A command without its trailing comment, with single spaces (the key of ``RUN``/``SKIPPED``)."""
    return " ".join(re.sub(r"\s+#.*$", "", line).split())


def tour_commands() -> list[tuple[str, str]]:
    """``(key, verbatim line)`` of each shell command in the bash blocks of :data:`TOUR_PAGES`, in page order,
    each command once (where it first appears); continuation lines are joined."""
    commands: dict[str, str] = {}
    for page in TOUR_PAGES:
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                if _key(line) and not line.lstrip().startswith("#"):
                    commands.setdefault(_key(line), line.strip())
    return list(commands.items())


def _skip_reason(key: str) -> str | None:
    return next((why for prefix, why in SKIPPED.items() if key.startswith(prefix)), None)


def test_every_tour_command_is_run_or_skipped_with_a_reason() -> None:
    keys = [key for key, _ in tour_commands()]
    unplaced = [k for k in keys if k not in RUN and not k.startswith(LEADERBOARD) and _skip_reason(k) is None]
    assert unplaced == [], f"tour commands neither run nor skipped here: {unplaced}"
    assert [k for k in RUN if k not in keys] == [], "a command this test runs is no longer in the tour pages"
    assert sum(k.startswith(LEADERBOARD) for k in keys) >= 1
    assert all(k in RUN for k in keys if k.startswith("mmjudge compare") or k.startswith("mmjudge sample-data"))


def _installed(key: str) -> bool:
    """Whether the module a command of :data:`RUN` needs (:data:`NEEDS`) is installed here."""
    module = next((m for prefix, m in NEEDS.items() if key.startswith(prefix)), None)
    return module is None or importlib.util.find_spec(module) is not None


def _run(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_tour_commands_run_verbatim_in_a_fresh_folder(tmp_path: Path) -> None:
    """The commands in :data:`RUN` exit 0 and write their files; the leaderboard lines parse, are refused
    before ``make demo`` wrote their ``--data-root`` and are accepted once it holds the built sample."""
    from mmjudge.cli import build_parser
    from mmjudge.errors import MissingFileError
    from mmjudge.leaderboard.app.startup import check_data_root

    assert shutil.which("mmjudge", path=str(Path(sys.executable).parent)), "mmjudge is not installed here"
    ran = []
    for key, line in tour_commands():
        if key.startswith(LEADERBOARD):
            args = build_parser().parse_args(shlex.split(key)[1:])
            with pytest.raises(MissingFileError, match="make demo"):  # a fresh folder: no demo-output yet
                check_data_root(tmp_path / args.data_root)
            continue
        if key not in RUN or not _installed(key):
            continue
        done = _run(line, tmp_path)
        assert done.returncode == 0, f"{line}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
        missing = [f for f in RUN[key] if not (tmp_path / f).exists()]
        assert missing == [], f"{line} did not write {missing}"
        if key.endswith("--json"):
            assert "overall" in json.loads(done.stdout)
        ran.append(key)
    assert ran == [key for key in RUN if _installed(key)]
    serve = next(line for key, line in tour_commands() if key.startswith(LEADERBOARD))
    refused = _run(serve, tmp_path)  # verbatim, before `make demo`: refused, nothing served
    assert refused.returncode == 1 and "demo-output/sample-data" in refused.stderr, refused.stderr[-2000:]
    shutil.copytree(tmp_path / "sample", tmp_path / "demo-output" / "sample-data")  # what `make demo` writes there
    for key, _ in tour_commands():
        if key.startswith(LEADERBOARD):
            data_root = build_parser().parse_args(shlex.split(key)[1:]).data_root
            assert check_data_root(tmp_path / data_root) == tmp_path / data_root
