"""The `metrics/mj_bench_video` evaluate module: loads offline, returns the core's result, card names the keys."""

from __future__ import annotations

import re

import pytest

from mmjudge.benchmarks import get_benchmark, mj_bench_video
from mmjudge.errors import SchemaError
from mmjudge.metric_inputs import with_interval_notes


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "preference": ["Video 1 better", "Video 2 better", "Same", "Hard to judge", "Video 1 better", "Same"],
        "score_a": [2.0, 1.0, 1.0, 0.0, 3.0, 2.0],
        "score_b": [1.0, 1.0, 1.1, 0.0, 1.0, 2.0],
        "aspect": ["Overall"] * 4 + ["Alignment"] * 2,
        "pair_id": ["p1", "p2", "p3", "p4", "p1", "p2"],
    }
    assert metric.compute(**kwargs) == with_interval_notes(mj_bench_video.score(**kwargs))
    assert metric.compute(**kwargs, tie_threshold=0.2) == with_interval_notes(
        mj_bench_video.score(**kwargs, tie_threshold=0.2)
    )


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`preference` has 1 values outside"):
        metric.compute(preference=["Video 1 better", "Video 3 better"], score_a=[1.0, 2.0], score_b=[0.0, 1.0])


def test_card_names_every_result_key(card_text):
    slugs = "|".join(a.slug for a in mj_bench_video.ASPECTS)
    for key in get_benchmark("mj_bench_video").metrics.result_keys:
        name = re.sub(r"/(" + slugs + r")$", "/<aspect>", key.name)
        if "_ci_" not in name:
            assert f"`{name}`" in card_text, name
