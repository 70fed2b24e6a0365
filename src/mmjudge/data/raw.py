"""Sample raw releases: small, deterministic files in each benchmark's real raw format.

Each benchmark defines ``write_raw(raw_dir, *, size="small", seed=0) -> RawSource``
(``Benchmark.data.write_raw``); :func:`mmjudge.benchmarks.build_dataset` then builds them exactly like
a real release.

>>> RawSource(Path("raw/bench"), None, {}).media_root is None
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["RawSource"]


class RawSource(NamedTuple):
    """Where a sample writer put a raw release, in the form :func:`~mmjudge.benchmarks.build_dataset` takes."""

    source: Path
    """The ``source`` argument of ``build_dataset`` (a file or a folder, per benchmark)."""
    media_root: Path | None
    """The ``media_root`` argument (gated media live outside the built folder), or ``None``."""
    options: dict[str, Any]
    """Extra keyword options for ``build_dataset`` (benchmark-specific; empty when none)."""
