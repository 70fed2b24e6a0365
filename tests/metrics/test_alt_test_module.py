"""The `metrics/alt_test` evaluate module: loads offline, returns the core's result, card names the keys.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and
requirements are tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mmjudge.errors import SchemaError
from mmjudge.stats import alt_test, alt_test_from_rows


def rows(n_items=40, seed=0, numeric=False):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n_items)
    out = {"item_ids": [], "annotators": [], "references": [], "predictions": []}
    judge = np.where(rng.random(n_items) < 0.2, rng.integers(0, 4, n_items), truth)
    for k in range(n_items):
        for h in ("h1", "h2", "h3"):
            label = truth[k] if rng.random() < 0.7 else rng.integers(0, 4)
            out["item_ids"].append(f"item{k}")
            out["annotators"].append(h)
            out["references"].append(float(label) if numeric else ["FF", "WF", "FL", "LL"][label])
            out["predictions"].append(float(judge[k]) if numeric else ["FF", "WF", "FL", "LL"][judge[k]])
    return out


@pytest.mark.parametrize(("numeric", "scoring"), [(False, "accuracy"), (True, "neg_mae"), (True, "neg_rmse")])
def test_compute_returns_exactly_the_core_result(metric, numeric, scoring):
    data = rows(numeric=numeric, seed=int(numeric))
    result = metric.compute(**data, scoring=scoring, epsilon=0.15)
    core = alt_test_from_rows(**data, scoring=scoring, epsilon=0.15).as_dict()
    assert result == core
    humans = {}
    for item, annotator, label in zip(data["item_ids"], data["annotators"], data["references"], strict=True):
        humans.setdefault(annotator, {})[item] = label
    judge = dict(zip(data["item_ids"], data["predictions"], strict=True))
    assert result == alt_test(judge, humans, scoring=scoring, epsilon=0.15).as_dict()


def test_missing_judge_labels_drop_items(metric):
    data = rows(numeric=True)
    data["predictions"] = [
        None if item == "item3" else p for item, p in zip(data["item_ids"], data["predictions"], strict=True)
    ]
    result = metric.compute(**data, scoring="neg_mae")
    assert result["n_items_dropped"] == 1 and result["n_items/h1"] == 39


def test_a_missing_judge_label_in_the_first_row_drops_its_item(metric):
    data = rows()  # string labels: evaluate type-checks the first value of a string column
    first = data["item_ids"][0]
    data["predictions"] = [
        None if item == first else p for item, p in zip(data["item_ids"], data["predictions"], strict=True)
    ]
    result = metric.compute(**data)
    assert result == alt_test_from_rows(**data).as_dict()
    assert result["n_items_dropped"] == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"annotators": ["h1"] * 120}, "pairs repeat"),
        ({"predictions": ["FF"] * 119 + ["LL"]}, "differ between rows of the same item"),
    ],
)
def test_bad_input_reaches_the_user(metric, change, message):
    data = {**rows(), **change}
    with pytest.raises(SchemaError, match=message):
        metric.compute(**data)
    with pytest.raises(SchemaError, match="numeric labels"):
        metric.compute(**rows(), scoring="neg_rmse")


def test_card_names_every_result_key(card_text):
    keys = {re.sub(r"/h\d$", "/<annotator>", key) for key in alt_test_from_rows(**rows()).as_dict()}
    for key in keys:
        assert f"`{key}`" in card_text, key


def test_rates_are_percentages_and_p_values_probabilities(metric):
    data = rows(seed=3)
    result = metric.compute(**data, epsilon=0.2)
    core = alt_test_from_rows(**data, epsilon=0.2)  # attributes: the reference implementation's shares
    assert result["winning_rate"] == pytest.approx(100 * core.winning_rate)
    assert result["advantage_probability"] == pytest.approx(100 * core.advantage_probability)
    assert result["advantage_probability/h1"] == pytest.approx(100 * core.annotator_advantage["h1"])
    assert result["p_value/h1"] == core.p_values["h1"] and 0.0 <= result["p_value/h1"] <= 1.0
    assert result["passed"] == (result["winning_rate"] >= 50.0)
