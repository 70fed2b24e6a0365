"""The `metrics/temporalbench` evaluate module: loads offline, returns the core's result, takes batches.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and requirements are
tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

from caption_module_cases import check_batches, check_card_keys, check_core_result

from mmjudge.benchmarks import temporalbench

KWARGS = {
    "predictions": [[0.9, 0.1], [0.3, 0.6], [0.5, 0.5], None, [0.8, 0.1, 0.2], [0.2, 0.4], [0.7, 0.6]],
    "references": [0, 1, 0, 1, 2, 1, 0],
    "videos": ["a", "a", "b", "c", "d", "e", "e"],
    "categories": ["Action Order", "Event Order", "Action Order", "Others", "Others", "Event Order", "Others"],
}


def test_compute_returns_exactly_the_core_result(metric):
    check_core_result(metric, temporalbench.score, KWARGS, [{}, {"mode": "official"}, {"ids": list(range(7))}])


def test_batches_and_left_out_categories_give_the_same_result(metric):
    check_batches(metric, KWARGS)


def test_the_card_names_every_documented_key(card_text):
    check_card_keys("temporalbench", card_text, "<category>")
