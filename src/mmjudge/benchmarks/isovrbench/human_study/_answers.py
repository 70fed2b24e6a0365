"""Answers of a study: one SQLite file (``answers.sqlite`` in the study folder), one row per annotator and item.

Each answer is written in its own transaction as soon as it is submitted, so an annotator who closes the
page resumes at the first item they have not answered. The first answer to an item counts (a double
submission does not overwrite it). Answers are stored as shown (``left``, ``same``, ``right``); which
side held the anchor is in ``items.jsonl``, not here.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from mmjudge.benchmarks.isovrbench.human_study._study import ANSWERS, QUESTIONS
from mmjudge.errors import SchemaError

__all__ = ["Answer", "AnswerStore", "check_annotator"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    annotator TEXT NOT NULL,
    item_id TEXT NOT NULL,
    visual TEXT NOT NULL CHECK (visual IN ('left', 'same', 'right')),
    motion TEXT NOT NULL CHECK (motion IN ('left', 'same', 'right')),
    text TEXT NOT NULL CHECK (text IN ('left', 'same', 'right')),
    answered_at REAL NOT NULL,
    seconds REAL,
    PRIMARY KEY (annotator, item_id)
)
"""


@dataclass(frozen=True)
class Answer:
    """One annotator's answers on one item."""

    annotator: str
    """Annotator id as typed (stripped)."""
    item_id: str
    """The study item."""
    visual: str
    """``left``, ``same`` or ``right``."""
    motion: str
    """``left``, ``same`` or ``right``."""
    text: str
    """``left``, ``same`` or ``right``."""
    answered_at: float = 0.0
    """Unix time of the submission."""
    seconds: float | None = None
    """Seconds between showing the item and the submission."""


def check_annotator(name: str) -> str:
    """An annotator id: stripped, 1-64 characters, no control characters.

    >>> check_annotator("  ann-1 ")
    'ann-1'
    """
    text = str(name).strip()
    if not 1 <= len(text) <= 64 or any(ord(c) < 32 for c in text):
        raise SchemaError(f"an annotator id is 1-64 printable characters, got {name!r}")
    return text


class AnswerStore:
    """The answers database of a study.

    >>> import tempfile
    >>> store = AnswerStore(Path(tempfile.mkdtemp()) / "answers.sqlite")
    >>> store.record("ann", "q0001", {"visual": "left", "motion": "same", "text": "right"})
    True
    >>> store.record("ann", "q0001", {"visual": "right", "motion": "same", "text": "right"})
    False
    >>> store.answered("ann"), store.answers()[0].visual
    ({'q0001'}, 'left')
    """

    def __init__(self, path: str | Path, *, timeout: float = 30.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(_SCHEMA)

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        try:
            yield conn
        finally:
            conn.close()

    def record(
        self, annotator: str, item_id: str, answers: Mapping[str, str], *, seconds: float | None = None
    ) -> bool:
        """Store one item's three answers; ``False`` when this annotator had already answered it."""
        annotator = check_annotator(annotator)
        values = []
        for dimension in QUESTIONS:
            value = answers.get(dimension)
            if value not in ANSWERS:
                raise SchemaError(f"the {dimension} answer must be one of {list(ANSWERS)}, got {value!r}")
            values.append(value)
        with self._connect() as conn:
            cursor = conn.execute(
                "INSERT OR IGNORE INTO answers (annotator, item_id, visual, motion, text, answered_at, seconds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (annotator, item_id, *values, time.time(), seconds),
            )
            return cursor.rowcount == 1

    def answered(self, annotator: str) -> set[str]:
        """Item ids ``annotator`` has answered."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT item_id FROM answers WHERE annotator = ?", (check_annotator(annotator),)
            )
            return {str(r[0]) for r in rows}

    def answers(self) -> list[Answer]:
        """Every answer, ordered by annotator then item."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT annotator, item_id, visual, motion, text, answered_at, seconds FROM answers "
                "ORDER BY annotator, item_id"
            ).fetchall()
        return [Answer(*row) for row in rows]
