"""The `metrics/videogen_rewardbench` evaluate module: loads offline, returns the core's result, card names the keys."""

from __future__ import annotations

import re

import pytest

from mmjudge.benchmarks import get_benchmark, videogen_rewardbench
from mmjudge.errors import SchemaError
from mmjudge.metric_inputs import with_interval_notes


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "preference": ["A", "B", "same", "A", "same", "B"] * 2,
        "score_a": [2.0, 1.0, 1.0, 0.5, 0.2, 0.1] * 2,
        "score_b": [1.0, 2.0, 1.0, 0.5, 0.3, 0.9] * 2,
        "aspect": ["VQ"] * 6 + ["Overall"] * 6,
        "pair_id": [f"p{k}" for k in range(6)] * 2,
        "cluster": ["x", "y", "z", "x", "y", "z"] * 2,
    }
    assert metric.compute(**kwargs) == with_interval_notes(videogen_rewardbench.score(**kwargs))
    assert metric.compute(**kwargs, folds=3) == with_interval_notes(videogen_rewardbench.score(**kwargs, folds=3))


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`preference` has 1 values outside"):
        metric.compute(preference=["A", "C"], score_a=[1.0, 2.0], score_b=[0.0, 1.0])


def test_card_names_every_result_key(card_text):
    slugs = "|".join(a.slug for a in videogen_rewardbench.ASPECTS)
    generic = {
        re.sub(r"/(" + slugs + r")(?=_ci_|$)", "/<aspect>", key.name)
        for key in get_benchmark("videogen_rewardbench").metrics.result_keys
        if "_ci_" not in key.name
    }
    for name in generic:
        assert f"`{name}`" in card_text, name
