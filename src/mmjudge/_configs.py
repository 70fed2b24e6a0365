"""Typed configs: pydantic v2 dataclasses that refuse what they do not expect, with mmjudge's own messages.

Every config, header and settings object of mmjudge is a :func:`config_dataclass`: a frozen
``pydantic.dataclasses.dataclass`` in strict mode (no coercion: ``"4"`` is not an ``int``, ``True`` is not
a number; an ``int`` is accepted where a ``float`` is expected) that forbids unknown keys. It stays a
dataclass (``dataclasses.replace``, ``asdict`` and ``fields`` work, and ``replace`` validates again), and
``pydantic.TypeAdapter(cls).json_schema()`` gives its JSON schema. :func:`validated` builds one from a
mapping (a YAML file, a request, the environment) and turns pydantic's errors into one line that says what
was expected, what arrived and where: the same messages for every config.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from mmjudge.errors import ConfigError, MmjudgeError

__all__ = ["config_dataclass", "describe_type", "validated"]

T = TypeVar("T")

STRICT = True
"""Strict mode for every config dataclass: no coercion (unknown keys are always refused)."""


def _config_dataclass(cls: type[T]) -> type[T]:
    """A frozen, strict pydantic dataclass that forbids unknown keys (use it as a class decorator).

    >>> @config_dataclass
    ... class Clip:
    ...     frames: int = 8
    >>> Clip(frames=4).frames
    4
    >>> validated(Clip, {"frames": "4"}, "clip.yaml")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: clip.yaml: key 'frames' expects int, got str '4'
    """
    from pydantic import ConfigDict
    from pydantic.dataclasses import dataclass

    settings = ConfigDict(strict=STRICT, extra="forbid", use_attribute_docstrings=True)  # docstrings: schema text
    made: type[T] = dataclass(frozen=True, config=settings)(cls)  # type: ignore[assignment]
    return made


if TYPE_CHECKING:  # type checkers see a plain dataclass: fields, replace, asdict and the generated __init__
    from dataclasses import dataclass as config_dataclass
else:
    config_dataclass = _config_dataclass


def validated(cls: Callable[..., T], data: Any, source: str, *, error: type[MmjudgeError] = ConfigError) -> T:
    """``cls(**data)`` for a config dataclass ``cls``; any problem raises ``error`` with one line naming
    ``source``: an unknown key (and the known ones), a value of the wrong type (and the expected type), the
    missing required keys, or the message of a check the class makes itself (unchanged).

    >>> @config_dataclass
    ... class Run:
    ...     judge: str
    ...     seed: int = 0
    >>> validated(Run, {"judge": "random", "frame": 8}, "<config>")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: <config>: unknown key 'frame'; known keys: ['judge', 'seed']
    >>> validated(Run, {}, "<config>")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: <config>: missing required keys ['judge']
    """
    from pydantic import ValidationError

    target = _pydantic(cls) if isinstance(cls, type) else cls
    known = _field_names(target)
    if not isinstance(data, Mapping):
        raise error(f"{source}: expected a mapping of keys {sorted(known)}, got {type(data).__name__} {data!r}")
    unknown = [key for key in data if key not in known]
    if unknown:  # before pydantic: a key that is not a string cannot be passed as an argument
        raise error(f"{source}: unknown key {unknown[0]!r}; known keys: {sorted(known)}")
    try:
        made: T = target(**data)
        return made
    except ValidationError as exc:
        raise error(_message(exc, target, data, source)) from None


def _pydantic(cls: type) -> type:
    """``cls`` when it validates itself (a pydantic dataclass or model), else its config dataclass."""
    from pydantic import BaseModel
    from pydantic.dataclasses import is_pydantic_dataclass

    if is_pydantic_dataclass(cls) or issubclass(cls, BaseModel) or not dataclasses.is_dataclass(cls):
        return cls
    return _converted(cls)


@functools.cache
def _converted(cls: type) -> type:
    """A plain dataclass (a plug-in's options) as a config dataclass of its own."""
    return _config_dataclass(type(cls.__name__, (cls,), {"__doc__": cls.__doc__}))


def _field_names(cls: Any) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls) if f.init]
    return list(getattr(cls, "model_fields", {}))


def _hints(cls: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:  # an annotation that cannot be resolved: the messages fall back to pydantic's words
        return {}


def _message(exc: Any, cls: Any, data: Mapping[str, Any], source: str) -> str:
    errors = exc.errors()
    for err in errors:  # a check the class makes itself keeps its own words
        original = (err.get("ctx") or {}).get("error")
        if isinstance(original, MmjudgeError):
            return str(original)
    missing = [str(err["loc"][0]) for err in errors if err["type"] in ("missing", "missing_argument")]
    order = {key: position for position, key in enumerate(data)}
    typed = sorted((e for e in errors if e["loc"] and str(e["loc"][0]) in order), key=lambda e: order[str(e["loc"][0])])
    if typed:  # the key as given, its whole value and the field's type (a list item's error names its list)
        key, kind = str(typed[0]["loc"][0]), typed[0]["type"]
        value, hint = data[key], _hints(cls).get(key)
        got = f"got {type(value).__name__} {value!r}"
        if not (kind.endswith("_type") or kind == "literal_error") and len(typed[0]["loc"]) == 1:  # a constraint
            return f"{source}: key {key!r}: {typed[0]['msg'][:1].lower()}{typed[0]['msg'][1:]}, {got}"
        expected = describe_type(hint) if hint is not None else typed[0]["msg"].lower()
        return f"{source}: key {key!r} expects {expected}, {got}"
    if missing:
        return f"{source}: missing required keys {missing}"
    return f"{source}: {errors[0]['msg']}"


def describe_type(hint: Any) -> str:
    """An annotation in words, for messages.

    >>> describe_type(int | None), describe_type(list[int]), describe_type(dict[str, float])
    ('int or null', 'a list of int', 'dict')
    """
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return "null"
    if origin is list:
        return f"a list of {describe_type(typing.get_args(hint)[0])}"
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    if origin is typing.Annotated:
        return describe_type(typing.get_args(hint)[0])
    return str(getattr(origin or hint, "__name__", hint))
