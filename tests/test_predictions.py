"""The prediction-file schema: round trip and every validation rule."""

from __future__ import annotations

import json

import pytest

from mmjudge.errors import SchemaError
from mmjudge.predictions import (
    SCHEMA_VERSION,
    PredictionHeader,
    parse_predictions,
    read_predictions,
    write_predictions,
)


def _lines(benchmark: str, records: list[dict], **header: object) -> list[str]:
    head = PredictionHeader(benchmark, "judge").to_record() | header
    return [json.dumps(head)] + [json.dumps(r) for r in records]


def test_round_trip_keeps_records_in_order(tmp_path):
    records = [{"id": f"p{i}", "score_chosen": float(i), "score_rejected": 0.5} for i in range(5)]
    path = write_predictions(
        tmp_path / "p.jsonl", PredictionHeader("isovrbench", "j", fingerprint="ab"), records
    )
    parsed = read_predictions(path, benchmark="isovrbench")
    assert parsed.header.fingerprint == "ab"
    assert [r["id"] for r in parsed.records] == [f"p{i}" for i in range(5)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl"]  # no temporary file left


def test_a_record_that_does_not_serialise_leaves_the_earlier_file_and_no_temporary(tmp_path):
    header = PredictionHeader("isovrbench", "j")
    good = [{"id": "p0", "score_chosen": 1.0, "score_rejected": 0.5}]
    path = write_predictions(tmp_path / "p.jsonl", header, good)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="Out of range float"):
        write_predictions(path, header, [*good, {"id": "p1", "score_chosen": float("nan"), "score_rejected": 0.5}])
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl"]


def test_no_judgment_allows_null_values_but_not_missing_keys():
    ok = {
        "id": "i::cot::none::none",
        "item_id": "i",
        "prompt_strategy": "cot",
        "arm": "none",
        "image_condition": "none",
        "label": None,
        "no_judgment": True,
    }
    assert parse_predictions(_lines("mist", [ok])).records[0]["label"] is None
    bad = dict(ok, arm=None)
    with pytest.raises(SchemaError, match="`arm` must be a non-empty string"):
        parse_predictions(_lines("mist", [bad]))


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"id": "p1", "score_chosen": float("nan"), "score_rejected": 1.0}, "must be finite"),
        ({"id": "p1", "score_chosen": "1", "score_rejected": 1.0}, "must be a number"),
        ({"id": "p1", "score_chosen": True, "score_rejected": 1.0}, "must be a number"),
        ({"id": "", "score_chosen": 1.0, "score_rejected": 1.0}, "non-empty string `id`"),
        ({"id": "p1", "score_rejected": 1.0}, "`score_chosen` must be"),
        ({"id": "p1", "score_chosen": 1.0, "score_rejected": 1.0, "no_judgment": "no"}, "true or false"),
    ],
)
def test_invalid_records_name_the_line_and_field(record, message):
    lines = [
        json.dumps(PredictionHeader("isovrbench", "j").to_record()),
        json.dumps(record).replace("NaN", "NaN"),
    ]
    with pytest.raises(SchemaError, match=message) as info:
        parse_predictions(lines)
    assert "line 2" in str(info.value)


def test_duplicate_ids_point_to_the_first_line():
    records = [{"id": "q1", "prediction": "A"}, {"id": "q1", "prediction": "B"}]
    with pytest.raises(SchemaError, match="already given on line 2"):
        parse_predictions(_lines("emorealm", records))


def test_header_rules():
    with pytest.raises(SchemaError, match="header record"):
        parse_predictions([json.dumps({"id": "q1", "prediction": "A"})])
    with pytest.raises(SchemaError, match="schema_version 99 is not supported"):
        parse_predictions(_lines("emorealm", [], schema_version=99))
    with pytest.raises(SchemaError, match="unknown benchmark 'vqa'"):
        parse_predictions(_lines("vqa", []))
    with pytest.raises(SchemaError, match="holds 'emorealm' predictions, expected 'mist'"):
        parse_predictions(_lines("emorealm", []), benchmark="mist")
    assert SCHEMA_VERSION == 1


def test_not_utf8_and_not_json(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(SchemaError, match="expected UTF-8"):
        read_predictions(path)
    with pytest.raises(SchemaError, match="line 2: expected one JSON object per line"):
        parse_predictions([json.dumps(PredictionHeader("emorealm", "j").to_record()), "{not json"])
    with pytest.raises(SchemaError, match="expected a JSON object, got list"):
        parse_predictions(["[1, 2]"])


def test_many_problems_are_summarised():
    records = [{"id": f"q{i}", "prediction": 3} for i in range(12)]
    with pytest.raises(SchemaError, match=r"12 invalid prediction records; first: \['line 2"):
        parse_predictions(_lines("emorealm", records))
