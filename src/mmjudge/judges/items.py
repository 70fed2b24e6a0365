"""From a built benchmark folder to judge items, and from verdicts to prediction records.

The canonical item list (:func:`build_items`) depends only on the dataset and the options, so every
rank of a distributed run builds the same list in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.data.media_paths import resolve_media
from mmjudge.errors import SchemaError
from mmjudge.judges._types import ClipItem, Item, LabelItem, PreferenceItem, QuestionItem, Verdict
from mmjudge.predictions import MIST_CELLS, MIST_STRATEGIES  # the grid a prediction file must cover

DIMENSION_HEADS: dict[str, str] = {"motion": "MQ", "text": "TA", "visual": "VQ", "overall": "overall"}
"""Which per-dimension score an IsoVRBench pair of each dimension uses (VideoReward heads)."""

Rows = Sequence[Mapping[str, Any]]


def build_items(
    benchmark: str,
    data_dir: str | Path,
    *,
    media_root: str | Path | None = None,
    swap: bool = False,
    strategies: Sequence[str] = MIST_STRATEGIES,
) -> tuple[list[Item], list[dict[str, Any]]]:
    """The canonical judge items of a built folder and its reference rows.

    Args:
        benchmark: benchmark id.
        data_dir: a folder built by ``mmjudge build-dataset`` / ``mmjudge sample-data``.
        media_root: root of gated media (EmoPrefer's MER2025, EmoReAlM's DFEW); defaults to ``data_dir``.
        swap: EmoPrefer: also judge every pair with a1/a2 swapped (``name::reversed`` items).
        strategies: MIST prompt strategies to include.

    Returns:
        ``(items, reference_rows)``.
    """
    from mmjudge.scoring import load_reference_rows, load_rows

    data_dir = Path(data_dir)
    root = Path(media_root) if media_root is not None else data_dir
    rows = load_reference_rows(benchmark, data_dir)
    if benchmark == "isovrbench":
        clips = load_rows(data_dir, "clips")
        return [_clip(r, root) for r in clips], rows
    if benchmark == "mist":
        return [item for r in rows for item in _mist_cells(r, data_dir, strategies)], rows
    if benchmark == "emoprefer":
        items: list[Item] = [_preference(r, root, "forward") for r in rows]
        if swap:
            items += [_preference(r, root, "reversed") for r in rows]
        return items, rows
    if benchmark == "emorealm":
        return [_question(r, root) for r in rows], rows
    raise SchemaError(f"unknown benchmark {benchmark!r}")


def _resolve(relpath: str | None, root: Path) -> Path | None:
    return resolve_media(relpath, root) if relpath else None


def _clip(row: Mapping[str, Any], root: Path) -> ClipItem:
    video = resolve_media(row["video_path"], root)
    return ClipItem(item_id=str(row["clip_id"]), video=video, prompt=str(row["prompt"]))


def _mist_cells(row: Mapping[str, Any], data_dir: Path, strategies: Sequence[str]) -> list[LabelItem]:
    images = {"none": None, "aligned": row["aligned_image"], "misleading": row["misleading_image"]}
    return [
        LabelItem(
            item_id=f"{row['item_id']}::{strategy}::{arm}::{condition}",
            mist_item=str(row["item_id"]),
            sentence=str(row["sentence"]),
            compound=str(row["compound"]),
            image=_resolve(images[condition], data_dir),
            prompt_strategy=strategy,
            arm=arm,
            image_condition=condition,
        )
        for strategy in strategies
        for condition, arm in MIST_CELLS
    ]


def _preference(row: Mapping[str, Any], root: Path, order: str) -> PreferenceItem:
    a1, a2 = (row["a1"], row["a2"]) if order == "forward" else (row["a2"], row["a1"])
    name = str(row["name"])
    return PreferenceItem(
        item_id=name if order == "forward" else f"{name}::reversed",
        name=name,
        video=_resolve(row.get("video_path"), root),
        audio=_resolve(row.get("audio_path"), root),
        a1=str(a1),
        a2=str(a2),
        order=order,
    )


def _question(row: Mapping[str, Any], root: Path) -> QuestionItem:
    return QuestionItem(
        item_id=str(row["id"]),
        video=_resolve(row.get("video_path"), root),
        audio=_resolve(row.get("audio_path"), root),
        question=str(row["question"]),
        choices=tuple(row["choices"]),
        task=str(row["task"]),
    )


def records_from_verdicts(
    benchmark: str, items: Sequence[Item], verdicts: Sequence[Verdict], rows: Rows
) -> list[dict[str, Any]]:
    """Prediction records (see :mod:`mmjudge.predictions`) in canonical order."""
    by_id = {v.item_id: v for v in verdicts}
    if benchmark == "isovrbench":
        return [_pair_record(row, by_id) for row in rows]
    return [_item_record(item, by_id[item.item_id]) for item in items]


def _pair_record(row: Mapping[str, Any], by_id: Mapping[str, Verdict]) -> dict[str, Any]:
    chosen, rejected = by_id[str(row["clip_id_chosen"])], by_id[str(row["clip_id_rejected"])]
    record: dict[str, Any] = {"id": str(row["pair_id"])}
    failed = [v for v in (chosen, rejected) if v.no_judgment]
    if failed:
        record.update(score_chosen=None, score_rejected=None, no_judgment=True, error=failed[0].error)
        return record
    head = DIMENSION_HEADS.get(str(row.get("dimension") or "overall"), "overall")
    record.update(score_chosen=_head(chosen.value, head), score_rejected=_head(rejected.value, head))
    record["no_judgment"] = False
    return record


def _head(value: Any, head: str) -> float:
    if isinstance(value, dict):
        return float(value[head] if head in value else value["overall"])
    return float(value)


def _item_record(item: Item, verdict: Verdict) -> dict[str, Any]:
    record: dict[str, Any] = {"id": item.item_id}
    if isinstance(item, LabelItem):
        record.update(
            item_id=item.mist_item,
            prompt_strategy=item.prompt_strategy,
            arm=item.arm,
            image_condition=item.image_condition,
            label=verdict.value,
        )
    elif isinstance(item, PreferenceItem):
        record.update(name=item.name, order=item.order, prediction=verdict.value)
    else:
        record["prediction"] = verdict.value
    record["no_judgment"] = verdict.no_judgment
    if verdict.error:
        record["error"] = verdict.error
    return record
