"""Sample data: raw files in each benchmark's real release format, then built.

:func:`write_samples` calls each benchmark's ``write_raw`` (writing ``out/raw/<id>/``), builds each raw
release with :func:`mmjudge.data.build.build_folder` exactly as a real one (``out/<id>/``, a Hub-ready
folder), adds a "Sample data" section to each card saying what is
synthetic (with the writer's ``card_notes`` when the card template has no place for them), and
writes ``out/sample_summary.json``. The same arguments write the same files.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mmjudge.errors import ConfigError

__all__ = ["SIZES", "SampleWriter", "write_samples"]

logger = logging.getLogger(__name__)

SIZES = ("small", "medium")
"""Sample sizes every ``write_raw`` accepts; ``small`` is the default of tests and ``make demo``."""

_SUMMARY = "sample_summary.json"


SampleWriter = tuple[Callable[..., Any], Callable[..., Any]]
"""A benchmark's ``(write_raw, build_tables)``: the sample writer and the raw-release builder."""


def write_samples(
    out: str | Path,
    writers: Mapping[str, SampleWriter],
    *,
    size: str = "small",
    seed: int = 0,
    overwrite: bool = False,
) -> dict[str, Path]:
    """Write the sample raw release of each benchmark in ``writers`` and build it into a Hub-ready folder.

    Args:
        out: output folder; gets ``raw/<id>/``, ``<id>/`` per benchmark and ``sample_summary.json``.
        writers: benchmark id -> ``(write_raw, build_tables)``, in the order to write them.
        size: ``"small"`` (seconds, a few MB) or ``"medium"``.
        seed: seeds every sample writer.
        overwrite: replace existing ``raw/<id>`` and ``<id>`` folders; otherwise they must not exist.

    Returns:
        Benchmark id -> built folder (load it with ``datasets.load_dataset(str(folder), config)``).

    >>> write_samples("/tmp/nowhere", {}, size="huge")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: unknown sample size 'huge'; expected one of ('small', 'medium')
    """
    if size not in SIZES:
        raise ConfigError(f"unknown sample size {size!r}; expected one of {SIZES}")
    ids = list(writers)
    out = Path(out)
    _prepare(out, ids, overwrite)
    folders: dict[str, Path] = {}
    summary: dict[str, Any] = {"size": size, "seed": seed, "benchmarks": {}}
    for benchmark in ids:
        folders[benchmark], summary["benchmarks"][benchmark] = _write_one(
            out, benchmark, writers[benchmark], size, seed
        )
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


def _write_one(
    out: Path, benchmark: str, writer: SampleWriter, size: str, seed: int
) -> tuple[Path, dict[str, Any]]:
    from mmjudge.data.build import build_folder

    write_raw, build_tables = writer
    started = time.perf_counter()
    logger.info("%s: writing the raw sample (%s)", benchmark, size)
    raw = write_raw(out / "raw" / benchmark, size=size, seed=seed)
    logger.info("%s: building %s from %s", benchmark, out / benchmark, raw.source)
    folder = build_folder(
        benchmark, build_tables, raw.source, out / benchmark, media_root=raw.media_root, **raw.options
    )
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
