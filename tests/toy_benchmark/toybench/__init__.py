"""``toy``: a fifth benchmark that lives outside mmjudge, registered through the ``mmjudge.benchmarks`` group.

Text-only multiple-choice questions (kind :class:`mmjudge.items.QuestionItem`); a judge answers a letter
and the score is the accuracy with its Wilson interval. Everything a benchmark is fits in this one
module: scorer and result keys, raw-release builder and sample writer, items, prediction records,
leaderboard view and figure. It uses only mmjudge's public names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from mmjudge.benchmarks import Benchmark, Column, DataSpec, LeaderboardSpec, RecordSpec, ResultKey, View
from mmjudge.data import BuiltConfig, BuiltDataset, RawSource
from mmjudge.items import Item, QuestionItem, Verdict, choice_letters
from mmjudge.stats import wilson_interval

CHOICES = ("(A) red", "(B) green", "(C) blue")


def score(
    predictions: Sequence[str | None],
    references: Sequence[str],
    *,
    n_resamples: int = 0,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, Any]:
    """Accuracy (percent) of the answer letters; a missing answer (``None``) is wrong."""
    hits = sum(p is not None and p.strip().upper() == r for p, r in zip(predictions, references, strict=True))
    ci = wilson_interval(hits, len(references), confidence=confidence)
    return {
        "accuracy": 100.0 * hits / len(references),
        "accuracy_ci_low": 100.0 * float(ci.low),
        "accuracy_ci_high": 100.0 * float(ci.high),
        "n": len(references),
    }


RESULT_KEYS = (
    ResultKey("accuracy", True, "percent of questions answered with the gold letter (0-100)"),
    ResultKey("accuracy_ci_low", True, "lower end of the 95% Wilson CI of accuracy (0-100)"),
    ResultKey("accuracy_ci_high", True, "upper end of the 95% Wilson CI of accuracy (0-100)"),
    ResultKey("n", True, "questions scored (count)"),
)


def write_raw(raw_dir: str | Path, *, size: str = "small", seed: int = 0) -> RawSource:
    """The raw release: one JSON list of questions."""
    raw_dir = Path(raw_dir)
    raw_dir.mkdir(parents=True, exist_ok=True)
    n = {"small": 9, "medium": 30}[size]
    questions = [
        {"id": f"toy_{k:03d}", "question": f"Which colour is number {k}?", "answer": "ABC"[(k + seed) % 3]}
        for k in range(n)
    ]
    path = raw_dir / "questions.json"
    path.write_text(json.dumps(questions), encoding="utf-8")
    return RawSource(path, None, {})


def build_tables(source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False) -> BuiltDataset:
    """One config, ``all``, with the questions."""
    rows = json.loads(Path(source).read_text(encoding="utf-8"))
    table = pa.table({k: [str(r[k]) for r in rows] for k in ("id", "question", "answer")})
    return BuiltDataset("toy", [BuiltConfig("all", {"test": table}, "every question")])


@dataclass(frozen=True)
class ToyQuestion(QuestionItem):
    """A text-only question."""

    item_id: str
    video: Path | None
    audio: Path | None
    question: str
    choices: tuple[str, ...]

    def prompt(self) -> str:
        return " ".join([self.question, *self.choices])

    def answer_prompt(self) -> str:
        return self.prompt() + "\nAnswer with a letter."

    def parse_answer(self, text: str) -> str | None:
        letter = text.strip().upper()[:1]
        return letter if letter in choice_letters(self.choices) else None


def build_items(data_dir: Any, rows: Sequence[Mapping[str, Any]], *, media_root: Any = None, swap: bool = False) -> list[Item]:
    return [ToyQuestion(str(r["id"]), None, None, str(r["question"]), CHOICES) for r in rows]


def records_from_verdicts(
    items: Sequence[Item], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    by_id = {v.item_id: v for v in verdicts}
    return [{"id": i.item_id, "prediction": by_id[i.item_id].value, "no_judgment": by_id[i.item_id].no_judgment} for i in items]


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    return [str(r["id"]) for r in rows]


def score_inputs(records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    by_id = {str(r["id"]): r for r in records}
    answers = [by_id[str(r["id"])] for r in rows]
    return {
        "predictions": [None if a.get("no_judgment") else a.get("prediction") for a in answers],
        "references": [r["answer"] for r in rows],
    }


def figure(rows: Sequence[Any]) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3), layout="constrained")
    ax = fig.add_subplot()
    ax.bar(range(len(rows)), [float(r.results.get("accuracy") or 0.0) for r in rows])
    ax.set_ylabel("accuracy (%)")
    return fig


BENCHMARK = Benchmark(
    id="toy",
    title="Toy questions",
    short_title="Toy",
    package=__name__,
    score=score,
    result_keys=RESULT_KEYS,
    headline=("accuracy",),
    data=DataSpec(reference_config="all", build_tables=build_tables, write_raw=write_raw),
    records=RecordSpec(
        unit="questions",
        item_kind=QuestionItem,
        build_items=build_items,
        records_from_verdicts=records_from_verdicts,
        expected_ids=expected_ids,
        score_inputs=score_inputs,
        value_fields={"prediction": (str,)},
    ),
    leaderboard=LeaderboardSpec(views=(View("default", (Column("Accuracy", "accuracy"),)),), figure=figure),
)
