"""Lazy imports of optional dependencies, with an error that names the install command."""

from __future__ import annotations

import importlib
from types import ModuleType

from mmjudge.errors import MissingDependencyError


def require(module: str, extra: str, *, purpose: str = "") -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` naming the extra to install.

    Args:
        module: the importable module name, e.g. ``"av"``.
        extra: the mmjudge extra that provides it, e.g. ``"video"``.
        purpose: what needs it, for the message.

    >>> require("json", "dev").__name__
    'json'
    >>> require("no_such_module_xyz", "video", purpose="decoding video")
    Traceback (most recent call last):
    ...
    mmjudge.errors.MissingDependencyError: decoding video requires the optional dependency 'no_such_module_xyz', which is not installed. Install with: pip install 'mmjudge[video]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        what = purpose or f"this feature of mmjudge[{extra}]"
        raise MissingDependencyError(
            f"{what} requires the optional dependency {module!r}, which is not installed. "
            f"Install with: pip install 'mmjudge[{extra}]'"
        ) from exc


def scipy_stats() -> ModuleType:
    """``scipy.stats``, imported on first use (it lives in the ``metrics`` extra)."""
    return require("scipy.stats", "metrics", purpose="mmjudge.stats")
