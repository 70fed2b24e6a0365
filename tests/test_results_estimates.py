"""results.json schema 3: a typed estimate per score, naming how its interval was made; older files read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.benchmarks._intervals import jackknife_method
from mmjudge.benchmarks.isovrbench import score as score_isovrbench
from mmjudge.errors import SchemaError
from mmjudge.estimates import Estimate
from mmjudge.results import RESULTS_VERSION, estimates_of, read_results, write_results


def _clustered_scores(n_anchors: int = 6) -> dict:
    # 3 pairs on each anchor prompt, in one intervention
    wins = ([1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0] * 3)[: 3 * n_anchors]
    n = len(wins)
    return score_isovrbench(
        ["temporal_shuffle"] * n, score_chosen=wins, score_rejected=[0.5] * n,
        pair_id=[f"p{k}" for k in range(n)], cluster=[f"anchor{k // 3}" for k in range(n)], n_resamples=200,
    )  # fmt: skip


def test_write_and_read_back_every_estimate(tmp_path: Path) -> None:
    scores = _clustered_scores()
    path = write_results(tmp_path / "results.json", "isovrbench", "j", scores, {}, {})
    record = json.loads(path.read_text())
    assert record["results_version"] == RESULTS_VERSION == 3
    results = read_results(path)
    with_ci = {k[: -len("_ci_low")] for k in scores if k.endswith("_ci_low")}
    withheld = {k for k, v in scores.intervals.items() if v["method"].startswith("none: ")}
    assert set(results.estimates) == with_ci | withheld and "average" in with_ci
    average = results.estimates["average"]
    assert (average.value, average.low, average.high) == (
        scores["average"], scores["average_ci_low"], scores["average_ci_high"]
    )
    assert average.method == jackknife_method("prompt", False)
    assert (average.n_units, average.n_clusters, average.unit, average.confidence) == (18, 6, "pair", 0.95)
    assert average.cluster == "prompt"
    assert average.higher_is_better is True
    assert results.estimates["tie_rate"].higher_is_better is False
    # every estimate is the scorer's own record of its interval
    for key, how in scores.intervals.items():
        if key in results.estimates:
            assert results.estimates[key].method == how["method"]


def test_a_withheld_interval_is_an_estimate_with_its_reason(tmp_path: Path) -> None:
    scores = _clustered_scores(n_anchors=4)
    assert "average_ci_low" not in scores
    results = read_results(write_results(tmp_path / "results.json", "isovrbench", "j", scores, {}, {}))
    average = results.estimates["average"]
    assert average.value == scores["average"] and average.low is None and average.high is None
    assert average.method == "none: no interval: 4 prompts (at least 5 needed)" and average.n_clusters == 4


def test_version_2_file_reads_with_unknown_method(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(json.dumps({
        "results_version": 2, "benchmark": "emorealm", "judge": "old",
        "scores": {"overall": 50.0, "overall_ci_low": 30.0, "overall_ci_high": 70.0, "n_items": 10},
    }))  # fmt: skip
    results = read_results(path)
    assert results.results_version == 2
    assert results.estimates == {"overall": Estimate(50.0, 30.0, 70.0, 0.95, "unknown (results_version 2)",
                                                     None, None, None, True)}  # fmt: skip


@pytest.mark.parametrize("estimates", [None, [1, 2], {"overall": "high"}])
def test_version_3_file_without_estimate_objects_is_refused(tmp_path: Path, estimates: object) -> None:
    path = tmp_path / "results.json"
    body = {"results_version": 3, "benchmark": "emorealm", "judge": "x", "scores": {"overall": 1.0}}
    if estimates is not None:
        body["estimates"] = estimates
    path.write_text(json.dumps(body))
    with pytest.raises(SchemaError, match="estimate"):
        read_results(path)


def test_estimates_of_plain_dict_and_unknown_keys() -> None:
    got = estimates_of("emorealm", {"overall": float("nan"), "overall_ci_low": 1.0, "overall_ci_high": 2.0,
                                    "custom": 3.0, "custom_ci_low": 2.0, "custom_ci_high": 4.0,
                                    "half": 1.0, "half_ci_low": 0.5})  # fmt: skip
    assert set(got) == {"overall", "custom"}  # "half" has one end only
    assert got["overall"].value is None and got["overall"].method == "not recorded"
    assert got["custom"].higher_is_better is None  # not one of the benchmark's result keys
    assert Estimate.from_json(got["custom"].to_json()) == got["custom"]
