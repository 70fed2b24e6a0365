"""Comparing runs: every run against the first, on every paired key, Holm-corrected."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mmjudge.benchmarks import get_benchmark
from mmjudge.comparison._core import CORRECTION, KeyComparison, adjust, compare_units
from mmjudge.comparison._runs import Run, RunSet
from mmjudge.errors import SchemaError

__all__ = ["COMPARE_VERSION", "Comparison", "compare_runs"]

COMPARE_VERSION = 1
"""Version of the ``compare.json`` layout."""


@dataclass(frozen=True)
class Comparison:
    """Everything ``compare.json`` holds."""

    benchmark: str
    """Benchmark id."""
    dataset_hash: str
    """Dataset hash shared by the runs."""
    runs: tuple[dict[str, str], ...]
    """Per run: ``label``, ``judge``, ``path``; the first is the baseline."""
    comparisons: tuple[KeyComparison, ...]
    """Every later run against the baseline, per paired key (run-major order)."""
    n_resamples: int
    """Bootstrap resamples."""
    seed: int
    """Bootstrap seed."""
    confidence: float
    """Interval coverage; ``1 - confidence`` is the significance level of the corrected p-values."""
    correction: str = CORRECTION
    """Multiple-test correction applied over ``comparisons``."""
    skipped: tuple[str, ...] = ()
    """Paired keys left out, with the reason (e.g. absent from a run's results)."""

    @property
    def alpha(self) -> float:
        """Significance level: ``1 - confidence``."""
        return 1.0 - self.confidence


def compare_runs(
    runset: RunSet, *, n_resamples: int = 10_000, confidence: float = 0.95, seed: int = 0
) -> Comparison:
    """Compare every run of ``runset`` with its first run on the benchmark's paired keys.

    Raises:
        SchemaError: the benchmark declares no pairing (its judges cannot be compared pairwise).
    """
    spec = get_benchmark(runset.benchmark)
    if spec.metrics.outcomes is None:
        raise SchemaError(
            f"{runset.benchmark} declares no per-unit outcomes; its judges cannot be compared pairwise"
        )
    keys = [k for k in spec.metrics.paired_keys if all(_present(r, k) for r in runset.runs)]
    skipped = tuple(f"{k}: not in every run's results" for k in spec.metrics.paired_keys if k not in keys)
    baseline, others = runset.runs[0], runset.runs[1:]
    units = {run.label: {k: _units(spec, run, runset, k) for k in keys} for run in runset.runs}
    found = []
    for run in others:
        for key in keys:
            found.append(
                compare_units(
                    units[run.label][key], units[baseline.label][key], labels=(run.label, baseline.label),
                    values=(_value(run, key), _value(baseline, key)), higher_is_better=spec.metrics.higher_is_better(key),
                    n_resamples=n_resamples, confidence=confidence, seed=seed,
                )
            )  # fmt: skip
    described = tuple({"label": r.label, "judge": r.results.judge, "path": str(r.path)} for r in runset.runs)
    return Comparison(
        runset.benchmark, runset.dataset_hash, described, tuple(adjust(found)), n_resamples, seed, confidence,
        skipped=skipped,
    )  # fmt: skip


def _present(run: Run, key: str) -> bool:
    return key in run.results.scores


def _value(run: Run, key: str) -> float:
    value = run.results.scores.get(key)
    return math.nan if value is None else float(value)


def _units(spec: Any, run: Run, runset: RunSet, key: str) -> Any:
    return spec.key_outcomes(key, run.predictions.records, runset.rows, run.results.scores)
