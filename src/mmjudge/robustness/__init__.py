"""Judge robustness: what a judge is sensitive to, for any judge, on the probes its benchmark declares.

:func:`robustness_report` runs a judge through a benchmark's probes (``Benchmark.probes``; plus the
generic repeat-stability probe) with the normal runner, and writes ``robustness.json`` (versioned,
validated: :data:`SCHEMA`), ``robustness.md`` with plots, and ``robustness_summary.json`` (the flat
``<probe>/<effect>`` summary the leaderboard shows). Modules: :mod:`._run` (judging and measuring),
:mod:`._schema` (the file layout), :mod:`._markdown` (the report), :mod:`._repeat` (repeat stability).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge.judges import JudgeConfig
from mmjudge.robustness._markdown import write_markdown
from mmjudge.robustness._repeat import measure_repeats
from mmjudge.robustness._run import RobustnessOptions, judge_robustness, run_robustness
from mmjudge.robustness._schema import (
    SCHEMA,
    SCHEMA_VERSION,
    read_report,
    summary_of,
    validate_report,
    write_report_json,
)
from mmjudge.runner import ItemErrors

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "RobustnessOptions",
    "RobustnessOutput",
    "measure_repeats",
    "read_report",
    "robustness_report",
    "run_robustness",
    "summary_of",
    "validate_report",
    "write_markdown",
    "write_report_json",
]


class RobustnessOutput(NamedTuple):
    """The files of one robustness run."""

    report: dict[str, Any]
    """The ``robustness.json`` object."""
    json: Path
    """``robustness.json``."""
    markdown: Path
    """``robustness.md``."""
    summary: Path
    """``robustness_summary.json``: ``{"benchmark", "judge", "schema_version", "summary"}``."""
    errors: tuple[ItemErrors, ...] = ()
    """Per judged setting (the benchmark's items, each probe's runs), the items that failed with an error."""


def robustness_report(
    benchmark: str,
    judge: str | Path | JudgeConfig,
    data_dir: str | Path,
    out_dir: str | Path,
    options: RobustnessOptions | None = None,
) -> RobustnessOutput | None:
    """Run the probes and write the three files into ``out_dir`` (``None`` on ranks other than the main one)."""
    report, errors = judge_robustness(benchmark, judge, data_dir, out_dir, options or RobustnessOptions())
    if "schema_version" not in report:
        return None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    json_path = write_report_json(out / "robustness.json", report)
    report = read_report(json_path)
    markdown = write_markdown(out, report)
    summary = {k: report[k] for k in ("schema_version", "benchmark", "judge", "fingerprint")}
    summary["summary"] = report["summary"]
    summary_path = out / "robustness_summary.json"
    summary_path.write_text(json.dumps(summary, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    return RobustnessOutput(report, json_path, markdown, summary_path, tuple(errors))
