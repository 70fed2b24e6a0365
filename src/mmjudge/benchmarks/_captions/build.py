"""A caption-ranking release as a dataset folder: one row per question, configs ``all`` and one per category.

Each benchmark's reader turns its release into :class:`CaptionQuestion` values; :func:`questions_table` checks
them and :func:`build_questions` writes the folder's configs. Columns:

- ``id``: the question id (unique); ``video``: the release's video path, as given; ``video_path``: the same,
  checked to stay inside the media root;
- ``question``: the release's question text, as given; ``captions``: the captions, in the question's order;
  ``answer``: the index of the right one; ``num_captions``;
- ``category``: the question's category (TemporalBench's category, TempCompass' dimension); with more than one,
  a config per category, named by its key;
- the benchmark's extra text columns; ``media_missing`` when built with a media root.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from mmjudge.benchmarks._captions.scoring import category_key
from mmjudge.data.build import BuiltConfig, BuiltDataset
from mmjudge.data.media_paths import mark_missing_media, validate_relpath
from mmjudge.data.strict_read import check_unique, schema_error
from mmjudge.errors import SchemaError

__all__ = ["CaptionQuestion", "build_questions", "questions_table"]


@dataclass(frozen=True)
class CaptionQuestion:
    """One question of a release, read."""

    id: str
    video: str
    """The video's path relative to the media root, as the release gives it."""
    question: str
    """The release's question text."""
    captions: tuple[str, ...]
    answer: int
    """Index of the right caption."""
    category: str
    where: str
    """Where the question stands in the release (for messages): ``row 3 (idx 'x')``."""
    extra: Mapping[str, str] = field(default_factory=dict)
    """The benchmark's further text columns."""


def questions_table(path: Path, questions: Sequence[CaptionQuestion], extra_columns: Sequence[str] = (), *,
                    id_field: str = "id") -> pa.Table:  # fmt: skip
    """The ``all`` table of ``questions``, each checked (a message names the file, the question and the column;
    ``id_field``: what the release calls the question id).

    Raises:
        SchemaError: no questions, a duplicate id, a video path leaving its root, fewer than two captions, two
            equal captions (no judge could tell them apart), an empty caption, or an answer out of range.
    """
    if not questions:
        raise SchemaError(f"{path}: no questions found; expected the release's caption questions")
    check_unique(path, id_field, [q.id for q in questions])
    columns: dict[str, list[Any]] = {name: [] for name in ("id", "video", "video_path", "question", "captions",
                                                           "answer", "num_captions", "category", *extra_columns)}  # fmt: skip
    for q in questions:
        try:
            video = validate_relpath(q.video)
        except SchemaError as exc:
            raise schema_error(path, row=q.where, column="video", expected="a path relative to the media root",
                               got=str(exc)) from None  # fmt: skip
        captions = [c.strip() for c in q.captions]
        if len(captions) < 2 or not all(captions):
            raise schema_error(path, row=q.where, column="captions", expected="two or more non-empty captions",
                               got=repr(list(q.captions))[:120])  # fmt: skip
        if len(set(captions)) != len(captions):
            raise schema_error(path, row=q.where, column="captions", expected="distinct captions (a judge cannot "
                               "tell equal ones apart)", got=repr(captions)[:120])  # fmt: skip
        if not 0 <= q.answer < len(captions):
            raise schema_error(path, row=q.where, column="answer", expected=f"one of the {len(captions)} captions",
                               got=repr(q.answer))  # fmt: skip
        if not q.category.strip() or not category_key(q.category):
            raise schema_error(path, row=q.where, column="category", expected="a category name", got=repr(q.category))
        values = {"id": q.id, "video": q.video, "video_path": video, "question": q.question, "captions": captions,
                  "answer": q.answer, "num_captions": len(captions), "category": q.category}  # fmt: skip
        for name in extra_columns:
            values[name] = q.extra.get(name)
        for name, value in values.items():
            columns[name].append(value)
    text = pa.string()
    schema = pa.schema([("id", text), ("video", text), ("video_path", text), ("question", text),
                        ("captions", pa.list_(text)), ("answer", pa.int32()), ("num_captions", pa.int32()),
                        ("category", text), *((name, text) for name in extra_columns)])  # fmt: skip
    return pa.table(columns, schema=schema)


def build_questions(
    benchmark: str, table: pa.Table, source: Path, *, card_template: str, media_root: Path | None,
    allow_missing_media: bool, category_title: str, card_context: Mapping[str, Any],
) -> BuiltDataset:  # fmt: skip
    """The folder's configs: ``all`` (default) and one per category (named by its key), media checked under
    ``media_root`` when given (never copied: the videos stay where the user keeps them)."""
    missing = 0
    if media_root is not None:
        table, missing = mark_missing_media(table, media_root, allow_missing=allow_missing_media, source=source,
                                            id_column="id", columns=(("video_path", "video"),))  # fmt: skip
    configs = [BuiltConfig("all", {"test": table}, "every question")]
    categories = list(dict.fromkeys(table.column("category").to_pylist()))
    counts = []
    for category in categories:
        subset = table.filter(pc.equal(table.column("category"), category))
        counts.append(f"{category}: {subset.num_rows}")
        if len(categories) > 1:  # one category (a file without them): `all` says it all
            name = category_key(category)
            name = f"{name}_{category_title}" if name == "all" else name
            configs.append(BuiltConfig(name, {"test": subset}, f"questions of {category_title} `{category}`"))
    return BuiltDataset(
        benchmark=benchmark,
        card_template=card_template,
        configs=configs,
        media_root_required=True,
        card_context={
            "num_questions": table.num_rows,
            "num_videos": len(set(table.column("video_path").to_pylist())),
            "category_counts": ", ".join(counts),
            "source_file": f"`{source.name}`",
            "media_missing_count": missing,
            "media_checked": "yes" if media_root is not None else "no (no media root given)",
            **card_context,
        },
    )
