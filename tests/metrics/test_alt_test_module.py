"""The `metrics/alt_test` evaluate module: loads offline, returns the core's result, card example runs."""

from __future__ import annotations

import re
from pathlib import Path

import evaluate
import numpy as np
import pytest
import yaml

from mmjudge.errors import SchemaError
from mmjudge.stats import alt_test, alt_test_from_rows

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "metrics" / "alt_test"
APP = """from pathlib import Path

from mmjudge.metric_app import build_demo

demo = build_demo(Path(__file__).parent)

if __name__ == "__main__":
    demo.launch()
"""
SECTIONS = (
    "Description",
    "How to Use",
    "Inputs",
    "Output Values",
    "Values from Popular Papers",
    "Examples",
    "Limitations and Bias",
    "Citation",
)


@pytest.fixture(scope="module")
def metric():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_EVALUATE_OFFLINE", "1")
        yield evaluate.load(str(FOLDER))


def rows(n_items=40, seed=0, numeric=False):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n_items)
    out = {"item_ids": [], "annotators": [], "references": [], "predictions": []}
    judge = np.where(rng.random(n_items) < 0.2, rng.integers(0, 4, n_items), truth)
    for k in range(n_items):
        for h in ("h1", "h2", "h3"):
            label = truth[k] if rng.random() < 0.7 else rng.integers(0, 4)
            out["item_ids"].append(f"item{k}")
            out["annotators"].append(h)
            out["references"].append(float(label) if numeric else ["FF", "WF", "FL", "LL"][label])
            out["predictions"].append(float(judge[k]) if numeric else ["FF", "WF", "FL", "LL"][judge[k]])
    return out


@pytest.mark.parametrize(("numeric", "scoring"), [(False, "accuracy"), (True, "neg_mae"), (True, "neg_rmse")])
def test_compute_returns_exactly_the_core_result(metric, numeric, scoring):
    data = rows(numeric=numeric, seed=int(numeric))
    result = metric.compute(**data, scoring=scoring, epsilon=0.15)
    core = alt_test_from_rows(**data, scoring=scoring, epsilon=0.15).as_dict()
    assert result == core
    humans = {}
    for item, annotator, label in zip(data["item_ids"], data["annotators"], data["references"], strict=True):
        humans.setdefault(annotator, {})[item] = label
    judge = dict(zip(data["item_ids"], data["predictions"], strict=True))
    assert result == alt_test(judge, humans, scoring=scoring, epsilon=0.15).as_dict()


def test_missing_judge_labels_drop_items(metric):
    data = rows(numeric=True)
    data["predictions"] = [
        None if item == "item3" else p for item, p in zip(data["item_ids"], data["predictions"], strict=True)
    ]
    result = metric.compute(**data, scoring="neg_mae")
    assert result["n_items_dropped"] == 1 and result["n_items/h1"] == 39


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"annotators": ["h1"] * 120}, "pairs repeat"),
        ({"predictions": ["FF"] * 119 + ["LL"]}, "differ between rows of the same item"),
    ],
)
def test_bad_input_reaches_the_user(metric, change, message):
    data = {**rows(), **change}
    with pytest.raises(SchemaError, match=message):
        metric.compute(**data)
    with pytest.raises(SchemaError, match="numeric labels"):
        metric.compute(**rows(), scoring="neg_rmse")


def card_example(text: str) -> tuple[str, str]:
    section = text.split("## Examples", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    output = re.search(r"```text\n(.*?)```", section, re.S)
    assert code and output
    return code.group(1), output.group(1)


def test_card_example_prints_what_the_card_says(metric, monkeypatch, capsys):
    code, expected = card_example((FOLDER / "README.md").read_text(encoding="utf-8"))
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    exec(compile(code, "README example", "exec"), {})
    assert capsys.readouterr().out.strip() == expected.strip()


def test_card_front_matter_sections_and_keys():
    text = (FOLDER / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---")[1])
    headings = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
    assert front["sdk"] == "gradio" and front["sdk_version"] == "6.31.0" and front["app_file"] == "app.py"
    assert set(front["tags"]) >= {"evaluate", "metric"} and front["pinned"] is False
    assert {"title", "emoji", "colorFrom", "colorTo", "description"} <= set(front)
    for section in SECTIONS:
        assert section in headings or f"Metric {section}" in headings, section
    keys = {re.sub(r"/h\d$", "/<annotator>", key) for key in alt_test_from_rows(**rows()).as_dict()}
    for key in keys:
        assert f"`{key}`" in text, key


def test_app_and_requirements():
    assert (FOLDER / "app.py").read_text(encoding="utf-8") == APP
    assert (FOLDER / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]
