"""Scoring a prediction file against a built benchmark folder, with the same core ``evaluate`` uses.

:func:`score_predictions` checks the file covers the benchmark's grid (``Benchmark.records``), maps
its records and the dataset's reference rows to the keyword arguments of ``mmjudge.benchmarks.<id>.score``
(``RecordSpec.score_inputs``) and calls it. The CLI (``mmjudge score``), the runner and
the leaderboard all go through here, so a leaderboard number equals ``evaluate.load("metrics/<id>")`` on
the same predictions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge.benchmarks import get_benchmark
from mmjudge.data.rows import load_rows
from mmjudge.errors import ConfigError, SchemaError, summarize
from mmjudge.predictions import PredictionFile, id_problem

__all__ = [
    "Coverage", "coverage", "expected_ids", "load_reference_rows", "load_rows", "recorded_limit", "rows_of_run",
    "score_predictions",
]  # fmt: skip

Rows = Sequence[Mapping[str, Any]]


def load_reference_rows(
    benchmark: str, data_dir: str | Path, *, split: str = "test", limit: int | None = None
) -> list[dict[str, Any]]:
    """The reference rows of a built ``benchmark`` folder: the gold labels a prediction file is scored
    against (the ``test`` split of ``Benchmark.data.reference_config``), the first ``limit`` when given."""
    config = get_benchmark(benchmark).data.reference_config
    try:
        rows = load_rows(data_dir, config, split=split)
    except SchemaError as exc:
        raise SchemaError(f"{data_dir} is not a built {benchmark} folder: {exc}") from exc
    return rows if limit is None else rows[:limit]


def rows_of_run(benchmark: str, data_dir: str | Path, limit: int | None = None) -> list[dict[str, Any]]:
    """The reference rows a run judges and is scored on: the first ``limit`` rows of the built folder, or all
    of them when ``limit`` is ``None`` (a limit past the end keeps all). The runner, ``mmjudge score``,
    ``compare`` and ``robustness`` all take a run's rows from here; a limit read back from a file goes
    through :func:`recorded_limit` first.

    Raises:
        ConfigError: ``limit`` is not ``None`` or a positive integer (0 would score nothing; a negative one
            would silently drop rows from the end).
    """
    if limit is not None and (type(limit) is not int or limit < 1):
        raise ConfigError(f"limit must be a positive integer or None (every row), got {limit!r}")
    return load_reference_rows(benchmark, data_dir, limit=limit)


def recorded_limit(provenance: Mapping[str, Any], where: str | Path) -> int | None:
    """The ``limit`` a prediction file's provenance records (``None``: the run judged every row).

    >>> recorded_limit({"limit": 3}, "p.jsonl"), recorded_limit({}, "p.jsonl")
    (3, None)
    >>> recorded_limit({"limit": "3"}, "p.jsonl")
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: p.jsonl: provenance.limit must be a positive integer or null, got '3'

    Raises:
        SchemaError: the recorded value is not ``null`` or a positive integer (``where`` names the file).
    """
    limit = provenance.get("limit")
    if limit is not None and (type(limit) is not int or limit < 1):
        raise SchemaError(f"{where}: provenance.limit must be a positive integer or null, got {limit!r}")
    return limit


def score_predictions(predictions: PredictionFile, rows: Rows, **options: Any) -> dict[str, Any]:
    """Score a validated prediction file against reference rows.

    Every record ``mmjudge eval`` writes for ``rows`` must be there exactly once (:func:`expected_ids`:
    every IsoVRBench pair, EmoReAlM question and EmoPrefer pair, with every reversed pair when any is
    given, and the full MIST grid of prompt strategies and image cells per item), each record's id must
    agree with its key fields, and no unknown id may appear; ``options`` go to the benchmark's
    ``score`` (e.g. ``tie_tolerance``, ``mode``, ``n_resamples``).

    Raises:
        SchemaError: a record is missing, unknown or repeated (unknown and repeated ones name their line).
    """
    spec = get_benchmark(predictions.header.benchmark)
    _check_coverage(predictions, rows)
    inputs = spec.records.score_inputs(predictions.records, rows)
    scores = spec.metrics.score(**inputs, **options)  # a Scores dict: how each interval was made rides along
    return scores if isinstance(scores, dict) else dict(scores)


class Coverage(NamedTuple):
    """How much of the expected grid a prediction file answers (see :func:`coverage`)."""

    expected: int
    """Records ``mmjudge eval`` writes for the reference rows."""
    present: int
    """Expected records the file holds."""
    no_judgment: int
    """Records among them marked ``no_judgment``."""

    @property
    def coverage(self) -> float:
        """Share of expected records present, in percent."""
        return 100.0 * self.present / self.expected if self.expected else 0.0

    @property
    def no_judgment_rate(self) -> float:
        """Share of expected records that carry no judgment (or are absent), in percent."""
        missing = self.expected - self.present
        return 100.0 * (self.no_judgment + missing) / self.expected if self.expected else 0.0

    def as_dict(self) -> dict[str, float | int]:
        """Counts and both rates, for JSON."""
        return {**self._asdict(), "coverage": self.coverage, "no_judgment_rate": self.no_judgment_rate}


def coverage(predictions: PredictionFile, rows: Rows) -> Coverage:
    """Records expected, present and without judgment.

    The expected records are the benchmark's (``RecordSpec.expected_ids``); a file with 1 of 2 expected
    records, marked ``no_judgment``, has ``Coverage(expected=2, present=1, no_judgment=1)``, coverage
    50.0 and no-judgment rate 100.0.
    """
    expected = set(expected_ids(predictions.header.benchmark, rows, predictions.records))
    present = [r for r in predictions.records if str(r.get("id")) in expected]
    return Coverage(len(expected), len(present), sum(bool(r.get("no_judgment")) for r in present))


def expected_ids(benchmark: str, rows: Rows, records: Rows = ()) -> list[str]:
    """The record ids ``mmjudge eval`` writes for ``rows``, in its order (``records``: the file's records,
    which say which optional parts a run wrote, such as reversed pairs)."""
    return get_benchmark(benchmark).records.expected_ids(rows, records)


def _check_coverage(predictions: PredictionFile, rows: Rows) -> None:
    benchmark = predictions.header.benchmark
    spec = get_benchmark(benchmark).records
    expected = expected_ids(benchmark, rows, predictions.records)
    _check_reference_ids(benchmark, expected)
    expected_set = set(expected)
    first: dict[str, int] = {}
    unknown: list[tuple[str, str]] = []
    for index, record in enumerate(predictions.records):
        item_id, where = str(record.get("id")), predictions.line_of(index)
        problem = id_problem(benchmark, record)
        if problem:
            raise SchemaError(f"{where}: {problem}")
        if item_id in first:
            raise SchemaError(
                f"{where}: id {item_id!r} already given on {predictions.line_of(first[item_id])}; "
                "expected every reference id exactly once"
            )
        first[item_id] = index
        if item_id not in expected_set:
            unknown.append((item_id, where))
    missing = [i for i in expected if i not in first]
    if missing or unknown:
        what = spec.unit
        parts = []
        groups = spec.missing_groups(missing) if spec.missing_groups is not None else [(what, missing)]
        for label, group in groups:
            if group:
                parts.append(f"{len(group)} {label} without a prediction: {summarize(group)}")
        if unknown:
            lines = ", ".join(where for _, where in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
            parts.append(f"{len(unknown)} unknown ids: {summarize([i for i, _ in unknown])} ({lines})")
        raise SchemaError(
            "; ".join(parts) + f" (expected every one of the {len(expected)} {what} exactly once, "
            "as `mmjudge eval` writes them)"
        )


def _check_reference_ids(benchmark: str, expected: Sequence[str]) -> None:
    if len(set(expected)) != len(expected):
        repeated = [i for i, n in Counter(expected).items() if n > 1]
        raise SchemaError(
            f"the {benchmark} reference rows repeat ids {summarize(repeated)}: expected each item once; "
            "rebuild the benchmark folder"
        )
