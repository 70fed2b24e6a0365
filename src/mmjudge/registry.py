"""Name -> object registries for benchmarks and judges.

Built-in entries live in modules that are imported on first lookup, so ``import mmjudge`` stays light.
Third-party packages add judges through the entry-point group ``mmjudge.judges``::

    [project.entry-points."mmjudge.judges"]
    my_judge = "my_package.judge:MyJudge"

>>> reg = Registry("widget")
>>> @reg.register("spanner")
... class Spanner: ...
>>> reg.get("spanner").__name__
'Spanner'
>>> reg.get("hammer")
Traceback (most recent call last):
...
mmjudge.errors.UnknownNameError: unknown widget 'hammer'; known widgets: ['spanner']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Any, TypeVar

from mmjudge.errors import UnknownNameError

T = TypeVar("T")

JUDGE_ENTRY_POINT_GROUP = "mmjudge.judges"


class Registry:
    """A registry of named objects with lazily imported built-ins and optional entry points.

    Args:
        kind: what is registered, for messages (``"benchmark"``, ``"judge"``).
        builtin_modules: name -> module that registers that name when imported.
        entry_point_group: importlib.metadata group scanned for third-party entries.
    """

    def __init__(
        self,
        kind: str,
        builtin_modules: Mapping[str, str] | None = None,
        entry_point_group: str | None = None,
    ) -> None:
        self.kind = kind
        self._builtin_modules = dict(builtin_modules or {})
        self._entry_point_group = entry_point_group
        self._entries: dict[str, Any] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator registering the decorated object under ``name``."""

        def decorator(obj: T) -> T:
            existing = self._entries.get(name)
            if existing is not None and existing is not obj:
                raise ValueError(f"{self.kind} {name!r} is already registered to {existing!r}")
            self._entries[name] = obj
            return obj

        return decorator

    def get(self, name: str) -> Any:
        """Return the object registered as ``name``, importing its module if needed."""
        if name not in self._entries:
            self._load_builtin(name)
        if name not in self._entries:
            self._load_entry_point(name)
        if name not in self._entries:
            raise UnknownNameError(f"unknown {self.kind} {name!r}; known {self.kind}s: {self.names()}")
        return self._entries[name]

    def names(self) -> list[str]:
        """All known names: registered, built-in and from entry points, sorted."""
        names = set(self._entries) | set(self._builtin_modules) | set(self._entry_point_names())
        return sorted(names)

    def _load_builtin(self, name: str) -> None:
        module = self._builtin_modules.get(name)
        if module is not None:
            importlib.import_module(module)

    def _entry_point_names(self) -> list[str]:
        if self._entry_point_group is None:
            return []
        return [ep.name for ep in metadata.entry_points(group=self._entry_point_group)]

    def _load_entry_point(self, name: str) -> None:
        if self._entry_point_group is None:
            return
        for ep in metadata.entry_points(group=self._entry_point_group):
            if ep.name == name:
                self._entries[name] = ep.load()
                return


BENCHMARKS = Registry(
    "benchmark",
    builtin_modules={
        "isovrbench": "mmjudge.benchmarks.isovrbench",
        "mist": "mmjudge.benchmarks.mist",
        "emoprefer": "mmjudge.benchmarks.emoprefer",
        "emorealm": "mmjudge.benchmarks.emorealm",
    },
)
JUDGES = Registry(
    "judge",
    builtin_modules={
        "audio_visual": "mmjudge.judges.audio_visual",
        "clip_score": "mmjudge.judges.clip_score",
        "constant": "mmjudge.judges.constant",
        "frame_smoothness": "mmjudge.judges.frame_smoothness",
        "label_choice": "mmjudge.judges.label_choice",
        "openai_compatible": "mmjudge.judges.openai_compatible",
        "pairwise_describe": "mmjudge.judges.pairwise_describe",
        "random": "mmjudge.judges.random_judge",
        "sharpness": "mmjudge.judges.sharpness",
        "video_reward": "mmjudge.judges.video_reward",
        "vlm_digit": "mmjudge.judges.vlm_digit",
    },
    entry_point_group=JUDGE_ENTRY_POINT_GROUP,
)


def register_benchmark(name: str) -> Callable[[T], T]:
    """Register a benchmark object under its id (one of :data:`mmjudge.BENCHMARK_IDS`)."""
    return BENCHMARKS.register(name)


def register_judge(name: str) -> Callable[[T], T]:
    """Register a judge class or factory under ``name``."""
    return JUDGES.register(name)


def get_benchmark(name: str) -> Any:
    """Look up a benchmark by id; an unknown id raises :class:`UnknownNameError` listing the known ones."""
    return BENCHMARKS.get(name)


def get_judge(name: str) -> Any:
    """Look up a judge by name, including judges registered by other packages' entry points."""
    return JUDGES.get(name)
