"""The checks the caption-ranking metric modules (``metrics/temporalbench``, ``metrics/tempcompass``) share:
``compute`` returns the core scorer's result, batches give the same, the card names every documented key."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mmjudge.benchmarks import get_benchmark
from mmjudge.metric_inputs import with_interval_notes


def check_core_result(metric: Any, score: Callable[..., Any], kwargs: Mapping[str, Any],
                      options: Sequence[Mapping[str, Any]]) -> None:  # fmt: skip
    """``metric.compute`` equals ``score`` on the same questions, under each of ``options``."""
    for option in options:
        core = score(kwargs["predictions"], kwargs["references"], kwargs["videos"], kwargs["categories"],
                     ids=option.get("ids"), **{k: v for k, v in option.items() if k == "mode"})  # fmt: skip
        assert metric.compute(**kwargs, **option) == with_interval_notes(core)


def check_batches(metric: Any, kwargs: Mapping[str, Sequence[Any]]) -> None:
    """Three batches give what one ``compute`` gives; without categories every question is in ``all``."""
    size = len(kwargs["predictions"])
    for k in range(0, size, 3):
        metric.add_batch(**{name: values[k : k + 3] for name, values in kwargs.items()})
    assert metric.compute() == metric.compute(**kwargs)
    plain = {k: v for k, v in kwargs.items() if k != "categories"}
    assert metric.compute(**plain)["accuracy/all"] == metric.compute(**plain)["accuracy"]


def check_card_keys(benchmark: str, card_text: str, placeholder: str) -> None:
    """The card names every documented result key (a ``<placeholder>`` key by its prefix)."""
    for key in get_benchmark(benchmark).metrics.result_keys:
        assert f"`{key.name}`" in card_text or key.name.replace(placeholder, "") in card_text, key.name
