"""The repeat-stability probe (any benchmark): the same items judged in N runs with different seeds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mmjudge.benchmarks import Effect, rate_effect
from mmjudge.queries import Verdict

__all__ = ["measure_repeats"]


def _same(verdicts: Sequence[Verdict]) -> bool:
    first = verdicts[0]
    return all(v.no_judgment == first.no_judgment and v.value == first.value for v in verdicts[1:])


def measure_repeats(
    ids: Sequence[str], runs: Sequence[Mapping[str, Verdict]], headlines: Sequence[Any], key: str
) -> tuple[tuple[Effect, ...], dict[str, Any]]:
    """Exact agreement over items (Wilson) and the standard deviation of the headline across runs.

    An item agrees when every run gave it the same verdict value (or every run gave no judgment).
    The headline's spread is the sample standard deviation (``ddof=1``) of the per-run headline; with
    few runs it gets no interval.

    >>> v = lambda i, x: Verdict(i, x)
    >>> effects, _ = measure_repeats(["a", "b"], [{"a": v("a", 1), "b": v("b", 2)}, {"a": v("a", 1), "b": v("b", 3)}],
    ...                              [50.0, 50.0], "acc")
    >>> effects[0].value, effects[1].value
    (50.0, 0.0)
    """
    agree = sum(_same([run[i] for run in runs]) for i in ids)
    agreement = rate_effect("exact_agreement", agree, len(ids), f"items with the same verdict in all {len(runs)} runs")
    values = [float(h) for h in headlines if h is not None]
    spread = Effect(
        "headline_sd", float(np.std(values, ddof=1)) if len(values) >= 2 else None, "",
        len(values), f"standard deviation of {key!r} across the runs (the headline's unit)",
        note="n counts runs; no interval for a spread over few runs",
    )  # fmt: skip
    return (agreement, spread), {"headline_key": key, "headline_per_run": list(headlines)}
