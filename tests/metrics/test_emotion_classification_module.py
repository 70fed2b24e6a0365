"""The `metrics/emotion_classification` evaluate module: loads offline, returns the core's result,
card example runs."""

from __future__ import annotations

import re
from pathlib import Path

import evaluate
import numpy as np
import pytest
import yaml

from mmjudge.errors import SchemaError
from mmjudge.stats import classification_summary

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "metrics" / "emotion_classification"
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
DFEW = ["happy", "sad", "neutral", "angry", "surprise", "disgust", "fear"]


@pytest.fixture(scope="module")
def metric():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_EVALUATE_OFFLINE", "1")
        yield evaluate.load(str(FOLDER))


@pytest.mark.parametrize("as_index", [False, True])
def test_compute_returns_exactly_the_core_result(metric, as_index):
    rng = np.random.default_rng(int(as_index))
    refs = rng.integers(0, 7, 300)
    preds = np.where(rng.random(300) < 0.6, refs, rng.integers(0, 7, 300))
    refs_in = refs.tolist() if as_index else [DFEW[k] for k in refs]
    preds_in = preds.tolist() if as_index else [DFEW[k] for k in preds]
    result = metric.compute(predictions=preds_in, references=refs_in)
    assert result == classification_summary(refs_in, preds_in).as_dict()
    assert set(result) == {"accuracy", "weighted_f1", "macro_f1", "uar", "war", "n"}


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="outside"):
        metric.compute(predictions=["happy", "joy"], references=["happy", "sad"], labels=DFEW)
    with pytest.raises(ValueError, match=r"Mismatch|equal length"):
        metric.compute(predictions=["happy"], references=["happy", "sad"])


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
    for key in classification_summary(["a"], ["a"]).as_dict():
        assert f"`{key}`" in text, key


def test_app_and_requirements():
    assert (FOLDER / "app.py").read_text(encoding="utf-8") == APP
    assert (FOLDER / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]
