"""The `metrics/tempcompass` evaluate module: loads offline, returns the core's result, takes batches.

Fixtures `metric` and `card_text` come from conftest.py; the card example, front matter, app and requirements are
tested for every metric folder in test_metric_cards.py."""

from __future__ import annotations

from mmjudge.benchmarks import get_benchmark, tempcompass
from mmjudge.metric_inputs import with_interval_notes

KWARGS = {
    "predictions": [[0.9, 0.1], [0.3, 0.6], [0.5, 0.5], None, [0.8, 0.1, 0.2], [0.2, 0.4], [0.7, 0.6]],
    "references": [0, 1, 0, 1, 2, 1, 0],
    "videos": ["a", "a", "b", "c", "d", "e", "e"],
    "categories": ["action", "order", "action", "speed", "speed", "order", "speed"],
}


def test_compute_returns_exactly_the_core_result(metric):
    for options in ({}, {"mode": "strict"}, {"ids": list(range(7))}):
        extra = {k: v for k, v in options.items() if k == "mode"}
        core = tempcompass.score(**{k: v for k, v in KWARGS.items() if k not in ("predictions", "references")},
                                   scores=KWARGS["predictions"], answers=KWARGS["references"],
                                   ids=options.get("ids"), **extra)  # fmt: skip
        assert metric.compute(**KWARGS, **options) == with_interval_notes(core)


def test_batches_and_left_out_categories_give_the_same_result(metric):
    for k in range(0, 7, 3):
        metric.add_batch(**{name: values[k : k + 3] for name, values in KWARGS.items()})
    assert metric.compute() == metric.compute(**KWARGS)
    plain = {k: v for k, v in KWARGS.items() if k != "categories"}
    assert metric.compute(**plain)["accuracy/all"] == metric.compute(**plain)["accuracy"]


def test_the_card_names_every_documented_key(card_text):
    for key in get_benchmark("tempcompass").metrics.result_keys:
        assert f"`{key.name}`" in card_text or key.name.replace("<dimension>", "") in card_text, key.name
