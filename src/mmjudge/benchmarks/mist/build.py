"""MIST (Misleading-Image Stress Test) dataset builder: ``build_tables(source, ...)``.

Two sources, told apart by their layout:

* **A released MIST table**: a folder holding ``items.csv`` (see :mod:`mmjudge.benchmarks.mist._release`
  for the layout: items, per-trio human labels with annotator ids, judge labels in long format).
* **The AdMIRe source release** (``UCSC-Admire/idiom-SFT-dataset-561-2024-12-06_00-40-30``): a
  parquet file or a folder of parquet files; MIST's 200 items are rebuilt by the paper's Appendix D
  procedure as :mod:`mmjudge.benchmarks.mist._draw` documents it (eligibility, ``random.seed(123)`` draw,
  four cells of 50, sentence-length cascade, image pairing, ``**...**`` markup). Rebuilt items have
  no trio and no human labels.

Configs: ``items`` (always; split ``test``) with the columns of :data:`ITEMS_SCHEMA` (plus extra
``items.csv`` columns as text), and ``judge_labels`` (split ``test``, :data:`JUDGE_SCHEMA`) when the
release has ``judge_labels.csv``. Images come from public releases, so they are copied into the
built folder under ``media/images/``; the image columns are ``datasets.Image`` features holding each
file's bytes and its path relative to the folder (:mod:`mmjudge.data.images`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from mmjudge.benchmarks.mist._admire import read_admire, stage_images
from mmjudge.benchmarks.mist._draw import CELLS, DrawnItem, draw_items
from mmjudge.benchmarks.mist._match import find_compound, mark_compound
from mmjudge.benchmarks.mist._release import LABEL_CODES, LABELS, majority_label, read_release
from mmjudge.benchmarks.mist.release import RELEASES
from mmjudge.data.build import BuiltConfig, BuiltDataset
from mmjudge.data.card import read_template
from mmjudge.data.media_paths import check_media, resolve_media
from mmjudge.data.release import release_section
from mmjudge.errors import ConfigError

__all__ = [
    "IMAGE_COLUMNS",
    "ITEMS_SCHEMA",
    "JUDGE_SCHEMA",
    "LABELS",
    "LABEL_CODES",
    "build_tables",
    "find_compound",
    "majority_label",
    "mark_compound",
]

_S = pa.string()
ITEMS_SCHEMA = pa.schema(
    [
        ("item_id", _S), ("compound", _S), ("sentence", _S), ("sentence_sense", _S), ("cell", _S),
        ("alignment", _S), ("image_sense", _S), ("cell_image", _S), ("aligned_image", _S),
        ("misleading_image", _S), ("aligned_image_prompt", _S), ("misleading_image_prompt", _S),
        ("trio", _S), ("human_labels", pa.list_(_S)), ("human_annotators", pa.list_(_S)),
        ("majority_label", _S), ("source_id", _S), ("media_missing", pa.bool_()),
    ]
)  # fmt: skip
"""Columns of the ``items`` config as the builder fills them (extra ``items.csv`` columns follow as
strings); the folder stores the :data:`IMAGE_COLUMNS` as ``datasets.Image`` features."""
IMAGE_COLUMNS = ("aligned_image", "misleading_image")
"""Image path columns (relative to the folder), written as ``datasets.Image`` (bytes + path). ``cell_image``
stays the relative path string of one of the two (embedding its bytes again would store each image twice)."""
JUDGE_SCHEMA = pa.schema(
    [(c, _S) for c in ("judge", "prompt_strategy", "arm", "image_condition", "item_id", "label")]
)
"""Columns of the ``judge_labels`` config."""

_ITEMS_DESCRIPTION = "one row per MIST item: sentence, cell T1-T4, aligned/misleading images, human labels"
_JUDGE_DESCRIPTION = "judge labels in long format: judge x prompt strategy x arm x image condition x item"


def build_tables(
    source: Path,
    *,
    media_root: Path | None = None,
    allow_missing_media: bool = False,
    n_items: int | str = 200,
    seed: int | str = 123,
) -> BuiltDataset:
    """Build the MIST configs from a released table or the AdMIRe release (see the module docstring).

    Args:
        source: release folder with ``items.csv``, or AdMIRe parquet file / folder.
        media_root: where image file names point (default: the source folder).
        allow_missing_media: keep items whose image file is missing, with ``media_missing=True``.
        n_items: items to draw from AdMIRe (a multiple of 4; the paper's 200). Text is accepted
            (``--option n_items=24``).
        seed: seed of the AdMIRe draw (the paper's 123).

    Returns:
        The :class:`~mmjudge.data.BuiltDataset` for :func:`~mmjudge.benchmarks.build_dataset`.
    """
    source = Path(source)
    if source.is_dir() and (source / "items.csv").is_file():
        return _from_release(source, media_root or source, allow_missing_media)
    count, draw_seed = _integer("n_items", n_items), _integer("seed", seed)
    return _from_admire(source, media_root, allow_missing_media, count, draw_seed)


def _integer(name: str, value: int | str) -> int:
    """Options may arrive as text from ``--option n_items=24``.

    >>> _integer("n_items", "24")
    24
    """
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"option {name}: expected an integer, got {value!r}") from None


def _table(rows: list[dict[str, Any]], extras: Sequence[str] = ()) -> pa.Table:
    schema = ITEMS_SCHEMA
    for name in extras:
        schema = schema.append(pa.field(name, _S))
    return pa.Table.from_pylist(rows, schema=schema)


def _cell_counts(rows: Sequence[dict[str, Any]]) -> str:
    counts = Counter(row["cell"] for row in rows)
    return ", ".join(f"{cell}: {counts.get(cell, 0)}" for cell in CELLS)


def _missing(
    rows: list[dict[str, Any]],
    root: Path,
    checks: dict[str, tuple[list[int], list[str]]],
    allow: bool,
    where: Path,
) -> None:
    """Mark ``media_missing``; ``checks`` maps a column to (row indices, file names) to check."""
    mask = np.zeros(len(rows), dtype=bool)
    for column, (indices, names) in checks.items():
        ids = [rows[i]["item_id"] for i in indices]
        missing = check_media(names, root, allow_missing=allow, source=where, column=column, ids=ids)
        mask[np.asarray(indices, dtype=int)[missing]] = True
    for row, flag in zip(rows, mask.tolist(), strict=True):
        row["media_missing"] = flag


def _from_release(folder: Path, root: Path, allow_missing: bool) -> BuiltDataset:
    release = read_release(folder)
    rows: list[dict[str, Any]] = [dict(item) for item in release.items]
    everyone = list(range(len(rows)))
    checks = {c: (everyone, [str(row[c]) for row in rows]) for c in ("aligned_image", "misleading_image")}
    _missing(rows, root, checks, allow_missing, folder / "items.csv")
    media: dict[str, Path] = {}
    for row in rows:
        for column in ("aligned_image", "misleading_image", "cell_image"):
            original = str(row[column])
            row[column] = "media/" + original.replace("\\", "/")
            path = resolve_media(original, root)
            if path.is_file():
                media[row[column]] = path
    configs = [
        BuiltConfig("items", {"test": _table(rows, release.extra_columns)}, _ITEMS_DESCRIPTION, IMAGE_COLUMNS)
    ]
    if release.judge_labels is not None:
        judge = pa.Table.from_pylist(release.judge_labels, schema=JUDGE_SCHEMA)
        configs.append(BuiltConfig("judge_labels", {"test": judge}, _JUDGE_DESCRIPTION))
    labelled = sum(1 for row in rows if row["human_labels"])
    context = {
        "source_kind": f"a released MIST table (`{folder.name}`)",
        "num_items": len(rows),
        "cell_counts": _cell_counts(rows),
        "draw_note": "Items were read from the released table, not redrawn.",
        "label_note": f"{labelled} of {len(rows)} items carry human labels "
        f"({sum(len(r['human_labels']) for r in rows)} labels in all).",
        "judge_note": f"{len(release.judge_labels)} judge labels."
        if release.judge_labels is not None
        else "The release has no judge labels.",
        "raw_release": release_section(RELEASES),
    }
    return BuiltDataset(
        "mist", configs, media, False, context, card_template=read_template("mmjudge.benchmarks.mist")
    )


def _admire_row(item: DrawnItem, rel: dict[Any, str]) -> dict[str, Any]:
    aligned, misleading = rel[item.aligned], rel[item.misleading]
    return {
        "item_id": item.item_id,
        "compound": item.compound,
        "sentence": item.sentence,
        "sentence_sense": item.sentence_sense,
        "cell": item.cell,
        "alignment": item.alignment,
        "image_sense": item.image_sense,
        "cell_image": aligned if item.alignment == "aligned" else misleading,
        "aligned_image": aligned,
        "misleading_image": misleading,
        "aligned_image_prompt": item.aligned.prompt,
        "misleading_image_prompt": item.misleading.prompt,
        "trio": None,
        "human_labels": [],
        "human_annotators": [],
        "majority_label": None,
        "source_id": str(item.source_id),
        "media_missing": False,
    }


def _admire_rows(
    items: Sequence[DrawnItem],
    admire: Any,
    root: Path,
    allow_missing: bool,
    source: Path,
    built: BuiltDataset,
) -> list[dict[str, Any]]:
    """Stage the drawn images (into ``built.resources``), fill ``built.media_files``, return the rows."""
    refs = [ref for item in items for ref in (item.aligned, item.misleading)]
    files = stage_images(refs, admire, root, built.resources)
    rows = [_admire_row(item, files.relpaths) for item in items]
    checks = {}
    for column, attr in (("aligned_image", "aligned"), ("misleading_image", "misleading")):
        named = [i for i, item in enumerate(items) if getattr(item, attr) in files.names]
        if named:
            checks[column] = (named, [files.names[getattr(items[i], attr)] for i in named])
    _missing(rows, root, checks, allow_missing, source)
    built.media_files = {files.relpaths[r]: p for r, p in files.sources.items() if p.is_file()}
    return rows


def _from_admire(
    source: Path, media_root: Path | None, allow_missing: bool, n_items: int, seed: int
) -> BuiltDataset:
    admire = read_admire(source)
    result = draw_items(admire.rows, n_items=n_items, seed=seed)
    root = media_root or (source if source.is_dir() else source.parent)
    built = BuiltDataset("mist", [], {}, False, {}, card_template=read_template("mmjudge.benchmarks.mist"))
    try:
        rows = _admire_rows(result.items, admire, root, allow_missing, source, built)
    except BaseException:
        for resource in built.resources:
            resource.cleanup()
        raise
    built.configs = [BuiltConfig("items", {"test": _table(rows)}, _ITEMS_DESCRIPTION, IMAGE_COLUMNS)]
    exact = sum(item.exact_match for item in result.items)
    built.card_context = {
        "source_kind": f"the AdMIRe source release (`{source.name}`), rebuilt by the Appendix D procedure",
        "num_items": len(rows),
        "cell_counts": _cell_counts(rows),
        "draw_note": f"Drawn with seed {seed} from {result.eligible_compounds} eligible of "
        f"{result.english_compounds} English compounds; {exact} of {len(rows)} sentences contain the "
        "compound verbatim, the rest as a morphological variant or with filler tokens.",
        "label_note": "Rebuilt items carry no human labels (trio, human_labels and majority_label are empty).",
        "judge_note": "The AdMIRe release has no judge labels.",
        "raw_release": release_section(RELEASES),
    }
    return built
