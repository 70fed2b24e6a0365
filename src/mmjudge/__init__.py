"""mmjudge: measure multimodal judges on IsoVRBench, MIST, EmoPrefer-Data and EmoReAlM.

Importing the package is light: torch, transformers, datasets and gradio are imported only by the
functions that need them.

>>> import mmjudge
>>> from mmjudge.benchmarks import benchmark_ids
>>> mmjudge.BENCHMARK_IDS == benchmark_ids()
True
"""

from typing import Any

from mmjudge._version import __version__
from mmjudge.errors import (
    ConfigError,
    MediaError,
    MissingDependencyError,
    MissingFileError,
    MmjudgeError,
    SchemaError,
    UnknownNameError,
)


def __getattr__(name: str) -> Any:
    """``BENCHMARK_IDS``: every registered benchmark id in the canonical order (asked of the registry)."""
    if name == "BENCHMARK_IDS":
        from mmjudge.benchmarks import benchmark_ids

        return benchmark_ids()
    raise AttributeError(f"module 'mmjudge' has no attribute {name!r}")

__all__ = [
    "BENCHMARK_IDS",
    "ConfigError",
    "MediaError",
    "MissingDependencyError",
    "MissingFileError",
    "MmjudgeError",
    "SchemaError",
    "UnknownNameError",
    "__version__",
]
