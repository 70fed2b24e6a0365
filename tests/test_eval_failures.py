"""Runs fail loudly: items that failed with an error make ``mmjudge eval`` exit 3 (beyond
``--max-failed-share``) after writing its files; a no-judgment answer (a reply without a readable label) is
scored as the benchmark's paper does and fails nothing."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mmjudge.cli import main
from mmjudge.judges import Judge, JudgeInput, Verdict, free_text_verdict
from mmjudge.queries import ChoiceQuery
from mmjudge.registry import Registry

MUMBLER = "mumbling_stub"


@pytest.fixture(scope="module")
def broken_isovrbench(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The IsoVRBench sample with every clip replaced by bytes no decoder reads."""
    folder = tmp_path_factory.mktemp("broken") / "isovrbench"
    shutil.copytree(sample_data / "isovrbench", folder)
    for clip in folder.rglob("*.mp4"):
        clip.write_bytes(b"\x00\x00\x00 not an mp4 at all")
    return folder


def sharpness_eval(data: Path, out: Path, *extra: str) -> list[str]:
    return ["eval", "--benchmark", "isovrbench", "--judge", "sharpness", "--data", str(data), "--out", str(out),
            "--limit", "2", "--decode-workers", "0", "--no-progress", *extra]  # fmt: skip


def test_items_that_fail_with_an_error_exit_3_with_the_count_the_first_errors_and_the_log(
    broken_isovrbench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(sharpness_eval(broken_isovrbench, out)) == 3
    err = capsys.readouterr().err
    run = json.loads((out / "results.json").read_text())["run"]
    items = run["items"]
    assert items > 0 and run["errored"] == run["failed"] == items
    assert f"{items} of {items} items failed with an error" in err
    assert 1 <= len(run["first_errors"]) <= 3 and all(e.startswith("MediaError: ") for e in run["first_errors"])
    assert repr(run["first_errors"][0]) in err and str(out / "eval.log") in err and "status 3" in err
    assert {"predictions.jsonl", "results.json", "report.md"} <= {p.name for p in out.iterdir()}
    assert "failed with an error" in (out / "eval.log").read_text()
    # the same folder again: the cached failures are still errors; a share of 1.0 accepts them
    assert main(sharpness_eval(broken_isovrbench, out, "--max-failed-share", "1.0")) == 0
    err = capsys.readouterr().err
    assert f"warning: {items} of {items} items failed with an error" in err and "status 3" not in err
    assert json.loads((out / "results.json").read_text())["run"]["cached"] == items


def test_a_sweep_fails_when_any_frame_count_is_over_the_share(
    broken_isovrbench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(sharpness_eval(broken_isovrbench, tmp_path / "sweep", "--frames", "2,4")) == 3
    err = capsys.readouterr().err
    assert "frames=2: " in err and "frames=4: " in err and "items failed with an error" in err
    assert (tmp_path / "sweep" / "frames_4" / "predictions.jsonl").is_file()


@pytest.mark.parametrize("share", ["1.5", "-0.1", "nan"])
def test_a_share_outside_0_to_1_is_refused_before_anything_is_written(
    broken_isovrbench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], share: str
) -> None:
    assert main(sharpness_eval(broken_isovrbench, tmp_path / "out", "--max-failed-share", share)) == 1
    assert "--max-failed-share must be a share from 0 to 1 (0: no item may fail with an error; " in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "out").exists()


class MumblingJudge(Judge):
    """Answers MIST cells in free text: a label for every other cell, a reply without one for the rest;
    raises on the ids in :attr:`raise_on` (a model error)."""

    answers: ClassVar[frozenset[type]] = frozenset({ChoiceQuery})
    reads: ClassVar[frozenset[str]] = frozenset()
    blind: ClassVar[bool] = True
    raise_on: ClassVar[frozenset[str]] = frozenset()

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        if self.raise_on & {x.query.item_id for x in inputs}:
            raise RuntimeError("stub model error")
        return [self._answer(x.query, i) for i, x in enumerate(inputs)]

    def _answer(self, query: Any, position: int) -> Verdict:
        return free_text_verdict(query, query.labels[0] if position % 2 else "I really cannot tell.")


@pytest.fixture
def mumbler(monkeypatch: pytest.MonkeyPatch) -> type[MumblingJudge]:
    registry = Registry("judge")
    registry.register(MUMBLER)(MumblingJudge)
    monkeypatch.setattr("mmjudge.judges._registry.JUDGES", registry)
    return MumblingJudge


def mist_eval(data: Path, out: Path, *extra: str) -> list[str]:
    return ["eval", "--benchmark", "mist", "--judge", MUMBLER, "--data", str(data / "mist"), "--out", str(out),
            "--limit", "1", "--decode-workers", "0", "--batch-size", "4", "--no-progress", *extra]  # fmt: skip


def test_no_judgment_answers_alone_do_not_fail_the_run(
    sample_data: Path, tmp_path: Path, mumbler: type[MumblingJudge], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(mist_eval(sample_data, out)) == 0
    assert "failed with an error" not in capsys.readouterr().err
    run = json.loads((out / "results.json").read_text())["run"]
    assert run["failed"] > 0 and run["errored"] == 0 and run["first_errors"] == []
    records = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()[1:]]
    unlabelled = [r for r in records if r["no_judgment"]]
    assert unlabelled and all("label in the reply 'I really cannot tell.'" in r["error"] for r in unlabelled)


def test_one_model_error_among_no_judgment_answers_counts_alone(
    sample_data: Path, tmp_path: Path, mumbler: type[MumblingJudge], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    assert main(mist_eval(sample_data, tmp_path / "probe")) == 0  # learn the ids
    records = [json.loads(line) for line in (tmp_path / "probe" / "predictions.jsonl").read_text().splitlines()[1:]]
    monkeypatch.setattr(mumbler, "raise_on", frozenset({records[0]["id"]}))
    capsys.readouterr()
    out = tmp_path / "run"
    assert main(mist_eval(sample_data, out)) == 3
    err = capsys.readouterr().err
    assert f"1 of {len(records)} items failed with an error; first errors: 'RuntimeError: stub model error'" in err
    run = json.loads((out / "results.json").read_text())["run"]
    assert run["errored"] == 1 and run["failed"] > 1
    assert main(mist_eval(sample_data, out, "--max-failed-share", str(1 / len(records)))) == 0
