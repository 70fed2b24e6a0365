"""``report.md`` and its plot for one scored prediction file (matplotlib, Agg backend), and the
terminal table of headline scores that ``mmjudge eval`` and ``mmjudge score`` end with.

Nothing is computed here that the scorer does not already return: the headline keys are the
benchmark's (``Benchmark.metrics.headline``), the CIs the scorer's ``<key>_ci_low``/``_ci_high``, the
breakdown tables the benchmark's own (``Benchmark.present.report_tables``, laid out as its paper does) and the
plot the benchmark's (``Benchmark.present.report_plot``). Every cell is read from the scores with
:func:`value_text`: one format for a value and its CI, a dash for a key that is absent, ``n/a`` for a
score the scorer left undefined (NaN or null). The full key list stays in ``results.json``.

How each interval was made is read from the scorer's records (the typed estimates ``results.json`` writes,
:func:`mmjudge.estimates.estimates_from`): each table's caption names the confidence and methods
(:func:`mmjudge.estimates.interval_caption`), and a cell whose interval is thin or withheld carries a mark
explained under its table (:class:`mmjudge.estimates.Footnotes`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeGuard

from mmjudge.benchmarks import BreakdownTable, Cell, get_benchmark
from mmjudge.estimates import (
    Estimate,
    Footnotes,
    estimates_from,
    interval_caption,
    interval_of,
    interval_text,
)

__all__ = [
    "MISSING",
    "UNDEFINED",
    "cell_text",
    "ci_text",
    "headline",
    "interval_text",
    "score_table",
    "table_lines",
    "value_text",
    "write_report",
]

MISSING = "—"
"""What a cell shows when the scores hold no such key."""
UNDEFINED = "n/a"
"""What a cell shows when the scorer returned NaN or null (e.g. a rate over zero items)."""


def headline(benchmark: str, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The few scores a summary table shows for ``benchmark``: its headline keys that are present."""
    return {key: scores[key] for key in get_benchmark(benchmark).metrics.headline if key in scores}


def ci_text(scores: Mapping[str, Any], key: str, digits: int = 1) -> str:
    """``key``'s interval as the scorer wrote it (``<key>_ci_low``/``_ci_high``), or ``""`` without one.

    >>> ci_text({"overall": 50.0, "overall_ci_low": 31.25, "overall_ci_high": 68.75}, "overall")
    '[31.2, 68.8]'
    """
    interval = interval_of(scores, key)
    return "" if interval is None else interval_text(*interval, digits)


def value_text(scores: Mapping[str, Any], key: str, digits: int = 1, ci: bool = True) -> str:
    """``scores[key]`` as a report shows it: ``value [ci_low, ci_high]``, a count, a label or yes/no.

    A key that is absent shows :data:`MISSING`; NaN or null shows :data:`UNDEFINED`.

    >>> scores = {"acc": 72.345, "acc_ci_low": 66.5, "acc_ci_high": 77.41, "n": 40, "passed": True}
    >>> value_text(scores, "acc"), value_text(scores, "n"), value_text(scores, "passed")
    ('72.3 [66.5, 77.4]', '40', 'yes')
    >>> value_text(scores, "absent"), value_text({"rate": float("nan")}, "rate")
    ('—', 'n/a')
    >>> import numpy as np
    >>> value_text({"passed": np.bool_(False), "n": np.int64(3)}, "passed"), value_text({"n": np.int64(3)}, "n")
    ('no', '3')
    """
    if key not in scores:
        return MISSING
    value = scores[key]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # a numpy scalar (np.bool_ is no bool, np.int64 no int)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, float):
        return str(value)
    interval = ci_text(scores, key, digits) if ci else ""
    return f"{value:.{digits}f}" + (f" {interval}" if interval else "")


def _is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def cell_text(
    scores: Mapping[str, Any],
    cell: Cell,
    estimates: Mapping[str, Estimate] | None = None,
    notes: Footnotes | None = None,
) -> str:
    """One cell of a breakdown table: its fixed text, or its key's value read with :func:`value_text`,
    marked by ``notes`` when its estimate's interval is thin or withheld.

    >>> cell_text({"n/x": 3}, Cell("n/x")), cell_text({}, Cell(None, text="motion"))
    ('3', 'motion')
    """
    if cell.key is None:
        return cell.text
    text = value_text(scores, cell.key, cell.digits, cell.ci)
    if notes is None or estimates is None or not cell.ci or text in (MISSING, UNDEFINED):
        return text
    return text + notes.mark(estimates.get(cell.key))


def table_lines(
    table: BreakdownTable, scores: Mapping[str, Any], estimates: Mapping[str, Estimate] | None = None
) -> list[str]:
    """A breakdown table as markdown lines (title, table, note, caption of its intervals, footnotes), every
    value read from ``scores``; ``estimates`` default to the scorer's records (:func:`estimates_from`).

    >>> from mmjudge.benchmarks import Scores, TableRow, cells
    >>> t = BreakdownTable("Per task", ("task", "accuracy", "n"), (TableRow("a", cells("acc/a", "n/a")),))
    >>> table_lines(t, {"acc/a": 50.0})[2:]
    ['| task | accuracy | n |', '|---|---|---|', '| a | 50.0 | — |']
    >>> s = Scores({"acc/a": 50.0, "acc/a_ci_low": 40.0, "acc/a_ci_high": 60.0},
    ...            {"acc/a": {"method": "m", "n_clusters": 12, "cluster": "clip", "confidence": 0.9}})
    >>> table_lines(t, s)[4:]
    ['| a | 50.0 [40.0, 60.0]† | — |', '', '90% intervals: acc/a — m.', '', '† thin: 12 clips (under 30)']
    """
    estimates = estimates_from(scores) if estimates is None else estimates
    notes = Footnotes()
    lines = [f"### {table.title}", "", "| " + " | ".join(table.header) + " |"]
    lines.append("|" + "---|" * len(table.header))
    captioned: list[str] = []  # the keys whose value a cell shows with its interval
    for row in table.rows:
        shown = [cell_text(scores, c, estimates, notes) for c in row.cells]
        lines.append("| " + " | ".join([row.label, *shown]) + " |")
        captioned += [c.key for c, text in zip(row.cells, shown, strict=True)
                      if c.key and c.ci and text not in (MISSING, UNDEFINED)]  # fmt: skip
    caption = interval_caption(estimates, captioned)
    return lines + _paragraphs(table.note, caption, "; ".join(notes.lines()))


def score_table(benchmark: str, judge: str, runs: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """The terminal table of headline scores with CIs, one row per (run, headline key), then a blank line and
    one footnote line per mark of a thin or withheld interval (read from the scorer's records,
    :func:`estimates_from`).

    ``runs`` are ``(setting, scores)`` pairs: the setting labels a frame count of a sweep (``""`` for a
    single run). Columns are padded so the table reads in a terminal and pastes as markdown.

    >>> print(score_table("emorealm", "random", [("", {"overall": 30.0, "overall_ci_low": 20.0,
    ...                                                  "overall_ci_high": 40.0})]))
    | benchmark | judge  | setting | score   | value             |
    |-----------|--------|---------|---------|-------------------|
    | emorealm  | random | -       | overall | 30.0 [20.0, 40.0] |
    >>> from mmjudge.benchmarks import Scores
    >>> print(score_table("emorealm", "random", [("", Scores({"overall": 30.0}, {"overall": {
    ...     "method": "none: no interval: 3 clips (at least 5 needed)", "n_clusters": 3, "cluster": "clip"}}))]))
    | benchmark | judge  | setting | score   | value |
    |-----------|--------|---------|---------|-------|
    | emorealm  | random | -       | overall | 30.0† |
    <BLANKLINE>
    † no interval: 3 clips (at least 5 needed)
    """
    keys = get_benchmark(benchmark).metrics.headline
    notes = Footnotes()
    body = []
    for setting, scores in runs:
        estimates = estimates_from(scores)
        for key in keys:
            text = value_text(scores, key)
            mark = notes.mark(estimates.get(key)) if text not in (MISSING, UNDEFINED) else ""
            body.append([benchmark, judge, setting or "-", key, text + mark])
    header = ["benchmark", "judge", "setting", "score", "value"]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    footnotes = ["", *notes.lines()] if notes.lines() else []  # a blank line ends a markdown table
    return "\n".join([line(header), rule, *(line(row) for row in body), *footnotes])


def _model_text(provenance: Mapping[str, Any]) -> str:
    """The model a run's provenance names, or that its judge is weight-free (no model: a rule or a baseline).

    >>> _model_text({"model": "org/m", "model_revision": "abc"})
    'model `org/m` (revision `abc`)'
    >>> _model_text({"model": None, "model_revision": None})
    'weight-free judge (no model weights)'
    >>> _model_text({"model": "org/m"})
    'model `org/m` (revision not pinned)'
    """
    model, revision = provenance.get("model"), provenance.get("model_revision")
    if not model:
        return "weight-free judge (no model weights)"
    return f"model `{model}` ({f'revision `{revision}`' if revision else 'revision not pinned'})"


def write_report(
    folder: str | Path,
    benchmark: str,
    scores: Mapping[str, Any],
    predictions: Any,
    rows: Sequence[Mapping[str, Any]],
    provenance: Mapping[str, Any],
    run: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``folder/report.md`` and its PNG plots; returns the report path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    spec = get_benchmark(benchmark)
    records = predictions.records
    figure = [] if spec.present.report_plot is None else [spec.present.report_plot(folder, scores, records, rows)]
    failed = sum(bool(r.get("no_judgment")) for r in records)
    lines = [
        f"# {benchmark}: {predictions.header.judge}",
        "",
        f"- judge fingerprint `{provenance.get('fingerprint')}`, {_model_text(provenance)}",
        f"- dataset `{provenance.get('dataset', {}).get('folder')}` "
        f"(hash `{provenance.get('dataset', {}).get('hash')}`), mmjudge {provenance.get('mmjudge_version')}",
        f"- frames {_frames(provenance)}, seed {provenance.get('seeds', {}).get('judge')}, "
        f"swap {provenance.get('swap')}, limit {provenance.get('limit')}",
        f"- {len(records)} prediction records, {failed} without a judgment",
    ]
    data = (run or {}).get("data") or {}
    if data:
        where = f"Hub dataset `{data.get('hub')}` at `{data.get('revision')}`" if data.get("hub") else f"`{data.get('path')}`"
        lines.append(f"- data read from {where} (`mmjudge score`, `compare` and `robustness` find it there)")
    if run:
        lines.append(
            f"- run: {run.get('world')} process(es), {run.get('judged')} verdicts judged, "
            f"{run.get('cached')} from the cache, {_num(run.get('wall_s'))} s wall, "
            f"{_num(run.get('judge_s'))} s in the judge"
        )
    estimates = estimates_from(scores)
    lines += ["", "## Headline", "", *_headline(spec.metrics.headline, scores, estimates)]
    for plot, caption in figure:
        lines += ["", f"![{benchmark}]({plot.name})", "", caption]
    tables = spec.present.report_tables(scores) if spec.present.report_tables is not None else ()
    lines += _breakdown(tables, scores, estimates)
    lines += [
        "",
        f"All {len(scores)} result keys are in `results.json` beside this report. Scores come from `{spec.package or 'mmjudge.benchmarks.' + benchmark}.score`, the core `evaluate.load("
        f'"metrics/{benchmark}")` calls; re-score with `mmjudge score predictions.jsonl --data DIR`.',
        "",
    ]
    path = folder / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _headline(keys: Sequence[str], scores: Mapping[str, Any], estimates: Mapping[str, Estimate]) -> list[str]:
    """The headline table (value, interval, a mark when the interval is thin or withheld), its caption and
    footnotes."""
    notes = Footnotes()
    lines = ["| score | value | interval |", "|---|---|---|"]
    for key in keys:
        interval = ci_text(scores, key) or ("withheld" if key in estimates else MISSING)
        mark = notes.mark(estimates.get(key))
        lines.append(f"| `{key}` | {value_text(scores, key, ci=False)} | {interval}{mark} |")
    return lines + _paragraphs(interval_caption(estimates, keys), "; ".join(notes.lines()))


def _paragraphs(*texts: str) -> list[str]:
    """Each non-empty text as a markdown paragraph (a blank line before it)."""
    return [line for text in texts if text for line in ("", text)]


def _breakdown(
    tables: Sequence[BreakdownTable], scores: Mapping[str, Any], estimates: Mapping[str, Estimate]
) -> list[str]:
    if not tables:
        return []
    lines = ["", "## Breakdown", "", f"Values with their interval as `value [low, high]` (under each table: the "
             f"confidence and how each interval was made; a mark: the interval is thin or withheld); {MISSING}: "
             f"not in the results, {UNDEFINED}: undefined (e.g. no item to rate)."]  # fmt: skip
    for table in tables:
        lines += ["", *table_lines(table, scores, estimates)]
    return lines


def _frames(provenance: Mapping[str, Any]) -> str:
    frames = provenance.get("frames") or {}
    if frames.get("fps") is not None:
        return f"at {frames['fps']} fps"
    return str(frames.get("frames") if frames.get("frames") is not None else "judge default")


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4g}"
    return str(value)
