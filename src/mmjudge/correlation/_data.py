"""What a correlation analysis compares: judges' numbers on a target benchmark's columns and on published benchmarks.

An analysis is declared once, as data (``<name>.json`` beside this module: the target benchmark and its columns,
the published benchmarks with the paper's numbers and the result key each benchmark's scorer writes, and the
Appendix K comparison). Its numbers come from two places:

- the paper: the target's columns from the target benchmark's reported rows (``reported.json``, the numbers the
  leaderboard shows as ``published``), the published benchmarks' columns from the analysis file (the paper's
  table as printed);
- results files (``results.json`` of ``mmjudge eval``): a column comes from the files when any file holds its
  benchmark (the file's ``judge`` names the judge), else from the paper, and the table says which.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.results import read_results

__all__ = ["ANALYSES", "Analysis", "Column", "load_analysis", "paper_columns", "results_columns"]

ANALYSES = tuple(sorted(entry.name.removesuffix(".json") for entry in resources.files(__package__).iterdir()
                        if entry.name.endswith(".json")))  # fmt: skip
"""The analyses shipped (``mmjudge correlate --analysis``): one ``<name>.json`` each beside this module."""
PAPER, RESULTS = "paper", "results files"
"""Where a column's numbers come from."""


@dataclass(frozen=True)
class Column:
    """One column of numbers over judges."""

    label: str
    """How tables name it."""
    values: Mapping[str, float]
    """Judge -> number (a judge without one is absent)."""
    source: str
    """Where the numbers come from (:data:`PAPER`'s table, or :data:`RESULTS`)."""
    benchmark: str | None = None
    """The registered benchmark whose scorer makes the number (``None``: none here)."""
    key: str | None = None
    """The result key of that scorer."""


@dataclass(frozen=True)
class Analysis:
    """A declared analysis (the ``<name>.json`` file), read."""

    name: str
    title: str
    citation: str
    target_benchmark: str
    target_label: str
    target_source: str
    target_columns: tuple[tuple[str, str], ...]
    """``(result key, label)`` of each target column."""
    judges: tuple[str, ...]
    """The judges of the paper's tables, in the paper's row order."""
    published: tuple[Mapping[str, Any], ...]
    """Each published benchmark: ``label``, ``benchmark``, ``key``, ``metric``, ``source``, ``values``."""
    appendix_k: Mapping[str, Any] = field(default_factory=dict)
    """The linear comparison over the target's own keys: ``x``, ``ys`` (``[key, label]``), ``without`` a judge."""
    figure: tuple[str, ...] = ()
    """The target columns (labels) plotted against each published benchmark (Figure 3)."""


def load_analysis(name: str | None = None) -> Analysis:
    """The shipped analysis ``name`` (:data:`ANALYSES`; ``None``: the only one shipped).

    >>> load_analysis().judges[:2]
    ('UnifiedReward-2.0-8B', 'UnifiedReward-Flex-9B')
    """
    if name is None:
        if len(ANALYSES) != 1:
            raise ConfigError(f"name the analysis (--analysis); shipped: {list(ANALYSES)}")
        name = ANALYSES[0]
    if name not in ANALYSES:
        raise ConfigError(f"unknown correlation analysis {name!r}; shipped: {list(ANALYSES)}")
    data = json.loads((resources.files("mmjudge.correlation") / f"{name}.json").read_text(encoding="utf-8"))
    target = data["target"]
    return Analysis(
        name=data["analysis"], title=data["title"], citation=data["citation"], target_benchmark=target["benchmark"],
        target_label=target["label"], target_source=target["source"],
        target_columns=tuple((str(k), str(label)) for k, label in target["columns"]), judges=tuple(data["judges"]),
        published=tuple(data["published"]), appendix_k=data.get("appendix_k", {}),
        figure=tuple(data.get("figure", ())),
    )  # fmt: skip


def _reported(benchmark: str) -> dict[str, Mapping[str, float]]:
    """Judge -> results of ``benchmark``'s reported rows."""
    return {str(r["judge"]): dict(r["results"]) for r in get_benchmark(benchmark).reported().get("rows", [])}


def _column(rows: Mapping[str, Mapping[str, Any]], key: str, label: str, source: str, benchmark: str | None) -> Column:
    values = {judge: float(scores[key]) for judge, scores in rows.items()
              if isinstance(scores.get(key), (int, float)) and math.isfinite(float(scores[key]))}  # fmt: skip
    return Column(label, values, source, benchmark, key)


def paper_columns(analysis: Analysis, keys: Iterable[str] = ()) -> tuple[list[Column], list[Column], list[Column]]:
    """The paper's numbers: the target columns (and ``keys``, further target keys such as Appendix K's) from the
    target's reported rows, the published columns from the analysis file."""
    rows = _reported(analysis.target_benchmark)
    target = [_column(rows, key, label, PAPER, analysis.target_benchmark) for key, label in analysis.target_columns]
    extra = [_column(rows, key, key, PAPER, analysis.target_benchmark) for key in keys]
    published = [Column(str(p["label"]), {str(j): float(v) for j, v in p["values"].items()}, f"{PAPER} ({p['source']})",
                        p.get("benchmark"), p.get("key")) for p in analysis.published]  # fmt: skip
    return target, published, extra


def results_columns(analysis: Analysis, paths: Sequence[str | Path], keys: Iterable[str] = ()) -> tuple[
        list[Column], list[Column], list[Column]]:  # fmt: skip
    """The numbers of ``results.json`` files, the paper's where no file holds a column's benchmark.

    Raises:
        SchemaError: two files give one judge on one benchmark, or a file holds none of the analysis's benchmarks.
    """
    by_benchmark: dict[str, dict[str, Mapping[str, Any]]] = {}
    wanted = {analysis.target_benchmark, *(p.get("benchmark") for p in analysis.published if p.get("benchmark"))}
    for path in paths:
        results = read_results(path)
        if results.benchmark not in wanted:
            raise SchemaError(f"{path}: a {results.benchmark!r} results file; this analysis reads "
                              f"{sorted(b for b in wanted if b)}")  # fmt: skip
        judges = by_benchmark.setdefault(results.benchmark, {})
        if results.judge in judges:
            raise SchemaError(f"{path}: a second {results.benchmark} results file for judge {results.judge!r}; "
                              "give one run per judge and benchmark")  # fmt: skip
        judges[results.judge] = dict(results.scores)
    target, published, extra = paper_columns(analysis, keys)
    if analysis.target_benchmark in by_benchmark:
        rows = by_benchmark[analysis.target_benchmark]
        target = [_column(rows, c.key or "", c.label, RESULTS, c.benchmark) for c in target]
        extra = [_column(rows, c.key or "", c.label, RESULTS, c.benchmark) for c in extra]
    published = [_column(by_benchmark[c.benchmark], c.key or "", c.label, RESULTS, c.benchmark)
                 if c.benchmark in by_benchmark else c for c in published]  # fmt: skip
    return target, published, extra
