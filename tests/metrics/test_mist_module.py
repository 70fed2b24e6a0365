"""The `metrics/mist` evaluate module: loads offline, returns the core's result, card names the keys.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import pytest
from metric_cases import compute_in_two_batches

from mmjudge.benchmarks import mist
from mmjudge.errors import SchemaError
from mmjudge.metric_inputs import with_interval_notes


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a)


CONDS = [
    ("none", "none"),
    ("aligned", "explicit"),
    ("aligned", "silent"),
    ("misleading", "explicit"),
    ("misleading", "silent"),
]


def _grid(n_items: int = 32) -> dict:
    labels = ["FF", "WF", "FL", "LL"]
    rows = [
        (f"i{k}", "zs", c, a, labels[(k * (j + 1)) % 4])
        for k in range(n_items)
        for j, (c, a) in enumerate(CONDS)
    ]
    cols = dict(
        zip(
            ["item_ids", "prompt_strategies", "image_conditions", "arms", "predictions"],
            map(list, zip(*rows, strict=True)),
            strict=True,
        )
    )
    humans = [(f"i{k}", h, labels[(k + (h == "h3")) % 4]) for k in range(n_items) for h in ("h1", "h2", "h3")]
    return {
        **cols,
        "meta_item_ids": [f"i{k}" for k in range(n_items)],
        "meta_cells": ["T1", "T2", "T3", "T4"] * (n_items // 4),
        "meta_trios": ["informed"] * n_items,
        "human_item_ids": [h[0] for h in humans],
        "human_annotators": [h[1] for h in humans],
        "human_labels": [h[2] for h in humans],
        "n_resamples": 200,
    }


@pytest.mark.filterwarnings("ignore:alt-test not run")  # 8 items per slice: below min_instances_per_human
def test_compute_returns_exactly_the_core_result(metric):
    kwargs = _grid()
    result = metric.compute(**kwargs)
    assert _equal(result, with_interval_notes(mist.score(**kwargs)))
    assert any(k.startswith("alt_test/informed/all/mae/zs/explicit") for k in result)
    assert any(k.startswith("drift/figurative/zs/explicit/") for k in result)
    assert result["change_rate/control"] == mist.score(**kwargs)["change_rate/control"] > 1.0  # percent
    judge_only = {
        k: kwargs[k] for k in ("item_ids", "prompt_strategies", "image_conditions", "arms", "predictions")
    }
    assert _equal(metric.compute(**judge_only), with_interval_notes(mist.score(**judge_only)))


@pytest.mark.filterwarnings("ignore:alt-test not run")
def test_a_missing_label_in_the_first_position_is_scored_like_any_other(metric):
    # evaluate type-checks only the first value of each column; a None there used to be refused
    kwargs = _grid()
    kwargs["predictions"][0] = None
    for mode in ("official", "strict"):
        assert _equal(
            metric.compute(**kwargs, mode=mode), with_interval_notes(mist.score(**kwargs, mode=mode))
        )


def test_bad_input_reaches_the_user(metric):
    kwargs = _grid()
    kwargs["predictions"][3] = "XX"
    with pytest.raises(SchemaError, match="`predictions` has 1 values outside"):
        metric.compute(**kwargs)


@pytest.mark.filterwarnings("ignore:alt-test not run")
def test_card_names_every_result_key(card_text):
    """CI keys follow one rule the card states (`<key>_ci_low`, `<key>_ci_high`); every other key is named."""
    assert "`<key>_ci_low`" in card_text and "`<key>_ci_high`" in card_text
    for key in mist.RESULT_KEYS:
        base = key.name.removesuffix("_ci_low").removesuffix("_ci_high")
        assert f"`{base}`" in card_text, key.name


@pytest.mark.filterwarnings("ignore:alt-test not run", "ignore:alt-test skipped")
def test_labels_added_in_two_batches_score_as_in_one_call(metric):
    """Per-row inputs (the grid cell, the label, the judge) are features; item metadata and human labels are
    tables of their own lengths, given to `compute`."""
    kwargs = _grid()
    kwargs["predictions"][7] = None
    kwargs["judges"] = ["j1", "j2"] * (len(kwargs["predictions"]) // 2)
    for mode in ("official", "strict"):
        want = with_interval_notes(mist.score(**kwargs, mode=mode))
        assert _equal(compute_in_two_batches(metric, kwargs, mode=mode), want)
    cells = ("item_ids", "prompt_strategies", "image_conditions", "arms", "predictions")
    judge_only = {k: kwargs[k] for k in cells}
    assert _equal(compute_in_two_batches(metric, judge_only), with_interval_notes(mist.score(**judge_only)))
