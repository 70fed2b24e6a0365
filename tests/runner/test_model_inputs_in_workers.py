"""The judges' processor calls run in the decode workers, and the verdicts do not change.

With ``decode_workers > 0`` the runner's forked decode workers call each judge's ``model_inputs`` (its
processor on the decoded media) and the judging process only batches the tensors. Checked: the processor
ran in the workers and never in the judging process, and every verdict (value and diagnostics) equals
the one made with ``decode_workers=0``, for ``vlm_digit`` (images and video) on a Qwen family and a
processor-sized family, and ``label_choice`` on MIST images (Idefics2; Idefics3 under ``slow``) and EmoReAlM
frames.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from mmjudge.judges import (
    JudgeConfig,
    _chat,
    _family,
    vlm_digit,
)
from mmjudge.runner import RunOptions, run_judge

CASES = {
    "vlm_digit-qwen2_vl-images": ("isovrbench", "vlm_digit", "qwen2_vl", {}),
    "vlm_digit-qwen2_vl-video": ("isovrbench", "vlm_digit", "qwen2_vl", {"as_video": True}),
    "vlm_digit-llava_onevision-video": ("isovrbench", "vlm_digit", "llava_onevision", {"as_video": True}),
    "label_choice-idefics3-mist": ("mist", "label_choice", "idefics3", {"max_reasoning_tokens": 2}),
    "label_choice-idefics2-mist": ("mist", "label_choice", "idefics2", {"max_reasoning_tokens": 2}),
    "label_choice-gemma3-emorealm": ("emorealm", "label_choice", "gemma3", {}),
}


@pytest.fixture
def processor_pids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], set[int]]:
    """Record the process of every family processor call (a file per call: forked workers write too)."""
    calls = tmp_path / "processor-calls"
    calls.mkdir()
    original = _family.processor_inputs

    def recorded(*args: Any, **kwargs: Any) -> Any:
        (calls / f"{os.getpid()}-{len(list(calls.iterdir()))}-{os.urandom(4).hex()}").touch()
        return original(*args, **kwargs)

    monkeypatch.setattr(_family, "processor_inputs", recorded)
    monkeypatch.setattr(vlm_digit, "processor_inputs", recorded)
    monkeypatch.setattr(_chat, "processor_inputs", recorded)  # label_choice and pairwise_describe encode through _chat
    return lambda: {int(p.name.split("-")[0]) for p in calls.iterdir()}


def _folder(family: str, request: pytest.FixtureRequest) -> Path:
    if family == "qwen2_vl":
        return Path(request.getfixturevalue("tiny_qwen2_vl"))
    return Path(request.getfixturevalue("tiny_family")(family))


SLOW = {"label_choice-idefics3-mist"}
"""Idefics3 splits each MIST image into up to 17 tiles of 169 tokens (37 s for the two runs, 2 idle cores):
under ``slow``; ``make test`` checks MIST images through the same workers with Idefics2 (13 s: one image of
64 tokens, no splitting)."""


@pytest.mark.parametrize(
    "case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in sorted(CASES)]
)
def test_the_processor_runs_in_the_workers_and_verdicts_do_not_change(
    case: str,
    sample_data: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    processor_pids: Callable[[], set[int]],
) -> None:
    benchmark, judge, family, options = CASES[case]
    config = JudgeConfig(judge=judge, model=str(_folder(family, request)), local_files_only=True,
                         dtype="float32", frames=4, batch_size=3, options=options)  # fmt: skip
    root = sample_data / "raw" / "emorealm" / "DFEW" if benchmark == "emorealm" else None
    verdicts = {}
    for workers in (0, 2):
        run = RunOptions(limit=3 if benchmark != "mist" else 1, media_root=root, decode_workers=workers,
                         progress=False)  # fmt: skip
        result = run_judge(benchmark, config, sample_data / benchmark, tmp_path / f"out-{workers}", run)
        [verdicts[workers]] = result.verdicts.values()
        pids = processor_pids()
        if workers == 0:
            assert pids == {os.getpid()}
        else:
            assert os.getpid() not in pids and len(pids) >= 1, pids  # only the workers ran the processor
        for path in (tmp_path / "processor-calls").iterdir():
            path.unlink()
    assert len(verdicts[0]) >= 3 and not any(v.no_judgment for v in verdicts[0])

    def comparable(verdict: Any) -> Any:
        return verdict.item_id, verdict.value, verdict.diagnostics.raw_text, verdict.diagnostics.valid_mass

    assert [comparable(v) for v in verdicts[2]] == [comparable(v) for v in verdicts[0]]
