"""The `metrics/emoprefer` evaluate module: loads offline, returns the core's result, card example runs."""

from __future__ import annotations

import re
from pathlib import Path

import evaluate
import pytest
import yaml

from mmjudge.benchmarks import emoprefer
from mmjudge.errors import SchemaError

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "metrics" / "emoprefer"
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


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "predictions": ["a1", "The answer is A2", "same", "a1", "a2", "nothing"],
        "references": ["a1", "a2", "same", "a2", "a2", "a1"],
    }
    swapped = ["a2", "a1", "a1", "a2", "a1", "same"]
    assert metric.compute(**kwargs, swapped_predictions=swapped) == emoprefer.score(
        **kwargs, swapped_predictions=swapped
    )
    assert metric.compute(**kwargs) == emoprefer.score(**kwargs)


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`references` has 1 values outside"):
        metric.compute(predictions=["a1", "a2"], references=["a1", "b"])


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
    for key in emoprefer.RESULT_KEYS:
        assert f"`{key.name}`" in text, key.name


def test_app_and_requirements():
    assert (FOLDER / "app.py").read_text(encoding="utf-8") == APP
    assert (FOLDER / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]
