"""What the ``evaluate`` modules in ``metrics/`` share about their inputs.

``evaluate`` 0.4 checks the *first* value of every string-typed input column with
``Metric._enforce_nested_string_type`` and raises an opaque "inputs don't match the expected format"
error when it is ``None``. A missing prediction is a normal input to mmjudge's scorers (MIST's missing
label, EmoReAlM's missing answer) or one they refuse with a message naming the positions (EmoPrefer,
emotion classification), wherever it sits in the list. :class:`MissingFirstValueAllowed` lets a ``None``
in the first position through evaluate's type check, so the scorer decides about it as it does for any
other position. Every other value is still checked by evaluate.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MissingFirstValueAllowed"]


class MissingFirstValueAllowed:
    """Mixin for an ``evaluate.Metric`` subclass (listed first among its bases).

    >>> class Base:
    ...     def _enforce_nested_string_type(self, schema, obj):
    ...         raise TypeError(f"{obj!r} is not a string")
    >>> class Metric(MissingFirstValueAllowed, Base):
    ...     pass
    >>> Metric()._enforce_nested_string_type("string", None) is None
    True
    >>> Metric()._enforce_nested_string_type("string", 3)
    Traceback (most recent call last):
    TypeError: 3 is not a string
    """

    def _enforce_nested_string_type(self, schema: Any, obj: Any) -> Any:
        if obj is None:
            return None
        return super()._enforce_nested_string_type(schema, obj)  # type: ignore[misc]
