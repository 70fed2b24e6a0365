"""``mmjudge info``: version, optional dependencies, benchmarks and judges."""

from __future__ import annotations

import argparse
import importlib.util
from importlib import metadata

NAME = "info"
HELP = "show the mmjudge version, which optional dependencies are installed, and the registered names"

_EXTRAS = {
    "video": ("av", "decord", "soundfile"),
    "judges": ("torch", "torchvision", "transformers", "accelerate"),
    "metrics": ("evaluate", "datasets", "scipy", "sklearn", "statsmodels"),
    "space": ("gradio", "matplotlib"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    """``--coverage``: print the table of the judges the papers evaluate instead."""
    parser.add_argument("--coverage", action="store_true",
                        help="print which judges of the papers' result tables run here, with which config")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from mmjudge._version import __version__
    from mmjudge.benchmarks import BENCHMARKS
    from mmjudge.judges import JUDGES

    if getattr(args, "coverage", False):
        from mmjudge.judges.coverage import coverage_markdown

        print(coverage_markdown(), end="")
        return 0
    print(f"mmjudge {__version__}")
    for extra, modules in _EXTRAS.items():
        states = ", ".join(f"{name} {_version(name)}" for name in modules)
        print(f"  [{extra}] {states}")
    print(f"benchmarks: {', '.join(BENCHMARKS.names())}")
    print(f"judges: {', '.join(JUDGES.names()) or '(none registered)'}")
    return 0


def _version(module: str) -> str:
    if importlib.util.find_spec(module) is None:
        return "missing"
    distribution = {"sklearn": "scikit-learn"}.get(module, module)
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "installed"
