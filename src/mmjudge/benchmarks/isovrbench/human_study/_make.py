"""``make_study``: draw pairs per intervention plus control pairs, randomise sides and order, copy the clips.

The paper validated each intervention with people: 45 pairs per intervention, and 8 control pairs per
intervention that show one clip on both sides (an attentive annotator answers "same"). Pairs come from
an IsoVRBench pair table in the raw format (what ``mmjudge build-interventions`` writes, or any release
``mmjudge build-dataset isovrbench`` reads); clip paths are relative to the media root.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from mmjudge.benchmarks.isovrbench import DIMENSIONS, INTERVENTIONS
from mmjudge.benchmarks.isovrbench.human_study._study import QUESTIONS, Study, StudyItem, write_study
from mmjudge.benchmarks.isovrbench.pair_files import columns_of, find_split_files, iter_chunks
from mmjudge.data.media_paths import MediaRoot
from mmjudge.errors import ConfigError, MediaError, SchemaError

__all__ = ["make_study"]

logger = logging.getLogger(__name__)

_REQUIRED = ("pair_id", "prompt", "intervention", "video_chosen", "video_rejected")
_TARGET = {iv: dim for dim, members in DIMENSIONS.items() for iv in members}


def make_study(
    pairs: str | Path,
    out: str | Path,
    *,
    media_root: str | Path | None = None,
    pairs_per_intervention: int = 45,
    controls_per_intervention: int = 8,
    seed: int = 0,
    split: str = "test",
    name: str | None = None,
) -> Study:
    """Write a study folder from a pair table.

    Args:
        pairs: pair table file, or a folder with ``{test,train,validation}.{csv,parquet,jsonl}``.
        out: the study folder (must not exist yet).
        media_root: folder the clip paths are relative to (default: the table's folder).
        pairs_per_intervention: pairs drawn per intervention (all when fewer exist, with a warning).
        controls_per_intervention: control pairs per intervention (one clip of a drawn-from pair, shown twice).
        seed: seeds every draw; the same arguments write the same study.
        split: the split to read from a folder.
        name: the study's name (default: the folder name).
    """
    out = Path(out)
    if out.exists():
        raise ConfigError(f"{out} exists; a study folder is written once (answers refer to its items)")
    if pairs_per_intervention < 1 or controls_per_intervention < 0:
        raise ConfigError(
            f"expected at least one pair and no negative control count per intervention, got "
            f"{pairs_per_intervention} and {controls_per_intervention}"
        )
    source = Path(pairs)
    root = Path(media_root) if media_root is not None else (source if source.is_dir() else source.parent)
    by_iv = _read_pairs(source, split)
    rng = np.random.default_rng(seed)
    items, counts = _draw(by_iv, rng, pairs_per_intervention, controls_per_intervention)
    order = rng.permutation(len(items))
    items = [_named(items[k], position) for position, k in enumerate(order, start=1)]
    items = _copy_media(items, root, out)
    meta = {
        "name": name or out.name,
        "seed": seed,
        "pairs_per_intervention": pairs_per_intervention,
        "controls_per_intervention": controls_per_intervention,
        "source": str(source),
        "split": split,
        "counts": counts,
        "questions": QUESTIONS,
    }
    study = write_study(out, meta, items)
    logger.debug("study %s: %d items (%s)", out, len(items), counts)
    return study


def _read_pairs(source: Path, split: str) -> dict[str, list[dict[str, Any]]]:
    by_iv: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in find_split_files(source, split=split):
        if f.split != split:
            continue
        columns = columns_of(f.path)
        missing = [c for c in _REQUIRED if c not in columns]
        if missing:
            raise SchemaError(f"{f.path}: missing columns {missing}; a pair table needs {list(_REQUIRED)}")
        for _, chunk in iter_chunks(f.path, columns):
            for i in range(len(chunk["pair_id"])):
                row = {c: chunk[c][i] for c in _REQUIRED}
                if row["intervention"] not in INTERVENTIONS:
                    raise SchemaError(
                        f"{f.path}: pair {row['pair_id']!r} has unknown intervention {row['intervention']!r}"
                    )
                by_iv[str(row["intervention"])].append(row)
    if not by_iv:
        raise SchemaError(f"{source}: no pairs in split {split!r}")
    return {iv: sorted(by_iv[iv], key=lambda r: str(r["pair_id"])) for iv in INTERVENTIONS if iv in by_iv}


def _draw(
    by_iv: dict[str, list[dict[str, Any]]], rng: np.random.Generator, per: int, controls: int
) -> tuple[list[StudyItem], dict[str, dict[str, int]]]:
    items: list[StudyItem] = []
    counts: dict[str, dict[str, int]] = {}
    for iv, rows in by_iv.items():
        if len(rows) < per:
            logger.warning("%s has %d pairs, fewer than the %d asked for: all are used", iv, len(rows), per)
        drawn = rng.choice(len(rows), size=min(per, len(rows)), replace=False)
        for k in sorted(drawn.tolist()):
            row, anchor_left = rows[k], bool(rng.integers(2))
            left, right = (row["video_chosen"], row["video_rejected"])[:: 1 if anchor_left else -1]
            side = "left" if anchor_left else "right"
            items.append(_item(row, iv, "pair", left, right, side, None))
        shown = rng.choice(len(rows), size=min(controls, len(rows)), replace=False)
        for k in sorted(shown.tolist()):
            row, use_anchor = rows[k], bool(rng.integers(2))
            clip = row["video_chosen"] if use_anchor else row["video_rejected"]
            items.append(
                _item(row, iv, "control", clip, clip, None, "anchor" if use_anchor else "counterpart")
            )
        counts[iv] = {"pairs": len(drawn), "controls": len(shown), "available": len(rows)}
    return items, counts


def _item(
    row: dict[str, Any], iv: str, kind: str, left: str, right: str, side: str | None, shown: str | None
) -> StudyItem:
    return StudyItem(
        "", kind, str(row["pair_id"]), iv, _TARGET[iv], str(row["prompt"]), str(left), str(right), side, shown
    )


def _named(item: StudyItem, position: int) -> StudyItem:
    return replace(item, item_id=f"q{position:04d}")


def _copy_media(items: list[StudyItem], root: Path, out: Path) -> list[StudyItem]:
    """Copy every clip to ``media/<sha16><suffix>`` and point the items there."""
    names: dict[str, str] = {}
    missing = []
    media = MediaRoot(root)
    for rel in sorted({p for item in items for p in (item.left, item.right)}):
        path = media.resolve(rel)  # refuses a path that leaves the media root
        if not path.is_file():
            missing.append(rel)
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        names[rel] = f"media/{digest}{path.suffix.lower()}"
    if missing:
        raise MediaError(
            f"{len(missing)} clips are missing under {root} (first: {missing[:5]}); pass --media-root"
        )
    (out / "media").mkdir(parents=True)
    for rel, name in names.items():
        if not (out / name).exists():
            shutil.copyfile(media.resolve(rel), out / name)
    return [replace(item, left=names[item.left], right=names[item.right]) for item in items]
