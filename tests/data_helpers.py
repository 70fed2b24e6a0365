"""Plain helpers shared by the data tests (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

CARD = "---\nlicense: apache-2.0\npretty_name: Test\n---\n# ${benchmark}\n\n${configs_table}\n\n${features}\n"
"""A minimal card template for folders written from hand-made ``BuiltDataset`` values."""


def write_csv(path: Path, rows: list[dict[str, Any]], fields: list[str] | None = None) -> Path:
    """Write rows as a UTF-8 CSV (header from the first row unless ``fields``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields or list(rows[0]), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def leftovers(parent: Path, name: str) -> list[str]:
    """Entries of ``parent`` left by a build of ``name`` (the folder or its staging folders)."""
    return sorted(p.name for p in parent.iterdir() if p.name == name or p.name.startswith(f".{name}."))
