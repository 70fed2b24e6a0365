"""``robustness.json``: the validator names what is wrong; the writer refuses NaN-free violations."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from mmjudge.errors import SchemaError
from mmjudge.robustness import SCHEMA, read_report, summary_of, validate_report, write_report_json

EFFECT = {"name": "swap_consistency", "value": 0.0, "unit": "%", "n": 6, "description": "d", "ci_low": 0.0,
          "ci_high": 39.0, "interval": "wilson", "p_value": None, "note": ""}  # fmt: skip
PROBE = {"name": "swap", "title": "Order", "description": "d", "status": "ran", "reason": "", "effects": [EFFECT],
         "details": {}, "variants": [], "cost": {"items": 12, "judged": 0, "cached": 12}}  # fmt: skip
REPORT: dict[str, Any] = {
    "schema_version": 1, "benchmark": "emoprefer", "judge": "constant", "fingerprint": "f", "mmjudge_version": "0",
    "dataset": {}, "seed": 0, "base": {"items": 12, "judged": 12, "cached": 0}, "headline": {},
    "probes": [PROBE], "summary": summary_of([PROBE]),
}  # fmt: skip


def test_a_complete_report_validates_and_round_trips(tmp_path: Path) -> None:
    validate_report(REPORT)
    assert read_report(write_report_json(tmp_path / "r.json", REPORT)) == REPORT


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("schema_version",), 2, "report.schema_version: expected 1, got 2"),
        (("probes", 0, "status"), "done", "report.probes[0].status: expected one of ['ran', 'skipped']"),
        (("probes", 0, "effects", 0, "n"), -1, "report.probes[0].effects[0].n: expected >= 0"),
        (("probes", 0, "effects", 0, "value"), "12", "report.probes[0].effects[0].value: expected number or null"),
        (("base", "judged"), True, "report.base.judged: expected integer, got bool"),
        (("summary", "swap/swap_consistency"), [1], "report.summary.swap/swap_consistency: expected number or null"),
    ],
)
def test_each_violation_is_named(path: tuple[Any, ...], value: Any, message: str) -> None:
    broken = copy.deepcopy(REPORT)
    target = broken
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(SchemaError, match="not a valid robustness report") as info:
        validate_report(broken)
    assert message in str(info.value) and "mmjudge robustness" in str(info.value)


def test_missing_keys_are_listed_and_nan_is_refused_in_memory_but_written_as_null(tmp_path: Path) -> None:
    broken = {k: v for k, v in REPORT.items() if k != "probes"}
    with pytest.raises(SchemaError, match="missing key 'probes'"):
        validate_report(broken)
    nan = copy.deepcopy(REPORT)
    nan["probes"][0]["effects"][0]["value"] = float("nan")
    with pytest.raises(SchemaError, match="finite number or null"):
        validate_report(nan)
    written = json.loads(write_report_json(tmp_path / "r.json", nan).read_text(encoding="utf-8"))
    assert written["probes"][0]["effects"][0]["value"] is None


def test_an_unreadable_file_names_itself(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text("{", encoding="utf-8")
    with pytest.raises(SchemaError, match=r"cannot read robustness report .*r\.json"):
        read_report(tmp_path / "r.json")


def test_the_published_schema_is_a_json_schema_document_with_the_same_required_keys() -> None:
    assert SCHEMA["$schema"].startswith("https://json-schema.org/")
    assert set(SCHEMA["required"]) == set(REPORT)
    json.dumps(SCHEMA)  # JSON-able
