"""What every `metrics/<name>` folder shares: the Space app, requirements, card front matter and
sections, and a card example that prints what the card says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
METRICS = sorted(p.name for p in (REPO / "metrics").iterdir() if p.is_dir())
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


def card_example(text: str) -> tuple[str, str]:
    section = text.split("## Examples", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    output = re.search(r"```text\n(.*?)```", section, re.S)
    assert code and output
    return code.group(1), output.group(1)


def test_every_metric_folder_is_tested():
    assert METRICS == [
        "alt_test",
        "emoprefer",
        "emorealm",
        "emotion_classification",
        "genai_bench_video",
        "isovrbench",
        "mist",
        "mj_bench_video",
        "tempcompass",
        "temporalbench",
        "videogen_rewardbench",
    ]
    for name in METRICS:
        assert (REPO / "tests" / "metrics" / f"test_{name}_module.py").is_file(), name


@pytest.mark.parametrize("name", METRICS)
def test_card_example_prints_what_the_card_says(name, monkeypatch, capsys):
    code, expected = card_example((REPO / "metrics" / name / "README.md").read_text(encoding="utf-8"))
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    exec(compile(code, "README example", "exec"), {})
    assert capsys.readouterr().out.strip() == expected.strip()


@pytest.mark.parametrize("name", METRICS)
def test_card_front_matter_and_sections(name):
    text = (REPO / "metrics" / name / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---")[1])
    headings = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
    assert front["sdk"] == "gradio" and front["sdk_version"] == "6.31.0" and front["app_file"] == "app.py"
    assert set(front["tags"]) >= {"evaluate", "metric"} and front["pinned"] is False
    assert {"title", "emoji", "colorFrom", "colorTo", "description"} <= set(front)
    for section in SECTIONS:
        assert section in headings or f"Metric {section}" in headings, section


@pytest.mark.parametrize("name", METRICS)
def test_app_and_requirements(name):
    folder = REPO / "metrics" / name
    assert (folder / "app.py").read_text(encoding="utf-8") == APP
    assert (folder / "requirements.txt").read_text(encoding="utf-8").split() == [
        "mmjudge[metrics]",
        "evaluate",
    ]


PAPERS = {
    "mist": "https://arxiv.org/abs/2609.37863",
    "emoprefer": "https://arxiv.org/abs/2507.04278",
    "emorealm": "https://arxiv.org/abs/2602.07054",
    "alt_test": "https://arxiv.org/abs/2501.10970",
    "temporalbench": "https://arxiv.org/abs/2410.10818",
    "tempcompass": "https://arxiv.org/abs/2403.00476",
    "videogen_rewardbench": "https://arxiv.org/abs/2501.13918",
    "genai_bench_video": "https://arxiv.org/abs/2406.04485",
    "mj_bench_video": "https://arxiv.org/abs/2502.01719",
}


@pytest.mark.parametrize("name", METRICS)
def test_metric_info_links_the_paper_and_its_code(name, monkeypatch):
    import evaluate

    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    info = evaluate.load(str(REPO / "metrics" / name)).info
    assert info.reference_urls, name
    if name in PAPERS:
        assert PAPERS[name] in info.reference_urls and info.homepage, name
    if name in ("emoprefer", "emorealm", "alt_test", "temporalbench", "tempcompass", "videogen_rewardbench",
                "genai_bench_video", "mj_bench_video"):  # the official code
        assert info.codebase_urls and all(u.startswith("https://github.com/") for u in info.codebase_urls), name
