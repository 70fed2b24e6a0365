"""``mmjudge demo``: synthetic sample data -> every weight-free baseline judge on every benchmark -> reports.

What it does, plainly: writes the synthetic sample of every registered benchmark (``mmjudge sample-data``)
under ``OUT/sample-data`` (reused when it is already there), runs each registered baseline judge on
each benchmark whose queries it answers with :func:`mmjudge.runner.evaluate_judge`, and writes
``OUT/<benchmark>/<judge>/{predictions.jsonl,results.json,report.md}``, then runs ``mmjudge robustness``
(every probe of the benchmark, 2 repeats) into the same folder (``robustness.json``, ``robustness.md``,
``robustness_summary.json``; the eval's cache answers the benchmark's own queries), plus ``OUT/summary.md``. The
sample data are synthetic and the baselines are floors: the numbers exercise the pipeline and say
nothing about any model. The baselines must judge every item: a run with an item that failed with an
error (unreadable media, say) is a failed row, and the demo exits with status 3 (1 when a run raised).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mmjudge.commands._failures import EXIT_ERRORED

if TYPE_CHECKING:
    from mmjudge.runner import ItemErrors

NAME = "demo"
HELP = "run every weight-free baseline judge on the synthetic sample of every benchmark and write reports"

BASELINES: tuple[str, ...] = ("frame_smoothness", "sharpness", "random", "constant")
"""The weight-free baselines, in report order (there is deliberately no ``majority`` judge: see
:mod:`mmjudge.judges.constant`)."""


_INTRO = (
    "mmjudge demo: the sample data are SYNTHETIC (generated clips, images and texts in the real release "
    "formats), and the judges are weight-free BASELINES (floors, not models). The numbers below check "
    "that loading, judging, scoring and reporting work end to end; they say nothing about any model."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: output folder, sample size, benchmarks, decode workers."""
    from mmjudge.benchmarks import benchmark_ids

    parser.add_argument("--out", type=Path, default=Path("demo-output"), help="output folder")
    parser.add_argument("--size", choices=("small", "medium"), default="small", help="sample size")
    parser.add_argument(
        "--benchmark", action="append", choices=benchmark_ids(), help="only this benchmark (repeatable)"
    )
    parser.add_argument("--decode-workers", type=int, default=0, help="decode worker processes per run")


def run(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks import benchmark_ids

    print(_INTRO)
    if not getattr(args, "verbose", False):  # the table is the output; -v shows the library's progress
        _quiet()
    benchmarks = list(args.benchmark or benchmark_ids())
    data = _sample(args.out / "sample-data", args.size, benchmarks)
    available, missing = _baselines()
    if missing:
        print(f"not registered, skipped: {', '.join(missing)}")
    rows: list[dict[str, Any]] = []
    for benchmark in benchmarks:
        for name, judge_cls in available.items():
            if benchmark in judge_cls.benchmarks:
                print(f"judging {benchmark} with {name} ...", flush=True)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", UserWarning)
                    rows.append(_one(benchmark, name, data, args.out, args.decode_workers))
                for note in dict.fromkeys(str(w.message) for w in caught):
                    print(f"  note: {note}")
    summary = _summary(rows)
    (args.out / "summary.md").write_text(f"# mmjudge demo\n\n{_INTRO}\n\n{summary}\n", encoding="utf-8")
    print(summary)
    print(f"reports: {args.out}/<benchmark>/<judge>/report.md; this table: {args.out / 'summary.md'}")
    errored = [r for r in rows if r.get("errored")]
    if errored:
        print(f"mmjudge demo: error: {len(errored)} of {len(rows)} runs had items that failed with an error "
              "(see the table); a baseline must judge every item of the sample", file=sys.stderr)  # fmt: skip
    if any(r["error"] and not r.get("errored") for r in rows):
        return 1
    return EXIT_ERRORED if errored else 0


def _quiet() -> None:
    from datasets.utils.logging import disable_progress_bar

    disable_progress_bar()
    logging.getLogger().setLevel(logging.WARNING)


def _sample(folder: Path, size: str, benchmarks: list[str]) -> Path:
    from mmjudge.benchmarks import write_sample_data

    summary = folder / "sample_summary.json"
    if summary.is_file():
        known = json.loads(summary.read_text(encoding="utf-8"))
        if known.get("size") == size and all(b in known.get("benchmarks", {}) for b in benchmarks):
            print(f"reusing the {size} synthetic sample in {folder}")
            return folder
    print(f"writing the {size} synthetic sample of {', '.join(benchmarks)} to {folder}")
    write_sample_data(folder, size=size, benchmarks=benchmarks, overwrite=True)
    return folder


def _baselines() -> tuple[dict[str, Any], list[str]]:
    from mmjudge.errors import UnknownNameError
    from mmjudge.judges import get_judge

    available: dict[str, Any] = {}
    missing: list[str] = []
    for name in BASELINES:
        try:
            available[name] = get_judge(name)
        except UnknownNameError:
            missing.append(name)
    return available, missing


def _config(name: str) -> Any:
    """The shipped ``judges/<name>/config.yaml`` when this is a checkout, else the backend's defaults."""
    from mmjudge.judges import JudgeConfig, load_config

    for root in (Path.cwd(), Path(__file__).resolve().parents[3]):
        path = root / "judges" / name / "config.yaml"
        if path.is_file():
            return load_config(path)
    return JudgeConfig(judge=name)


def _one(benchmark: str, name: str, data: Path, out: Path, workers: int) -> dict[str, Any]:
    from mmjudge.benchmarks import get_benchmark
    from mmjudge.errors import MmjudgeError
    from mmjudge.estimates import estimates_from
    from mmjudge.report import value_text
    from mmjudge.runner import RunOptions, evaluate_judge

    sample = get_benchmark(benchmark).data
    root = data / sample.sample_media_root if sample.sample_media_root else None
    options = RunOptions(media_root=root, swap=sample.sample_swap, decode_workers=workers, progress=False)
    row: dict[str, Any] = {"benchmark": benchmark, "judge": name, "error": None, "scores": {}, "report": ""}
    row["verdicts"] = "-"
    try:
        (output,) = evaluate_judge(
            benchmark, _config(name), data / benchmark, out / benchmark / name, options
        )
    except MmjudgeError as exc:
        logging.getLogger(__name__).error("%s on %s failed: %s", name, benchmark, exc)
        row["error"] = f"{type(exc).__name__}: {exc}"
        return row
    row["robustness"], probe_errors = _robustness(benchmark, name, data, out, options)
    # the same "value [low, high]" text as report.md and the terminal table, marked there when thin or withheld
    row["scores"] = {key: value_text(output.scores, key) for key in get_benchmark(benchmark).metrics.headline}
    row["estimates"] = estimates_from(output.scores)
    row["report"] = str(output.report)
    run = json.loads(output.results.read_text(encoding="utf-8"))["run"]
    row["verdicts"] = f"{run['judged']} judged, {run['cached']} cached, {run['failed']} no judgment"
    errored = [e for e in (output.errors, *probe_errors) if e.errored]
    if errored:  # the baselines must judge every item of the synthetic sample
        logging.getLogger(__name__).error("%s on %s: %s", name, benchmark, errored[0].describe())
        more = f" (and in {len(errored) - 1} more runs)" if len(errored) > 1 else ""
        row["error"], row["errored"] = errored[0].describe() + more, True
    return row


def _robustness(
    benchmark: str, name: str, data: Path, out: Path, options: Any
) -> tuple[str, tuple[ItemErrors, ...]]:
    """``mmjudge robustness`` into the run's folder (its cache answers the benchmark's items), 2 repeats:
    the report's path and the items of each probe run that failed with an error."""
    import dataclasses

    from mmjudge.robustness import RobustnessOptions, robustness_report

    run = dataclasses.replace(options, swap=False)
    written = robustness_report(
        benchmark,
        _config(name),
        data / benchmark,
        out / benchmark / name,
        RobustnessOptions(run=run, repeats=2),
    )
    return (str(written.markdown), written.errors) if written is not None else ("", ())


def _summary(rows: list[dict[str, Any]]) -> str:
    """The demo's table: one row per run, then a line with the footnote of each mark of a thin or withheld
    interval (after a blank line: a markdown table runs on to the next blank line)."""
    from mmjudge.estimates import Footnotes
    from mmjudge.report import MISSING, UNDEFINED

    notes = Footnotes()
    lines = [
        "| benchmark | judge | headline scores, value [interval] | verdicts | report | robustness |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        estimates = row.get("estimates", {})
        scores = row["error"] or ", ".join(
            f"{k} {text}{'' if text in (MISSING, UNDEFINED) else notes.mark(estimates.get(k))}"
            for k, text in row["scores"].items()
        )
        verdicts = row.get("verdicts", "-")
        lines.append(
            f"| {row['benchmark']} | {row['judge']} | {scores} | {verdicts} | {row['report'] or '-'} "
            f"| {row.get('robustness') or '-'} |"
        )
    return "\n".join([*lines, *(["", "; ".join(notes.lines())] if notes.lines() else [])])
