"""The `metrics/isovrbench` evaluate module: loads offline, returns the core's result, card example runs."""

from __future__ import annotations

import math
import re
from pathlib import Path

import evaluate
import pytest
import yaml

from mmjudge.benchmarks import isovrbench
from mmjudge.errors import SchemaError
from mmjudge.registry import get_benchmark

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "metrics" / "isovrbench"
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
    scores = {
        "intervention": ["temporal_shuffle", "frame_hold", "t2v_1_3b", "t2v_1_3b", "reduced_steps"],
        "score_chosen": [0.9, 0.1, 0.5, None, 0.7],
        "score_rejected": [0.2, 0.3, 0.5, None, 0.69],
        "no_judgment": [False, False, False, True, False],
        "pair_id": ["p1", "p2", "p3", "p4", "p5"],
        "tie_tolerance": 0.05,
        "n_resamples": 500,
        "seed": 3,
    }
    assert metric.compute(**scores) == isovrbench.score(**scores)
    choices = {
        "intervention": ["motion_regen", "attribute_edit"],
        "choice": ["tie", "chosen"],
        "n_resamples": 0,
    }
    assert metric.compute(**choices) == isovrbench.score(**choices)


def test_bad_input_reaches_the_user(metric):
    with pytest.raises(SchemaError, match="`intervention` has 1 values outside"):
        metric.compute(intervention=["frame_hold", "slow_motion"], choice=["chosen", "tie"])
    with pytest.raises(SchemaError, match="`score_chosen` has 1 non-finite"):
        metric.compute(intervention=["frame_hold"], score_chosen=[math.nan], score_rejected=[1.0])


def test_card_example_prints_what_the_card_says(metric, monkeypatch, capsys):
    code, expected = card_example((FOLDER / "README.md").read_text(encoding="utf-8"))
    monkeypatch.chdir(REPO)
    exec(compile(code, "README example", "exec"), {})
    assert capsys.readouterr().out.strip() == expected.strip()


def test_card_front_matter_sections_keys_and_human_row():
    text = (FOLDER / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---")[1])
    headings = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
    assert front["sdk"] == "gradio" and front["sdk_version"] == "6.31.0" and front["app_file"] == "app.py"
    assert set(front["tags"]) >= {"evaluate", "metric"} and front["pinned"] is False
    for section in SECTIONS:
        assert section in headings or f"Metric {section}" in headings, section
    generic = {
        re.sub(r"/(" + "|".join(isovrbench.INTERVENTIONS) + r")(?=_ci_|$)", "/<iv>", key.name)
        for key in get_benchmark("isovrbench").result_keys
    }
    generic = {re.sub(r"/(motion|text|visual|overall)(?=_ci_|$)", "/<dim>", name) for name in generic}
    for name in generic:
        assert f"`{name}`" in text, name
    row = (
        "| "
        + " | ".join(f"{v:g}" for v in isovrbench.HUMAN_ACCURACY.values())
        + f" | {isovrbench.HUMAN_AVERAGE} |"
    )
    assert row in text


def test_app_and_requirements():
    assert (FOLDER / "app.py").read_text(encoding="utf-8") == APP
    assert (FOLDER / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]
