"""``robustness.md``: its headline is the eval report's, interval, mark and caption read from the same records."""

from __future__ import annotations

import json
import re
from pathlib import Path

from report_helpers import check_caption, check_footnotes, eval_command, needs_mark, table_after

from mmjudge.cli import main


def _paragraphs(text: str, start: str) -> list[str]:
    lines = text.splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith(start)) + 1
    end = next((k for k in range(first, len(lines)) if lines[k].startswith("#")), len(lines))
    return [line for line in lines[first:end] if line and not line.startswith(("|", "-"))]


def test_the_headline_interval_equals_the_eval_reports_for_the_same_file(
    sample_data: Path, tmp_path: Path
) -> None:
    """EmoReAlM's sample (5 clips): `mmjudge eval`, then `mmjudge robustness` into the same folder."""
    assert main(eval_command("emorealm", sample_data, tmp_path)) == 0
    media = str(sample_data / "raw" / "emorealm" / "DFEW")
    argv = ["robustness", "--benchmark", "emorealm", "--judge", "random", "--out", str(tmp_path),
            "--media-root", media, "--no-progress", "--decode-workers", "0", "--probe", "repeat", "--repeats", "2"]  # fmt: skip
    assert main(argv) == 0
    estimates = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["estimates"]
    robustness = json.loads((tmp_path / "robustness.json").read_text(encoding="utf-8"))
    assert robustness["estimates"] == {k: estimates[k] for k in robustness["headline"]}
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    markdown = (tmp_path / "robustness.md").read_text(encoding="utf-8")
    (line,) = [line for line in markdown.splitlines() if line.startswith("- headline: ")]
    shown = dict(re.findall(r"`([^`]+)` (.+?)(?=, `|$)", line.removeprefix("- headline: ")))
    rows = {r[0].strip("`"): r for r in table_after(report, "## Headline")}
    assert list(shown) == list(rows) == ["overall"]
    for key, text in shown.items():
        value, interval = rows[key][1], rows[key][2]
        expected = (
            f"{value} {interval}"
            if interval.startswith("[")
            else f"{value}{interval.removeprefix('withheld')}"
        )
        assert text == expected, (text, rows[key])
    assert needs_mark(estimates["overall"])  # 5 clips: the mark and its footnote travel too
    captions = [
        p for p in _paragraphs(markdown, "- headline: ") if re.match(r"(\d+% intervals|Withheld): ", p)
    ]
    same = [p for p in _paragraphs(report, "## Headline") if re.match(r"(\d+% intervals|Withheld): ", p)]
    assert captions == same and len(captions) == 1
    check_caption(captions[0], ["overall"], estimates)
    footnotes = [p for p in _paragraphs(markdown, "- headline: ") if p[0] in "†‡§¶"]
    check_footnotes(list(shown.items()), footnotes, estimates)
