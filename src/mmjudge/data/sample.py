"""Sample data for all four benchmarks: raw files in each real release format, then built.

:func:`write_sample_data` calls ``mmjudge.data.samples.<id>.write_raw`` for each benchmark (writing
``out/raw/<id>/``), builds each raw release with :func:`mmjudge.data.build_dataset` exactly as a real
one (``out/<id>/``, a Hub-ready folder), adds a "Sample data" section to each card saying what is
synthetic (with the writer's ``card_notes`` when the card template has no place for them), and
writes ``out/sample_summary.json``. The same arguments write the same files.
"""

from __future__ import annotations

import importlib
import json
import logging
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mmjudge.errors import ConfigError

__all__ = ["SIZES", "write_sample_data"]

logger = logging.getLogger(__name__)

SIZES = ("small", "medium")
"""Sample sizes every ``write_raw`` accepts; ``small`` is the default of tests and ``make demo``."""

_SUMMARY = "sample_summary.json"


def write_sample_data(
    out: str | Path,
    *,
    size: str = "small",
    seed: int = 0,
    benchmarks: Sequence[str] | None = None,
    overwrite: bool = False,
) -> dict[str, Path]:
    """Write the sample raw releases of the benchmarks and build each into a Hub-ready folder.

    Args:
        out: output folder; gets ``raw/<id>/``, ``<id>/`` per benchmark and ``sample_summary.json``.
        size: ``"small"`` (seconds, a few MB) or ``"medium"``.
        seed: seeds every sample writer.
        benchmarks: ids to write (default: all four, in :data:`mmjudge.BENCHMARK_IDS` order).
        overwrite: replace existing ``raw/<id>`` and ``<id>`` folders; otherwise they must not exist.

    Returns:
        Benchmark id -> built folder (load it with ``datasets.load_dataset(str(folder), config)``).

    >>> write_sample_data("/tmp/nowhere", size="huge")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: unknown sample size 'huge'; expected one of ('small', 'medium')
    """
    from mmjudge import BENCHMARK_IDS

    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}; expected one of {SIZES}")
    ids = list(BENCHMARK_IDS if benchmarks is None else benchmarks)
    unknown = [b for b in ids if b not in BENCHMARK_IDS]
    if unknown:
        raise ConfigError(f"unknown benchmark ids {unknown}; expected some of {BENCHMARK_IDS}")
    out = Path(out)
    _prepare(out, ids, overwrite)
    folders: dict[str, Path] = {}
    summary: dict[str, Any] = {"size": size, "seed": seed, "benchmarks": {}}
    for benchmark in ids:
        folders[benchmark], summary["benchmarks"][benchmark] = _write_one(out, benchmark, size, seed)
    (out / _SUMMARY).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    total = sum(b["bytes"] for b in summary["benchmarks"].values())
    logger.info("sample data (%s) written to %s: %.1f MB in all", size, out, total / 1e6)
    return folders


def _prepare(out: Path, ids: Sequence[str], overwrite: bool) -> None:
    existing = [p for b in ids for p in (out / "raw" / b, out / b) if p.exists()]
    if existing and not overwrite:
        raise ConfigError(
            f"sample folders already exist: {[str(p) for p in existing]}; choose a new --out or pass --overwrite"
        )
    for path in existing:
        shutil.rmtree(path)
    out.mkdir(parents=True, exist_ok=True)


def _write_one(out: Path, benchmark: str, size: str, seed: int) -> tuple[Path, dict[str, Any]]:
    from mmjudge.data.build import build_dataset

    started = time.perf_counter()
    module = importlib.import_module(f"mmjudge.data.samples.{benchmark}")
    logger.info("%s: writing the raw sample (%s)", benchmark, size)
    raw = module.write_raw(out / "raw" / benchmark, size=size, seed=seed)
    logger.info("%s: building %s from %s", benchmark, out / benchmark, raw.source)
    folder = build_dataset(benchmark, raw.source, out / benchmark, media_root=raw.media_root, **raw.options)
    _append_card_note(folder / "README.md", benchmark, size, seed, str(raw.options.get("card_notes", "")))
    seconds = time.perf_counter() - started
    info: dict[str, Any] = {
        "folder": folder.name,
        "raw": (out / "raw" / benchmark).relative_to(out).as_posix(),
        "bytes": _size(folder) + _size(out / "raw" / benchmark),
        "seconds": round(seconds, 2),
    }
    logger.info("%s: done in %.1f s, %.2f MB (raw + built)", benchmark, seconds, info["bytes"] / 1e6)
    return folder, info


def _append_card_note(card: Path, benchmark: str, size: str, seed: int, notes: str) -> None:
    """Add a "Sample data" section; it repeats the writer's ``card_notes`` if the template dropped them."""
    text = card.read_text(encoding="utf-8").rstrip("\n")
    section = (
        "\n\n## Sample data\n\n"
        f"This folder holds the **synthetic {size} sample** of {benchmark}, written by "
        f"`mmjudge sample-data --size {size}` (seed {seed}) in the real raw release format and built by "
        "the same code as the real data. It exercises loading, judging and scoring; its numbers say "
        "nothing about any model.\n"
    )
    if notes.strip() and notes.strip() not in text:
        section += f"\n{notes.strip()}\n"
    card.write_text(text + section, encoding="utf-8")


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
