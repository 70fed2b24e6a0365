"""The scorers' Wilson interval written from its two sources, as the tests' reference: statsmodels'
``proportion_confint(method="wilson")`` with Brown, Cai and DasGupta's (2001, Statistical Science 16:101)
Poisson repair next to 0 and n (for 1 or 2 successes or failures up to n = 50, 1 to 3 up to n = 100, the
one-sided bound ``chi2_{2x}(alpha) / 2n``; the interval only widens)."""

from __future__ import annotations

from scipy import stats
from statsmodels.stats.proportion import proportion_confint


def repaired_wilson(k: float, n: float, alpha: float = 0.05) -> tuple[float, float]:
    """``(low, high)`` as fractions."""
    low, high = proportion_confint(k, n, alpha=alpha, method="wilson")
    low, high = (0.0 if k == 0 else low), (1.0 if k == n else high)
    most = 0 if n > 100 else 2 if n <= 50 else 3
    for x, upper in ((k, False), (n - k, True)):
        if float(x).is_integer() and 1 <= x <= most:
            bound = stats.chi2.ppf(alpha, 2 * x) / (2 * n)
            if upper:
                high = max(high, 1 - bound)
            else:
                low = min(low, bound)
    return low, high
