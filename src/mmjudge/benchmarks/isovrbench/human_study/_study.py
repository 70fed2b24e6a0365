"""The study folder: ``study.json``, ``items.jsonl`` (presentation order) and ``media/`` (hashed clip names).

Each item shows two clips side by side. An intervention pair shows the anchor on a random side
(``anchor_side``); a control shows one clip on both sides (``anchor_side`` is ``None``). Annotators
answer three questions per item (:data:`QUESTIONS`) with ``left``, ``same`` or ``right``. Clip files
are copied under the first 16 hex digits of their sha256, so neither a file name nor a URL tells an
annotator which side is the anchor.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mmjudge.errors import MissingFileError, SchemaError

__all__ = ["ANSWERS", "QUESTIONS", "Study", "StudyItem", "load_study"]

QUESTIONS: dict[str, str] = {
    "visual": "Visual quality: which clip looks better (sharper, cleaner, fewer artifacts)?",
    "motion": "Motion: which clip moves more naturally and smoothly?",
    "text": "Text alignment: which clip matches the prompt better?",
}
"""The three dimensions asked for every item, with the question shown."""
ANSWERS = ("left", "same", "right")
"""An answer to one question."""
FORMAT = "mmjudge-human-study"
VERSION = 1


@dataclass(frozen=True)
class StudyItem:
    """One screen of the study."""

    item_id: str
    """``q0001``, ... in presentation order."""
    kind: str
    """``pair`` (anchor against its counterpart) or ``control`` (one clip on both sides)."""
    pair_id: str
    """The pair it was drawn from."""
    intervention: str
    """The pair's intervention."""
    dimension: str
    """The dimension the intervention targets (``motion``, ``text``, ``visual`` or ``overall``)."""
    prompt: str
    """The prompt both clips are judged against."""
    left: str
    """Left clip, relative to the study folder."""
    right: str
    """Right clip, relative to the study folder."""
    anchor_side: str | None
    """``left`` or ``right`` for a pair; ``None`` for a control."""
    shown: str | None = None
    """For a control: which clip of the pair is shown twice (``anchor`` or ``counterpart``)."""


@dataclass(frozen=True)
class Study:
    """A loaded study folder."""

    folder: Path
    """The folder."""
    meta: dict[str, Any]
    """``study.json``."""
    items: list[StudyItem]
    """Items in presentation order."""

    @property
    def name(self) -> str:
        """The study's name."""
        return str(self.meta.get("name", self.folder.name))

    @property
    def answers_path(self) -> Path:
        """The SQLite file of the answers."""
        return self.folder / "answers.sqlite"

    def item(self, item_id: str) -> StudyItem:
        """The item with id ``item_id``."""
        return self._by_id()[item_id]

    def _by_id(self) -> dict[str, StudyItem]:
        return {item.item_id: item for item in self.items}


def write_study(folder: Path, meta: dict[str, Any], items: list[StudyItem]) -> Study:
    """Write ``study.json`` and ``items.jsonl`` under ``folder`` (media are copied by the caller)."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT, "version": VERSION, **meta}
    (folder / "study.json").write_text(
        json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    lines = "".join(json.dumps(asdict(item), ensure_ascii=False) + "\n" for item in items)
    (folder / "items.jsonl").write_text(lines, encoding="utf-8")
    return Study(folder, meta, items)


def load_study(folder: str | Path) -> Study:
    """Read a study folder written by ``mmjudge human-study make``."""
    folder = Path(folder)
    meta_path, items_path = folder / "study.json", folder / "items.jsonl"
    if not meta_path.is_file() or not items_path.is_file():
        raise MissingFileError(
            f"{folder} is not a study folder: expected study.json and items.jsonl (made by `mmjudge human-study make`)"
        )
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise SchemaError(
            f"{meta_path}: expected format {FORMAT!r} version {VERSION}, got {meta.get('format')!r} {meta.get('version')!r}"
        )
    items = []
    for number, line in enumerate(items_path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            items.append(StudyItem(**json.loads(line)))
        except (TypeError, ValueError) as exc:
            raise SchemaError(f"{items_path}, line {number}: not a study item ({exc})") from None
    return Study(folder, meta, items)
