"""What a benchmark publishes outside mmjudge: Hub eval-result tasks and lmms-eval tasks.

A benchmark lists, in :class:`ExportSpec`, the tasks of its dataset's ``eval.yaml`` (each one result
key scored on one dataset config) and the lmms-eval tasks its folder becomes. Generic exporters
(:mod:`mmjudge.export`) read these and name no benchmark.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EvalTask", "ExportSpec", "LmmsTask", "eval_yaml_document"]

FRAMEWORK = "mmjudge"
"""The ``evaluation_framework`` key of the ``eval.yaml`` files mmjudge writes."""


@dataclass(frozen=True)
class EvalTask:
    """One task of the benchmark's ``eval.yaml``: a result key as scored on a dataset config."""

    id: str
    """Task id (``[a-z0-9_]``), the ``task_id`` of a Hub eval-result entry."""
    config: str
    """Dataset config the task reads."""
    key: str
    """Result key whose value the entry reports (its CI is ``<key>_ci_low``/``_ci_high``)."""
    split: str = "test"
    """Dataset split."""
    main: bool = False
    """The benchmark's main task (one per benchmark): the first entry a model's eval results list."""


@dataclass(frozen=True)
class LmmsTask:
    """One lmms-eval task: the judge items of one dataset config, optionally a subset of them."""

    name: str
    """Task name (``<benchmark>_<suffix>``)."""
    config: str
    """Dataset config lmms-eval loads (``dataset_name``)."""
    keys: tuple[str, ...]
    """Result keys the task reports as lmms-eval metrics."""
    reference_config: str = ""
    """Config whose rows the items are built from (default: the benchmark's reference config)."""
    swap: bool = False
    """Build the items with ``swap=True`` (each pair also in reversed order)."""
    select: Mapping[str, str] = field(default_factory=dict)
    """Keep only the items whose attributes equal these values (e.g. one image condition)."""
    score_options: Mapping[str, Any] = field(default_factory=dict)
    """Scorer options of the aggregation (e.g. ``{"mode": "official"}``)."""
    description: str = ""
    """One line for the exported README."""
    doc_links: Callable[[Sequence[Mapping[str, Any]]], Mapping[str, list[str]]] | None = None
    """Item id -> where the item is used in the reference rows (e.g. ``pair_id:side``), shown in each doc
    as ``links`` (the aggregation itself rebuilds the units with the benchmark's record builder)."""


@dataclass(frozen=True)
class ExportSpec:
    """The benchmark's ``eval.yaml`` tasks and lmms-eval tasks."""

    description: str = ""
    """One paragraph for ``eval.yaml``'s ``description``."""
    eval_tasks: tuple[EvalTask, ...] = ()
    """Tasks of the dataset's ``eval.yaml``; exactly one is the main task."""
    lmms_tasks: tuple[LmmsTask, ...] = ()
    """lmms-eval tasks (empty: the benchmark is not exported to lmms-eval)."""
    lmms_note: str = ""
    """What the exported README must say about this benchmark under lmms-eval."""

    def main_task(self) -> EvalTask:
        """The main task; ``LookupError`` when none is marked."""
        for task in self.eval_tasks:
            if task.main:
                return task
        raise LookupError("no eval task is marked main")


def eval_yaml_document(name: str, description: str, tasks: tuple[EvalTask, ...]) -> dict[str, Any]:
    """The ``eval.yaml`` of a benchmark dataset repo (name, description, framework, tasks).

    >>> doc = eval_yaml_document("Toy", "A toy.", (EvalTask("overall", "all", "overall", main=True),))
    >>> doc["tasks"]
    [{'id': 'overall', 'config': 'all', 'split': 'test'}]
    """
    return {
        "name": name,
        "description": description,
        "evaluation_framework": FRAMEWORK,
        "tasks": [{"id": t.id, "config": t.config, "split": t.split} for t in tasks],
    }
