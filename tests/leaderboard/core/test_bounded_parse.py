"""Uploads are read as a stream under hard caps: the first line past one is refused with its number, in
memory bounded by the caps rather than by the file (the attack: 10 million ``{}`` lines in 29 MiB cost
3.77 GiB and over a minute to refuse)."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator

import pytest

from mmjudge.errors import SchemaError
from mmjudge.leaderboard import SubmissionMeta, validate_file
from mmjudge.predictions import MAX_LINE_BYTES, ReadLimits, parse_predictions, read_predictions

from ..conftest import prediction_lines

HEADER = json.dumps({"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j"})


def _file(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def _records(n: int, prefix: str = "q") -> list[str]:
    return [json.dumps({"id": f"{prefix}{i}", "prediction": "A"}) for i in range(n)]


def test_a_flood_of_empty_objects_is_refused_at_its_first_lines_in_bounded_memory() -> None:
    data = HEADER.encode() + b"\n" + b"{}\n" * 10_000_000  # the attack: ~29 MiB
    assert 28 * 2**20 < len(data) < 64 * 2**20
    tracemalloc.start()
    try:
        with pytest.raises(SchemaError) as info:
            validate_file(data, source="flood.jsonl")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert message.startswith("flood.jsonl: more than 20 invalid prediction records, reading stopped at line 22")
    assert "'line 2: expected a non-empty string `id`, got None'" in message
    assert peak < 100 * 2**20, f"validating held {peak / 2**20:.0f} MiB of Python memory at its peak"


def test_records_past_the_expected_count_are_refused_at_the_first_excess_line(board_factory, reference) -> None:
    rows = reference["emorealm"]
    lines = [*prediction_lines("emorealm", rows), *_records(21, prefix="extra-")]
    with pytest.raises(SchemaError) as info:
        board_factory().submit(_file(*lines), SubmissionMeta("judge", "org/model"), "local")
    first_excess = 1 + len(rows) + 21  # header, every expected record, 20 extra ones, then this one
    assert str(info.value).startswith(
        f"predictions.jsonl line {first_excess}: expected at most {len(rows) + 20} prediction records for "
        f"emorealm (the {len(rows)} records `mmjudge eval` writes for this leaderboard's emorealm data, plus "
        "20 so that unknown ids can be named), got more; reading stopped here."
    )


def test_the_cap_grows_when_a_file_holds_the_optional_reversed_pairs(board_factory, reference) -> None:
    rows, board = reference["emoprefer"], board_factory()
    lines = prediction_lines("emoprefer", rows)  # forward and reversed pairs, shuffled
    assert len(lines) - 1 == 2 * len(rows)
    stored = board.submit(_file(*lines), SubmissionMeta("judge", "org/model"), "local")
    assert stored.coverage["expected"] == 2 * len(rows)
    extra = [json.dumps({"id": f"x{i}::reversed", "name": f"x{i}", "order": "reversed", "prediction": "a1"})
             for i in range(21)]  # fmt: skip
    with pytest.raises(SchemaError, match=rf"line {len(lines) + 21}: expected at most {2 * len(rows) + 20} "):
        board.submit(_file(*lines, *extra), SubmissionMeta("judge", "org/other"), "local")


def test_a_plain_record_count_caps_validate_file() -> None:
    with pytest.raises(SchemaError, match=r"^f line 5: expected at most 3 prediction records for emorealm \(the cap"):
        validate_file(_file(HEADER, *_records(5)), source="f", max_records=3, limits=ReadLimits(extra_records=0))
    assert len(validate_file(_file(HEADER, *_records(5)), max_records=3).predictions.records) == 5  # 3 + 20


def test_an_over_long_line_is_refused_with_its_number_before_it_is_parsed() -> None:
    long = json.dumps({"id": "q1", "prediction": "A" * MAX_LINE_BYTES})
    with pytest.raises(SchemaError) as info:
        validate_file(_file(HEADER, *_records(1, prefix="p"), long), source="long.jsonl")
    assert str(info.value).startswith(
        f"long.jsonl line 3: expected lines of at most {MAX_LINE_BYTES} bytes, got {len(long)} bytes"
    )
    wide = '{"id": "' + "é" * (len(HEADER) - 10) + '"}'  # as many characters as the header, more bytes
    with pytest.raises(SchemaError, match=rf"^<predictions> line 2: expected lines of at most {len(HEADER)} bytes"):
        parse_predictions([HEADER, wide], limits=ReadLimits(max_line_bytes=len(HEADER)))


def test_a_file_of_ones_own_is_read_without_the_upload_caps(tmp_path) -> None:
    long = json.dumps({"id": "q1", "prediction": "A" * MAX_LINE_BYTES})
    path = tmp_path / "predictions.jsonl"
    path.write_bytes(_file(HEADER, long, *[""] * 1500))
    assert read_predictions(path).records[0]["id"] == "q1"


def test_the_time_cap_is_measured_with_the_injected_clock() -> None:
    def ticks() -> Iterator[float]:
        now = 0.0
        while True:
            yield now
            now += 1.0

    clock = ticks().__next__  # 0 s when reading starts, then one second more at every line
    limits = ReadLimits(max_seconds=5.0, clock=clock)
    with pytest.raises(SchemaError) as info:
        validate_file(_file(HEADER, *_records(10)), source="slow.jsonl", limits=limits)
    assert str(info.value).startswith(
        "slow.jsonl line 6: expected the file to be read within 5 s, still reading after that"
    )


def test_blank_lines_and_values_per_line_are_capped() -> None:
    with pytest.raises(SchemaError, match=r"^f line 1002: expected at most 1000 blank lines, got more"):
        validate_file(_file(HEADER, *[""] * 2000), source="f")
    many = json.dumps({"id": "q1", "prediction": "A", "diagnostics": {f"k{i}": 0 for i in range(40)}})
    with pytest.raises(SchemaError, match=r"^f line 2: expected at most 64 JSON values in one record line, got more"):
        validate_file(_file(HEADER, many), source="f")
    fits = json.dumps({"id": "q1", "prediction": "A", "diagnostics": {f"k{i}": 0 for i in range(28)}})  # 63 values
    assert len(validate_file(_file(HEADER, fits), source="f").predictions.records) == 1
    # the header may carry a judge's options: its own, larger cap
    wide_header = json.dumps(json.loads(HEADER) | {"provenance": {f"k{i}": 0 for i in range(200)}})
    assert validate_file(_file(wide_header, _records(1)[0]), source="f").predictions.header.benchmark == "emorealm"
    wider = json.dumps(json.loads(HEADER) | {"provenance": {f"k{i}": 0 for i in range(300)}})
    with pytest.raises(SchemaError, match=r"^f line 1: expected at most 512 JSON values in one header line"):
        validate_file(_file(wider, _records(1)[0]), source="f")


def test_an_undecodable_byte_past_the_first_chunk_names_its_line_and_offset() -> None:
    records = _records(40_000)  # ~1.2 MiB: past the 1 MiB the UTF-8 check decodes at a time
    good = _file(HEADER, *[r.replace('"A"', '"é"') for r in records])  # 2-byte characters across chunks
    assert len(validate_file(good, max_records=None).predictions.records) == 40_000
    bad = _file(HEADER, *records[:-1]) + b'{"id": "z", "prediction": "\xff"}\n'
    offset = bad.index(b"\xff")
    with pytest.raises(SchemaError, match=rf"^f line 40001: expected UTF-8 text, got an undecodable byte at offset {offset}"):
        validate_file(bad, source="f", max_records=None)
