"""``mmjudge.robustness`` end to end on the sample data, with judges whose behaviour is known.

Each test states the figure a synthetic judge must produce: an always-first judge has swap consistency
0 and answers first every time; a constant judge ties every pair and every control; a judge blind to
the frame count has slope 0; a judge blind to the prompt has drop 0; a generator-identity judge is
matched by the generator predictor. Costs are the runner's counts: a robustness run after ``mmjudge
eval`` into the same folder judges only the probes' new items.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_helpers import expected_note, needs_mark

from mmjudge.judges import JudgeConfig
from mmjudge.robustness import RobustnessOptions, read_report, robustness_report, validate_report
from mmjudge.runner import RunOptions, evaluate_judge


def _run(data: Path, benchmark: str, judge: str | JudgeConfig, out: Path, **kwargs: Any) -> dict[str, Any]:
    root = data / "raw/emoprefer/MER2025" if benchmark == "emoprefer" else None
    run = RunOptions(media_root=root, progress=False)
    output = robustness_report(benchmark, judge, data / benchmark, out, RobustnessOptions(run=run, **kwargs))
    assert output is not None
    return output.report


def _probe(report: dict[str, Any], name: str) -> dict[str, Any]:
    (probe,) = [p for p in report["probes"] if p["name"] == name]
    return probe


def _effect(report: dict[str, Any], probe: str, effect: str) -> dict[str, Any]:
    (found,) = [e for e in _probe(report, probe)["effects"] if e["name"] == effect]
    return found


def test_always_first_judge_has_swap_consistency_0_and_full_position_bias(sample_data: Path, tmp_path: Path) -> None:
    config = JudgeConfig(judge="constant")
    report = _run(sample_data, "emoprefer", config, tmp_path, probes=("swap",))
    assert _effect(report, "swap", "swap_consistency")["value"] == 0.0
    assert _effect(report, "swap", "first_rate")["value"] == 100.0
    gold_first = _probe(report, "swap")["details"]["gold_first_rate"]
    assert gold_first == 50.0  # both orders: a gold a1 in one order is a gold a2 in the other
    assert _effect(report, "swap", "position_bias")["value"] == 100.0 - gold_first
    # every verdict flips under swap, so JudgeBench-style every pair is a tie: right only on gold `same`
    from mmjudge.scoring import load_reference_rows

    rows = load_reference_rows("emoprefer", sample_data / "emoprefer")
    same = sum(r["preference"] == "same" for r in rows)
    assert _effect(report, "swap", "judgebench_accuracy")["value"] == pytest.approx(100.0 * same / len(rows))
    assert report["summary"]["swap/swap_consistency"] == 0.0


def test_constant_clip_judge_ties_every_pair_and_every_control(synthetic_judges: Path, tmp_path: Path) -> None:
    report = _run(synthetic_judges, "isovrbench", "test_constant_clip", tmp_path, probes=("ties",))
    assert _effect(report, "ties", "tie_rate")["value"] == 100.0
    controls = _effect(report, "ties", "control_tie_rate")
    assert controls["value"] == 100.0 and controls["n"] == len(_probe(report, "ties")["variants"]) > 0
    assert _effect(report, "ties", "equal_score_rate")["value"] == 100.0
    assert _effect(report, "ties", "score_spread")["value"] == 0.0


def test_seeded_by_id_judge_fails_the_identical_clip_controls(sample_data: Path, tmp_path: Path) -> None:
    """``random`` draws from the item id, so the same clip under a control id gets another score."""
    report = _run(sample_data, "isovrbench", "random", tmp_path, probes=("ties",))
    assert _effect(report, "ties", "control_tie_rate")["value"] == 0.0
    assert _effect(report, "ties", "tie_rate")["value"] == 0.0


def test_one_frame_count_is_judged_with_that_count(synthetic_judges: Path, tmp_path: Path) -> None:
    report = _run(synthetic_judges, "isovrbench", "test_frame_hungry", tmp_path, probes=("frames",), frames=(16,))
    assert _effect(report, "frames", "accuracy@16")["value"] == 100.0  # the judge's own 8 frames would give 0
    assert _effect(report, "frames", "frame_slope")["value"] is None


def test_frame_blind_judge_has_zero_slope(synthetic_judges: Path, tmp_path: Path) -> None:
    report = _run(synthetic_judges, "isovrbench", "test_frame_blind", tmp_path, probes=("frames",), frames=(4, 8, 16))
    slope = _effect(report, "frames", "frame_slope")
    assert slope["value"] == pytest.approx(0.0, abs=1e-9)
    assert slope["p_value"] is None and "clustered SE is 0" in slope["note"]
    accuracies = {e["value"] for e in _probe(report, "frames")["effects"] if e["name"].startswith("accuracy@")}
    assert len(accuracies) == 1
    assert _probe(report, "frames")["details"]["significant"] is False


def test_frame_hungry_judge_has_a_positive_significant_slope(synthetic_judges: Path, tmp_path: Path) -> None:
    report = _run(synthetic_judges, "isovrbench", "test_frame_hungry", tmp_path, probes=("frames",), frames=(4, 8, 16, 32))
    probe = _probe(report, "frames")
    per_count = probe["details"]["accuracy_per_frame_count"]
    assert per_count["4"]["accuracy"] == per_count["8"]["accuracy"] == 0.0
    assert per_count["16"]["accuracy"] == per_count["32"]["accuracy"] == 100.0
    slope = _effect(report, "frames", "frame_slope")
    # accuracy 0, 0, 100, 100 at log2(count) = 2, 3, 4, 5: least squares gives 200 / 5 = 40 points per doubling
    assert slope["value"] == pytest.approx(40.0)
    assert slope["p_value"] < 0.05 and probe["details"]["significant"] is True


def test_judge_without_frames_skips_the_frame_probe_with_a_reason(sample_data: Path, tmp_path: Path) -> None:
    report = _run(sample_data, "isovrbench", "random", tmp_path, probes=("frames",))
    probe = _probe(report, "frames")
    assert probe["status"] == "skipped" and "reads no video frames" in probe["reason"]
    assert probe["effects"] == [] and "frames/frame_slope" not in report["summary"]


def test_prompt_blind_judge_has_zero_drop_and_prompt_reader_a_full_one(synthetic_judges: Path, tmp_path: Path) -> None:
    blind = _run(synthetic_judges, "isovrbench", "frame_smoothness", tmp_path / "blind", probes=("irrelevant_prompt",))
    drop = _effect(blind, "irrelevant_prompt", "prompt_drop")
    assert (drop["value"], drop["ci_low"], drop["ci_high"]) == (0.0, 0.0, 0.0) and drop["n"] > 0
    reader = _run(synthetic_judges, "isovrbench", "test_prompt_match", tmp_path / "reader", probes=("irrelevant_prompt",))
    assert _effect(reader, "irrelevant_prompt", "prompt_drop")["value"] == 1.0
    assert _effect(reader, "irrelevant_prompt", "own_prompt_preferred")["value"] == 100.0
    for variant in _probe(reader, "irrelevant_prompt")["variants"]:  # recorded: which prompt was swapped in
        assert variant["change"]["prompt_from"] and variant["change"]["prompt"]
        assert variant["item_id"] == f"{variant['source']}::prompt-of::{variant['change']['prompt_from']}"


def test_generator_identity_judge_is_matched_by_the_generator_predictor(synthetic_judges: Path, tmp_path: Path) -> None:
    report = _run(synthetic_judges, "isovrbench", "test_generator", tmp_path, probes=("generator_shortcut",))
    agreement = _effect(report, "generator_shortcut", "generator_predictor_agreement")
    accuracy = _effect(report, "generator_shortcut", "judge_accuracy")
    # the judge prefers Wan2.1-1.3B's anchors (A14B 0 > 1.3B -1) and TI2V-5B's substitutes (1 > 0)
    assert accuracy["value"] == pytest.approx(100.0 * 2 / 6)
    assert agreement["n"] == 6 and agreement["value"] == 100.0


def test_modality_ablation_records_the_removed_modality(sample_data: Path, tmp_path: Path) -> None:
    report = _run(sample_data, "emorealm", JudgeConfig(judge="constant", options={"answer": "A"}), tmp_path)
    probe = _probe(report, "modality_ablation")
    assert {v["change"]["removed"] for v in probe["variants"]} == {"audio", "video"}
    for name in ("drop_without_audio", "drop_without_video"):  # a constant answer ignores every modality
        assert _effect(report, "modality_ablation", name)["value"] == 0.0
    assert _probe(report, "repeat")["status"] == "skipped" and "--repeats" in _probe(report, "repeat")["reason"]


def test_repeat_stability_of_a_deterministic_and_a_seeded_judge(sample_data: Path, tmp_path: Path) -> None:
    fixed = _run(sample_data, "mist", "constant", tmp_path / "c", probes=("repeat",), repeats=3)
    assert _effect(fixed, "repeat", "exact_agreement")["value"] == 100.0
    assert _effect(fixed, "repeat", "headline_sd")["value"] == 0.0
    assert _probe(fixed, "repeat")["details"]["seeds"] == [0, 1, 2]
    drawn = _run(sample_data, "mist", "random", tmp_path / "r", probes=("repeat",), repeats=2)
    assert _effect(drawn, "repeat", "exact_agreement")["value"] < 50.0


def test_after_eval_only_new_variants_are_judged_and_a_rerun_judges_nothing(sample_data: Path, tmp_path: Path) -> None:
    evaluate_judge("isovrbench", "frame_smoothness", sample_data / "isovrbench", tmp_path, RunOptions(progress=False))
    first = _run(sample_data, "isovrbench", "frame_smoothness", tmp_path, probes=("ties", "irrelevant_prompt"))
    assert first["base"]["judged"] == 0 and first["base"]["cached"] == first["base"]["items"] > 0
    scores = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["scores"]
    assert first["headline"] == {"average": scores["average"]}  # the benchmark's scoring, untouched
    assert _effect(first, "ties", "tie_rate")["value"] == scores["tie_rate"]
    for name in ("ties", "irrelevant_prompt"):
        cost = _probe(first, name)["cost"]
        assert cost["judged"] == cost["items"] == len(_probe(first, name)["variants"]) and cost["cached"] == 0
    again = _run(sample_data, "isovrbench", "frame_smoothness", tmp_path, probes=("ties", "irrelevant_prompt"))
    for name in ("ties", "irrelevant_prompt"):
        assert _probe(again, name)["cost"]["judged"] == 0
        assert _probe(again, name)["variants"] == _probe(first, name)["variants"]  # derived identically
    assert again["summary"] == first["summary"]


def test_written_files_validate_and_the_markdown_lists_skipped_probes(sample_data: Path, tmp_path: Path) -> None:
    _run(sample_data, "isovrbench", "random", tmp_path)
    report = read_report(tmp_path / "robustness.json")
    validate_report(report)
    assert report["schema_version"] == 1
    text = (tmp_path / "robustness.md").read_text(encoding="utf-8")
    assert "Skipped: judge 'random' reads no video frames" in text and "robustness_effects.png" in text
    assert (tmp_path / "robustness_effects.png").stat().st_size > 0
    summary = json.loads((tmp_path / "robustness_summary.json").read_text(encoding="utf-8"))
    assert summary["summary"] == report["summary"] and summary["benchmark"] == "isovrbench"


def test_unknown_probe_is_refused_naming_the_known_ones(sample_data: Path, tmp_path: Path) -> None:
    from mmjudge.errors import ConfigError

    with pytest.raises(ConfigError, match=r"no probe \['swap'\].*'ties'"):
        _run(sample_data, "isovrbench", "random", tmp_path, probes=("swap",))



@pytest.mark.parametrize("limit", [0, -1])
def test_a_limit_that_is_not_a_positive_integer_is_refused(limit: int, sample_data: Path, tmp_path: Path) -> None:
    """The rows follow the runner's one rule (:func:`mmjudge.scoring.rows_of_run`); before, ``limit=-1``
    judged every pair but the last and ``limit=0`` none."""
    from mmjudge.errors import ConfigError

    run = RunOptions(limit=limit, progress=False)
    with pytest.raises(ConfigError, match="limit must be a positive integer or None"):
        robustness_report("isovrbench", "random", sample_data / "isovrbench", tmp_path, RobustnessOptions(run=run))
    assert not (tmp_path / "cache").exists()


def test_a_judge_sampling_at_its_own_rate_is_also_swept_over_rates(synthetic_judges: Path, tmp_path: Path) -> None:
    config = JudgeConfig(judge="test_frame_hungry", fps=2.0)
    report = _run(synthetic_judges, "isovrbench", config, tmp_path, probes=("frames",), frames=(8, 16))
    probe = _probe(report, "frames")
    per_rate = probe["details"]["accuracy_per_fps"]
    # 81 frames at 16 fps: 1 and 2 fps sample fewer than 16 frames (ties), 4 fps more (anchor preferred)
    assert (per_rate["1"]["accuracy"], per_rate["2"]["accuracy"], per_rate["4"]["accuracy"]) == (0.0, 0.0, 100.0)
    assert _effect(report, "frames", "fps_slope")["value"] > 0
    assert _effect(report, "frames", "accuracy@4fps")["n"] == 16
    # 18 clips at two counts and three rates; 2 fps is the judge's own setting, cached by the base run
    assert (probe["cost"]["judged"], probe["cost"]["cached"]) == (18 * 2 + 18 * 2, 18)


def test_a_fixed_count_judge_gets_no_rate_sweep(synthetic_judges: Path, tmp_path: Path) -> None:
    report = _run(synthetic_judges, "isovrbench", "test_frame_hungry", tmp_path, probes=("frames",), frames=(8, 16))
    assert "accuracy_per_fps" not in _probe(report, "frames")["details"]


def test_weights_are_loaded_once_across_probes_seeds_and_rates(
    synthetic_judges: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import synthetic_judges as sj

    monkeypatch.setattr(sj.LoadCountingJudge, "loads", [])
    config = JudgeConfig(judge="test_load_counting", fps=2.0)
    evaluate_judge("isovrbench", config, synthetic_judges / "isovrbench", tmp_path, RunOptions(progress=False))
    assert sj.LoadCountingJudge.loads == ["cpu"]
    sj.LoadCountingJudge.loads.clear()
    # the benchmark's items are all cached: the first probe that judges loads the weights, and every other
    # config (one frame count, three rates, two more seeds) takes the loaded state
    report = _run(synthetic_judges, "isovrbench", config, tmp_path, frames=(8,), repeats=3)
    assert sj.LoadCountingJudge.loads == ["cpu"]
    assert report["base"]["judged"] == 0
    assert _effect(report, "repeat", "exact_agreement")["value"] == 0.0  # the score moves with the seed


def test_the_frame_probe_at_the_judges_own_count_is_the_eval_headline(synthetic_judges: Path, tmp_path: Path) -> None:
    """At the judge's own 8 frames the probe reads the benchmark's scorer, as `mmjudge eval` does: the same
    value, the same interval (or none) and its recorded method, not an interval of its own."""
    (output,) = evaluate_judge(
        "isovrbench", "test_frame_blind", synthetic_judges / "isovrbench", tmp_path, RunOptions(progress=False)
    )
    recorded = json.loads(output.results.read_text(encoding="utf-8"))["estimates"]["average"]
    report = _run(synthetic_judges, "isovrbench", "test_frame_blind", tmp_path, probes=("frames",), frames=(4, 8))
    effect = _effect(report, "frames", "accuracy@8")
    assert (effect["value"], effect["ci_low"], effect["ci_high"]) == (
        recorded["value"], recorded["low"], recorded["high"]
    )  # fmt: skip
    assert effect["interval"] == ("" if recorded["low"] is None else recorded["method"])
    assert (expected_note(recorded) in effect["note"]) == needs_mark(recorded), (effect["note"], recorded)
    assert report["estimates"]["average"] == recorded  # the report's headline is the eval's
