"""The `metrics/emorealm` evaluate module: loads offline, returns the core's result, card example runs."""

from __future__ import annotations

import re
from pathlib import Path

import evaluate
import pytest
import yaml

from mmjudge.benchmarks import emorealm
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.registry import get_benchmark

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "metrics" / "emorealm"
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


def card_example(text: str) -> tuple[str, str]:
    section = text.split("## Examples", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    output = re.search(r"```text\n(.*?)```", section, re.S)
    assert code and output
    return code.group(1), output.group(1)


def test_compute_returns_exactly_the_core_result(metric):
    kwargs = {
        "predictions": ["(B)", "a smile", None, "", "Answer: A", "B", "no"],
        "references": ["B", "A", "C", "D", "A", "A", "B"],
        "tasks": ["reasoning_basic_video"] * 4 + ["reasoning_stress_video"] * 3,
        "choices": [["(A) Happy", "(B) Sad", "(C) Angry", "(D) Calm"]] * 4 + [["(A) Yes", "(B) No"]] * 3,
        "ids": list(range(7)),
        "n_resamples": 300,
        "seed": 2,
    }
    for options in ({}, {"mode": "strict"}, {"matcher": "explicit"}, {"matcher": "official_parse"}):
        assert metric.compute(**kwargs, **options) == emorealm.score(**kwargs, **options)
    flags = {"gold_is_yes": [None] * 4 + [True, True, False]}
    plain = {k: v for k, v in kwargs.items() if k != "choices"}
    assert metric.compute(**plain, **flags) == emorealm.score(**plain, **flags)


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`tasks` has 1 values outside"):
        metric.compute(predictions=["A", "B"], references=["A", "B"], tasks=["modality_agreement", "emotion"])
    with pytest.raises(ConfigError, match="`mode`"):
        metric.compute(predictions=["A"], references=["A"], tasks=["modality_agreement"], mode="lenient")


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
    for section in SECTIONS:
        assert section in headings or f"Metric {section}" in headings, section
    generic = {
        re.sub(r"/(" + "|".join(emorealm.TASKS) + r")(?=_ci_|$)", "/<task>", key.name)
        for key in get_benchmark("emorealm").result_keys
    }
    for name in generic:
        assert f"`{name}`" in text, name
    assert 'calls this "precision"' in text and 'calls this "recall"' in text


def test_app_and_requirements():
    assert (FOLDER / "app.py").read_text(encoding="utf-8") == APP
    assert (FOLDER / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]
