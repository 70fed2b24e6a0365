"""The runner: multi-process equality, resume after a kill, per-item failures, one decode per sweep.

The judge here (``CountingJudge``) is a test double registered in a temporary registry (in-process
tests) or by a small launcher script (subprocess tests, which load this file by path). It records
every item it judges in the file named by ``$MMJUDGE_TEST_CALLS``, can ``os._exit(1)`` after judging
``$MMJUDGE_TEST_EXIT_AFTER`` items, and raises a model error on the ids in ``$MMJUDGE_TEST_FAIL_IDS``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mmjudge.benchmarks.emoprefer import EmoPreferPair
from mmjudge.benchmarks.mist import MistCell
from mmjudge.judges import Diagnostics, Judge, JudgeInput, MediaRequest, ScoreQuery, Verdict
from mmjudge.queries import KINDS
from mmjudge.registry import Registry
from mmjudge.runner import ItemErrors, RunOptions, evaluate_judge, run_judge

STUB = "counting_stub"
PYTHON = sys.executable
TORCHRUN = str(Path(sys.executable).with_name("torchrun"))
needs_torchrun = pytest.mark.skipif(
    not Path(TORCHRUN).is_file(), reason="torchrun comes with torch (the judges extra); this venv has none"
)


class CountingJudge(Judge):
    """Deterministic answers from the decoded frames; logs each judged item; can crash on purpose."""

    answers: ClassVar[frozenset[type]] = frozenset(KINDS)
    reads: ClassVar[frozenset[str]] = frozenset({"video", "image"})
    blind: ClassVar[bool] = True  # answers every benchmark, whatever it decodes
    default_frames: ClassVar[int | None] = 4
    judged_here = 0

    def media_request(self, item: Any) -> MediaRequest:
        if getattr(item, "video", None) is not None:
            return MediaRequest(num_frames=self.config.frames or self.default_frames)
        return super().media_request(item)

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        exit_after = os.environ.get("MMJUDGE_TEST_EXIT_AFTER")
        if exit_after is not None and CountingJudge.judged_here >= int(exit_after):
            os._exit(1)
        failing = set(filter(None, os.environ.get("MMJUDGE_TEST_FAIL_IDS", "").split(",")))
        if failing & {i.query.item_id for i in inputs}:
            raise RuntimeError("stub model error")
        _log_calls(f"{i.query.item_id}@{self.config.frames}" for i in inputs)
        CountingJudge.judged_here += len(inputs)
        return [self._verdict(i) for i in inputs]

    def _verdict(self, judge_input: JudgeInput) -> Verdict:
        item, frames = judge_input.query, judge_input.frames
        level = float(frames.mean()) if frames is not None else 0.0
        extra = {"n_frames": 0 if frames is None else len(frames)}
        value: Any
        if isinstance(item, ScoreQuery):
            value = level
        elif isinstance(item, EmoPreferPair):
            value = "a1" if int(level) % 2 else "a2"
        elif isinstance(item, MistCell):
            value = "FF"
        else:
            value = "A"
        return Verdict(item.item_id, value, diagnostics=Diagnostics(extra=extra))


def _log_calls(lines: Any) -> None:
    path = os.environ.get("MMJUDGE_TEST_CALLS")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.writelines(f"{line}\n" for line in lines)
            handle.flush()
            os.fsync(handle.fileno())


LAUNCHER = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("runner_stub", {path!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from mmjudge.judges import JUDGES
JUDGES.register({name!r})(module.CountingJudge)
from mmjudge.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture
def stub_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    registry = Registry("judge")
    registry.register(STUB)(CountingJudge)
    monkeypatch.setattr("mmjudge.judges._registry.JUDGES", registry)
    monkeypatch.setattr(CountingJudge, "judged_here", 0)
    return registry


@pytest.fixture(scope="module")
def emoprefer_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small EmoPrefer sample (6 pairs with video and audio): ``<dir>/emoprefer`` + media root."""
    from mmjudge.benchmarks import write_sample_data

    out = tmp_path_factory.mktemp("emoprefer-sample")
    write_sample_data(out, size="small", benchmarks=["emoprefer"])
    return out


def media_root(data: Path) -> Path:
    return data / "raw" / "emoprefer" / "MER2025"


def launcher(tmp_path: Path) -> Path:
    script = tmp_path / "launch_stub.py"
    script.write_text(LAUNCHER.format(path=__file__, name=STUB), encoding="utf-8")
    return script


def eval_args(data: Path, out: Path, *extra: str) -> list[str]:
    return [
        "eval", "--benchmark", "emoprefer", "--judge", STUB, "--data", str(data / "emoprefer"),
        "--media-root", str(media_root(data)), "--out", str(out), "--swap", "--no-progress", *extra,
    ]  # fmt: skip


def run_cli(command: list[str], calls: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "MMJUDGE_TEST_CALLS": str(calls), "OMP_NUM_THREADS": "1", **env}
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300, check=False)


@needs_torchrun
def test_two_processes_write_the_same_predictions_as_one(emoprefer_data: Path, tmp_path: Path) -> None:
    script = launcher(tmp_path)
    one = run_cli([PYTHON, str(script), *eval_args(emoprefer_data, tmp_path / "one", "--decode-workers", "1")],
                  tmp_path / "calls1.txt")  # fmt: skip
    assert one.returncode == 0, one.stderr[-3000:]
    two = run_cli(
        [TORCHRUN, "--nproc_per_node", "2", "--standalone", str(script),
         *eval_args(emoprefer_data, tmp_path / "two", "--decode-workers", "0")],
        tmp_path / "calls2.txt",
    )  # fmt: skip
    assert two.returncode == 0, two.stderr[-3000:]
    first = (tmp_path / "one" / "predictions.jsonl").read_bytes()
    assert first == (tmp_path / "two" / "predictions.jsonl").read_bytes()
    assert len(first.splitlines()) == 1 + 12  # header + 6 forward + 6 reversed pairs
    calls = (tmp_path / "calls2.txt").read_text().split()
    assert sorted(calls) == sorted(set(calls)) and len(calls) == 12  # padding repeats judged once
    results = json.loads((tmp_path / "two" / "results.json").read_text())
    assert results["run"]["world"] == 2 and results["run"]["judged"] == 12


def test_a_killed_run_resumes_exactly(emoprefer_data: Path, tmp_path: Path) -> None:
    script, calls, out = launcher(tmp_path), tmp_path / "calls.txt", tmp_path / "out"
    command = [PYTHON, str(script), *eval_args(emoprefer_data, out, "--decode-workers", "1")]
    killed = run_cli(command, calls, MMJUDGE_TEST_EXIT_AFTER="5")
    assert killed.returncode == 1 and not (out / "predictions.jsonl").exists()
    assert len(calls.read_text().split()) == 5
    resumed = run_cli(command, calls)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    judged = calls.read_text().split()
    assert len(judged) == len(set(judged)) == 12  # every item once; none of the first five again
    records = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()[1:]]
    assert len({r["id"] for r in records}) == 12 and not any(r["no_judgment"] for r in records)
    assert json.loads((out / "results.json").read_text())["run"]["cached"] == 5


@pytest.mark.slow
@needs_torchrun
def test_a_run_with_one_rank_killed_resumes_exactly(emoprefer_data: Path, tmp_path: Path) -> None:
    script, calls, out = launcher(tmp_path), tmp_path / "calls.txt", tmp_path / "out"
    command = [TORCHRUN, "--nproc_per_node", "2", "--standalone", str(script),
               *eval_args(emoprefer_data, out, "--decode-workers", "0")]  # fmt: skip
    killed = run_cli(command, calls, MMJUDGE_TEST_EXIT_AFTER="2")
    assert killed.returncode != 0
    assert 2 <= len(calls.read_text().split()) <= 4
    resumed = run_cli(command, calls)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    judged = calls.read_text().split()
    assert len(judged) == len(set(judged)) == 12


def test_a_corrupt_clip_gives_one_no_judgment(
    emoprefer_data: Path, tmp_path: Path, stub_registry: Registry
) -> None:
    data = tmp_path / "data"
    shutil.copytree(emoprefer_data, data)
    (media_root(data) / "video" / "sample_00000002.mp4").write_bytes(b"\x00\x00\x00 not an mp4 at all")
    options = RunOptions(media_root=media_root(data), progress=False)
    (output,) = evaluate_judge("emoprefer", STUB, data / "emoprefer", tmp_path / "out", options)
    records = [json.loads(line) for line in output.predictions.read_text().splitlines()[1:]]
    failed = [r for r in records if r["no_judgment"]]
    assert [r["id"] for r in failed] == ["sample_00000002"]
    assert failed[0]["error"].startswith("MediaError: ") and "sample_00000002.mp4" in failed[0]["error"]
    assert len(records) == 6 and output.scores["n_items"] == 6


def test_a_model_error_fails_only_its_item(emoprefer_data: Path, tmp_path: Path, stub_registry: Registry,
                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setenv("MMJUDGE_TEST_FAIL_IDS", "sample_00000001")
    options = RunOptions(media_root=media_root(emoprefer_data), batch_size=4, progress=False)
    result = run_judge("emoprefer", STUB, emoprefer_data / "emoprefer", tmp_path / "out", options)
    verdicts = result.verdicts[None]
    assert [v.item_id for v in verdicts if v.no_judgment] == ["sample_00000001"]
    assert [v.error for v in verdicts if v.no_judgment] == ["RuntimeError: stub model error"]
    assert result.stats.judged == 6 and result.stats.failed == 1 and result.stats.errored == 1


def test_errored_items_are_counted_per_frame_count_and_in_results(
    emoprefer_data: Path, tmp_path: Path, stub_registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MMJUDGE_TEST_FAIL_IDS", "sample_00000001")
    options = RunOptions(media_root=media_root(emoprefer_data), frames=(2, 4), progress=False)
    outputs = evaluate_judge("emoprefer", STUB, emoprefer_data / "emoprefer", tmp_path / "out", options)
    first = ("RuntimeError: stub model error",)
    assert [o.errors for o in outputs] == [ItemErrors(1, 6, first, "frames=2"), ItemErrors(1, 6, first, "frames=4")]
    run = json.loads(outputs[0].results.read_text())["run"]
    assert (run["failed"], run["errored"], run["first_errors"]) == (2, 2, list(first))


def test_a_sweep_decodes_each_clip_once(emoprefer_data: Path, tmp_path: Path, stub_registry: Registry,
                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import mmjudge.runner.decode as decode

    reads: list[tuple[str, int]] = []
    real = decode.read_frames

    def counting(path: Any, indices: Any, **kwargs: Any) -> Any:
        reads.append((Path(path).name, len(indices)))
        return real(path, indices, **kwargs)

    monkeypatch.setattr(decode, "read_frames", counting)
    sweep = (4, 8, 16, 32, 48)
    options = RunOptions(frames=sweep, media_root=media_root(emoprefer_data), progress=False)
    outputs = evaluate_judge("emoprefer", STUB, emoprefer_data / "emoprefer", tmp_path / "out", options)
    assert sorted(name for name, _ in reads) == sorted(f"sample_{i:08d}.mp4" for i in range(6))
    assert [o.folder.name for o in outputs] == [f"frames_{n}" for n in sweep]
    cache = [
        json.loads(line) for line in (tmp_path / "out" / "cache" / "rank0.jsonl").read_text().splitlines()
    ]
    counts = sorted({r["verdict"]["diagnostics"]["extra"]["n_frames"] for r in cache})
    assert len(cache) == 6 * len(sweep) and counts == sorted(
        {min(n, max(c for _, c in reads)) for n in sweep}
    )
    header = json.loads(outputs[2].predictions.read_text().splitlines()[0])
    assert header["provenance"]["frames"] == {
        "frames": 16,
        "fps": None,
        "max_pixels": None,
        "sweep": list(sweep),
    }


def test_decode_workers_change_nothing_but_speed(
    emoprefer_data: Path, tmp_path: Path, stub_registry: Registry
) -> None:
    outputs = []
    for workers in (0, 2):
        options = RunOptions(frames=(4, 8), decode_workers=workers, media_root=media_root(emoprefer_data),
                             swap=True, progress=False)  # fmt: skip
        outputs.append(
            evaluate_judge("emoprefer", STUB, emoprefer_data / "emoprefer", tmp_path / f"w{workers}", options)
        )
    for inline, pooled in zip(*outputs, strict=True):
        assert inline.predictions.read_bytes() == pooled.predictions.read_bytes()


def test_limit_keeps_the_first_rows_and_resume_reuses_the_cache(emoprefer_data: Path, tmp_path: Path,
                                                                stub_registry: Registry) -> None:  # fmt: skip
    options = RunOptions(media_root=media_root(emoprefer_data), limit=2, progress=False)
    first = run_judge("emoprefer", STUB, emoprefer_data / "emoprefer", tmp_path / "out", options)
    assert [i.item_id for i in first.queries] == ["sample_00000000", "sample_00000001"] and len(first.rows) == 2
    again = run_judge("emoprefer", STUB, emoprefer_data / "emoprefer", tmp_path / "out", RunOptions(
        media_root=media_root(emoprefer_data), progress=False))  # fmt: skip
    assert (again.stats.cached, again.stats.judged) == (2, 4)
    assert again.verdicts[None][:2] == first.verdicts[None]


@pytest.mark.parametrize(("world", "count"), [(2, 1), (2, 5), (3, 4), (3, 7), (4, 2)])
def test_every_item_lands_on_exactly_one_rank(world: int, count: int) -> None:
    """accelerate's padding repeats the global last item on shorter ranks; the runner's shards must not."""
    from types import SimpleNamespace

    pytest.importorskip("accelerate")  # the judges extra: the no-torch Python slices run without it
    from accelerate.state import PartialState

    from mmjudge.runner.dist import Dist

    items = [f"i{k}" for k in range(count)]
    shares = []
    for rank in range(world):
        state = SimpleNamespace(num_processes=world, process_index=rank, device="cpu")
        state.split_between_processes = PartialState.split_between_processes.__get__(state)
        shares.append(Dist(rank=rank, world=world, device="cpu", state=state).shard(items))
    assert [i for share in shares for i in share] == items
