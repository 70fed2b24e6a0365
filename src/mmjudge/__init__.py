"""mmjudge: measure multimodal judges on IsoVRBench, MIST, EmoPrefer-Data and EmoReAlM.

Importing the package is light: torch, transformers, datasets and gradio are imported only by the
functions that need them.

>>> import mmjudge
>>> mmjudge.BENCHMARK_IDS
('isovrbench', 'mist', 'emoprefer', 'emorealm')
"""

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

BENCHMARK_IDS: tuple[str, ...] = ("isovrbench", "mist", "emoprefer", "emorealm")
"""The four benchmark ids; the one spelling used for folders, registry keys and prediction files."""

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
