"""TempCompass caption matching as a dataset folder: ``mmjudge build-dataset tempcompass --source <release folder>``.

Configs ``all`` (default) and one per dimension (see :mod:`mmjudge.benchmarks._captions.build` for the columns,
plus ``aspect``). Media stay in the release folder, passed as the media root.
"""

from __future__ import annotations

from pathlib import Path

from mmjudge.benchmarks._captions.build import build_questions, questions_table
from mmjudge.benchmarks.tempcompass.release import (
    CAPTION_MATCHING,
    META_INFO,
    RELEASES,
    read_questions,
)
from mmjudge.data.build import BuiltDataset
from mmjudge.data.card import read_template
from mmjudge.data.release import release_section
from mmjudge.data.strict_read import read_json_object
from mmjudge.errors import SchemaError

__all__ = ["build_tables"]


def build_tables(source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False) -> BuiltDataset:
    """Build TempCompass' caption-matching configs from the release folder (see the module docstring)."""
    folder = Path(source)
    path = folder / CAPTION_MATCHING
    if not path.is_file():
        raise SchemaError(f"{folder}: no {CAPTION_MATCHING} here; pass the TempCompass release folder (the one "
                          "holding questions/ and meta_info.json) as --source")  # fmt: skip
    meta = None
    if (folder / META_INFO).is_file():
        meta = read_json_object(folder / META_INFO, expected="JSON object (video id -> its aspects)")
    questions = read_json_object(path, expected="JSON object (video id -> dimensions)")
    table = questions_table(path, read_questions(path, questions, meta), extra_columns=("aspect",))
    return build_questions(
        "tempcompass", table, path, card_template=read_template("mmjudge.benchmarks.tempcompass"),
        media_root=media_root, allow_missing_media=allow_missing_media, category_title="dimension",
        card_context={"raw_release": release_section(RELEASES)},
    )  # fmt: skip
