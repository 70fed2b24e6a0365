"""Bradley–Terry ranking from pairwise comparisons, with ties as in EmoPrefer (Appendix F).

Model: ``P(i beats j) = θi / (θi + θj + β)`` and ``P(tie) = β / (θi + θj + β)``, so the three
outcomes of a comparison sum to one; ``β = 0`` is the plain Bradley–Terry model. The log-likelihood
is ``Σi Wi log θi + T log β - Σ_{i<j} Nij log(θi + θj + β)`` (``Wi`` wins of ``i``, ``T`` ties,
``Nij`` comparisons of ``i`` and ``j``). It is maximised by minorise–maximise updates (Hunter 2004),
``θi ← Wi / Σj Nij / (θi + θj + β)`` and ``β ← T / Σ_{i<j} Nij / (θi + θj + β)``, which raise the
likelihood at every step; ``θ`` is rescaled to sum to one (the model only fixes ratios). The same
updates run batched over bootstrap resamples.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge._checks import check_positive_int, check_probability
from mmjudge.errors import SchemaError, summarize
from mmjudge.stats._bootstrap import ConfidenceInterval

__all__ = [
    "BradleyTerryCI",
    "BradleyTerryResult",
    "PairwiseCounts",
    "bradley_terry",
    "bradley_terry_ci",
    "bradley_terry_ties",
    "pairwise_counts",
]

OUTCOMES = ("first", "second", "tie")
"""Outcome labels accepted by :func:`pairwise_counts`."""


class BradleyTerryResult(NamedTuple):
    """Maximum-likelihood fit of the Bradley–Terry model (with ties)."""

    theta: np.ndarray
    """Strength per model, normalised to sum to 1 (0 for a model that never wins)."""
    beta: float
    """Tie parameter on the scale of ``theta`` (0 for plain Bradley–Terry)."""
    log_likelihood: float
    """Log-likelihood of the counts at the fit."""
    converged: bool
    """Whether the relative change of every parameter fell below ``tol`` within ``max_iter``."""
    iterations: int
    """Minorise–maximise iterations run."""
    names: tuple[Hashable, ...]
    """Model names, in the order of ``theta`` (indices when none were given)."""

    def ranking(self) -> list[Hashable]:
        """Model names from strongest to weakest.

        >>> bradley_terry([[0, 3], [1, 0]], names=["a", "b"]).ranking()
        ['a', 'b']
        """
        return [self.names[i] for i in np.argsort(-self.theta, kind="stable")]


class BradleyTerryCI(NamedTuple):
    """Bootstrap percentile intervals of a Bradley–Terry fit (resampling comparisons)."""

    fit: BradleyTerryResult
    """The fit on the observed counts."""
    theta: ConfidenceInterval
    """Per-model intervals: ``estimate``, ``low`` and ``high`` are arrays over models."""
    beta: ConfidenceInterval
    """Interval of the tie parameter."""


class PairwiseCounts(NamedTuple):
    """Win and tie count matrices built from a list of comparisons."""

    wins: np.ndarray
    """``wins[i, j]``: times model ``i`` beat model ``j``."""
    ties: np.ndarray
    """``ties[i, j] == ties[j, i]``: ties between ``i`` and ``j``."""
    names: tuple[Hashable, ...]
    """Model names, in matrix order."""


def pairwise_counts(
    first: Sequence[Hashable],
    second: Sequence[Hashable],
    outcome: Sequence[str],
    *,
    names: Sequence[Hashable] | None = None,
) -> PairwiseCounts:
    """Count wins and ties from one row per comparison.

    Args:
        first: the first model of each comparison.
        second: the second model of each comparison.
        outcome: ``"first"`` (first model preferred), ``"second"`` or ``"tie"``.
        names: model order; defaults to the sorted names seen.

    >>> c = pairwise_counts(["a", "a", "b"], ["b", "c", "c"], ["first", "tie", "second"])
    >>> c.names, c.wins.tolist(), c.ties.tolist()
    (('a', 'b', 'c'), [[0, 1, 0], [0, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 0, 0], [1, 0, 0]])
    """
    if not len(first) == len(second) == len(outcome):
        raise SchemaError(
            f"expected inputs of equal length, got first={len(first)}, second={len(second)}, outcome={len(outcome)}"
        )
    if len(first) == 0:
        raise SchemaError("`first` is empty: expected at least one comparison")
    bad = [o for o in outcome if o not in OUTCOMES]
    if bad:
        raise SchemaError(f"`outcome` has {len(bad)} values outside {list(OUTCOMES)}: {summarize(bad)}")
    order = tuple(names) if names is not None else tuple(sorted({*first, *second}, key=str))
    index = {name: k for k, name in enumerate(order)}
    unknown = [m for m in (*first, *second) if m not in index]
    if unknown:
        raise SchemaError(f"{len(unknown)} models are not in `names`: {summarize(unknown)}")
    i = np.array([index[m] for m in first])
    j = np.array([index[m] for m in second])
    if np.any(i == j):
        raise SchemaError(f"{int(np.sum(i == j))} comparisons pit a model against itself")
    kind = np.array([OUTCOMES.index(o) for o in outcome])
    n = len(order)
    wins = np.zeros((n, n), dtype=np.int64)
    ties = np.zeros((n, n), dtype=np.int64)
    np.add.at(wins, (i[kind == 0], j[kind == 0]), 1)
    np.add.at(wins, (j[kind == 1], i[kind == 1]), 1)
    np.add.at(ties, (i[kind == 2], j[kind == 2]), 1)
    return PairwiseCounts(wins, ties + ties.T, order)


def bradley_terry_ties(
    wins: Any,
    ties: Any = None,
    *,
    names: Sequence[Hashable] | None = None,
    max_iter: int = 10_000,
    tol: float = 1e-10,
) -> BradleyTerryResult:
    """Fit Bradley–Terry with ties (EmoPrefer Appendix F) by maximum likelihood.

    Args:
        wins: ``(n, n)`` counts, ``wins[i, j]`` = times ``i`` beat ``j``; zero diagonal.
        ties: ``(n, n)`` symmetric tie counts (each tie counted once, in both cells), or ``None``.
        names: model names (default ``0 .. n-1``).
        max_iter: iteration limit; ``converged`` is False (with a warning) when reached.
        tol: convergence threshold on the largest relative parameter change.

    >>> fit = bradley_terry_ties([[0, 6, 8], [3, 0, 6], [2, 3, 0]], [[0, 2, 1], [2, 0, 2], [1, 2, 0]])
    >>> fit.theta.round(3).tolist(), round(fit.beta, 3), fit.converged
    ([0.566, 0.285, 0.149], 0.111, True)
    """
    w, t = _counts(wins, ties)
    order = _names(names, w.shape[0])
    return _fit(w, t, order, max_iter, tol, with_ties=True)


def bradley_terry(
    wins: Any,
    *,
    names: Sequence[Hashable] | None = None,
    max_iter: int = 10_000,
    tol: float = 1e-10,
) -> BradleyTerryResult:
    """Fit plain Bradley–Terry (``P(i beats j) = θi / (θi + θj)``, no ties) by maximum likelihood.

    >>> bradley_terry([[0, 2], [1, 0]]).theta.round(4).tolist()
    [0.6667, 0.3333]
    """
    w, t = _counts(wins, None)
    return _fit(w, t, _names(names, w.shape[0]), max_iter, tol, with_ties=False)


def bradley_terry_ci(
    wins: Any,
    ties: Any = None,
    *,
    names: Sequence[Hashable] | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    max_iter: int = 10_000,
    tol: float = 1e-8,
) -> BradleyTerryCI:
    """Percentile bootstrap intervals for ``θ`` and ``β``, resampling comparisons with replacement.

    The comparisons (one cell per ordered win and per tied pair) are redrawn from a multinomial
    with the observed total; each resample is refitted, warm-started at the observed fit, all
    resamples at once. Without ``ties`` the plain model is fitted and ``β`` stays 0.

    >>> ci = bradley_terry_ci([[0, 30, 40], [20, 0, 30], [10, 20, 0]], n_resamples=200)
    >>> bool(ci.theta.low[0] < ci.fit.theta[0] < ci.theta.high[0])
    True
    """
    n_resamples = check_positive_int("n_resamples", n_resamples)
    confidence = check_probability("confidence", confidence)
    w, t = _counts(wins, ties)
    with_ties = ties is not None
    fit = _fit(w, t, _names(names, w.shape[0]), max_iter, tol, with_ties=with_ties)
    cells = np.concatenate([w.ravel(), np.triu(t, 1).ravel()])
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(int(cells.sum()), cells / cells.sum(), size=n_resamples)
    n = w.shape[0]
    bw = draws[:, : n * n].reshape(-1, n, n).astype(np.float64)
    upper = draws[:, n * n :].reshape(-1, n, n).astype(np.float64)
    bt = upper + upper.transpose(0, 2, 1)
    start_theta = np.broadcast_to(fit.theta, (n_resamples, n))
    theta, beta, _, converged = _mm(
        bw, bt, start_theta, np.full(n_resamples, fit.beta), with_ties, max_iter, tol
    )
    if not converged.all():
        warnings.warn(
            f"{int((~converged).sum())} of {n_resamples} bootstrap fits did not converge in {max_iter} iterations",
            RuntimeWarning,
            stacklevel=2,
        )
    alpha = (1.0 - confidence) / 2.0
    t_low, t_high = np.quantile(theta, [alpha, 1 - alpha], axis=0)
    b_low, b_high = np.quantile(beta, [alpha, 1 - alpha])
    return BradleyTerryCI(
        fit,
        ConfidenceInterval(fit.theta, t_low, t_high, confidence),
        ConfidenceInterval(fit.beta, float(b_low), float(b_high), confidence),
    )


def _fit(
    w: np.ndarray, t: np.ndarray, names: tuple[Hashable, ...], max_iter: int, tol: float, *, with_ties: bool
) -> BradleyTerryResult:
    _check_connected(w + w.T + t, names)
    never_won = [names[k] for k in np.flatnonzero(w.sum(axis=1) == 0)]
    if never_won:
        warnings.warn(
            f"{len(never_won)} models never win ({summarize(never_won)}): their strength is 0 (the MLE is on the boundary)",
            RuntimeWarning,
            stacklevel=3,
        )
    n = w.shape[0]
    total_ties = np.triu(t, 1).sum()
    beta0 = np.array([0.1 if with_ties and total_ties > 0 else 0.0])
    theta, beta, iterations, converged = _mm(
        w[None], t[None], np.full((1, n), 1.0 / n), beta0, with_ties, max_iter, tol
    )
    if not converged[0]:
        warnings.warn(
            f"Bradley–Terry did not converge in {max_iter} iterations", RuntimeWarning, stacklevel=3
        )
    return BradleyTerryResult(
        theta[0],
        float(beta[0]),
        _log_likelihood(w, t, theta[0], float(beta[0])),
        bool(converged[0]),
        iterations,
        names,
    )


def _mm(
    w: np.ndarray,
    t: np.ndarray,
    theta: np.ndarray,
    beta: np.ndarray,
    with_ties: bool,
    max_iter: int,
    tol: float,
) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    """Batched minorise–maximise updates; arrays carry a leading resample axis."""
    total = w + w.transpose(0, 2, 1) + t
    won = w.sum(axis=2)
    tied = np.triu(t, 1).sum(axis=(1, 2)) if with_ties else np.zeros(len(w))
    theta, beta = theta.copy(), beta.copy()
    converged = np.zeros(len(w), dtype=bool)
    iteration = 0
    while iteration < max_iter:
        iteration += 1
        rate = np.divide(
            total,
            theta[:, :, None] + theta[:, None, :] + beta[:, None, None],
            where=total > 0,
            out=np.zeros_like(total),
        )
        denom = rate.sum(axis=2)
        new_theta = np.divide(won, denom, where=denom > 0, out=theta.copy())
        new_beta = np.divide(tied, rate.sum(axis=(1, 2)) / 2.0, where=tied > 0, out=np.zeros_like(beta))
        scale = new_theta.sum(axis=1)
        new_theta /= scale[:, None]
        new_beta /= scale
        change = np.maximum(
            np.max(np.abs(new_theta - theta) / np.maximum(new_theta, 1e-300), axis=1),
            np.abs(new_beta - beta) / np.maximum(new_beta, 1e-300),
        )
        theta, beta = new_theta, new_beta
        converged = change < tol
        if converged.all():
            break
    return theta, beta, iteration, converged


def _log_likelihood(w: np.ndarray, t: np.ndarray, theta: np.ndarray, beta: float) -> float:
    denom = theta[:, None] + theta[None, :] + beta
    with np.errstate(divide="ignore", invalid="ignore"):
        win_terms = np.where(w > 0, w * np.log(theta[:, None] / denom), 0.0)
        tie_terms = np.where(np.triu(t, 1) > 0, np.triu(t, 1) * np.log(beta / denom), 0.0)
    return float(win_terms.sum() + tie_terms.sum())


def _counts(wins: Any, ties: Any) -> tuple[np.ndarray, np.ndarray]:
    w = _count_matrix("wins", wins)
    t = np.zeros_like(w) if ties is None else _count_matrix("ties", ties)
    if t.shape != w.shape:
        raise SchemaError(f"`ties` must have the shape of `wins` {w.shape}, got {t.shape}")
    if not np.array_equal(t, t.T):
        raise SchemaError(
            "`ties` must be symmetric: ties[i, j] == ties[j, i] (each tie counted in both cells)"
        )
    if w.shape[0] < 2:
        raise SchemaError(f"at least 2 models are needed, got {w.shape[0]}")
    return w, t


def _count_matrix(name: str, values: Any) -> np.ndarray:
    try:
        matrix = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise SchemaError(f"`{name}` must be a square matrix of counts") from exc
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise SchemaError(f"`{name}` must be a square (n_models, n_models) matrix, got shape {matrix.shape}")
    bad = matrix[~np.isfinite(matrix) | (matrix < 0)]
    if bad.size:
        raise SchemaError(f"`{name}` has {bad.size} negative or non-finite counts: {summarize(bad.tolist())}")
    if np.any(np.diag(matrix) != 0):
        raise SchemaError(f"`{name}` must have a zero diagonal (a model is not compared with itself)")
    return matrix


def _names(names: Sequence[Hashable] | None, n: int) -> tuple[Hashable, ...]:
    if names is None:
        return tuple(range(n))
    if len(names) != n:
        raise SchemaError(f"`names` has {len(names)} entries for {n} models")
    return tuple(names)


def _check_connected(total: np.ndarray, names: tuple[Hashable, ...]) -> None:
    """Strengths are only comparable within a connected set of compared models."""
    reached = np.zeros(len(total), dtype=bool)
    reached[0] = True
    frontier = reached.copy()
    while frontier.any():
        frontier = (total[frontier] > 0).any(axis=0) & ~reached
        reached |= frontier
    if not reached.all():
        missing = [names[k] for k in np.flatnonzero(~reached)]
        raise SchemaError(
            f"the comparison graph is disconnected: {summarize(missing)} are never compared, directly or "
            f"through other models, with {names[0]!r}; fit each connected group separately"
        )
