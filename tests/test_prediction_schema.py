"""The prediction file's JSON Schema: generated from the header model and each benchmark's record declaration,
shipped in ``docs/predictions.schema.json``, and satisfied by every line ``mmjudge eval`` writes (checked with
the ``jsonschema`` reference validator, not with mmjudge's reader)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.benchmarks import benchmark_ids
from mmjudge.prediction_schema import json_schema, schema_text
from mmjudge.runner import RunOptions, evaluate_judge

jsonschema = pytest.importorskip("jsonschema")

SHIPPED = Path(__file__).resolve().parents[1] / "docs" / "predictions.schema.json"


def test_the_shipped_schema_is_the_generated_one() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == schema_text(), "regenerate it: mmjudge schema --out docs/predictions.schema.json"
    jsonschema.Draft202012Validator.check_schema(json_schema())


def _validator(name: str) -> object:
    schema = json_schema()
    return jsonschema.Draft202012Validator({**schema["$defs"][name], "$defs": schema["$defs"]})


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_every_line_eval_writes_is_valid(sample_data: Path, tmp_path: Path, benchmark: str) -> None:
    (output,) = evaluate_judge(benchmark, "random", sample_data / benchmark, tmp_path,
                               RunOptions(decode_workers=0, progress=False, limit=3, swap=benchmark == "emoprefer"))  # fmt: skip
    header, *records = [json.loads(line) for line in Path(output.predictions).read_text().splitlines()]
    _validator("header").validate(header)
    record = _validator(f"{benchmark}_record")
    for line in records:
        record.validate(line)
    jsonschema.Draft202012Validator(json_schema()).validate(header)


@pytest.mark.parametrize(
    "line",
    [
        {"record": "header", "schema_version": 2, "benchmark": "mist", "judge": "j"},
        {"record": "header", "schema_version": 1, "benchmark": "other", "judge": "j"},
        {"record": "header", "schema_version": 1, "benchmark": "mist", "judge": ""},
        {"record": "header", "schema_version": 1, "benchmark": "mist", "judge": "j", "extra": 1},
        {"record": "header", "schema_version": 1, "benchmark": "mist", "judge": "j", "provenance": []},
    ],
)
def test_a_header_the_reader_refuses_is_invalid_for_the_schema_too(line: dict) -> None:
    from mmjudge.errors import SchemaError
    from mmjudge.predictions import parse_prediction_bytes

    with pytest.raises(jsonschema.ValidationError):
        _validator("header").validate(line)
    with pytest.raises(SchemaError):
        parse_prediction_bytes((json.dumps(line) + "\n").encode(), max_records=None)


def test_a_record_with_a_wrong_type_is_invalid() -> None:
    record = _validator("isovrbench_record")
    record.validate({"id": "p1", "score_chosen": 0.5, "score_rejected": None, "no_judgment": True})
    with pytest.raises(jsonschema.ValidationError):
        record.validate({"id": "p1", "score_chosen": "high", "score_rejected": 0.1})
    with pytest.raises(jsonschema.ValidationError):
        _validator("mist_record").validate({"id": "x", "item_id": "", "prompt_strategy": "cot", "arm": "silent",
                                            "image_condition": "none", "label": "FF"})  # fmt: skip
