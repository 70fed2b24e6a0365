"""A generic name -> object registry over lazily imported built-ins and an entry-point group.

The typed registries live with what they register: :data:`mmjudge.benchmarks.BENCHMARKS`
(``Registry[Benchmark]``, group ``mmjudge.benchmarks``) and :data:`mmjudge.judges.JUDGES`
(``Registry[type[Judge]]``, group ``mmjudge.judges``). Built-ins are known as ``"module:attribute"``
strings (or a module that registers its entries when imported) and imported on first lookup, so
``import mmjudge`` stays light; other packages add entries through the entry-point group::

    [project.entry-points."mmjudge.benchmarks"]
    my_benchmark = "my_package.benchmark:BENCHMARK"

>>> reg: Registry[type] = Registry("widget")
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
import sys
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Generic, TypeVar

from mmjudge.errors import UnknownNameError

__all__ = ["BENCHMARK_ENTRY_POINT_GROUP", "FAMILY_ENTRY_POINT_GROUP", "JUDGE_ENTRY_POINT_GROUP", "Registry"]

T = TypeVar("T")
U = TypeVar("U")

BENCHMARK_ENTRY_POINT_GROUP = "mmjudge.benchmarks"
"""Entry-point group of benchmarks: ``name = "module:attribute"`` naming a ``Benchmark`` object."""
JUDGE_ENTRY_POINT_GROUP = "mmjudge.judges"
"""Entry-point group of judges: ``name = "module:attribute"`` naming a ``Judge`` subclass."""
FAMILY_ENTRY_POINT_GROUP = "mmjudge.families"
"""Entry-point group of model families: ``name = "module:attribute"`` naming a ``ModelFamily``."""


class Registry(Generic[T]):
    """Registered objects of one kind, by name, with lazily imported built-ins and entry points.

    Args:
        kind: what is registered, for messages (``"benchmark"``, ``"judge"``).
        builtin_modules: name -> ``"module:attribute"`` (the object) or ``"module"`` (a module that
            registers the name when imported), in the order :meth:`names` lists them.
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
        self._entries: dict[str, T] = {}
        self._scanned: tuple[tuple[str, ...], dict[str, metadata.EntryPoint]] | None = None

    def register(self, name: str) -> Callable[[U], U]:
        """Decorator registering the decorated object under ``name``."""

        def decorator(obj: U) -> U:
            existing = self._entries.get(name)
            if existing is not None and existing is not obj:
                raise ValueError(f"{self.kind} {name!r} is already registered to {existing!r}")
            self._entries[name] = obj  # type: ignore[assignment]
            return obj

        return decorator

    def get(self, name: str) -> T:
        """Return the object registered as ``name``, importing its module if needed."""
        if name not in self._entries:
            self._load_builtin(name)
        if name not in self._entries:
            self._load_entry_point(name)
        if name not in self._entries:
            raise UnknownNameError(f"unknown {self.kind} {name!r}; known {self.kind}s: {self.names()}")
        return self._entries[name]

    def names(self) -> list[str]:
        """Every known name: built-ins in their order, then entry points and other registrations, sorted."""
        builtins = list(self._builtin_modules)
        others = (set(self._entry_points()) | set(self._entries)) - set(builtins)
        return builtins + sorted(others)

    def _load_builtin(self, name: str) -> None:
        spec = self._builtin_modules.get(name)
        if spec is None:
            return
        module, _, attribute = spec.partition(":")
        imported = importlib.import_module(module)
        if attribute:
            self._entries[name] = getattr(imported, attribute)

    def _entry_points(self) -> dict[str, metadata.EntryPoint]:
        """The group's entry points, scanned again whenever ``sys.path`` changes."""
        if self._entry_point_group is None:
            return {}
        path = tuple(sys.path)
        if self._scanned is None or self._scanned[0] != path:
            found = {ep.name: ep for ep in metadata.entry_points(group=self._entry_point_group)}
            self._scanned = (path, found)
        return self._scanned[1]

    def _load_entry_point(self, name: str) -> None:
        if self._entry_point_group is None:
            return
        for ep in metadata.entry_points(group=self._entry_point_group):
            if ep.name == name:
                self._entries[name] = ep.load()
                return

