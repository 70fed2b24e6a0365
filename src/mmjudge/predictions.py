"""The prediction file: ``predictions.jsonl``, the leaderboard submission format (schema version 1).

One JSON object per line. The first line is the header, every other line one item's verdict::

    {"record": "header", "schema_version": 1, "benchmark": "<id>", "judge": "constant_letter",
     "fingerprint": "3f2a...", "mmjudge_version": "0.1.0", "provenance": {...}}
    {"record": "prediction", "id": "q_00000", "prediction": "A", "no_judgment": false}

Every record has ``id``, ``no_judgment`` and optional ``error``, ``diagnostics``; the verdict fields,
the key fields that place a record in the benchmark's grid and the id rule are the benchmark's
(``Benchmark.records``: :class:`~mmjudge.benchmarks.RecordSpec`); the README's table lists them. A
record whose id and key fields disagree is refused. Lines are split on ``\\n`` only (a JSON string
may hold U+2028 or U+0085, which ``str.splitlines`` would treat as line breaks).

A file is read as a stream, one line at a time, and held to hard caps (:class:`ReadLimits`, the
``max_records`` of the parse functions): the first line past one is refused with its number, so that a
file from outside costs memory and time in proportion to the caps, not to its size (a 29 MiB upload
of 10 million ``{}`` lines is refused at line 22 instead of after minutes and gigabytes).
"""

from __future__ import annotations

import codecs
import itertools
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from mmjudge._atomic import write_atomic
from mmjudge._configs import config_dataclass, validated
from mmjudge._text import describe_char
from mmjudge.benchmarks import RecordSpec, benchmark_ids, get_benchmark
from mmjudge.errors import MissingFileError, SchemaError, summarize

__all__ = [
    "DEFAULT_MAX_RECORDS",
    "LOCAL_LIMITS",
    "SCHEMA_VERSION",
    "UPLOAD_LIMITS",
    "PredictionFile",
    "PredictionHeader",
    "ReadLimits",
    "RecordCap",
    "id_problem",
    "parse_prediction_bytes",
    "parse_predictions",
    "read_predictions",
    "record_id",
    "split_lines",
    "write_predictions",
]

SCHEMA_VERSION: Literal[1] = 1
"""Version of the prediction-file schema this mmjudge reads and writes."""

MAX_DEPTH = 16
"""Deepest nesting of objects and lists accepted in one line (the writer's records nest 3 levels)."""
MAX_LINE_BYTES = 256 * 1024
"""Longest line read (256 KiB): the header `mmjudge eval` writes is under 1 KiB and its records under
300 bytes; a raw response of tens of thousands of words still fits, and a line of hostile nesting is
still parsed far enough to be refused for what it is."""
MAX_HEADER_VALUES = 512
"""Most JSON values (objects, lists, keys, scalars) in the header line: the header `mmjudge eval` writes
holds under 100 (39-44 for the demo's judges), more with a judge's options. Bounds what the line costs in
memory once parsed (a short JSON value is a Python object ten times its size)."""
MAX_RECORD_VALUES = 64
"""Most JSON values in one record line: a record `mmjudge eval` writes holds under 20 (5-9 for the
demo's judges). With the record cap, it bounds the parse work of the widest file read to its end
(8,020 IsoVRBench records at this cap read in well under :data:`MAX_SECONDS`), so that the time cap stops
only a machine that is already overloaded, never a file the other caps admit."""
DEFAULT_MAX_RECORDS = 200_000
"""Most prediction records read when the caller names no count for the benchmark: 25 times the largest
grid `mmjudge eval` writes (8,000 IsoVRBench pairs). The leaderboard passes the exact count instead."""
EXTRA_RECORDS = 20
"""Records read beyond the cap, so that a file with a few unknown ids is refused by the coverage check,
which names them, rather than by the count."""
MAX_BLANK_LINES = 1_000
"""Most blank lines read (an editor's trailing newlines; `mmjudge eval` writes none)."""
MAX_PROBLEMS = 20
"""Invalid records collected before reading stops (the message shows the first 5 and the count)."""
MAX_SECONDS = 4.0
"""Wall-clock time one file may take to read, so that any refusal comes within 5 s: an 8,000-record file
`mmjudge eval` wrote reads in about 0.1 s, the costliest files the other caps admit in about 0.5 s
(`docs/performance.md`), so only an overloaded machine reaches it."""

RecordCap = Callable[[str, Sequence[Mapping[str, Any]]], int]
"""``cap(benchmark, records) -> n``: the most records a file of ``benchmark`` may hold, given the records
read so far (they say which optional parts a run wrote, as ``Benchmark.records.expected_ids`` reads them:
EmoPrefer's reversed pairs). Called when the header is read (with no records) and again when the count
passes the last answer."""


@dataclass(frozen=True)
class ReadLimits:
    """Hard caps on reading one prediction file; the first line past one is refused with its number.

    With the record cap ``n`` of the parse functions, a file read to its end has at most
    ``1 + n + extra_records + max_problems + max_blank_lines`` lines (header, records, invalid records,
    blank lines); any other line raises at once.
    """

    max_line_bytes: int | None = MAX_LINE_BYTES
    """Longest line in bytes (without its ``\\n``); ``None``: no cap."""
    max_header_values: int | None = MAX_HEADER_VALUES
    """Most JSON values in the header line; ``None``: no cap."""
    max_record_values: int | None = MAX_RECORD_VALUES
    """Most JSON values in a record line; ``None``: no cap."""
    extra_records: int = EXTRA_RECORDS
    """Records accepted beyond the record cap (see :data:`EXTRA_RECORDS`)."""
    max_blank_lines: int | None = MAX_BLANK_LINES
    """Most blank lines; ``None``: no cap."""
    max_problems: int = MAX_PROBLEMS
    """Invalid records collected; one more stops reading."""
    max_seconds: float | None = MAX_SECONDS
    """Wall-clock seconds reading may take (checked at every line); ``None``: no cap."""
    clock: Callable[[], float] = time.monotonic
    """The clock :attr:`max_seconds` is measured with (tests inject one)."""


UPLOAD_LIMITS = ReadLimits()
"""The caps on a file from outside (the leaderboard's uploads)."""
LOCAL_LIMITS = ReadLimits(max_line_bytes=None, max_header_values=None, max_record_values=None, max_blank_lines=None,
                          max_seconds=None)  # fmt: skip
"""The caps on a file of one's own (:func:`read_predictions`): only the number of problems collected."""


@config_dataclass
class PredictionHeader:
    """The first record of a prediction file (a config dataclass: strict types, no other key)."""

    benchmark: str
    """Benchmark id the predictions are for."""
    judge: Annotated[str, Field(min_length=1)]
    """Judge name (registry name or display name from the config)."""
    fingerprint: str = ""
    """Hash of the resolved judge config and judge code version; identifies the results."""
    mmjudge_version: str = ""
    """mmjudge version that wrote the file."""
    schema_version: Literal[1] = SCHEMA_VERSION
    """Prediction-file schema version."""
    provenance: dict[str, Any] = field(default_factory=dict)
    """Free-form provenance: model revision, dataset hash, seeds, frame settings, timings."""

    def to_record(self) -> dict[str, Any]:
        """The header as a JSON-able dict with ``record: "header"``."""
        return {
            "record": "header",
            "schema_version": self.schema_version,
            "benchmark": self.benchmark,
            "judge": self.judge,
            "fingerprint": self.fingerprint,
            "mmjudge_version": self.mmjudge_version,
            "provenance": self.provenance,
        }


@dataclass(frozen=True)
class PredictionFile:
    """A parsed, validated prediction file."""

    header: PredictionHeader
    """The header record."""
    records: list[dict[str, Any]]
    """Prediction records in file order, ids unique."""
    line_numbers: list[int] = field(default_factory=list)
    """Line of each record in the file (empty for a file built in code)."""

    def line_of(self, index: int) -> str:
        """``"line N"`` of record ``index``, or ``"record N"`` (1-based) when lines are unknown."""
        if index < len(self.line_numbers):
            return f"line {self.line_numbers[index]}"
        return f"record {index + 1}"


def write_predictions(
    path: str | Path, header: PredictionHeader, records: Iterable[Mapping[str, Any]]
) -> Path:
    """Write a prediction file atomically (:func:`mmjudge._atomic.write_atomic`: a record that does not
    serialise leaves an earlier file as it was).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "predictions.jsonl"
    >>> _ = write_predictions(p, PredictionHeader("bench", "j"), [{"id": "q1", "prediction": "A"}])
    >>> p.read_text().splitlines()[1]
    '{"record": "prediction", "id": "q1", "prediction": "A", "no_judgment": false}'
    """
    head = json.dumps(header.to_record(), sort_keys=False, allow_nan=False) + "\n"
    lines = (json.dumps(_prediction_record(record), allow_nan=False) + "\n" for record in records)
    return write_atomic(path, itertools.chain((head,), lines))


def _prediction_record(record: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"record": "prediction", "id": record["id"]}
    out.update({k: v for k, v in record.items() if k not in ("record", "id")})
    out.setdefault("no_judgment", False)
    return out


def record_id(benchmark: str, record: Mapping[str, Any]) -> str | None:
    """The id a record of ``benchmark`` must carry, from its key fields (``None``: the id is the key);
    the rule is the benchmark's ``records.record_id``."""
    rule = _records(benchmark).record_id
    return None if rule is None else rule(record)


def _records(benchmark: str) -> RecordSpec:
    return get_benchmark(benchmark).records


def split_lines(text: str) -> list[str]:
    """Split JSON Lines text on ``\\n`` only (a trailing ``\\r`` is dropped from each line).

    ``str.splitlines`` also breaks at U+2028, U+0085 and other characters that a JSON string may hold
    unescaped, which would cut one record in two.

    >>> split_lines('{"a": "x\\u2028y"}\\r\\n{"b": 1}\\n')
    ['{"a": "x\\u2028y"}', '{"b": 1}', '']
    """
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def read_predictions(path: str | Path, *, benchmark: str | None = None) -> PredictionFile:
    """Read and validate a prediction file; every problem is reported with its line number.

    The file is one's own, so it is read with :data:`LOCAL_LIMITS` (no cap on size, records or time).

    Args:
        path: the ``predictions.jsonl`` file.
        benchmark: when given, the header's benchmark must match.

    Raises:
        SchemaError: not UTF-8, not JSON lines, no header, another schema version or benchmark, an id
            twice, a missing or mistyped verdict field, a non-finite score (the first offending lines are
            listed).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
        raise MissingFileError(
            f"prediction file {path} does not exist or is not a file: expected the predictions.jsonl "
            "that `mmjudge eval` wrote; check the path"
        ) from exc
    return parse_prediction_bytes(
        data, source=str(path), benchmark=benchmark, max_records=None, limits=LOCAL_LIMITS
    )


def parse_predictions(
    lines: Iterable[str],
    *,
    source: str = "<predictions>",
    benchmark: str | None = None,
    max_records: int | RecordCap | None = DEFAULT_MAX_RECORDS,
    limits: ReadLimits = UPLOAD_LIMITS,
) -> PredictionFile:
    """Parse prediction lines (see :func:`parse_prediction_bytes`; split text with :func:`split_lines`)."""
    reader = _Reader(source, benchmark, max_records, limits)
    for lineno, line in enumerate(lines, start=1):
        reader.check_size(lineno, len(line) if line.isascii() else len(line.encode("utf-8", "surrogatepass")))
        reader.read(lineno, line)
    return reader.finish()


def parse_prediction_bytes(
    data: bytes,
    *,
    source: str = "<predictions>",
    benchmark: str | None = None,
    max_records: int | RecordCap | None = DEFAULT_MAX_RECORDS,
    limits: ReadLimits = UPLOAD_LIMITS,
) -> PredictionFile:
    """Parse and validate the bytes of a prediction file one line at a time, held to hard caps.

    No list of lines or decoded copy of the file is made: the bytes are checked to be UTF-8 a chunk at a
    time, then each line is sized, decoded and parsed in turn, and the first line past a cap is refused
    with its number. Invalid records are collected up to
    ``limits.max_problems`` (one more stops reading); any other problem raises at its line.

    Args:
        data: the file's bytes (UTF-8 JSON lines, split on ``\\n`` only).
        source: the file name used in messages.
        benchmark: when given, the header's benchmark must match.
        max_records: the most records the file may hold (plus ``limits.extra_records``): a number, a
            :data:`RecordCap` asked once the header names the benchmark, or ``None`` for no cap.
        limits: the caps on lines, blank lines, problems and time (:class:`ReadLimits`).

    Raises:
        SchemaError: what :func:`read_predictions` refuses, and a line past a cap (the message names
            the line, the cap and what arrived).

    >>> head = b'{"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j"}'
    >>> len(parse_prediction_bytes(head + b'\\n{"id": "q1", "prediction": "A"}\\n').records)
    1
    >>> three = [b'{"id": "q%d", "prediction": "A"}' % i for i in range(3)]
    >>> parse_prediction_bytes(b"\\n".join([head, *three]), max_records=2, limits=ReadLimits(extra_records=0))
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: <predictions> line 4: expected at most 2 prediction records for emorealm (the cap for one file), got more; reading stopped here. Submit the predictions.jsonl that `mmjudge eval` wrote: one record per item of the benchmark
    """
    _check_utf8(data, source)
    reader = _Reader(source, benchmark, max_records, limits)
    for lineno, start, end in _line_spans(data):
        reader.check_size(lineno, end - start)
        line = data[start:end].decode("utf-8")  # checked above: a b"\n" is never inside a character
        reader.read(lineno, line[:-1] if line.endswith("\r") else line)
    return reader.finish()


_UTF8_CHUNK = 1 << 20


def _check_utf8(data: bytes, source: str) -> None:
    """Refuse bytes that are not UTF-8, naming the first bad byte's line and offset, before any line is read
    (decoded a chunk at a time: no decoded copy of the whole file)."""
    view, pos = memoryview(data), 0
    while pos < len(data):
        final = pos + _UTF8_CHUNK >= len(data)  # a middle chunk may end inside a character: carried over
        try:
            _, used = codecs.utf_8_decode(view[pos : pos + _UTF8_CHUNK], "strict", final)
        except UnicodeDecodeError as exc:
            offset = pos + exc.start
            line = data.count(b"\n", 0, offset) + 1
            raise SchemaError(
                f"{source} line {line}: expected UTF-8 text, got an undecodable byte at offset {offset}; "
                "save the file as UTF-8"
            ) from None
        pos += used


def _line_spans(data: bytes) -> Iterator[tuple[int, int, int]]:
    """``(line number, start, end)`` of every ``\\n``-separated line (the last one may be empty)."""
    start, lineno = 0, 1
    while (end := data.find(b"\n", start)) >= 0:
        yield lineno, start, end
        start, lineno = end + 1, lineno + 1
    yield lineno, start, len(data)


class _Reader:
    """One streaming parse: the header, the records so far, and the caps each new line is held to."""

    def __init__(self, source: str, benchmark: str | None, max_records: int | RecordCap | None,
                 limits: ReadLimits) -> None:  # fmt: skip
        self.source, self.benchmark, self.max_records, self.limits = source, benchmark, max_records, limits
        self.header: PredictionHeader | None = None
        self.cap: int | None = None
        self.records: list[dict[str, Any]] = []
        self.line_numbers: list[int] = []
        self.seen: dict[str, int] = {}
        self.problems: list[str] = []
        self.blank_lines = 0
        self.started = limits.clock()

    def check_size(self, lineno: int, size: int) -> None:
        """Refuse a line longer than ``limits.max_line_bytes`` (before it is decoded or parsed)."""
        cap = self.limits.max_line_bytes
        if cap is not None and size > cap:
            raise SchemaError(
                f"{self.source} line {lineno}: expected lines of at most {cap} bytes, got {size} bytes; a "
                "header or record written by `mmjudge eval` is under 1 KiB: submit the file it wrote"
            )

    def read(self, lineno: int, line: str) -> None:
        """Take one line: check the time, then read it as a blank line, the header or a record."""
        self._check_time(lineno)
        if not line.strip():
            self._blank(lineno)
            return
        where = f"{self.source} line {lineno}"
        if self.header is None:
            self._read_header(lineno, _json_value(line, where, self.limits.max_header_values, "header"))
        else:
            value = _json_value(line, where, self.limits.max_record_values, "record")
            self._read_record(lineno, value, self.header.benchmark)

    def finish(self) -> PredictionFile:
        """The parsed file, or every collected problem."""
        if self.header is None:
            raise self._no_header()
        if self.problems:
            raise SchemaError(
                f"{self.source}: {len(self.problems)} invalid prediction records; first: {summarize(self.problems)}"
            )
        return PredictionFile(self.header, self.records, self.line_numbers)

    def _no_header(self) -> SchemaError:
        return SchemaError(f"{self.source}: expected a header record ({{'record': 'header', ...}}) on line 1")

    def _check_time(self, lineno: int) -> None:
        cap = self.limits.max_seconds
        if cap is not None and self.limits.clock() - self.started > cap:
            raise SchemaError(
                f"{self.source} line {lineno}: expected the file to be read within {cap:g} s, still reading "
                "after that; reading stopped here. A predictions.jsonl written by `mmjudge eval` reads in "
                "well under a second: submit that file"
            )

    def _blank(self, lineno: int) -> None:
        self.blank_lines += 1
        cap = self.limits.max_blank_lines
        if cap is not None and self.blank_lines > cap:
            raise SchemaError(
                f"{self.source} line {lineno}: expected at most {cap} blank lines, got more; reading stopped "
                "here. `mmjudge eval` writes one line per record and no blank lines: submit the file it wrote"
            )

    def _read_header(self, lineno: int, value: dict[str, Any]) -> None:
        if value.get("record") != "header":
            raise self._no_header()
        self.header = _header(value, f"{self.source} line {lineno}", self.benchmark)
        limit = self.max_records
        self.cap = limit(self.header.benchmark, ()) if callable(limit) else limit

    def _read_record(self, lineno: int, record: dict[str, Any], benchmark: str) -> None:
        error = _record_problem(record, benchmark, self.seen, lineno)
        if error:
            self.problems.append(f"line {lineno}: {error}")
            if len(self.problems) > self.limits.max_problems:
                raise SchemaError(
                    f"{self.source}: more than {self.limits.max_problems} invalid prediction records, reading "
                    f"stopped at line {lineno}; first: {summarize(self.problems)}"
                )
            return
        self.seen[record["id"]] = lineno
        self.records.append(record)
        self.line_numbers.append(lineno)
        self._check_count(lineno, benchmark)

    def _check_count(self, lineno: int, benchmark: str) -> None:
        extra = self.limits.extra_records
        if self.cap is None or len(self.records) <= self.cap + extra:
            return
        if callable(self.max_records):  # the records so far may name optional parts (reversed pairs)
            self.cap = self.max_records(benchmark, self.records)
            if len(self.records) <= self.cap + extra:
                return
        what = (
            f"the {self.cap} records `mmjudge eval` writes for this leaderboard's {benchmark} data, plus "
            f"{extra} so that unknown ids can be named"
            if callable(self.max_records)
            else "the cap for one file"
        )
        raise SchemaError(
            f"{self.source} line {lineno}: expected at most {self.cap + extra} prediction records for "
            f"{benchmark} ({what}), got more; reading stopped here. Submit the predictions.jsonl that "
            "`mmjudge eval` wrote: one record per item of the benchmark"
        )


def _json_value(line: str, where: str, max_values: int | None, what: str = "line") -> dict[str, Any]:
    """One line (the ``what``: header or record) as a JSON object of plain values (nesting, Unicode and
    size checked)."""
    try:
        value = json.loads(line, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{where}: expected one JSON object per line ({exc.msg})") from exc
    except _DuplicateKey as exc:
        raise SchemaError(f"{where}: expected each key once in an object, got {exc} twice (JSON readers differ on "
                          "which one counts); write the line with each key once") from None  # fmt: skip
    except (ValueError, RecursionError) as exc:  # over-long integers, nesting beyond the parser
        raise SchemaError(
            f"{where}: expected one JSON object per line of plain values, got {_short_reason(exc)}"
        ) from None
    if not isinstance(value, dict):
        raise SchemaError(f"{where}: expected a JSON object, got {type(value).__name__}")
    problem = _value_problem(value, max_values, what)
    if problem:
        raise SchemaError(f"{where}: {problem}")
    return value


class _DuplicateKey(ValueError):
    """An object holding one key twice (the message is the key)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict, refusing a key given twice (``json.loads`` would keep the last).

    >>> _unique_keys([("a", 1), ("a", 2)])
    Traceback (most recent call last):
    ...
    mmjudge.predictions._DuplicateKey: 'a'
    """
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(repr(key[:60]))
            seen.add(key)
    return value


def _short_reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nesting too deep to parse"
    text = str(exc)
    return "an integer with too many digits" if "integer string conversion" in text else text[:120]


def _lone_surrogate(text: str) -> str | None:
    """The first character of ``text`` that UTF-8 cannot encode (a surrogate: ``json.loads`` joins escaped
    pairs, so one left is alone), or ``None``; encoded in C, not looped over in Python.

    >>> _lone_surrogate("ok é"), _lone_surrogate("a\\ud800b")
    (None, '\\ud800')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return text[exc.start]
    return None


def _value_problem(value: Any, max_values: int | None = None, what: str = "line") -> str:
    """Nesting deeper than :data:`MAX_DEPTH`, more than ``max_values`` values (in a ``what``: header or
    record), or a string that is not valid Unicode (a lone surrogate)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    count = 0
    while stack:
        current, depth = stack.pop()
        count += 1
        if max_values is not None and count > max_values:
            return (
                f"expected at most {max_values} JSON values in one {what} line, got more; a header `mmjudge "
                "eval` writes holds under 100 and a record under 20: submit the file it wrote"
            )
        if isinstance(current, (dict, list)):
            if depth > MAX_DEPTH:
                return f"expected objects and lists nested at most {MAX_DEPTH} deep, got deeper nesting"
            children = list(current.items()) if isinstance(current, dict) else [(None, v) for v in current]
            for key, child in children:
                stack.append((child, depth + 1))
                if key is not None:
                    stack.append((key, depth))
        elif isinstance(current, str) and not current.isascii():
            bad = _lone_surrogate(current)
            if bad is not None:
                return (
                    f"expected valid Unicode text, got a string holding {describe_char(bad)} "
                    f"({summarize([current[:40]], 1)}); write the text as UTF-8"
                )
    return ""


def _header(record: Mapping[str, Any], source: str, benchmark: str | None) -> PredictionHeader:
    version = record.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:
        raise SchemaError(
            f"{source}: schema_version {version!r} is not supported; this mmjudge reads version "
            f"{SCHEMA_VERSION} (the integer {SCHEMA_VERSION}, as `mmjudge eval` writes it)"
        )
    found = record.get("benchmark")
    if not isinstance(found, str) or found not in benchmark_ids():
        raise SchemaError(f"{source}: unknown benchmark {found!r} in the header; known: {sorted(benchmark_ids())}")
    if benchmark is not None and found != benchmark:
        raise SchemaError(f"{source}: the file holds {found!r} predictions, expected {benchmark!r}")
    fields = {k: v for k, v in record.items() if k != "record"}
    if fields.get("provenance", {}) is None:  # a header may say it has none
        fields.pop("provenance")
    header: PredictionHeader = validated(PredictionHeader, fields, f"{source}: header", error=SchemaError)
    return header


def _record_problem(record: dict[str, Any], benchmark: str, seen: Mapping[str, int], lineno: int) -> str:
    if record.get("record", "prediction") != "prediction":
        return f"expected record type 'prediction', got {record.get('record')!r}"
    item_id = record.get("id")
    if not isinstance(item_id, str) or not item_id:
        return f"expected a non-empty string `id`, got {item_id!r}"
    if item_id in seen:
        return f"id {item_id!r} already given on line {seen[item_id]}"
    no_judgment = record.setdefault("no_judgment", False)
    if not isinstance(no_judgment, bool):
        return f"`no_judgment` must be true or false, got {no_judgment!r}"
    spec = _records(benchmark)
    for name in spec.key_fields:
        if not isinstance(record.get(name), str) or not record[name]:
            return f"`{name}` must be a non-empty string, got {record.get(name)!r}"
        if name in spec.field_values and record[name] not in spec.field_values[name]:
            return _not_one_of(name, spec.field_values[name], record[name])
    mismatch = id_problem(benchmark, record)
    if mismatch:
        return mismatch
    for name, kinds in spec.value_fields.items():
        value = record.get(name)
        if value is None and no_judgment:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"`{name}` must be {_type_names(kinds)}, got {_short(value)}"
        if isinstance(value, (int, float)) and not _finite(value):
            return f"`{name}` must be finite, got {_short(value)}"
        if name in spec.field_values and value not in spec.field_values[name]:
            return _not_one_of(name, spec.field_values[name], value)
    record["record"] = "prediction"
    return ""


def id_problem(benchmark: str, record: Mapping[str, Any]) -> str:
    """Why a record's ``id`` disagrees with its key fields (``""`` when it agrees or has none), by the
    benchmark's ``records.check_record`` and ``records.record_id``."""
    spec = _records(benchmark)
    problem = spec.check_record(record) if spec.check_record is not None else ""
    if problem:
        return problem
    expected = None if spec.record_id is None else spec.record_id(record)
    if expected is None or record.get("id") == expected:
        return ""
    fields = ", ".join(f"{name} {record.get(name)!r}" for name in spec.key_fields)
    return f"id {record.get('id')!r} does not match the {spec.noun}: expected {expected!r} for {fields}"


def _not_one_of(name: str, allowed: Sequence[str], value: Any) -> str:
    return f"`{name}` must be one of {list(allowed)}, got {_short(value)}"


def _finite(value: int | float) -> bool:
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer beyond the float range
        return False


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text)} characters)"


def _type_names(kinds: tuple[type, ...]) -> str:
    names = {int: "a number", float: "a number", str: "a string"}
    return " or ".join(sorted({names.get(k, k.__name__) for k in kinds}))
