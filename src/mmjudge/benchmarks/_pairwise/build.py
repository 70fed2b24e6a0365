"""Pairwise video preference releases -> the Hub-ready folder: a ``pairs`` config and a ``clips`` config.

A benchmark's reader turns its release into :class:`PairRow` values (checked, the labels still the release's own),
one per row of the release file and in its order, so that row ``k`` of the file is pair ``k`` in every message;
:func:`build_pairs` writes them. ``pairs`` holds one row per pair: ``pair_id, prompt, video_a, video_b,
clip_id_a, clip_id_b, model_a, model_b``, one ``pref_<aspect>`` column per aspect (the release's label), the
reader's extra columns and ``media_missing``. ``clips`` holds each distinct (clip, prompt) once, so a judge scores
a clip once and the pairs are put together after (as VideoAlign's ``eval_videogen_rewardbench.py`` does).
``clip_id`` is the first 16 hex digits of the sha256 of the clip's relative path and its prompt: the official
scripts join scores to pairs by path.

Media modes (option ``media``): ``copy`` (default; each clip copied under ``media/``), ``reference`` (checked,
not copied; rows stay relative to the media root: what a 13 GB release wants) and ``metadata`` (no file opened).
A missing clip fails the build unless ``allow_missing_media``; then its pairs keep ``media_missing=True`` and
the clip is left out of ``clips``, so a judge never scores it and the pair has no judgment (the official
scripts skip such a pair silently; mmjudge's own accuracies count it wrong).
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa

from mmjudge.benchmarks._pairwise.scoring import Aspect
from mmjudge.data.build import BuiltConfig, BuiltDataset
from mmjudge.data.card import read_template
from mmjudge.data.media_paths import MediaRoot
from mmjudge.data.release import RawRelease, release_section
from mmjudge.data.strict_read import schema_error
from mmjudge.errors import ConfigError, MediaError, SchemaError

__all__ = ["MEDIA_MODES", "PairRow", "build_pairs", "clip_id", "pair_id_of"]

MEDIA_MODES = ("copy", "reference", "metadata")
"""Values of the ``media`` option."""


class PairRow(NamedTuple):
    """One checked pair of a release."""

    pair_id: str
    """Stable id (the release's, or :func:`pair_id_of`)."""
    prompt: str
    """The prompt both clips are judged against."""
    video_a: str
    """Clip A, relative to the media root."""
    video_b: str
    """Clip B, relative to the media root."""
    model_a: str | None
    """Generator of clip A, when known."""
    model_b: str | None
    """Generator of clip B, when known."""
    labels: Mapping[str, str | None]
    """Aspect slug -> the release's label (``None``: the pair has no label on that aspect)."""
    extras: Mapping[str, str | None]
    """Further columns kept as text."""


def pair_id_of(prefix: str, *parts: str) -> str:
    """A stable id from a row's identifying fields (for releases without one).

    >>> pair_id_of("vgrb", "a.mp4", "b.mp4", "a cat")
    'vgrb-983f4a29ec04a3a3'
    """
    return f"{prefix}-" + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def clip_id(relpath: str, prompt: str) -> str:
    """The id of one (clip, prompt).

    >>> clip_id("v/a.mp4", "a cat")
    '56d4d7fdafc8d6fe'
    """
    return hashlib.sha256(f"{relpath}\0{prompt}".encode()).hexdigest()[:16]


def build_pairs(
    benchmark: str,
    rows: Iterable[PairRow],
    *,
    aspects: Sequence[Aspect],
    extra_columns: Sequence[str],
    source: Path,
    video_columns: tuple[str, str],
    releases: Sequence[RawRelease],
    root: Path,
    media: str,
    allow_missing_media: bool,
) -> BuiltDataset:
    """The ``pairs`` and ``clips`` configs of the checked ``rows`` read from the release file ``source`` (its
    columns ``video_columns`` hold clips A and B), with the card of the benchmark's package (``card.md``) listing
    ``releases`` (see the module doc).

    Raises:
        SchemaError: no pairs, a pair repeated, or a clip path resolving outside ``root`` (a symlink out of it);
            the message names the file, the row and, for a clip, its column.
        MediaError: clips missing under ``root`` and ``allow_missing_media`` not set.
    """
    if media not in MEDIA_MODES:
        raise ConfigError(f"media={media!r}: expected one of {MEDIA_MODES}")
    rows = list(rows)
    if not rows:
        raise SchemaError(f"{benchmark}: the release holds no pairs; expected at least one")
    _check_unique(rows, source)
    present = _present(rows, root, media, source, video_columns)
    missing = sorted(rel for rel, found in present.items() if not found)
    if missing and not allow_missing_media:
        raise MediaError(
            f"{len(missing)} of {len(present)} clips are missing under {root}; first: {missing[:5]}. Pass the right "
            "media root (--media-root), or --allow-missing-media to keep those pairs marked media_missing=True"
        )
    if missing:
        warnings.warn(
            f"{len(missing)} of {len(present)} clips are missing under {root} (first: {missing[:5]}); their pairs are "
            "kept with media_missing=True and the clips left out of the clips config",
            UserWarning,
            stacklevel=3,
        )
    prefix = "media/" if media == "copy" else ""
    pairs = _pairs_table(rows, aspects, extra_columns, present, prefix)
    clips = _clips_table(rows, present, prefix)
    media_files = {f"media/{rel}": root / rel for rel, found in present.items() if found} if media == "copy" else {}
    configs = [
        BuiltConfig("pairs", {"test": pairs}, "every pair with its human preferences (default)"),
        BuiltConfig("clips", {"test": clips}, "each distinct (clip, prompt) once, for scoring"),
    ]
    context = {
        "source_file": f"`{source.name}`",
        "raw_release": release_section(releases),
        "media_mode": media,
        "num_pairs": len(rows),
        "num_clips": clips.num_rows,
        "num_missing_clips": len(missing),
    }
    return BuiltDataset(
        benchmark=benchmark,
        card_template=read_template(f"mmjudge.benchmarks.{benchmark}"),
        configs=configs,
        media_files=media_files,
        media_root_required=media != "copy",
        card_context=context,
    )


def _check_unique(rows: Sequence[PairRow], source: Path) -> None:
    seen: dict[str, int] = {}
    for k, row in enumerate(rows, start=1):
        if row.pair_id in seen:
            raise schema_error(
                source,
                row=f"{k} (pair_id {row.pair_id!r})",
                expected="each pair once",
                got=f"the pair of row {seen[row.pair_id]} again",
                fix="Drop the duplicate row.",
            )
        seen[row.pair_id] = k


def _present(
    rows: Sequence[PairRow], root: Path, media: str, source: Path, columns: tuple[str, str]
) -> dict[str, bool]:
    """Relative clip path -> whether the file is there (always ``True`` in ``metadata`` mode)."""
    found: dict[str, bool] = {}
    resolver = MediaRoot(root)
    for k, row in enumerate(rows, start=1):
        for rel, column in zip((row.video_a, row.video_b), columns, strict=True):
            if rel in found:
                continue
            try:
                found[rel] = True if media == "metadata" else resolver.resolve(rel).is_file()
            except SchemaError as exc:
                raise schema_error(source, row=f"{k} (pair_id {row.pair_id!r})", column=column,
                                   expected="a clip inside the media root", got=f"{rel!r} ({exc})") from None  # fmt: skip
    return found


def _pairs_table(
    rows: Sequence[PairRow], aspects: Sequence[Aspect], extras: Sequence[str], present: Mapping[str, bool], prefix: str
) -> pa.Table:
    def clip(rel: str, prompt: str) -> str | None:
        return clip_id(rel, prompt) if present[rel] else None

    data: dict[str, list[Any]] = {
        "pair_id": [r.pair_id for r in rows],
        "prompt": [r.prompt for r in rows],
        "video_a": [prefix + r.video_a for r in rows],
        "video_b": [prefix + r.video_b for r in rows],
        "clip_id_a": [clip(r.video_a, r.prompt) for r in rows],
        "clip_id_b": [clip(r.video_b, r.prompt) for r in rows],
        "model_a": [r.model_a for r in rows],
        "model_b": [r.model_b for r in rows],
    }
    for aspect in aspects:
        data[f"pref_{aspect.slug}"] = [r.labels[aspect.slug] for r in rows]
    for name in extras:
        data[name] = [r.extras.get(name) for r in rows]
    data["media_missing"] = [not (present[r.video_a] and present[r.video_b]) for r in rows]
    return pa.table({k: pa.array(v, type=pa.bool_() if k == "media_missing" else pa.string()) for k, v in data.items()})


def _clips_table(rows: Sequence[PairRow], present: Mapping[str, bool], prefix: str) -> pa.Table:
    seen: dict[str, tuple[str, str]] = {}
    for row in rows:
        for rel in (row.video_a, row.video_b):
            if present[rel]:
                seen.setdefault(clip_id(rel, row.prompt), (prefix + rel, row.prompt))
    return pa.table(
        {
            "clip_id": pa.array(list(seen), pa.string()),
            "video_path": pa.array([v for v, _ in seen.values()], pa.string()),
            "prompt": pa.array([p for _, p in seen.values()], pa.string()),
        }
    )
