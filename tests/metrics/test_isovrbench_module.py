"""The `metrics/isovrbench` evaluate module: loads offline, returns the core's result, card names the
keys and the human row.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import math
import re

import pytest
from metric_cases import compute_in_two_batches
from report_helpers import check_notes, needs_mark

from mmjudge.benchmarks import get_benchmark, isovrbench
from mmjudge.errors import SchemaError
from mmjudge.metric_inputs import with_interval_notes


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
    assert metric.compute(**scores) == with_interval_notes(isovrbench.score(**scores))
    choices = {
        "intervention": ["motion_regen", "attribute_edit"],
        "choice": ["tie", "chosen"],
        "n_resamples": 0,
    }
    assert metric.compute(**choices) == with_interval_notes(isovrbench.score(**choices))


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


def test_rows_added_in_two_batches_or_one_by_one_score_as_in_one_call(metric):
    """Per-row inputs are features: `add_batch`/`add` then `compute()` equals the core, optional columns left out
    or not (scores with flags and ids, or choices alone)."""
    scores = {
        "intervention": ["temporal_shuffle", "frame_hold", "t2v_1_3b", "t2v_1_3b", "reduced_steps"],
        "score_chosen": [0.9, 0.1, 0.5, None, 0.7],
        "score_rejected": [0.2, 0.3, 0.5, None, 0.69],
        "no_judgment": [False, False, False, True, False],
        "pair_id": ["p1", "p2", "p3", "p4", "p5"],
        "cluster": ["a", "a", "b", "c", "c"],
    }
    want = with_interval_notes(isovrbench.score(**scores, n_resamples=300, seed=1))
    assert compute_in_two_batches(metric, scores, n_resamples=300, seed=1) == want
    for k in range(5):
        metric.add(**{name: column[k] for name, column in scores.items()})
    assert metric.compute(n_resamples=300, seed=1) == want
    choices = {
        "intervention": ["motion_regen", "attribute_edit", "frame_hold"],
        "choice": ["tie", "chosen", "none"],
    }
    assert compute_in_two_batches(metric, choices, n_resamples=0) == with_interval_notes(
        isovrbench.score(**choices, n_resamples=0)
    )


def test_an_optional_column_given_in_one_batch_only_is_refused(metric):
    metric.add_batch(intervention=["frame_hold"], choice=["chosen"])
    with pytest.raises(
        ValueError, match="`choice` was given in an earlier batch but is left out of this one"
    ):
        metric.add_batch(intervention=["frame_hold"], score_chosen=[0.3], score_rejected=[0.1])
    metric.compute()  # the first batch alone still scores; the module starts afresh afterwards
    assert (
        metric.compute(intervention=["frame_hold"], score_chosen=[0.3], score_rejected=[0.1], n_resamples=0)[
            "n_pairs"
        ]
        == 1
    )


def test_the_output_names_the_intervals_resting_on_three_prompts(metric):
    """Nine pairs on three anchor prompts: every interval rests on three prompts (withheld, or thin), and the
    string key `interval_notes` says so for each, as the recorded estimates have it."""
    from mmjudge.metric_inputs import INTERVAL_NOTES
    from mmjudge.results import estimates_of

    kwargs = {
        "intervention": ["temporal_shuffle"] * 9,
        "score_chosen": [0.9, 0.2, 0.8] * 3,
        "score_rejected": [0.1] * 9,
        "cluster": [f"prompt{k // 3}" for k in range(9)],
        "n_resamples": 200,
    }
    result = metric.compute(**kwargs)
    core = isovrbench.score(**kwargs)
    assert {k: v for k, v in result.items() if k != INTERVAL_NOTES} == core
    estimates = {k: e.to_json() for k, e in estimates_of("isovrbench", core).items()}
    assert estimates and all(needs_mark(e) for e in estimates.values()), estimates
    check_notes(result[INTERVAL_NOTES], estimates)
    assert "3 prompts" in result[INTERVAL_NOTES] or "3 clusters" in result[INTERVAL_NOTES]
