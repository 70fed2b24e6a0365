"""The shipped reported rows: they load, their keys are result keys of the scorer, and their cells are
the papers' printed cells (a hand-copied sample always; every cell when ../shared/paper-tables exists)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mmjudge import BENCHMARK_IDS
from mmjudge.benchmarks import get_benchmark
from mmjudge.benchmarks.isovrbench import INTERVENTIONS
from mmjudge.benchmarks.mist import STRATEGIES as MIST_STRATEGIES
from mmjudge.leaderboard.core.reported import reported_note, reported_rows

PAPER_TABLES = Path(__file__).resolve().parents[3].parent / "shared" / "paper-tables"
GENSUB = {"gensub_ti2v5b_first_frame": "i2v_continuation", "gensub_ti2v5b_t2v": "t2v_5b",
          "gensub_wan21_t2v_1p3b": "t2v_1_3b"}  # fmt: skip
PROMPTS = dict(zip(("Zero-Shot", "Few-Shot", "CoT", "Few-Shot + CoT"), MIST_STRATEGIES, strict=True))


def _results(benchmark: str) -> dict[str, dict]:
    return {row.judge: dict(row.results) for row in reported_rows(benchmark)}


def _generic(key: str) -> str:
    """A MIST key with its trio, slice, scoring and prompt replaced by the placeholders of RESULT_KEYS."""
    key = re.sub(r"^alt_test/(informed|blind)/(all|aligned|misleading)/(acc|mae)/(\w+)/",
                 r"alt_test/<trio>/<slice>/<scoring>/<prompt>/", key)  # fmt: skip
    return re.sub(r"^alt_test/(informed|blind)/", "alt_test/<trio>/", key)


def test_rows_load_and_name_their_table_and_protocol():
    counts = {b: len(reported_rows(b)) for b in BENCHMARK_IDS}
    assert counts == {"isovrbench": 11, "mist": 13, "emoprefer": 20, "emorealm": 0, "temporalbench": 9,
                      "tempcompass": 9, "videogen_rewardbench": 9, "genai_bench_video": 9, "mj_bench_video": 0}  # fmt: skip
    for benchmark in BENCHMARK_IDS:
        assert reported_note(benchmark)
        for row in reported_rows(benchmark):
            assert row.kind == "reported" and row.submitter == "paper" and row.sha256 is None
            assert re.search(r"Table \d+\b", row.source) and len(row.source) > 80, row.source


@pytest.mark.parametrize("benchmark", ["isovrbench", "mist", "emoprefer"])
def test_keys_are_result_keys_of_the_scorer_and_carry_no_interval(benchmark):
    documented = {key.name for key in get_benchmark(benchmark).metrics.result_keys}
    for judge, results in _results(benchmark).items():
        keys = {_generic(k) for k in results} if benchmark == "mist" else set(results)
        assert keys <= documented, (judge, keys - documented)
        assert not [k for k in results if "_ci_" in k]  # the papers print no intervals
        for key, value in results.items():
            if isinstance(value, float) and not key.endswith("_std"):
                assert 0.0 <= value <= 100.0, (judge, key, value)  # percent, as the scorers


def test_mist_prompts_and_pass_marks_follow_the_scorer():
    for judge, results in _results("mist").items():
        prompts = {k.split("/")[4] for k in results if k.endswith("/winning_rate")}
        assert prompts == set(MIST_STRATEGIES), judge
        for key, value in results.items():
            if key.endswith("/winning_rate"):
                assert results[key.replace("winning_rate", "passed")] is (value >= 50.0)
        for trio in ("informed", "blind"):
            passed = [
                v for k, v in results.items() if k.startswith(f"alt_test/{trio}/") and k.endswith("/passed")
            ]
            assert results[f"alt_test/{trio}/explicit/n_tests"] == len(passed) == 24
            assert results[f"alt_test/{trio}/explicit/n_passed"] == sum(passed)


# A sample of printed cells, copied by hand from the papers' tables (table, row, column, value).
SAMPLE = [
    ("isovrbench", "VideoReward", "accuracy/temporal_shuffle", 60.8),  # Table 2
    ("isovrbench", "LiFT", "accuracy/frame_hold", 8.9),  # Table 2
    ("isovrbench", "GPT-4.1", "accuracy/t2v_5b", 85.5),  # Table 2, column 7
    ("isovrbench", "Qwen3-VL-8B", "average", 69.3),  # Table 2
    ("isovrbench", "VisionReward", "decided_accuracy/reduced_steps", 83.4),  # Table 5
    ("isovrbench", "VideoScore2", "decided_average", 64.8),  # Table 5
    ("isovrbench", "LiFT", "tie_rate", 61.0),  # Table 5 tie %
    ("isovrbench", "PickScore", "dimension_accuracy/overall", 81.3),  # Table 11
    ("mist", "Q2-7B", "change_rate/none_to_aligned/explicit", 42.2),  # Table 6
    ("mist", "MiS-24B", "change_rate/none_to_misleading/explicit", 16.9),  # Table 6
    ("mist", "K-VL", "change_rate/control", 16.7),  # Table 6
    ("mist", "G3.1-FL", "direction/explicit", 12.0),  # Table 6
    (
        "mist",
        "GPT-5.2",
        "alt_test/blind/all/acc/few_shot_cot/explicit/winning_rate",
        33.0,
    ),  # Table 9, eps .15
    (
        "mist",
        "G3.5-F",
        "alt_test/blind/all/mae/few_shot_cot/explicit/winning_rate",
        100.0,
    ),  # Table 9, eps .15
    ("mist", "Q3.6-27B", "alt_test/informed/aligned/acc/cot/explicit/winning_rate", 33.0),  # Table 9, eps .20
    ("emoprefer", "Qwen2.5-Omni", "waf_2class", 67.21),  # Table 2
    ("emoprefer", "Video-LLaVA", "swap_consistency_std", 3.31),  # Table 2
    ("emoprefer", "GPT-4.1", "swap_consistency", 80.84),  # Table 2
    ("emoprefer", "PLLAVA", "acc_3class_std", 0.0),  # Table 2
    ("emoprefer", "Qwen2.5-VL", "strategy", "S1"),  # Table 2
]


@pytest.mark.parametrize(("benchmark", "judge", "key", "value"), SAMPLE)
def test_a_sample_of_cells_equals_the_papers(benchmark, judge, key, value):
    assert _results(benchmark)[judge][key] == value


def test_what_is_not_comparable_is_not_in_a_column():
    iso = _results("isovrbench")
    assert "Human" not in iso  # 45 rated pairs per intervention, not the judges' 1,000
    for name in ("UnifiedReward-Flex-9B", "UnifiedReward-2.0-8B"):  # tie % may or may not count no-judgments
        assert "tie_rate" not in iso[name] and "decided_average" in iso[name]
    for name in ("GPT-4.1", "Qwen3-VL-8B"):  # not in Table 5
        assert not [k for k in iso[name] if k.startswith("decided")]
    mist = _results("mist")
    assert not [
        k for r in mist.values() for k in r if "/silent" in k or k.startswith(("drift/", "agreement/"))
    ]


def _paper_json(name: str) -> dict[str, list]:
    text = (PAPER_TABLES / name).read_text(encoding="utf-8")
    tables = {}
    for match in re.finditer(r"^## (Table \d+)[^\n]*\n(.*?)(?=^## |\Z)", text, re.S | re.M):
        blocks = re.findall(r"```json\n(.*?)```", match.group(2), re.S)
        if blocks:
            tables[match.group(1)] = json.loads(blocks[0])
    return tables


needs_tables = pytest.mark.skipif(not PAPER_TABLES.is_dir(), reason=f"{PAPER_TABLES} is not on this machine")


@needs_tables
def test_every_isovrbench_cell_equals_the_paper():
    tables, rows = _paper_json("isovrbench.md"), _results("isovrbench")
    ivs = {k: GENSUB.get(k, k) for k in (*INTERVENTIONS[:5], *GENSUB)}
    judges = [r for r in tables["Table 2"] if r["model"] != "Human"]
    assert [r["model"] for r in judges] == list(rows)
    for r in judges:
        assert rows[r["model"]]["average"] == r["avg"]
        assert {ours: rows[r["model"]][f"accuracy/{ours}"] for ours in ivs.values()} == {
            ivs[k]: r[k] for k in ivs
        }
    for r in tables["Table 5"]:
        mine = rows[r["model"]]
        assert (
            mine["decided_average"] == r["avg_decided"] and mine.get("tie_rate", r["tie_pct"]) == r["tie_pct"]
        )
        assert {ivs[k]: mine[f"decided_accuracy/{ivs[k]}"] for k in ivs} == {
            ivs[k]: r[f"{k}_decided"] for k in ivs
        }
    for r in tables["Table 11"]:
        assert rows[r["model"]]["dimension_accuracy/overall"] == r["overall_mean"]


@needs_tables
def test_every_mist_cell_equals_the_paper():
    tables, rows = _paper_json("mist.md"), _results("mist")
    for r in (r for r in tables["Table 6"] if not r["is_aggregate"]):
        mine = rows[r["judge"]]
        assert (mine["change_rate/none_to_aligned/explicit"], mine["change_rate/none_to_misleading/explicit"],
                mine["change_rate/control"], mine["direction/explicit"]) == (
            r["change_aligned_pct"], r["change_misleading_pct"], r["change_prompt_edit_pct"], r["toward_image_pct"])  # fmt: skip
    epsilon = {"informed": "e20", "blind": "e15"}  # each trio's own epsilon
    for r in tables["Table 9"]:
        for trio in ("informed", "blind"):
            for slice_name in ("all", "aligned", "misleading"):
                for scoring in ("acc", "mae"):
                    key = (
                        f"alt_test/{trio}/{slice_name}/{scoring}/{PROMPTS[r['prompt']]}/explicit/winning_rate"
                    )
                    printed = r[f"{trio}_{slice_name}_{scoring}_{epsilon[trio]}"]
                    assert rows[r["judge"]][key] == pytest.approx(100 * printed, abs=1e-9)


@needs_tables
def test_every_emoprefer_cell_equals_the_paper():
    tables, rows = _paper_json("emoprefer.md"), _results("emoprefer")
    assert [r["model"] for r in tables["Table 2"]] == list(rows)
    for r in tables["Table 2"]:
        mine = rows[r["model"]]
        assert mine["strategy"] == r["strategy"] and mine["n_rounds"] == 2
        for key in ("waf_2class", "acc_2class", "waf_3class", "acc_3class", "swap_consistency"):
            assert (mine[key], mine[f"{key}_std"]) == (r[key], r[f"{key}_std"])
