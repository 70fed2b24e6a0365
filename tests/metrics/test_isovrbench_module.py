"""The `metrics/isovrbench` evaluate module: loads offline, returns the core's result, card names the
keys and the human row.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import math
import re

import pytest

from mmjudge.benchmarks import get_benchmark, isovrbench
from mmjudge.errors import SchemaError


def test_compute_returns_exactly_the_core_result(metric):
    scores = {
        "intervention": ["temporal_shuffle", "frame_hold", "t2v_1_3b", "t2v_1_3b", "reduced_steps"],
        "score_chosen": [0.9, 0.1, 0.5, None, 0.7],
        "score_rejected": [0.2, 0.3, 0.5, None, 0.69],
        "no_judgment": [False, False, False, True, False],
        "pair_id": ["p1", "p2", "p3", "p4", "p5"],
        "tie_tolerance": 0.05,
        "n_resamples": 500,
        "seed": 3,
    }
    assert metric.compute(**scores) == isovrbench.score(**scores)
    choices = {
        "intervention": ["motion_regen", "attribute_edit"],
        "choice": ["tie", "chosen"],
        "n_resamples": 0,
    }
    assert metric.compute(**choices) == isovrbench.score(**choices)


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`intervention` has 1 values outside"):
        metric.compute(intervention=["frame_hold", "slow_motion"], choice=["chosen", "tie"])
    with pytest.raises(SchemaError, match="`score_chosen` has 1 non-finite"):
        metric.compute(intervention=["frame_hold"], score_chosen=[math.nan], score_rejected=[1.0])


def test_card_names_every_result_key_and_human_row(card_text):
    generic = {
        re.sub(r"/(" + "|".join(isovrbench.INTERVENTIONS) + r")(?=_ci_|$)", "/<iv>", key.name)
        for key in get_benchmark("isovrbench").metrics.result_keys
    }
    generic = {re.sub(r"/(motion|text|visual|overall)(?=_ci_|$)", "/<dim>", name) for name in generic}
    for name in generic:
        assert f"`{name}`" in card_text, name
    row = (
        "| "
        + " | ".join(f"{v:g}" for v in isovrbench.HUMAN_ACCURACY.values())
        + f" | {isovrbench.HUMAN_AVERAGE} |"
    )
    assert row in card_text
