"""How a score's interval is spelled in a flat result dict, and its typed record in ``results.json``.

A scorer writes each score key ``K`` with its interval as ``K_ci_low`` / ``K_ci_high`` (in ``K``'s own
unit). This module is the one place that spelling lives: reports, the leaderboard, exports, robustness
summaries and the human study read and write intervals through :func:`ci_keys`, :func:`interval_of` and
:func:`with_interval`, and write them as text through :func:`interval_text`. ``results.json`` (schema 3) also carries a typed :class:`Estimate` per score: value,
interval, confidence, the method that made it (which units or clusters it resampled) and the counts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, TypeGuard

__all__ = [
    "CI_SUFFIXES", "Estimate", "ci_keys", "interval_of", "interval_text", "is_ci_key", "number_text", "score_keys",
    "with_interval", "with_its_interval",
]  # fmt: skip

CI_SUFFIXES: tuple[str, str] = ("_ci_low", "_ci_high")
"""Suffixes of the two CI keys of a score key."""


def number_text(value: float, digits: int = 1, *, style: str = "fixed") -> str:
    """A number as reports write it: ``fixed`` (``digits`` decimals), ``signed`` (the same with its sign) or
    ``significant`` (``digits`` significant figures, whole numbers from ``10**digits`` on).

    >>> number_text(48.125), number_text(10.0, 2, style="signed"), number_text(0.012345, 3, style="significant")
    ('48.1', '+10.00', '0.0123')
    >>> number_text(123456.7, 3, style="significant")
    '123457'
    """
    if style == "signed":
        return f"{value:+.{digits}f}"
    if style == "significant":
        return f"{value:.{digits}g}" if abs(value) < 10**digits else f"{value:.0f}"
    return f"{value:.{digits}f}"


def interval_text(low: float, high: float, digits: int = 1, *, style: str = "fixed") -> str:
    """The one written form of an interval, in reports, terminal tables, leaderboard cells, comparisons,
    robustness reports, the human study and exported eval results (``style``: :func:`number_text`'s).

    >>> interval_text(48.125, 75.0), interval_text(2.0, 18.0, 2, style="signed")
    ('[48.1, 75.0]', '[+2.00, +18.00]')
    """
    return f"[{number_text(low, digits, style=style)}, {number_text(high, digits, style=style)}]"


def ci_keys(key: str) -> tuple[str, str]:
    """The two CI keys of ``key``.

    >>> ci_keys("overall")
    ('overall_ci_low', 'overall_ci_high')
    """
    return key + CI_SUFFIXES[0], key + CI_SUFFIXES[1]


def is_ci_key(key: str) -> bool:
    """Whether ``key`` is one end of an interval.

    >>> is_ci_key("average_ci_high"), is_ci_key("average")
    (True, False)
    """
    return key.endswith(CI_SUFFIXES)


def interval_of(scores: Mapping[str, Any], key: str) -> tuple[float, float] | None:
    """``(low, high)`` of ``key`` when both ends are finite numbers, else ``None``.

    >>> interval_of({"acc": 50.0, "acc_ci_low": 40.0, "acc_ci_high": 60.0}, "acc")
    (40.0, 60.0)
    >>> interval_of({"acc": 50.0, "acc_ci_low": float("nan"), "acc_ci_high": 60.0}, "acc") is None
    True
    """
    low, high = (scores.get(k) for k in ci_keys(key))
    if not (_finite(low) and _finite(high)):
        return None
    return float(low), float(high)


def with_interval(key: str, value: Any, low: Any, high: Any) -> dict[str, Any]:
    """``{key: value, key_ci_low: low, key_ci_high: high}``; the CI keys only when both ends are given.

    >>> with_interval("rate", 10.0, 5.0, 20.0)
    {'rate': 10.0, 'rate_ci_low': 5.0, 'rate_ci_high': 20.0}
    >>> with_interval("rate", 10.0, None, None)
    {'rate': 10.0}
    """
    out = {key: value}
    if low is not None and high is not None:
        lo, hi = ci_keys(key)
        out[lo], out[hi] = low, high
    return out


def with_its_interval(scores: Mapping[str, Any], key: str) -> dict[str, Any]:
    """``key`` and its two CI keys, those of them that ``scores`` holds.

    >>> with_its_interval({"a": 1.0, "a_ci_low": 0.5, "a_ci_high": 2.0, "b": 3.0}, "a")
    {'a': 1.0, 'a_ci_low': 0.5, 'a_ci_high': 2.0}
    """
    return {k: scores[k] for k in (key, *ci_keys(key)) if k in scores}


def score_keys(scores: Iterable[str]) -> list[str]:
    """The keys of ``scores`` that are not CI ends, in order.

    >>> score_keys(["a", "a_ci_low", "a_ci_high", "n"])
    ['a', 'n']
    """
    return [k for k in scores if not is_ci_key(k)]


class Estimate(NamedTuple):
    """One score as ``results.json`` (schema 3) records it under ``estimates``."""

    value: float | None
    """The score (``None`` when undefined)."""
    low: float | None
    """Lower end of its interval (``None``: no interval)."""
    high: float | None
    """Upper end."""
    confidence: float
    """Nominal coverage of the interval."""
    method: str
    """How the interval was made: ``wilson`` (independent units), ``percentile bootstrap over prompts
    (stratified), 10000 resamples``, ``wilson over clips (every outcome equal: nothing to resample)``, ...;
    ``none`` without an interval."""
    n_units: int | None
    """Scored units behind the interval."""
    n_clusters: int | None
    """Independent clusters the interval resampled (``n_units`` when the units are independent)."""
    unit: str | None
    """What a unit is (``pair``, ``cell``, ``question``, ``item``), when the scorer says."""
    higher_is_better: bool | None
    """The score's direction (``None`` for counts and descriptive keys)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object with NaN as ``null``."""
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in self._asdict().items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Estimate:
        """Read :meth:`to_json`'s object back (missing fields as ``None``)."""
        return cls(
            value=_number_or_none(data.get("value")),
            low=_number_or_none(data.get("low")),
            high=_number_or_none(data.get("high")),
            confidence=float(data.get("confidence", 0.95)),
            method=str(data.get("method", "none")),
            n_units=_int_or_none(data.get("n_units")),
            n_clusters=_int_or_none(data.get("n_clusters")),
            unit=None if data.get("unit") is None else str(data["unit"]),
            higher_is_better=None if data.get("higher_is_better") is None else bool(data["higher_is_better"]),
        )


def _finite(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _number_or_none(value: Any) -> float | None:
    return float(value) if _finite(value) else None


def _int_or_none(value: Any) -> int | None:
    return None if value is None or isinstance(value, bool) else int(value)
