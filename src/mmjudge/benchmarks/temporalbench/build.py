"""TemporalBench as a dataset folder: ``mmjudge build-dataset temporalbench --source <QA file or release folder>``.

Configs ``all`` (default) and one per category (the short QA file's eight; see
:mod:`mmjudge.benchmarks._captions.build` for the columns, plus ``source_dataset``). Media stay in the release
folder, passed as the media root.
"""

from __future__ import annotations

from pathlib import Path

from mmjudge.benchmarks._captions.build import build_questions, questions_table
from mmjudge.benchmarks.temporalbench.release import RELEASES, SHORT_QA, read_questions
from mmjudge.data.build import BuiltDataset
from mmjudge.data.card import read_template
from mmjudge.data.release import release_section
from mmjudge.data.strict_read import read_json_list
from mmjudge.errors import SchemaError

__all__ = ["build_tables"]


def _qa_file(source: Path) -> Path:
    if not source.is_dir():
        return source
    if (source / SHORT_QA).is_file():
        return source / SHORT_QA
    raise SchemaError(f"{source}: no {SHORT_QA} here; pass the QA file itself as --source, or the TemporalBench "
                      "release folder that holds it")  # fmt: skip


def build_tables(source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False) -> BuiltDataset:
    """Build TemporalBench's configs from a QA file (see the module docstring)."""
    path = _qa_file(Path(source))
    table = questions_table(path, read_questions(path, read_json_list(path)), extra_columns=("source_dataset",),
                            id_field="idx")  # fmt: skip
    return build_questions(
        "temporalbench", table, path, card_template=read_template("mmjudge.benchmarks.temporalbench"),
        media_root=media_root, allow_missing_media=allow_missing_media, category_title="category",
        card_context={"raw_release": release_section(RELEASES)},
    )  # fmt: skip
