"""Reading a released MIST table (items, per-trio human labels, judge labels in long format).

Layout of the release folder (documented in the dataset card template, ``card.md`` in this package)::

    items.csv          item_id, compound, sentence, sentence_sense, cell, alignment,
                       aligned_image, misleading_image, trio
                       (optional: aligned_image_prompt, misleading_image_prompt, source_id;
                       other columns are kept as text)
    human_labels.csv   item_id, trio, annotator_id, label
    judge_labels.csv   judge, prompt_strategy, arm, image_condition, item_id, label   (optional;
                       arm explicit/silent with an image, none for image_condition none)
    images/...         the images named by aligned_image / misleading_image (paths relative to the
                       folder, or to media_root when given)

CSV files are UTF-8 with a header line, read with every column as text
(:mod:`mmjudge.data.strict_read`). Every bad input raises :class:`~mmjudge.errors.SchemaError` naming the
file, the data row (1-based, header not counted) and item id, the column, what was expected and what
arrived.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from mmjudge.benchmarks.mist._draw import CELL_ALIGNMENT, CELL_IMAGE_SENSE, CELL_SENTENCE_SENSE, CELLS
from mmjudge.data.strict_read import read_csv_strings, schema_error
from mmjudge.errors import SchemaError

__all__ = [
    "ARMS",
    "IMAGE_CONDITIONS",
    "ITEM_COLUMNS",
    "JUDGE_COLUMNS",
    "LABELS",
    "LABEL_CODES",
    "TRIOS",
    "CsvRow",
    "majority_label",
    "read_csv",
    "read_release",
]

LABELS = ("FF", "WF", "FL", "LL")
"""The four MIST labels, in ordinal order."""
LABEL_CODES = {label: code for code, label in enumerate(LABELS)}
"""Ordinal codes FF=0, WF=1, FL=2, LL=3."""
TRIOS = ("informed", "blind")
"""The two human trios."""
IMAGE_CONDITIONS = ("none", "aligned", "misleading")
"""Judge image conditions (``none`` = text only)."""
ARMS = ("explicit", "silent")
"""Judge arms with an image: told to ignore it, or not told (text-only rows carry ``arm="none"``)."""
ITEM_COLUMNS = (
    "item_id", "compound", "sentence", "sentence_sense", "cell", "alignment",
    "aligned_image", "misleading_image", "trio",
)  # fmt: skip
"""Required columns of ``items.csv``."""
HUMAN_COLUMNS = ("item_id", "trio", "annotator_id", "label")
"""Required columns of ``human_labels.csv``."""
JUDGE_COLUMNS = ("judge", "prompt_strategy", "arm", "image_condition", "item_id", "label")
"""Required columns of ``judge_labels.csv``."""
OPTIONAL_ITEM_COLUMNS = ("aligned_image_prompt", "misleading_image_prompt", "source_id")
"""Known optional columns of ``items.csv``."""
_DERIVED = ("image_sense", "cell_image")


class CsvRow(NamedTuple):
    """One data row of a CSV file."""

    row: int
    """1-based data row number (the header is not counted)."""
    values: dict[str, str]
    """Column -> text (outer whitespace stripped)."""


class Release(NamedTuple):
    """What a release folder holds, checked."""

    items: list[dict[str, object]]
    """Item rows (see :func:`read_release`)."""
    judge_labels: list[dict[str, str]] | None
    """Judge label rows, or None when the folder has no ``judge_labels.csv``."""
    extra_columns: list[str]
    """Extra ``items.csv`` columns kept as text."""


def read_csv(path: Path, required: Sequence[str]) -> tuple[list[str], list[CsvRow]]:
    """Header and rows of a UTF-8 CSV file, refusing empty files, bad bytes and missing columns.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "t.csv"; _ = p.write_bytes(b"a,b\\n1,\\xff\\n")
    >>> read_csv(p, ["a"])
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: ...t.csv, row 1: expected UTF-8 text, got bytes b'1,\\xff\\n' (line 2, byte 2). Re-save the file as UTF-8.
    """
    table = read_csv_strings(path, required=required)
    header = table.column_names
    columns = {name: table.column(name).to_pylist() for name in header}
    rows = [
        CsvRow(index + 1, {name: (columns[name][index] or "").strip() for name in header})
        for index in range(table.num_rows)
    ]
    return header, rows


def _fail(path: Path, row: CsvRow, column: str, expected: str, key: str = "item_id") -> SchemaError:
    where = f"{row.row} ({key} {row.values[key]!r})" if key in row.values else row.row
    return schema_error(path, row=where, column=column, expected=expected, got=repr(row.values.get(column)))


def _check_choice(path: Path, rows: Iterable[CsvRow], column: str, allowed: Sequence[str]) -> None:
    for row in rows:
        if row.values[column] not in allowed:
            raise _fail(path, row, column, f"one of {list(allowed)}")


def _check_unique(path: Path, rows: Sequence[CsvRow], columns: Sequence[str]) -> None:
    seen: dict[tuple[str, ...], int] = {}
    for row in rows:
        key = tuple(row.values[c] for c in columns)
        if key in seen:
            raise schema_error(
                path,
                row=row.row,
                column="/".join(columns),
                expected=f"each {'/'.join(columns)} once",
                got=f"{dict(zip(columns, key, strict=True))} again (first at row {seen[key]})",
            )
        seen[key] = row.row


def majority_label(labels: Sequence[str]) -> str | None:
    """The majority of a trio's labels; ties go to the median ordinal label.

    The unique most frequent label wins. When no label is strictly most frequent (a three-way split,
    or a 1-1 pair), the label of the median ordinal code (FF=0 < WF=1 < FL=2 < LL=3) of all labels is
    taken, the lower median for an even count. No labels -> None. The rule itself lives in
    :func:`mmjudge.benchmarks.mist.majority_label` (the scorer's trio majority); this maps labels to
    codes and back.

    >>> majority_label(["FF", "FF", "LL"]), majority_label(["FF", "FL", "LL"]), majority_label(["WF", "LL"])
    ('FF', 'FL', 'WF')
    >>> majority_label([]) is None
    True
    """
    import numpy as np

    from mmjudge.benchmarks.mist._measures import majority_label as majority_code

    if not labels:
        return None
    return LABELS[majority_code(np.array([LABEL_CODES[label] for label in labels]))]


def _check_items(path: Path, header: Sequence[str], rows: Sequence[CsvRow]) -> None:
    _check_unique(path, rows, ["item_id"])
    _check_choice(path, rows, "cell", CELLS)
    _check_choice(path, rows, "trio", (*TRIOS, ""))
    for row in rows:
        v = row.values
        for column in ("item_id", "compound", "aligned_image", "misleading_image"):
            if not v[column]:
                raise _fail(path, row, column, "a non-empty value")
        cell = v["cell"]
        if v["sentence_sense"] != CELL_SENTENCE_SENSE[cell]:
            raise _fail(path, row, "sentence_sense", f"{CELL_SENTENCE_SENSE[cell]!r} for cell {cell}")
        if v["alignment"] != CELL_ALIGNMENT[cell]:
            raise _fail(path, row, "alignment", f"{CELL_ALIGNMENT[cell]!r} for cell {cell}")
        if v["sentence"].count("**") != 2:
            raise _fail(path, row, "sentence", "the compound wrapped in one **...** pair")
        for column, value in zip(_DERIVED, _derived(v), strict=True):
            if column in header and v[column] != value:
                raise _fail(path, row, column, f"{value!r} (derived from cell {cell})")


def _derived(values: dict[str, str]) -> tuple[str, str]:
    cell = values["cell"]
    image = values["aligned_image"] if CELL_ALIGNMENT[cell] == "aligned" else values["misleading_image"]
    return CELL_IMAGE_SENSE[cell], image


def _human_labels(path: Path, items: dict[str, dict[str, object]]) -> None:
    _, rows = read_csv(path, HUMAN_COLUMNS)
    _check_choice(path, rows, "label", LABELS)
    _check_choice(path, rows, "trio", TRIOS)
    _check_unique(path, rows, ["item_id", "annotator_id"])
    for row in rows:
        item = items.get(row.values["item_id"])
        if item is None:
            raise _fail(path, row, "item_id", f"an item_id of items.csv ({len(items)} items)")
        if not row.values["annotator_id"]:
            raise _fail(path, row, "annotator_id", "a non-empty annotator id")
        if item["trio"] is None:
            item["trio"] = row.values["trio"]
        if row.values["trio"] != item["trio"]:
            raise _fail(path, row, "trio", f"the item's trio {item['trio']!r} (one trio per item)")
        item["human_labels"].append(row.values["label"])  # type: ignore[attr-defined]
        item["human_annotators"].append(row.values["annotator_id"])  # type: ignore[attr-defined]
    for item in items.values():
        item["majority_label"] = majority_label(item["human_labels"])  # type: ignore[arg-type]


def _judge_labels(path: Path, items: dict[str, dict[str, object]]) -> list[dict[str, str]]:
    _, rows = read_csv(path, JUDGE_COLUMNS)
    _check_choice(path, rows, "label", LABELS)
    _check_choice(path, rows, "image_condition", IMAGE_CONDITIONS)
    for row in rows:
        allowed = ("none",) if row.values["image_condition"] == "none" else ARMS
        if row.values["arm"] not in allowed:
            raise _fail(
                path,
                row,
                "arm",
                f"one of {list(allowed)} for image_condition {row.values['image_condition']!r}",
            )
    _check_unique(path, rows, ["judge", "prompt_strategy", "arm", "image_condition", "item_id"])
    for row in rows:
        if row.values["item_id"] not in items:
            raise _fail(path, row, "item_id", f"an item_id of items.csv ({len(items)} items)")
        if not row.values["judge"]:
            raise _fail(path, row, "judge", "a non-empty judge name")
    return [row.values for row in rows]


def read_release(folder: Path) -> Release:
    """Read and check a release folder; item rows carry human labels, trio and majority label.

    Item rows hold the ``items.csv`` values plus ``image_sense`` and ``cell_image`` (derived from the
    cell), ``trio`` (None when empty), ``human_labels`` and ``human_annotators`` (lists, in file
    order), ``majority_label`` (:func:`majority_label`) and the optional columns (None when absent).
    Image paths are still relative to the release folder here.
    """
    path = folder / "items.csv"
    header, rows = read_csv(path, ITEM_COLUMNS)
    _check_items(path, header, rows)
    known = {*ITEM_COLUMNS, *OPTIONAL_ITEM_COLUMNS, *_DERIVED}
    extras = [c for c in header if c not in known]
    items: dict[str, dict[str, object]] = {}
    for row in rows:
        v = row.values
        item: dict[str, object] = {c: v[c] for c in ITEM_COLUMNS}
        item["image_sense"], item["cell_image"] = _derived(v)
        item["trio"] = v["trio"] or None
        item.update({c: v.get(c) or None for c in OPTIONAL_ITEM_COLUMNS})
        item.update({"human_labels": [], "human_annotators": [], "majority_label": None})
        item.update({c: v[c] for c in extras})
        items[v["item_id"]] = item
    humans = folder / "human_labels.csv"
    if not humans.is_file():
        raise SchemaError(
            f"{folder}: no human_labels.csv; expected it beside items.csv (columns {list(HUMAN_COLUMNS)})"
        )
    _human_labels(humans, items)
    judges = folder / "judge_labels.csv"
    judge_rows = _judge_labels(judges, items) if judges.is_file() else None
    return Release(list(items.values()), judge_rows, extras)
