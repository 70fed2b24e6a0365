"""A benchmark dataset's ``eval.yaml``: the tasks the Hub's eval-results entries point at.

The Hub reads ``eval.yaml`` at the root of a benchmark dataset repo (``name``, ``description``,
``evaluation_framework``, ``tasks`` with ``id``, ``config`` and ``split``) and links the
``.eval_results/*.yaml`` entries of model repos to its tasks. The Hub accepts a file only for an
``evaluation_framework`` it knows, so a built folder carries ``eval.yaml`` locally and
:func:`mmjudge.data.push.plan_push` holds it back unless asked (``push-dataset --eval-yaml``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from mmjudge.errors import MissingFileError, SchemaError

__all__ = ["EVAL_YAML", "add_card_note", "read_eval_yaml", "task_ids", "write_eval_yaml"]

EVAL_YAML = "eval.yaml"
"""File name, at the root of the dataset folder and repo."""

_NOTE_TITLE = "## eval.yaml"


def write_eval_yaml(folder: str | Path, document: Mapping[str, Any]) -> Path:
    """Write ``document`` as ``<folder>/eval.yaml`` after checking its keys (see :func:`check_document`)."""
    _check_document(document, where="eval.yaml document")
    path = Path(folder) / EVAL_YAML
    path.write_text(yaml.safe_dump(dict(document), sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def read_eval_yaml(folder: str | Path) -> dict[str, Any]:
    """The ``eval.yaml`` of a built folder; refused with a clear message when absent or malformed."""
    path = Path(folder) / EVAL_YAML
    if not path.is_file():
        raise MissingFileError(
            f"{path} does not exist: build the folder with `mmjudge build-dataset ... --eval-yaml`"
        )
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    _check_document(document, where=str(path))
    return dict(document)


def task_ids(document: Mapping[str, Any]) -> list[str]:
    """The task ids of an ``eval.yaml`` document, in order.

    >>> task_ids({"tasks": [{"id": "overall", "config": "all", "split": "test"}]})
    ['overall']
    """
    return [str(task["id"]) for task in document["tasks"]]


def add_card_note(card: str | Path, framework: str) -> None:
    """Append to the dataset card a section saying what ``eval.yaml`` is and why it is not pushed by default."""
    path = Path(card)
    text = path.read_text(encoding="utf-8")
    if _NOTE_TITLE in text:
        return
    note = (
        f"{_NOTE_TITLE}\n\n"
        "This folder carries an `eval.yaml` (name, description, and one task per reported score, each "
        "with its config and split), the file by which the Hub links eval results on model repos "
        f"(`.eval_results/*.yaml`) to this benchmark. Its `evaluation_framework` is `{framework}`, a "
        "key the Hub must accept upstream before the file validates, so `mmjudge push-dataset` leaves "
        "`eval.yaml` out unless it is given `--eval-yaml`."
    )
    path.write_text(text.rstrip("\n") + "\n\n" + note + "\n", encoding="utf-8")


def _check_document(document: Any, *, where: str) -> None:
    if not isinstance(document, Mapping):
        raise SchemaError(f"{where}: expected a mapping with name, description, tasks; got {type(document).__name__}")
    missing = [k for k in ("name", "description", "evaluation_framework", "tasks") if k not in document]
    if missing:
        raise SchemaError(f"{where}: missing keys {missing}; expected name, description, evaluation_framework, tasks")
    tasks = document["tasks"]
    if not isinstance(tasks, list) or not tasks:
        raise SchemaError(f"{where}: expected a non-empty `tasks` list, got {tasks!r}")
    for task in tasks:
        if not isinstance(task, Mapping) or not {"id", "config", "split"} <= set(task):
            raise SchemaError(f"{where}: each task needs id, config and split; got {task!r}")
    ids = task_ids(document)
    if len(set(ids)) != len(ids):
        raise SchemaError(f"{where}: task ids must be unique, got {ids}")
