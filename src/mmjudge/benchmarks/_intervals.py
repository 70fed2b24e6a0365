"""The CI keys every scorer writes: ``<key>_ci_low`` and ``<key>_ci_high``, in the key's own unit.

Proportions get a Wilson score interval (closed form, present whatever ``n_resamples`` is); averages
and F1-type scores get a percentile bootstrap, present only when ``n_resamples > 0``. The leaderboard
and the reports read these keys and compute no interval of their own.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mmjudge.errors import SchemaError

__all__ = ["CI_SUFFIXES", "check_resampling", "percentile_keys", "wilson_keys"]

CI_SUFFIXES: tuple[str, str] = ("_ci_low", "_ci_high")
"""Suffixes of the two CI keys of a score key."""


def check_resampling(
    n_resamples: int, confidence: float, error: Callable[[str], Exception] = SchemaError
) -> None:
    """Refuse a negative or fractional ``n_resamples`` and a ``confidence`` outside (0, 1).

    >>> check_resampling(-1, 0.95)
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: `n_resamples` must be an integer >= 0 (0: no bootstrap CIs), got -1
    """
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 0:
        raise error(f"`n_resamples` must be an integer >= 0 (0: no bootstrap CIs), got {n_resamples!r}")
    if not 0.0 < float(confidence) < 1.0:
        raise error(f"`confidence` must lie strictly between 0 and 1, got {confidence!r}")


def wilson_keys(
    key: str, successes: int, n: int, confidence: float, scale: float = 100.0
) -> dict[str, float]:
    """The Wilson interval of ``successes / n`` as ``key``'s CI keys (percent by default); none when n = 0.

    >>> wilson_keys("accuracy/t2v_5b", 2, 2, 0.95)
    {'accuracy/t2v_5b_ci_low': 34.23802275066532, 'accuracy/t2v_5b_ci_high': 100.0}
    >>> wilson_keys("tie_rate", 0, 0, 0.95)
    {}
    """
    if n <= 0:
        return {}
    from mmjudge.stats import wilson_interval

    ci = wilson_interval(int(successes), int(n), confidence=confidence)
    return {key + CI_SUFFIXES[0]: scale * float(ci.low), key + CI_SUFFIXES[1]: scale * float(ci.high)}


def percentile_keys(key: str, replicates: np.ndarray, confidence: float) -> dict[str, float]:
    """The percentile interval of bootstrap ``replicates`` (NaN replicates dropped) as ``key``'s CI keys.

    No keys when every replicate is NaN.

    >>> percentile_keys("average", np.array([1.0, 2.0, 3.0, np.nan]), 0.5)
    {'average_ci_low': 1.5, 'average_ci_high': 2.5}
    """
    values = np.asarray(replicates, dtype=np.float64)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return {}
    alpha = (1.0 - float(confidence)) / 2.0
    low, high = np.quantile(values, [alpha, 1.0 - alpha])
    return {key + CI_SUFFIXES[0]: float(low), key + CI_SUFFIXES[1]: float(high)}
