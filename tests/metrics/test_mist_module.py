"""The `metrics/mist` evaluate module: loads offline, returns the core's result, card example runs."""

from __future__ import annotations

import re
from pathlib import Path

import evaluate
import pytest
import yaml

from mmjudge.benchmarks import mist
from mmjudge.errors import SchemaError

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "metrics" / "mist"
APP = """from pathlib import Path

from mmjudge.metric_app import build_demo

demo = build_demo(Path(__file__).parent)

if __name__ == "__main__":
    demo.launch()
"""


@pytest.fixture
def metric(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    return evaluate.load(str(FOLDER))


def card_example(text: str) -> tuple[str, str]:
    section = text.split("## Examples", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    output = re.search(r"```text\n(.*?)```", section, re.S)
    assert code and output
    return code.group(1), output.group(1)


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a)


CONDS = [
    ("none", "none"),
    ("aligned", "explicit"),
    ("aligned", "silent"),
    ("misleading", "explicit"),
    ("misleading", "silent"),
]


def _grid(n_items: int = 32) -> dict:
    labels = ["FF", "WF", "FL", "LL"]
    rows = [
        (f"i{k}", "zs", c, a, labels[(k * (j + 1)) % 4])
        for k in range(n_items)
        for j, (c, a) in enumerate(CONDS)
    ]
    cols = dict(
        zip(
            ["item_ids", "prompt_strategies", "image_conditions", "arms", "predictions"],
            map(list, zip(*rows, strict=True)),
            strict=True,
        )
    )
    humans = [(f"i{k}", h, labels[(k + (h == "h3")) % 4]) for k in range(n_items) for h in ("h1", "h2", "h3")]
    return {
        **cols,
        "meta_item_ids": [f"i{k}" for k in range(n_items)],
        "meta_cells": ["T1", "T2", "T3", "T4"] * (n_items // 4),
        "meta_trios": ["informed"] * n_items,
        "human_item_ids": [h[0] for h in humans],
        "human_annotators": [h[1] for h in humans],
        "human_labels": [h[2] for h in humans],
        "n_resamples": 200,
    }


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = _grid()
    result = metric.compute(**kwargs)
    assert _equal(result, mist.score(**kwargs))
    assert any(k.startswith("alt_test/informed/mae/zs/explicit") for k in result)
    judge_only = {
        k: kwargs[k] for k in ("item_ids", "prompt_strategies", "image_conditions", "arms", "predictions")
    }
    assert _equal(metric.compute(**judge_only), mist.score(**judge_only))


def test_bad_input_reaches_the_user(metric):
    kwargs = _grid()
    kwargs["predictions"][3] = "XX"
    with pytest.raises(SchemaError, match="`predictions` has 1 values outside"):
        metric.compute(**kwargs)


def test_card_example_prints_what_the_card_says(metric, monkeypatch, capsys):
    code, expected = card_example((FOLDER / "README.md").read_text(encoding="utf-8"))
    monkeypatch.chdir(REPO)
    exec(compile(code, "README example", "exec"), {})
    assert capsys.readouterr().out.strip() == expected.strip()


def test_card_front_matter_sections_and_keys():
    text = (FOLDER / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---")[1])
    headings = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
    assert front["sdk"] == "gradio" and front["sdk_version"] == "6.31.0" and front["app_file"] == "app.py"
    assert set(front["tags"]) >= {"evaluate", "metric"} and front["pinned"] is False
    for section in (
        "Description",
        "How to Use",
        "Inputs",
        "Output Values",
        "Values from Popular Papers",
        "Examples",
        "Limitations and Bias",
        "Citation",
    ):
        assert section in headings or f"Metric {section}" in headings, section
    for key in mist.RESULT_KEYS:
        assert f"`{key.name}`" in text, key.name


def test_app_and_requirements():
    assert (FOLDER / "app.py").read_text(encoding="utf-8") == APP
    assert (FOLDER / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]
