"""The files ``mmjudge human-study score`` writes, and the human row the leaderboard shows.

``scores.json`` holds everything (the human row's result keys and the study-only numbers);
``human_row.json`` is the row in the shape of the leaderboard's shipped reference rows (``judge``,
``model``, ``kind``, ``source``, ``results`` under IsoVRBench result keys); ``report.md`` is a table per
intervention. ``mmjudge human-study score --leaderboard DB`` stores the row in a leaderboard database
as ``verified`` (scored here from the answers) or ``reported`` (numbers given without the answers).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mmjudge.benchmarks.isovrbench import HUMAN_ACCURACY, INTERVENTIONS
from mmjudge.benchmarks.isovrbench.human_study._score import StudyScore
from mmjudge.benchmarks.isovrbench.human_study._study import Study
from mmjudge.estimates import estimates_from, interval_caption, interval_of, interval_text

__all__ = ["HUMAN_JUDGE", "answers_digest", "human_row", "write_outputs"]

HUMAN_JUDGE = "Human raters"
"""The judge name of a human row."""

PROTOCOL = (
    "Human validation (mmjudge human-study): agreement (%) with the intervention label on the targeted "
    "dimension (motion, text, visual quality; overall = sign of the sum of the three answers for the generator "
    "substitutions), one majority verdict per pair over its annotators, 'same' counted as not agreeing; "
    "average = mean of the interventions present."
)


def answers_digest(study: Study) -> str:
    """SHA-256 of the study's items and every answer (identifies a verified human row)."""
    digest = hashlib.sha256((study.folder / "items.jsonl").read_bytes())
    for answer in study_answers(study):
        digest.update(
            json.dumps([answer.annotator, answer.item_id, answer.visual, answer.motion, answer.text]).encode()
        )
    return digest.hexdigest()


def study_answers(study: Study) -> list[Any]:
    from mmjudge.benchmarks.isovrbench.human_study._answers import AnswerStore

    return AnswerStore(study.answers_path).answers() if study.answers_path.is_file() else []


def human_row(score: StudyScore, study: Study, *, kind: str = "verified") -> dict[str, Any]:
    """The leaderboard row of a study: ``benchmark``, ``kind``, ``judge``, ``model``, ``source``, ``results``."""
    counts = ", ".join(
        f"{iv} {score.results[f'n/{iv}']}" for iv in INTERVENTIONS if f"n/{iv}" in score.results
    )
    caption = interval_caption(estimates_from(score.results))
    source = (
        f"Human study {study.name!r}: {len(score.annotators)} annotators; pairs per intervention: {counts}. "
        + PROTOCOL
        + (f" {caption}" if caption else "")
    )
    return {
        "benchmark": "isovrbench",
        "kind": kind,
        "judge": HUMAN_JUDGE,
        "model": f"human study: {study.name}",
        "revision": answers_digest(study)[:12] if kind == "verified" else "",
        "source": source,
        "results": dict(score.results),
    }


def write_outputs(
    score: StudyScore, study: Study, out: str | Path, *, kind: str = "verified"
) -> dict[str, Path]:
    """Write ``scores.json``, ``human_row.json`` and ``report.md`` under ``out``; returns their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    payload = {
        "study": study.name,
        "annotators": list(score.annotators),
        "unanswered": score.unanswered,
        "results": score.results,
        "extra": score.extra,
    }
    paths = {"scores": out / "scores.json", "human_row": out / "human_row.json", "report": out / "report.md"}
    paths["scores"].write_text(json.dumps(payload, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    row = human_row(score, study, kind=kind)
    paths["human_row"].write_text(json.dumps(row, indent=2) + "\n", encoding="utf-8")
    paths["report"].write_text(report_markdown(score, study), encoding="utf-8")
    return paths


def _pct(values: dict[str, Any], key: str) -> str:
    if values.get(key) is None:
        return "-"
    ci = interval_of(values, key)
    interval = f" {interval_text(*ci)}" if ci is not None else ""
    return f"{values[key]:.1f}{interval}"


def report_markdown(score: StudyScore, study: Study) -> str:
    """A markdown report: per intervention the pairs, agreement, per-annotation agreement, the paper's value."""
    r, x = score.results, score.extra
    lines = [
        f"# Human study: {study.name}",
        "",
        f"{len(score.annotators)} annotators; unanswered items: {score.unanswered}.",
        "",
        "| intervention | pairs | agreement % (pair verdicts, 95% CI) | ties % | agreement % (all answers) | paper |",
        "|---|---|---|---|---|---|",
    ]
    for iv in INTERVENTIONS:
        if f"n/{iv}" in r:
            lines.append(
                f"| {iv} | {r[f'n/{iv}']} | {_pct(r, f'accuracy/{iv}')} | {r[f'tie_rate/{iv}']:.1f} | "
                f"{_pct(x, f'annotation_agreement/{iv}')} | {HUMAN_ACCURACY[iv]:.0f} |"
            )
    lines += [
        "",
        f"Average over the interventions present: {_pct(r, 'average')} (the paper's human average: 96.4).",
        f"Control pairs (one clip on both sides): {x.get('n_control_answers', 0)} answers, 'same' on all three "
        f"questions {_pct(x, 'control_tie_rate')}%.",
        f"Fleiss' kappa over pair verdicts: {_kappa_text(x)}.",
        "",
        PROTOCOL,
        "",
        "Pair verdicts: " + (interval_caption(estimates_from(r)) or "no interval."),
        "Per-answer agreement and control rates: 95% Wilson score intervals over the answers; Fleiss' kappa: "
        "percentile bootstrap over the pairs.",
        "",
    ]
    return "\n".join(lines)


def _kappa_text(x: dict[str, Any]) -> str:
    if not x.get("kappa_items"):
        return "not computed (no pair has two annotators)"
    if x.get("fleiss_kappa") is None:
        return f"undefined (every verdict in one category; {x['kappa_items']} items, {x['kappa_raters']} raters each)"
    ci = interval_of(x, "fleiss_kappa")
    interval = f" {interval_text(*ci, 2)}" if ci is not None else ""
    return f"{x['fleiss_kappa']:.2f}{interval} ({x['kappa_items']} items, {x['kappa_raters']} raters each)"
