"""What a run leaves behind: ``predictions.jsonl``, ``results.json`` and ``report.md`` per frame setting.

``predictions.jsonl`` carries only deterministic provenance (config, fingerprint, dataset hash,
versions, seeds, frame settings), so the same run on one or several processes writes the same bytes;
timings, dates and process counts go to ``results.json``.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import logging
import math
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge.errors import SchemaError
from mmjudge.judges._config import JudgeConfig, fingerprint

logger = logging.getLogger(__name__)

RESULTS_VERSION = 2
"""Version of the ``results.json`` layout. 2: every rate is a percentage (MIST's were shares in [0, 1]),
every CI key is ``<key>_ci_low``/``<key>_ci_high`` (MIST's were ``<key>/ci_low``), IsoVRBench's pooled
``decided_accuracy`` is ``decided_accuracy_pooled`` beside the new ``decided_average``, and MIST's drift
and alt-test keys follow the paper's breakdown (see the metric cards)."""


@dataclass(frozen=True)
class EvalOutput:
    """The files of one evaluated frame setting."""

    frames: int | None
    """Frame count of a sweep, or ``None``."""
    folder: Path
    """Folder holding the three files."""
    predictions: Path
    """``predictions.jsonl``."""
    results: Path
    """``results.json``."""
    report: Path
    """``report.md``."""
    scores: dict[str, Any]
    """The scores written to ``results.json``."""


def dataset_hash(data_dir: str | Path) -> str:
    """SHA-256 (16 hex digits) of a built folder's card and tables (``README.md``, ``data/**``).

    Media files are not hashed here; the verdict cache hashes each one an item uses.
    """
    root = Path(data_dir)
    digest = hashlib.sha256()
    files = [root / "README.md", *sorted(p for p in (root / "data").rglob("*") if p.is_file())]
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
            with path.open("rb") as handle:
                digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.hexdigest()[:16]


def provenance(
    config: JudgeConfig,
    judge_version: str,
    data_dir: str | Path,
    *,
    sweep: Sequence[int] = (),
    swap: bool = False,
    limit: int | None = None,
) -> dict[str, Any]:
    """Deterministic provenance of a prediction file (no timings, no dates, no paths)."""
    from mmjudge import __version__

    return {
        "judge_config": dataclasses.asdict(config),
        "fingerprint": fingerprint(config, judge_version),
        "judge_version": judge_version,
        "model": config.model,
        "model_revision": config.revision,
        "dataset": {"folder": Path(data_dir).resolve().name, "hash": dataset_hash(data_dir)},
        "mmjudge_version": __version__,
        "seeds": {"judge": config.seed},
        "frames": {
            "frames": config.frames,
            "fps": config.fps,
            "max_pixels": config.max_pixels,
            "sweep": list(sweep),
        },
        "swap": swap,
        "limit": limit,
    }


def reference_rows(benchmark: str, data_dir: str | Path, limit: int | None = None) -> list[dict[str, Any]]:
    """The reference rows a prediction file is scored against (the first ``limit`` when it was limited)."""
    from mmjudge.scoring import load_reference_rows

    rows = load_reference_rows(benchmark, data_dir)
    return rows if limit is None else rows[:limit]


def score_file(
    path: str | Path, data_dir: str | Path, *, benchmark: str | None = None, **options: Any
) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    """Read, validate and score a prediction file; returns ``(prediction_file, rows, scores)``.

    The rows are cut to the header's ``provenance.limit`` when the run was limited; a dataset hash
    differing from the header's is logged as a warning.
    """
    from mmjudge.predictions import read_predictions
    from mmjudge.scoring import score_predictions

    predictions = read_predictions(path, benchmark=benchmark)
    dataset = predictions.header.provenance.get("dataset")
    recorded = dataset.get("hash") if isinstance(dataset, dict) else None
    if recorded and recorded != dataset_hash(data_dir):
        logger.warning(
            "%s was written against dataset hash %s; %s hashes to %s (scoring anyway)",
            path,
            recorded,
            data_dir,
            dataset_hash(data_dir),
        )
    limit = predictions.header.provenance.get("limit")
    if limit is not None and (type(limit) is not int or limit < 1):
        raise SchemaError(f"{path}: provenance.limit must be a positive integer or null, got {limit!r}")
    rows = reference_rows(predictions.header.benchmark, data_dir, limit)
    return predictions, rows, score_predictions(predictions, rows, **options)


def write_results(
    path: Path,
    benchmark: str,
    judge: str,
    scores: Mapping[str, Any],
    provenance_: Mapping[str, Any],
    run: Mapping[str, Any],
) -> Path:
    """Write ``results.json`` (scores, provenance, and run facts such as timings and the date)."""
    payload = {
        "results_version": RESULTS_VERSION,
        "benchmark": benchmark,
        "judge": judge,
        "scores": dict(scores),
        "provenance": dict(provenance_),
        "run": {
            **run,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "python": platform.python_version(),
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps(_finite(payload), indent=2, default=_plain, allow_nan=False)
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def _finite(value: Any) -> Any:
    """NaN and infinities become null (strict JSON)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return _finite(value.item())
    return value


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    return str(value)


__all__ = ["EvalOutput", "dataset_hash", "provenance", "reference_rows", "score_file", "write_results"]
