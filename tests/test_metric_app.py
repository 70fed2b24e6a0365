"""The small Gradio app every metrics/<id>/app.py builds: layout and the compute handler."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.metric_app import build_demo, compute_from_text, input_template, parse_inputs

METRICS = Path(__file__).resolve().parents[1] / "metrics"


@pytest.fixture(scope="module")
def emoprefer_metric():
    import evaluate

    return evaluate.load(str(METRICS / "emoprefer"))


@pytest.mark.parametrize("name", sorted(p.name for p in METRICS.iterdir() if (p / "app.py").exists()))
def test_build_demo_returns_blocks_with_a_public_compute_endpoint(name):
    import gradio as gr

    demo = build_demo(METRICS / name)
    assert isinstance(demo, gr.Blocks)
    names = {dep.get("api_name") for dep in demo.config["dependencies"]}
    assert "compute" in names


def test_compute_from_text_equals_metric_compute(emoprefer_metric):
    kwargs = {"predictions": ["a1", "a2 wins", "same"], "references": ["a1", "a1", "same"]}
    assert compute_from_text(emoprefer_metric, json.dumps(kwargs)) == emoprefer_metric.compute(**kwargs)


def test_bad_inputs_come_back_as_messages(emoprefer_metric):
    assert "not valid JSON" in compute_from_text(emoprefer_metric, "{oops")["error"]
    assert "expected a JSON object" in compute_from_text(emoprefer_metric, "[]")["error"]
    mismatch = compute_from_text(emoprefer_metric, json.dumps({"predictions": ["a1"], "references": []}))
    assert "error" in mismatch


def test_template_lists_the_metric_inputs(emoprefer_metric):
    template = json.loads(input_template(emoprefer_metric.features))
    assert set(template) == set(emoprefer_metric.features[0]) >= {"predictions", "references", "ids"}
    assert parse_inputs(json.dumps(template)) == template


def test_the_template_leaves_the_optional_inputs_out_and_computes_once_filled(emoprefer_metric):
    template = json.loads(input_template(emoprefer_metric.features, emoprefer_metric.optional_columns))
    assert template["ids"] is None and template["swapped_predictions"] is None and template["predictions"] == []
    rows = {"predictions": ["a1", "a2 wins"], "references": ["a1", "a1"]}
    assert compute_from_text(emoprefer_metric, json.dumps(template | rows)) == emoprefer_metric.compute(**rows)
