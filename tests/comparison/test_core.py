"""``compare_units`` edge cases: mismatched units, one cluster, an undefined key, a value off its data."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mmjudge.comparison import compare_units
from mmjudge.errors import SchemaError
from mmjudge.stats import KeyOutcomes, Outcomes, Ratio


def outcome(units, clusters, num, den) -> KeyOutcomes:
    table = Outcomes(tuple(units), tuple(clusters), {"num": np.asarray(num, float), "den": np.asarray(den, float)})
    return KeyOutcomes("acc", table, Ratio("num", "den"))


def rate(
    hits: tuple[float, ...], clusters: tuple[str, ...] | None = None, units: tuple[str, ...] | None = None
):
    units = units or tuple(f"u{k}" for k in range(len(hits)))
    return outcome(units, clusters or units, hits, [1.0] * len(hits))


def test_units_are_paired_by_id_whatever_their_order() -> None:
    a = rate((1.0, 0.0, 1.0), units=("x", "y", "z"))
    b = rate((1.0, 1.0, 0.0), units=("z", "y", "x"))  # x wrong, y right, z right
    r = compare_units(a, b, n_resamples=100)
    assert (r.mcnemar.both, r.mcnemar.only_a, r.mcnemar.only_b, r.mcnemar.neither) == (1, 1, 1, 0)
    assert r.difference == pytest.approx(0.0)


def test_different_units_are_refused() -> None:
    with pytest.raises(SchemaError, match="different units"):
        compare_units(rate((1.0, 0.0)), rate((1.0, 0.0), units=("u0", "other")))


def test_one_cluster_has_no_interval_but_mcnemar() -> None:
    r = compare_units(rate((1.0, 1.0), ("c", "c")), rate((0.0, 0.0), ("c", "c")), n_resamples=50)
    assert r.difference == 100.0 and math.isnan(r.ci_low) and "one cluster" in r.note
    assert (r.mcnemar.only_a, r.mcnemar.only_b, r.mcnemar.p_value) == (2, 0, 0.5)


def test_an_undefined_key_and_empty_units() -> None:
    empty = outcome((), (), [], [])
    assert compare_units(empty, empty).note == "no unit to pair"
    nothing_counted = outcome(("a", "b"), ("a", "b"), [0.0, 0.0], [0.0, 0.0])
    r = compare_units(nothing_counted, rate((1.0, 0.0), units=("a", "b")), n_resamples=50)
    assert math.isnan(r.difference) and r.note == "the key is undefined for a judge"


def test_a_value_that_its_units_do_not_give_is_refused() -> None:
    with pytest.raises(SchemaError, match="does not reproduce"):
        compare_units(rate((1.0, 0.0)), rate((1.0, 1.0)), values=(40.0, 100.0), n_resamples=10)


def test_mcnemar_needs_the_same_units_counted_for_both_judges() -> None:
    """A rate over the units each judge decided (e.g. IsoVRBench's decided accuracy) gets no McNemar test."""
    a = outcome(("x", "y", "z"), ("x", "y", "z"), [1.0, 0.0, 0.0], [1.0, 1.0, 0.0])
    b = outcome(("x", "y", "z"), ("x", "y", "z"), [1.0, 1.0, 0.0], [1.0, 1.0, 1.0])
    assert compare_units(a, b, n_resamples=20).mcnemar is None
