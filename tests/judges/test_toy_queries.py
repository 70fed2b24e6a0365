"""A fifth benchmark from outside mmjudge runs through three real judges, none of which names it.

The toy benchmark (``tests/toy_benchmark/toybench``) asks "which colour is this clip?" either as a choice
among letters or, for a judge that only rates clips, as three clips to rate against a caption each
(``RecordSpec.query_kinds``). ``label_choice`` answers the choice; ``video_reward`` and ``vlm_digit`` rate the
clips; the benchmark maps either back to a letter. Tiny random models, loaded through the real loading
path; the toy is registered in this process the way an entry point registers it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mmjudge.benchmarks import BENCHMARKS, benchmark_ids, write_sample_data
from mmjudge.judges import JudgeConfig, get_judge
from mmjudge.queries import ChoiceQuery, ScoreQuery
from mmjudge.runner import RunOptions, evaluate_judge

TOY = Path(__file__).resolve().parents[1] / "toy_benchmark"


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The toy registered as a benchmark (as its entry point would) and its sample folder."""
    sys.path.insert(0, str(TOY))
    try:
        import toybench
    finally:
        sys.path.remove(str(TOY))
    BENCHMARKS._entries["toy"] = toybench.BENCHMARK
    try:
        root = tmp_path_factory.mktemp("toy-data")
        write_sample_data(root, benchmarks=["toy"])
        yield root / "toy"
    finally:
        BENCHMARKS._entries.pop("toy", None)


def _run(toy: Path, config: JudgeConfig, out: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    (output,) = evaluate_judge("toy", config, toy, out, RunOptions(decode_workers=0, progress=False))
    results = json.loads(Path(output.results).read_text(encoding="utf-8"))
    lines = Path(output.predictions).read_text(encoding="utf-8").splitlines()
    return results, [json.loads(line) for line in lines[1:]]


def _tiny(judge: str, model: Path, **extra: Any) -> JudgeConfig:
    return JudgeConfig(judge=judge, model=str(model), local_files_only=True, dtype="float32", frames=4, **extra)


def test_the_toy_asks_each_judge_a_kind_it_answers(toy: Path) -> None:
    assert "toy" in benchmark_ids()
    assert get_judge("label_choice").query_kind("toy") is ChoiceQuery
    assert get_judge("video_reward").query_kind("toy") is ScoreQuery
    assert get_judge("vlm_digit").query_kind("toy") is ScoreQuery
    assert get_judge("audio_visual").query_kind("toy") is ChoiceQuery
    assert {"label_choice", "video_reward", "vlm_digit", "random"} <= {
        name for name in ("label_choice", "video_reward", "vlm_digit", "random", "clip_score")
        if "toy" in get_judge(name).benchmarks
    }  # fmt: skip


def test_label_choice_answers_the_toy_as_a_choice(toy: Path, tiny_qwen2_vl: Path, tmp_path: Path) -> None:
    results, records = _run(toy, _tiny("label_choice", tiny_qwen2_vl), tmp_path / "label_choice")
    assert results["scores"]["n"] == 9 and results["run"]["items"] == 9  # one query per question
    assert {r["prediction"] for r in records} <= {"A", "B", "C"} and not any(r["no_judgment"] for r in records)


def test_vlm_digit_answers_the_toy_by_rating_each_caption(toy: Path, tiny_qwen2_vl: Path, tmp_path: Path) -> None:
    results, records = _run(toy, _tiny("vlm_digit", tiny_qwen2_vl), tmp_path / "vlm_digit")
    assert results["scores"]["n"] == 9 and results["run"]["items"] == 27  # three captions per clip
    assert len(records) == 9 and {r["prediction"] for r in records} <= {"A", "B", "C", None}
    _check_best_rated(tmp_path / "vlm_digit", records)


def test_video_reward_answers_the_toy_by_rating_each_caption(toy: Path, tiny_qwen2_vl: Path, tmp_path: Path) -> None:
    from test_video_reward import _write_checkpoint

    checkpoint = tmp_path / "videoalign"
    _write_checkpoint(tiny_qwen2_vl, checkpoint, 1, lora=False)
    config = _tiny("video_reward", tiny_qwen2_vl, options={"checkpoint": str(checkpoint), "min_pixels": 3136})
    results, records = _run(toy, config, tmp_path / "video_reward")
    assert results["scores"]["n"] == 9 and results["run"]["items"] == 27
    _check_best_rated(tmp_path / "video_reward", records)


def _check_best_rated(out: Path, records: list[dict[str, Any]]) -> None:
    """Each record's letter is the caption the judge rated best, read from the run's verdict cache."""
    ratings: dict[str, dict[str, float]] = {}
    for path in (out / "cache").glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            verdict = json.loads(line)["verdict"]
            value = verdict["value"]
            question, letter = verdict["item_id"].split("::")
            ratings.setdefault(question, {})[letter] = value["overall"] if isinstance(value, dict) else value
    for record in records:
        scores = ratings[record["id"]]
        best = [letter for letter, v in scores.items() if v == max(scores.values())]
        assert record["prediction"] == (best[0] if len(best) == 1 else None), (record, scores)
