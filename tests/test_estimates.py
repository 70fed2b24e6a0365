"""Interval captions, thin and withheld marks, and their notes, all read from the recorded estimates.

The method strings here are made up on purpose: every caption and note must repeat what the record says,
whatever the interval engine calls its methods.
"""

from __future__ import annotations

import pytest

from mmjudge.benchmarks import Scores
from mmjudge.estimates import (
    FEW_CLUSTERS,
    MIN_CLUSTERS,
    Estimate,
    Footnotes,
    estimates_from,
    interval_caption,
    interval_caveat,
    interval_notes,
)

SHOWN = Estimate(50.0, 40.0, 60.0, 0.95, "method A (over prompts; 99 df)", 400, 80, "pair", True, "prompt")


def _est(**changes: object) -> Estimate:
    return SHOWN._replace(**changes)  # type: ignore[arg-type]


def _withheld(reason: str, n_clusters: int | None = 3) -> Estimate:
    return _est(low=None, high=None, method=f"none: {reason}", n_clusters=n_clusters)


def test_the_caption_groups_keys_by_recorded_method_and_confidence() -> None:
    estimates = {
        "acc/a": SHOWN,
        "acc/b": SHOWN,
        "acc/c": _est(method="method B; with a semicolon"),
        "avg": _est(method="method B; with a semicolon"),
        "kappa": _est(confidence=0.9, method="method C"),
    }
    caption = interval_caption(estimates)
    assert caption == (
        "95% intervals: acc/a, acc/b — method A (over prompts; 99 df); acc/c, avg — method B; with a semicolon. "
        "90% intervals: kappa — method C."
    )
    # a prefix stands for its keys only when every captioned key under it has the same method
    assert interval_caption(estimates, ["acc/a", "acc/b", "avg"]) == (
        "95% intervals: acc/* — method A (over prompts; 99 df); avg — method B; with a semicolon."
    )
    assert interval_caption(estimates, ["absent"]) == ""


def test_the_caption_names_withheld_intervals_with_their_recorded_reason() -> None:
    estimates = {
        "overall": SHOWN,
        "acc/a": _withheld(f"no interval: 3 clips (at least {MIN_CLUSTERS} needed)"),
        "acc/b": _withheld(f"no interval: 3 clips (at least {MIN_CLUSTERS} needed)"),
        "f1": _withheld("every outcome equal", n_clusters=40),
    }
    assert interval_caption(estimates) == (
        "95% intervals: overall — method A (over prompts; 99 df). Withheld: acc/* — no interval: 3 clips "
        "(at least 5 needed); f1 — no interval: every outcome equal."
    )


@pytest.mark.parametrize(
    ("estimate", "note"),
    [
        (SHOWN, ""),
        (_est(n_clusters=FEW_CLUSTERS), ""),
        (_est(n_clusters=FEW_CLUSTERS - 1), "thin: 29 prompts (under 30)"),
        (_est(n_clusters=1, cluster=None), "thin: 1 cluster (under 30)"),  # an interval that is there is thin
        (_est(n_clusters=None), ""),
        (
            _withheld("no interval: 2 prompts (at least 5 needed)", 2),
            "no interval: 2 prompts (at least 5 needed)",
        ),
        (_withheld("all equal", 50), "no interval: all equal"),
        (
            _est(low=None, high=None, method="none", n_clusters=4),
            "no interval: 4 prompts (at least 5 needed)",
        ),
        (None, ""),
    ],
)
def test_caveat_says_thin_or_withheld(estimate: Estimate | None, note: str) -> None:
    assert interval_caveat(estimate) == note


def test_footnotes_mark_each_distinct_caveat_once_in_order_of_first_use() -> None:
    notes = Footnotes()
    thin, fewer, gone = _est(n_clusters=12), _est(n_clusters=6), _withheld("no interval: 3 prompts", 3)
    marks = [notes.mark(e) for e in (SHOWN, thin, gone, thin, fewer, None)]
    assert marks == ["", "†", "‡", "†", "§", ""]
    assert notes.lines() == [
        "† thin: 12 prompts (under 30)",
        "‡ no interval: 3 prompts",
        "§ thin: 6 prompts (under 30)",
    ]
    more = Footnotes()
    assert [more.mark(_est(n_clusters=n)) for n in range(5, 11)] == ["†", "‡", "§", "¶", "†5", "†6"]


def test_notes_list_only_thin_and_withheld_keys() -> None:
    estimates = {
        "acc/a": _est(n_clusters=12),
        "acc/b": _est(n_clusters=12),
        "avg": SHOWN,
        "f1": _withheld("x", 50),
    }
    assert interval_notes(estimates) == "acc/* — thin: 12 prompts (under 30); f1 — no interval: x"
    assert interval_notes({"avg": SHOWN}) == ""


def test_estimates_from_a_scorers_result_keep_withheld_ones_and_the_record() -> None:
    scores = Scores(
        {"acc": 50.0, "acc_ci_low": 40.0, "acc_ci_high": 60.0, "avg": 45.0, "n": 4, "bare": 1.0},
        {
            "acc": {
                "method": "m",
                "n_units": 4,
                "n_clusters": 4,
                "unit": "pair",
                "cluster": "prompt",
                "confidence": 0.9,
            },
            "avg": {
                "method": "none: no interval: 2 prompts",
                "n_units": 4,
                "n_clusters": 2,
                "cluster": "prompt",
            },
        },
    )
    found = estimates_from(scores, higher_is_better=lambda key: key == "acc")
    assert list(found) == ["acc", "avg"]  # "bare" has neither an interval nor a record of why
    assert found["acc"] == Estimate(50.0, 40.0, 60.0, 0.9, "m", 4, 4, "pair", True, "prompt")
    assert (found["avg"].low, found["avg"].high, found["avg"].method) == (
        None,
        None,
        "none: no interval: 2 prompts",
    )
    plain = estimates_from(dict(scores), method="unknown")
    assert list(plain) == ["acc"] and plain["acc"].method == "unknown"


def test_the_stats_bootstrap_returns_the_one_estimate_type() -> None:
    """``bootstrap_metrics`` gives the ``results.json`` :class:`Estimate` (there used to be a second ``Estimate``
    in ``mmjudge.stats`` with NaN ends and no unit): no interval is ``None``, and the unit and cluster are named."""
    import numpy as np

    from mmjudge.stats import Outcomes, Ratio, bootstrap_metrics

    outcomes = Outcomes(("a", "b", "c"), ("x", "x", "y"), {"hit": np.array([1.0, 0, 1]), "one": np.ones(3)},
                        unit="pair", cluster_name="prompt")  # fmt: skip
    drawn = bootstrap_metrics(outcomes, {"acc": Ratio("hit", "one")}, n_resamples=0, confidence=0.95, seed=0)["acc"]
    assert type(drawn) is Estimate
    assert (drawn.low, drawn.high, drawn.n_units, drawn.n_clusters, drawn.unit, drawn.cluster) == (
        None, None, 3, 2, "pair", "prompt")  # fmt: skip
    assert Estimate.from_json(drawn.to_json()) == drawn
