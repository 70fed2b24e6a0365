"""The analysis computed: the table of numbers (Table 14), the rank correlations (Table 15) and the linear
comparison (Appendix K)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mmjudge.correlation._data import PAPER, Analysis, Column, paper_columns, results_columns
from mmjudge.correlation._stats import BOOTSTRAP_RESAMPLES, Correlation, pearson, spearman
from mmjudge.errors import ConfigError

__all__ = ["ALPHA", "Cell", "Correlations", "LinearCell", "correlate"]

ALPHA = 0.05
"""A ρ is marked when its exact permutation p-value is below this (the paper's bold)."""


@dataclass(frozen=True)
class Cell:
    """Spearman's ρ of one published benchmark's column with one target column, over the judges with both."""

    benchmark: str
    """The published benchmark's label."""
    column: str
    """The target column's label."""
    judges: tuple[str, ...]
    correlation: Correlation

    @property
    def significant(self) -> bool:
        """The exact permutation test separates ρ from zero at :data:`ALPHA`."""
        return self.correlation.p_value < ALPHA


@dataclass(frozen=True)
class LinearCell:
    """Pearson's r of the x key with one y key, over the target's judges (all of them, or all but ``without``)."""

    x: str
    y: str
    without: str | None
    judges: tuple[str, ...]
    correlation: Correlation


@dataclass(frozen=True)
class Correlations:
    """Everything ``mmjudge correlate`` writes."""

    analysis: Analysis
    judges: tuple[str, ...]
    """The rows of the tables: the paper's judges in its order, then any other judge the results files name."""
    target: tuple[Column, ...]
    published: tuple[Column, ...]
    spearman: tuple[Cell, ...]
    """One per published benchmark (outer) and target column (inner), in the tables' order."""
    linear: tuple[LinearCell, ...]
    resamples: int
    seed: int


def _judges(analysis: Analysis, columns: Sequence[Column]) -> tuple[str, ...]:
    named = {judge for column in columns for judge in column.values}
    return (*(j for j in analysis.judges if j in named), *sorted(named - set(analysis.judges)))


def _common(judges: Sequence[str], *columns: Column) -> tuple[str, ...]:
    return tuple(j for j in judges if all(j in c.values for c in columns))


def _renamed(column: Column, names: Mapping[str, str]) -> Column:
    if not names:
        return column
    values: dict[str, float] = {}
    for judge, value in column.values.items():
        name = names.get(judge, judge)
        if name in values:
            raise ConfigError(f"--rename maps two judges of {column.label!r} onto {name!r}; give each its own name")
        values[name] = value
    return Column(column.label, values, column.source, column.benchmark, column.key)


def correlate(analysis: Analysis, results: Sequence[str | Path] = (), *, rename: Mapping[str, str] | None = None,
              without: str | None = None, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> Correlations:  # fmt: skip
    """Compute ``analysis`` from the paper's numbers, each column replaced by the ``results`` files' where they hold
    its benchmark (judges matched by name; ``rename`` maps a results file's judge name onto the paper's).

    Table 14 and 15 are over the judges the columns share: from the paper alone, the analysis's judges; the linear
    comparison is over every judge of the target with both keys (Appendix K: the eleven of Table 2), and again
    without ``without`` (default: the analysis's choice, LiFT).

    Raises:
        ConfigError: ``without`` names a judge no column holds, or ``resamples`` is not positive.
    """
    if resamples < 1:
        raise ConfigError(f"--resamples must be a positive integer, got {resamples}")
    linear_spec = analysis.appendix_k
    x_key, x_label = linear_spec.get("x", (None, None))
    y_specs = [tuple(y) for y in linear_spec.get("ys", [])]
    keys = [x_key, *(key for key, _ in y_specs)] if x_key else []
    if results:
        target, published, extra = results_columns(analysis, results, keys)
    else:
        target, published, extra = paper_columns(analysis, keys)
    names = dict(rename or {})
    target = [_renamed(c, names) for c in target]
    published = [_renamed(c, names) for c in published]
    extra = [_renamed(c, names) for c in extra]
    if all(c.source == PAPER for c in target):  # the paper's target rows hold judges the tables do not list
        target = [Column(c.label, {j: v for j, v in c.values.items() if j in analysis.judges}, c.source, c.benchmark,
                         c.key) for c in target]  # fmt: skip
    judges = _judges(analysis, [*target, *published])
    cells = tuple(
        Cell(p.label, t.label, shared, spearman([p.values[j] for j in shared], [t.values[j] for j in shared],
                                                resamples=resamples, seed=seed))
        for p in published for t in target for shared in [_common(judges, p, t)]
    )  # fmt: skip
    linear: list[LinearCell] = []
    if extra:
        x_column, y_columns = extra[0], extra[1:]
        everyone = sorted(set(x_column.values))
        left_out = without if without is not None else linear_spec.get("without")
        if without is not None and without not in x_column.values:
            raise ConfigError(f"--without {without!r}: no such judge on {x_label!r}; judges: {everyone}")
        for (_, y_label), y_column in zip(y_specs, y_columns, strict=True):
            for dropped in (None, left_out) if left_out else (None,):
                shared = tuple(j for j in everyone if j in y_column.values and j != dropped)
                r = pearson([x_column.values[j] for j in shared], [y_column.values[j] for j in shared])
                linear.append(LinearCell(str(x_label), str(y_label), dropped, shared, r))
    return Correlations(analysis, judges, tuple(target), tuple(published), cells, tuple(linear), resamples, seed)
