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


MIST_CELL = {"id": "m1::cot::silent::aligned", "item_id": "m1", "prompt_strategy": "cot", "arm": "silent",
             "image_condition": "aligned", "label": "FF"}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": "m1::zs::silent::aligned", "prompt_strategy": "zs"},
         r"`prompt_strategy` must be one of \['zero_shot', 'few_shot', 'cot', 'few_shot_cot'\], got 'zs'"),
        ({"id": "m1::cot::ignore::aligned", "arm": "ignore"}, r"`arm` must be one of \['explicit', 'silent', 'none'\]"),
        ({"id": "m1::cot::silent::text", "image_condition": "text"},
         r"`image_condition` must be one of \['none', 'aligned', 'misleading'\]"),
        ({"label": "ff"}, r"`label` must be one of \['FF', 'WF', 'FL', 'LL'\], got 'ff'"),
    ],
)  # fmt: skip
def test_the_mist_grid_is_closed_in_the_schema_and_the_reader(change: dict, message: str) -> None:
    """Strategies, arms (`none` for the text-only cell), image conditions and labels are enums, not free strings."""
    from mmjudge.errors import SchemaError
    from mmjudge.predictions import parse_prediction_bytes

    record = _validator("mist_record")
    record.validate(MIST_CELL)
    record.validate(MIST_CELL | {"id": "m1::cot::none::none", "arm": "none", "image_condition": "none"})
    record.validate(MIST_CELL | {"label": None, "no_judgment": True})
    with pytest.raises(jsonschema.ValidationError):
        record.validate(MIST_CELL | change)
    header = {"record": "header", "schema_version": 1, "benchmark": "mist", "judge": "j"}
    data = "".join(json.dumps(line) + "\n" for line in (header, MIST_CELL | change)).encode()
    with pytest.raises(SchemaError, match=message):
        parse_prediction_bytes(data, max_records=None)


def test_the_shipped_schema_lists_the_mist_grid() -> None:
    mist = json.loads(SHIPPED.read_text(encoding="utf-8"))["$defs"]["mist_record"]["properties"]
    assert mist["prompt_strategy"]["enum"] == ["zero_shot", "few_shot", "cot", "few_shot_cot"]
    assert mist["arm"]["enum"] == ["explicit", "silent", "none"]
    assert mist["image_condition"]["enum"] == ["none", "aligned", "misleading"]
    assert mist["label"]["anyOf"][0]["enum"] == ["FF", "WF", "FL", "LL"]


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_schema_ids_prints_the_ids_a_complete_file_holds(
    benchmark: str, sample_data: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from mmjudge.cli import main
    from mmjudge.scoring import expected_ids, load_reference_rows

    assert main(["schema", "--ids", benchmark, "--data", str(sample_data / benchmark)]) == 0
    printed = capsys.readouterr().out.splitlines()
    rows = load_reference_rows(benchmark, sample_data / benchmark)
    assert printed == expected_ids(benchmark, rows) and len(set(printed)) == len(printed) >= len(rows)
    out = tmp_path / "ids.txt"
    assert main(["schema", "--ids", benchmark, "--data", str(sample_data / benchmark), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines() == printed


def test_schema_ids_of_the_mist_grid(sample_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mmjudge.cli import main

    assert main(["schema", "--ids", "mist", "--data", str(sample_data / "mist")]) == 0
    ids = capsys.readouterr().out.splitlines()
    first = ids[0].split("::")[0]
    assert ids[:6] == [f"{first}::zero_shot::none::none", f"{first}::zero_shot::explicit::aligned",
                       f"{first}::zero_shot::silent::aligned", f"{first}::zero_shot::explicit::misleading",
                       f"{first}::zero_shot::silent::misleading", f"{first}::few_shot::none::none"]  # fmt: skip
    assert len(ids) == 20 * len({i.split("::")[0] for i in ids})  # 4 strategies x 5 (image, arm) cells per item
    assert main(["schema", "--ids", "mist"]) == 1
    assert "--ids mist needs --data FOLDER" in capsys.readouterr().err
