"""Checks on a submission before it is scored: file size, encoding, schema, and the submitter's metadata.

The prediction-file checks are :func:`mmjudge.predictions.parse_prediction_bytes` (UTF-8, JSON lines,
header, schema version, benchmark, unique ids, verdict types, finite scores, each problem with its line
number), which reads the upload line by line under hard caps (:data:`~mmjudge.predictions.UPLOAD_LIMITS`:
bytes and values per line, blank lines, problems, time; and a record count, on the leaderboard the number
of records ``mmjudge eval`` writes for the server's reference rows, :func:`record_cap`). Coverage (every
reference item exactly once, no unknown id) is checked by :func:`mmjudge.scoring.score_predictions`
against the labels the server holds.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mmjudge._text import describe_char, mixed_scripts, unsafe_char
from mmjudge.errors import SchemaError
from mmjudge.leaderboard.store import SubmissionRejected
from mmjudge.predictions import (
    DEFAULT_MAX_RECORDS,
    UPLOAD_LIMITS,
    PredictionFile,
    ReadLimits,
    RecordCap,
    parse_prediction_bytes,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "WEIGHTS",
    "SubmissionMeta",
    "ValidatedFile",
    "check_text",
    "record_cap",
    "validate_file",
    "validate_meta",
]

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Default size limit of a submitted prediction file (64 MiB; a file of 8,000 scored pairs is ~1 MB)."""
WEIGHTS: tuple[str, ...] = ("open", "closed", "unknown")
"""Accepted values of the open/closed-weights field."""
_MAX_TEXT = 200
_URL = re.compile(r"^https?://[^\s<>\"']+$")


@dataclass(frozen=True)
class SubmissionMeta:
    """What the submitter says about the predictions."""

    judge: str
    """Judge display name."""
    model: str
    """Model repo id (or judge name for weight-free judges)."""
    revision: str = ""
    """Model revision (commit or tag)."""
    link: str = ""
    """http(s) link to the model or paper, or empty."""
    license: str = ""
    """License of the model."""
    weights: str = "unknown"
    """``open``, ``closed`` or ``unknown``."""


@dataclass(frozen=True)
class ValidatedFile:
    """A prediction file that passed the schema checks."""

    predictions: PredictionFile
    """The parsed file."""
    sha256: str
    """sha256 of the file's bytes."""
    n_bytes: int
    """Size of the file."""


def validate_file(
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    source: str = "predictions.jsonl",
    max_records: int | RecordCap | None = DEFAULT_MAX_RECORDS,
    limits: ReadLimits = UPLOAD_LIMITS,
) -> ValidatedFile:
    """Check size, encoding and schema of a submitted ``predictions.jsonl``, reading it as a stream.

    Args:
        data: the file's bytes.
        max_bytes: size limit of the file.
        source: the file name used in messages.
        max_records: the most records the file may hold: a number, or a
            :data:`~mmjudge.predictions.RecordCap` asked once the header names the benchmark (the
            leaderboard passes :func:`record_cap` of its reference rows); ``None``: no cap.
        limits: the caps on lines, problems and time (:class:`~mmjudge.predictions.ReadLimits`).

    Raises:
        SchemaError: the file is too big, empty or invalid, or a line passes a cap (the message names it).

    >>> validate_file(b"x" * 10, max_bytes=5)
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: predictions.jsonl: 10 bytes is over the 5-byte limit; submit only the predictions.jsonl written by `mmjudge eval`
    """
    if len(data) > max_bytes:
        raise SchemaError(
            f"{source}: {len(data)} bytes is over the {max_bytes}-byte limit; "
            "submit only the predictions.jsonl written by `mmjudge eval`"
        )
    if not data or data.isspace():  # not data.strip(): no copy of the file
        raise SchemaError(f"{source}: the file is empty; expected a header line and one line per item")
    predictions = parse_prediction_bytes(data, source=source, max_records=max_records, limits=limits)
    return ValidatedFile(predictions, hashlib.sha256(data).hexdigest(), len(data))


def record_cap(rows_of: Callable[[str], Sequence[Mapping[str, Any]]]) -> RecordCap:
    """The record cap of a server holding reference rows: for a benchmark, the number of records
    ``mmjudge eval`` writes for ``rows_of(benchmark)`` given the records read so far
    (:func:`mmjudge.scoring.expected_ids`; EmoPrefer's reversed pairs count once a file holds one).

    >>> cap = record_cap(lambda benchmark: [{"name": "c1"}, {"name": "c2"}])
    >>> cap("emoprefer", []), cap("emoprefer", [{"order": "reversed"}])
    (2, 4)
    """

    def cap(benchmark: str, records: Sequence[Mapping[str, Any]]) -> int:
        from mmjudge.scoring import expected_ids

        return len(expected_ids(benchmark, rows_of(benchmark), records))

    return cap


def check_text(name: str, value: str, *, max_chars: int = _MAX_TEXT) -> None:
    """Refuse text longer than ``max_chars`` or holding a character :func:`mmjudge._text.unsafe_char` finds.

    >>> check_text("revision", "a" * 300)
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: revision must be one line of at most 200 characters, got 300 characters ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'...)
    """
    if len(value) > max_chars:
        raise SubmissionRejected(
            f"{name} must be one line of at most {max_chars} characters, got {len(value)} characters "
            f"({value[:30]!r}...)"
        )
    bad = unsafe_char(value)
    if bad is not None:
        raise SubmissionRejected(
            f"{name} must be one line of visible text, got {describe_char(bad.char)} at character "
            f"{bad.position + 1} of {value[:60]!r}; retype it without control, invisible or "
            "direction-changing characters"
        )


def validate_meta(meta: SubmissionMeta) -> SubmissionMeta:
    """Check and normalise submitter metadata (stripped text, bounded length, http(s) link, weights).

    Text is stored as submitted (escaped only where it is rendered), so it must be one line of visible
    characters: control characters, invisible format characters (right-to-left overrides, zero-width
    spaces), line separators and lone surrogates are refused, naming the field and the character.

    >>> validate_meta(SubmissionMeta(" j ", "org/model", weights="open")).judge
    'j'
    >>> validate_meta(SubmissionMeta("j", "m", link="javascript:alert(1)"))
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: link must be an http(s) URL or empty, got 'javascript:alert(1)'
    >>> validate_meta(SubmissionMeta("j", "org/mod\u202eel"))
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: model must be one line of visible text, got U+202E (RIGHT-TO-LEFT OVERRIDE) at character 8 of 'org/mod\u202eel'; retype it without control, invisible or direction-changing characters
    """
    fields = {
        name: str(getattr(meta, name) or "").strip()
        for name in ("judge", "model", "revision", "link", "license", "weights")
    }
    for name in ("judge", "model"):
        if not fields[name]:
            raise SubmissionRejected(f"{name} is required (got an empty value)")
    for name, value in fields.items():
        check_text(name, value)
    for name in ("model", "revision"):  # ids: one script, so a look-alike letter cannot pass for another
        scripts = mixed_scripts(fields[name])
        if scripts:
            raise SubmissionRejected(
                f"{name} must be written in one script, got {' and '.join(s.title() for s in scripts)} letters "
                f"in {fields[name]!r}; retype it (a look-alike letter from another script makes another id)"
            )
    if fields["link"] and not _URL.match(fields["link"]):
        raise SubmissionRejected(f"link must be an http(s) URL or empty, got {fields['link']!r}")
    fields["weights"] = fields["weights"] or "unknown"
    if fields["weights"] not in WEIGHTS:
        raise SubmissionRejected(f"weights must be one of {list(WEIGHTS)}, got {fields['weights']!r}")
    return SubmissionMeta(**fields)
