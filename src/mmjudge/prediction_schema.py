"""The JSON Schema of a prediction file, generated from the models the reader validates with.

A prediction file is JSON Lines: a header line, then one record per line. :func:`json_schema` gives the
schema of one line: the header is :class:`mmjudge.predictions.PredictionHeader` (its pydantic schema, plus
``record: "header"``), and each benchmark's record is a pydantic model built from the benchmark's own
record declaration (``Benchmark.records``: the key fields that place a record in the benchmark's grid,
the verdict fields and their JSON types, and the values of the fields that take a closed set of them, listed as
enums), the one the reader checks records against. ``mmjudge schema``
prints it; the copy shipped in ``docs/predictions.schema.json`` is checked against it by the tests.

What JSON Schema does not say and the reader checks too: one header line first, every id once, an id
that agrees with its key fields, verdict fields ``null`` only with ``no_judgment: true``, finite numbers.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.predictions import SCHEMA_VERSION, PredictionHeader

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["json_schema", "record_model", "schema_text"]
_JSON_TYPES: dict[type, Any] = {str: str, float: float, int: int, bool: bool, dict: dict[str, Any], list: list[Any]}


def record_model(benchmark: str) -> type[BaseModel]:
    """The pydantic model of one prediction record of ``benchmark`` (from its record declaration).

    >>> sorted(record_model("emorealm").model_fields)
    ['id', 'no_judgment', 'prediction', 'record']
    >>> record_model("mist").model_json_schema()["properties"]["arm"]["enum"]
    ['explicit', 'silent', 'none']
    """
    from pydantic import ConfigDict, Field, create_model

    spec = get_benchmark(benchmark).records
    fields: dict[str, Any] = {
        "record": (Literal["prediction"], Field("prediction", description="Line type (may be left out).")),
        "id": (Annotated[str, Field(min_length=1)], Field(description="Record id (see the benchmark's id rule).")),
        "no_judgment": (bool, Field(False, description="The judge gave no answer; verdict fields may be null.")),
    }
    closed = spec.field_values
    for name in spec.key_fields:
        kind = Literal[closed[name]] if name in closed else Annotated[str, Field(min_length=1)]
        fields[name] = (kind, Field(description="Key field (places the record)."))
    for name, kinds in spec.value_fields.items():
        options = (Literal[closed[name]],) if name in closed else tuple(_JSON_TYPES.get(k, Any) for k in kinds)
        fields[name] = (_union(options), Field(None, description="Verdict field; null only with no_judgment."))
    config = ConfigDict(extra="allow", title=f"{benchmark} prediction record")
    model: type[BaseModel] = create_model(f"{benchmark}_record", __config__=config, **fields)
    return model


def _union(options: tuple[Any, ...]) -> Any:
    out: Any = None
    for option in options:
        out = option if out is None else out | option
    return out | None


def json_schema() -> dict[str, Any]:
    """The schema of one line of a prediction file (schema version 1), for every registered benchmark."""
    from pydantic import TypeAdapter

    header = TypeAdapter(PredictionHeader).json_schema()
    header["properties"] = {"record": {"const": "header", "description": "Line type."}, **header["properties"]}
    header["required"] = ["record", *header.get("required", [])]
    header["properties"]["benchmark"]["enum"] = list(benchmark_ids())
    defs: dict[str, Any] = {"header": header}
    for benchmark in benchmark_ids():
        defs[f"{benchmark}_record"] = record_model(benchmark).model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"mmjudge prediction file, schema version {SCHEMA_VERSION}: one line",
        "description": (
            "predictions.jsonl is JSON Lines: the header line first, then one record per line, every id of "
            "the benchmark's reference items exactly once. A record line follows the record schema of the "
            "header's benchmark (a record may hold further fields, e.g. `error`)."
        ),
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in defs],
        "$defs": defs,
    }


def schema_text() -> str:
    """:func:`json_schema` as the text shipped in ``docs/predictions.schema.json``."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
