"""Typed breakdown tables and sweep series: what a benchmark's report shows, as result keys only.

A benchmark declares its report tables (``Benchmark.present.report_tables``) and what a frame-count sweep
follows (``Benchmark.present.sweep_series``) as *result keys*; the generic report (:mod:`mmjudge.report`) reads
each value and its CI (``<key>_ci_low``/``_ci_high``) from the scores. A table therefore cannot show a
number the scorer did not return, and a key that is absent shows as a dash.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from mmjudge.estimates import ci_owner

__all__ = ["BreakdownTable", "Cell", "SweepSeries", "TableRow", "cells", "label", "present_segments"]


@dataclass(frozen=True)
class Cell:
    """One table cell: a result key, shown with its stored CI when the scorer wrote one."""

    key: str | None
    """Result key shown (``None``: the cell shows :attr:`text`)."""
    digits: int = 1
    """Decimals of a float value and its CI (counts and labels are shown as they are)."""
    ci: bool = True
    """Show ``[<key>_ci_low, <key>_ci_high]`` after the value when both are stored."""
    text: str = ""
    """Fixed text of a cell without a key (a label such as a dimension name, never a number)."""


class TableRow(NamedTuple):
    """One row: a label and its cells, one per value column."""

    label: str
    """Text of the first column."""
    cells: tuple[Cell, ...]
    """The value cells, in column order."""


@dataclass(frozen=True)
class BreakdownTable:
    """One breakdown table of a report, laid out as the paper lays it out."""

    title: str
    """Section title (e.g. ``"Accuracy per intervention (Table 2, Table 5)"``)."""
    header: tuple[str, ...]
    """Column titles; the first is the row-label column."""
    rows: tuple[TableRow, ...]
    """The rows, in order."""
    note: str = ""
    """One paragraph under the table: units, what the CI is, what a dash means."""


class SweepSeries(NamedTuple):
    """One line of a frame-count sweep: a result key followed across frame counts."""

    label: str
    """Legend and row label (e.g. ``"frame_hold"``)."""
    key: str
    """Result key read from each frame count's scores; its CI keys give the band."""
    aggregate: bool = False
    """The series aggregates the others (e.g. their average); the plot draws it bold."""


def cells(*keys: str, digits: int = 1, ci: bool = True) -> tuple[Cell, ...]:
    """Cells of ``keys`` with the same format.

    >>> cells("accuracy/x", "n/x", ci=False)
    (Cell(key='accuracy/x', digits=1, ci=False, text=''), Cell(key='n/x', digits=1, ci=False, text=''))
    """
    return tuple(Cell(key, digits, ci) for key in keys)


def label(text: str) -> Cell:
    """A cell showing fixed text (a label, never a number).

    >>> label("motion").text
    'motion'
    """
    return Cell(None, text=text)


def present_segments(keys: Iterable[str], prefix: str, position: int) -> list[str]:
    """Distinct values of path segment ``position`` among keys starting with ``prefix``, in first-seen order.

    For keys whose segments stand for values of the input (MIST's trios and prompts): the table lists
    the ones the scores hold.

    >>> present_segments(["kappa/blind", "kappa/blind/n_items", "kappa/informed"], "kappa/", 1)
    ['blind', 'informed']
    """
    found: dict[str, None] = {}
    for key in keys:
        parts = key.split("/")
        if key.startswith(prefix) and len(parts) > position:
            found.setdefault(ci_owner(parts[position]), None)
    return list(found)
