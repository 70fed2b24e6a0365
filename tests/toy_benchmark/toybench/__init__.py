"""``toy``: a fifth benchmark that lives outside mmjudge, registered through the ``mmjudge.benchmarks`` group.

Which colour is a short clip, red, green or blue? A judge is asked it in one of two ways, whichever it
answers first (``RecordSpec.query_kinds``): as a choice among the letters of the choices (kind
:class:`mmjudge.queries.ChoiceQuery`: ``label_choice``, ``random``), or, for judges that only rate clips
(``video_reward``, ``vlm_digit``), as three clips to rate against "a red clip", "a green clip" and "a blue
clip" (kind :class:`mmjudge.queries.ScoreQuery`), the answer being the best rated choice (a tie for the
best: no answer). The score is the accuracy with its Wilson interval. Everything a benchmark is fits in
this one module: scorer and result keys, raw-release builder and sample writer, queries, prediction
records, leaderboard view and figure. It uses only mmjudge's public names, and no judge names it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa

from mmjudge.benchmarks import (
    Benchmark,
    Column,
    DataSpec,
    LeaderboardSpec,
    MetricSpec,
    Presenters,
    QuerySource,
    RecordSpec,
    ResultKey,
    View,
)
from mmjudge.data import BuiltConfig, BuiltDataset, RawSource
from mmjudge.media.encode import write_video
from mmjudge.queries import ChoiceQuery, LabelPrompt, Query, ScoreQuery, Verdict, choice_letters
from mmjudge.stats import wilson_interval

COLOURS = {"A": ("red", (220, 30, 30)), "B": ("green", (30, 200, 60)), "C": ("blue", (40, 60, 220))}
"""Answer letter -> colour name and its RGB."""
CHOICES = tuple(f"({letter}) {name}" for letter, (name, _) in COLOURS.items())


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
    """The raw release: one JSON list of questions and a clip per question (8 frames of its colour)."""
    raw_dir = Path(raw_dir)
    raw_dir.mkdir(parents=True, exist_ok=True)
    n = {"small": 9, "medium": 30}[size]
    rng = np.random.default_rng(seed)
    questions = []
    for k in range(n):
        answer = "ABC"[(k + seed) % 3]
        noise = rng.integers(-20, 21, (8, 32, 32, 3))
        frames = np.clip(np.asarray(COLOURS[answer][1]) + noise, 0, 255).astype(np.uint8)
        write_video(raw_dir / "clips" / f"toy_{k:03d}.mp4", frames, fps=8)
        questions.append({"id": f"toy_{k:03d}", "question": "Which colour is this clip?", "answer": answer,
                          "clip": f"clips/toy_{k:03d}.mp4"})  # fmt: skip
    path = raw_dir / "questions.json"
    path.write_text(json.dumps(questions), encoding="utf-8")
    return RawSource(path, None, {})


CARD = """---
license: apache-2.0
pretty_name: Toy colours
task_categories:
- video-classification
---
# Toy colours

Which colour is a short clip? ${total_rows} questions.

${configs_table}

${features}

${media_note}
"""
"""The dataset card template (a package of its own would ship it as data, read by ``read_template``)."""

def build_tables(source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False) -> BuiltDataset:
    """One config, ``all``, with the questions; the clips are copied under ``media/``."""
    rows = json.loads(Path(source).read_text(encoding="utf-8"))
    table = pa.table({**{k: [str(r[k]) for r in rows] for k in ("id", "question", "answer")},
                      "video_path": [f"media/{r['clip']}" for r in rows]})  # fmt: skip
    media = {f"media/{r['clip']}": Path(source).parent / r["clip"] for r in rows}
    configs = [BuiltConfig("all", {"test": table}, "every question")]
    return BuiltDataset("toy", configs, media_files=media, card_template=CARD)


@dataclass(frozen=True)
class ToyQuestion(ChoiceQuery):
    """The question about one clip, answered with a letter."""

    item_id: str
    video: Path | None
    question: str
    choices: tuple[str, ...]
    audio = None
    image = None
    keeps_text: ClassVar[bool] = True  # the scorer reads the letter in the reply

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(choice_letters(self.choices))

    def prompt(self, *, seed: int = 0) -> LabelPrompt:
        return LabelPrompt(self.free_prompt() + "\nAnswer with a letter.", self.labels)

    def free_prompt(self, *, seed: int = 0) -> str:
        return " ".join([self.question, *self.choices])

    def parse(self, text: str) -> str | None:
        letter = text.strip().upper()[:1]
        return letter if letter in self.labels else None


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """A question per row, or, for a judge that rates clips, the clip under each choice's caption."""
    clips = {str(r["id"]): source.media_dir / str(r["video_path"]) for r in rows}
    if source.kind is ChoiceQuery:
        return [ToyQuestion(i, clip, "Which colour is this clip?", CHOICES) for i, clip in clips.items()]
    return [ScoreQuery(f"{i}::{letter}", clip, f"a {name} clip") for i, clip in clips.items()
            for letter, (name, _) in COLOURS.items()]  # fmt: skip


def _rating(verdict: Verdict) -> float | None:
    value = verdict.value
    if verdict.no_judgment or value is None:
        return None
    return float(value["overall"]) if isinstance(value, dict) else float(value)  # type: ignore[arg-type]


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per question: the letter a choice judge gave, or the best rated caption's letter."""
    by_id = {v.item_id: v for v in verdicts}
    out = []
    for row in rows:
        key = str(row["id"])
        if key in by_id:  # asked as a choice
            out.append({"id": key, "prediction": by_id[key].value, "no_judgment": by_id[key].no_judgment})
            continue
        ratings = {letter: _rating(by_id[f"{key}::{letter}"]) for letter in COLOURS}
        known = {letter: r for letter, r in ratings.items() if r is not None}
        best = [letter for letter, r in known.items() if r == max(known.values())] if known else []
        answer = best[0] if len(best) == 1 and len(known) == len(ratings) else None
        out.append({"id": key, "prediction": answer, "no_judgment": answer is None})
    return out


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
    data=DataSpec(reference_config="all", build_tables=build_tables, write_raw=write_raw),
    records=RecordSpec(
        unit="questions",
        query_kinds=(ChoiceQuery, ScoreQuery),
        media=frozenset({"video"}),
        build_queries=build_queries,
        records_from_verdicts=records_from_verdicts,
        expected_ids=expected_ids,
        score_inputs=score_inputs,
        value_fields={"prediction": (str,)},
    ),
    metrics=MetricSpec(
        score=score,
        result_keys=RESULT_KEYS,
        headline=("accuracy",),
    ),
    present=Presenters(
        leaderboard=LeaderboardSpec(views=(View("default", (Column("Accuracy", "accuracy"),)),), figure=figure),
    ),
)
