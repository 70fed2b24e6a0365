"""Checking a YAML mapping against a dataclass's annotations (the generation config's validation).

Each key must be a field; each value must match the field's annotation (``int``, ``float`` (ints
accepted), ``str``, ``bool``, ``list[T]``, ``dict``, unions, ``None``, another dataclass instance);
missing required fields are refused. Messages name the key path (``generators.wan.dtype``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from mmjudge.errors import ConfigError

__all__ = ["typed", "typed_value"]


def typed(cls: type, data: Any, where: str) -> Any:
    """An instance of dataclass ``cls`` from a mapping, each key checked against its annotation.

    >>> from mmjudge.benchmarks.isovrbench.generate._config import ClipSpec
    >>> typed(ClipSpec, {"num_frames": 17, "fps": 8}, "clip")
    ClipSpec(height=480, width=832, num_frames=17, fps=8.0)
    >>> typed(ClipSpec, {"frames": 17}, "clip")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: clip: unknown key 'frames'; known keys: ['fps', 'height', 'num_frames', 'width']
    """
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: expected a mapping, got {type(data).__name__} {data!r}")
    hints = typing.get_type_hints(cls)
    for key, value in data.items():
        if key not in hints:
            raise ConfigError(f"{where}: unknown key {key!r}; known keys: {sorted(hints)}")
        typed_value(value, hints[key], f"{where}.{key}")
    missing = [
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in data
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise ConfigError(f"{where}: missing required keys {missing}")
    values = {k: (float(v) if hints[k] is float else v) for k, v in data.items()}
    return cls(**values)


def typed_value(value: Any, hint: Any, where: str) -> Any:
    """``value`` when it matches the annotation ``hint``, else a :class:`ConfigError` naming ``where``.

    >>> typed_value([8, 12], list[int], "keyframes")
    [8, 12]
    >>> typed_value([8, "12"], list[int], "keyframes")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: keyframes expects a list of int, got list [8, '12']
    """
    if not _matches(value, hint):
        raise ConfigError(f"{where} expects {_describe(hint)}, got {type(value).__name__} {value!r}")
    return value


def _matches(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is Any:
        return True
    if origin is dict:
        return isinstance(value, dict)
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return "null"
    if origin is list:
        return f"a list of {_describe(typing.get_args(hint)[0])}"
    return getattr(origin or hint, "__name__", str(hint))
