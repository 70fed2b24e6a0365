"""The `metrics/genai_bench_video` evaluate module: loads offline, returns the core's result, card names the keys."""

from __future__ import annotations

import pytest

from mmjudge.benchmarks import genai_bench_video, get_benchmark
from mmjudge.errors import SchemaError
from mmjudge.metric_inputs import with_interval_notes


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "preference": ["leftvote", "rightvote", "tievote", "bothbad_vote", "leftvote", "rightvote"],
        "score_a": [2.0, 1.0, 1.0, 1.2, 0.0, 1.0],
        "score_b": [1.0, 1.0, 1.1, 1.0, 0.0, 3.0],
        "no_judgment": [False, False, False, False, True, False],
        "cluster": ["a", "b", "c", "a", "b", "c"],
    }
    assert metric.compute(**kwargs) == with_interval_notes(genai_bench_video.score(**kwargs))
    assert metric.compute(**kwargs, tie_threshold=0.25) == with_interval_notes(
        genai_bench_video.score(**kwargs, tie_threshold=0.25)
    )


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`preference` has 1 values outside"):
        metric.compute(preference=["leftvote", "left"], score_a=[1.0, 2.0], score_b=[0.0, 1.0])


def test_card_names_every_result_key(card_text):
    for key in get_benchmark("genai_bench_video").metrics.result_keys:
        if "_ci_" not in key.name:
            assert f"`{key.name}`" in card_text, key.name
