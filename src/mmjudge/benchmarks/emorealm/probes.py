"""EmoReAlM robustness probe: modality ablation (audio removed, video removed), per task.

Each question is judged again twice: without its audio (no wav, and the video's own audio track is
not decoded either) and without its video (the wav only). Correctness follows the official matcher,
a missing answer counted wrong (the benchmark's ``strict`` mode); the drop is full minus ablated
accuracy, in points, pooled over questions and per task, with a paired bootstrap interval over questions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mmjudge.benchmarks._probes import Effect, Probe, ProbeData, ProbeOutcome, Variant
from mmjudge.benchmarks.emorealm.queries import EmoRealmQuestion
from mmjudge.benchmarks.emorealm.scoring import is_correct
from mmjudge.queries import Query, Verdict
from mmjudge.stats import paired_bootstrap_diff

__all__ = ["PROBES", "AblatedQuestion"]

REMOVALS: tuple[str, ...] = ("audio", "video")
"""The modalities removed, one variant each."""


@dataclass(frozen=True)
class AblatedQuestion(EmoRealmQuestion):
    """A question with one modality removed (its own item id: ``<id>::no_<modality>``)."""

    removed: str = "audio"
    """``audio`` or ``video``."""

    @property
    def audio_from_video(self) -> bool:  # type: ignore[override]
        """An audio-removed question gets no audio track from its video either."""
        return self.removed != "audio"


def _variants(rows: Sequence[Mapping[str, Any]], queries: Sequence[Query]) -> list[Variant]:
    out = []
    for removed in REMOVALS:
        for item in queries:
            assert isinstance(item, EmoRealmQuestion)
            fields = {"audio": None} if removed == "audio" else {"video": None}
            base = {f: getattr(item, f) for f in ("item_id", "video", "audio", "question", "choices", "task")}
            ablated = AblatedQuestion(
                **{**base, **fields, "item_id": f"{item.item_id}::no_{removed}"}, removed=removed
            )
            out.append(Variant(ablated, item.item_id, {"removed": removed}))
    return out


def _correct(verdict: Verdict, row: Mapping[str, Any]) -> float:
    if verdict.no_judgment or verdict.value is None:
        return 0.0
    return 100.0 * is_correct(str(verdict.value), str(row["answer"]))


def _drop(name: str, what: str, full: list[float], ablated: list[float], seed: int) -> Effect:
    """Accuracy with all media minus without one, paired bootstrap over the questions."""

    description = f"accuracy with all media minus with the {what} removed (points; {len(full)} questions)"
    if not full:
        return Effect(name, None, "points", 0, description, note="no question")
    diff = paired_bootstrap_diff(full, ablated, seed=seed)
    return Effect(name, diff.estimate, "points", len(full), description, diff.low, diff.high, "paired bootstrap",
                  p_value=diff.p_value)  # fmt: skip


def _measure(data: ProbeData) -> ProbeOutcome:
    rows = {str(r["id"]): r for r in data.rows}
    full = {i: _correct(data.verdicts[i], r) for i, r in rows.items()}
    tasks = sorted({str(r["task"]) for r in rows.values()})
    effects: list[Effect] = []
    per_task: dict[str, dict[str, float]] = {t: {} for t in tasks}
    for removed in REMOVALS:
        ablated = {v.source: _correct(data.variant_verdicts[v.query.item_id], rows[v.source])
                   for v in data.variants if v.change["removed"] == removed}  # fmt: skip
        ids = list(ablated)
        pooled = _drop(f"drop_without_{removed}", removed, [full[i] for i in ids], [ablated[i] for i in ids], data.seed)
        effects.append(pooled)
        for task in tasks:
            mine = [i for i in ids if rows[i]["task"] == task]
            effects.append(_drop(f"drop_without_{removed}/{task}", f"{removed} ({task})", [full[i] for i in mine],
                                 [ablated[i] for i in mine], data.seed))  # fmt: skip
            if mine:
                per_task[task]["full"] = sum(full[i] for i in mine) / len(mine)
                per_task[task][f"no_{removed}"] = sum(ablated[i] for i in mine) / len(mine)
    # the headline pair first (audio, video pooled), then the per-task drops
    effects.sort(key=lambda e: "/" in e.name)
    return ProbeOutcome(tuple(effects), {"accuracy_per_task": per_task, "matcher": "official, missing counted wrong"})


PROBES: tuple[Probe, ...] = (
    Probe(
        "modality_ablation", "Modality ablation",
        "Every question judged again with its audio removed and with its video removed; the accuracy drop "
        "(points, paired bootstrap) shows which modality the judge uses, per task in the details.",
        _measure, _variants,
    ),
)  # fmt: skip
"""EmoReAlM's probes."""
