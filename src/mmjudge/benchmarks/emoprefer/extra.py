"""EmoPrefer-Data beyond one run: rounds, votes, the reported strategy, and ranking description models.

Public names are re-exported by :mod:`mmjudge.benchmarks.emoprefer`; import them from there.
Core functions are imported inside each function because ``emoprefer`` imports this module.

Rules, and where each comes from (the release's ``statistic.py`` and ``toolkit/utils/functions.py``):

* mean ± std over rounds: ``numpy.mean`` and ``numpy.std`` with its default ``ddof=0`` (population
  std), as ``main_statistic`` computes them over the round files.
* votes: the most frequent label per item. The release's ``func_majority_vote`` counts labels in the
  order they are first seen and returns the first label reaching the top count, so a tie goes to the
  tied label that appears first in voter order; that is ``tie_break="first"`` (the vote of the earliest
  voter whose label is among the tied ones). ``tie_break="same"`` (no majority means no preference) is
  our alternative, kept as a named option.
* normal + swapped voting (``func_normal_reverse_voting``): the forward runs, then the reversed runs
  mapped back a1<->a2, voted with ``func_majority_vote``; :func:`vote_normal_swapped` defaults to that
  rule (``tie_break="first"``). For :func:`majority_vote` and :func:`top_k_vote` (model crowdsourcing;
  no code for it was found in the release) the default stays ``"same"``.
* the reported strategy is the one with the highest mean 2-class WAF, as in ``main_present_results``
  (``np.argmax``); NaN ranks last; equal values go to the strategy name that sorts first.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np

from mmjudge._checks import check_labels, check_nonempty, check_same_length
from mmjudge.errors import SchemaError
from mmjudge.stats import bradley_terry_ties, pairwise_counts

TieBreak = Literal["same", "first"]


class DescriptionRanking(NamedTuple):
    """Bradley-Terry-with-ties ranking of the models that wrote the descriptions."""

    models: tuple[str, ...]
    """Model names, sorted alphabetically; the order of ``theta`` and of the count matrices."""
    theta: np.ndarray
    """Strengths from :func:`mmjudge.stats.bradley_terry_ties` (normalised as that function does)."""
    beta: float
    """Tie parameter: P(tie) = beta / (theta_i + theta_j + beta)."""
    wins: np.ndarray
    """``wins[i, j]``: comparisons in which model i's description was preferred over model j's."""
    ties: np.ndarray
    """``ties[i, j]``: comparisons of i and j judged ``same`` (symmetric)."""
    ranking: tuple[str, ...]
    """Model names from strongest to weakest (equal theta: alphabetical)."""


class TopKVote(NamedTuple):
    """Crowdsourced labels from the k best models."""

    models: tuple[str, ...]
    """The k models used, best first (by 2-class WAF)."""
    predictions: list[str]
    """The voted label per item."""


def mean_std_over_rounds(
    rounds: Sequence[Sequence[str]],
    references: Sequence[str],
    swapped_rounds: Sequence[Sequence[str]] | None = None,
    *,
    strategy: str | None = None,
) -> dict[str, float | int | str]:
    """Score each round and report, per score key, the mean as ``<key>`` and ``<key>_std`` (numpy
    ``ddof=0``), as the paper's "mean ± std" cells; then ``n_items``, ``n_2class``, ``n_rounds`` and,
    when given, ``strategy``. No CI keys: the spread over rounds is the ``_std``.

    Args:
        rounds: one prediction list per round (the paper uses 2 rounds).
        references: gold labels.
        swapped_rounds: reversed-pair predictions per round, same count as ``rounds``.
        strategy: the prompting strategy of the rounds (``"S1"`` ... ``"S4"``), echoed.

    >>> r = mean_std_over_rounds([["a1", "a2"], ["a1", "a1"]], ["a1", "a2"], strategy="S1")
    >>> r["acc_3class"], r["acc_3class_std"], r["n_rounds"], r["strategy"]
    (75.0, 25.0, 2, 'S1')
    """
    from mmjudge.benchmarks.emoprefer.scoring import score

    check_nonempty("rounds", rounds)
    if swapped_rounds is not None:
        check_same_length(rounds=rounds, swapped_rounds=swapped_rounds)
    results = [
        score(preds, references, None if swapped_rounds is None else swapped_rounds[i], n_resamples=0)
        for i, preds in enumerate(rounds)
    ]
    out: dict[str, float | int | str] = {}
    for key in results[0]:
        if key.startswith(("n_", "confusion/")) or "_ci_" in key:
            continue
        values = np.array([r[key] for r in results], dtype=np.float64)
        out[key] = float(np.mean(values))
        out[f"{key}_std"] = float(np.std(values))
    out.update(n_items=results[0]["n_items"], n_2class=results[0]["n_2class"], n_rounds=len(results))
    if strategy is not None:
        out["strategy"] = str(strategy)
    return out


def majority_vote(votes: Sequence[Sequence[str]], tie_break: TieBreak = "same") -> list[str]:
    """Per item, the most frequent label over voters (rows); ties broken by ``tie_break``.

    Args:
        votes: one label list per voter (run or model), all of the same length.
        tie_break: ``"same"`` or ``"first"`` (see the module docstring).

    >>> majority_vote([["a1", "a1", "a2"], ["a2", "a1", "same"]])
    ['same', 'a1', 'same']
    >>> majority_vote([["a1", "a1", "a2"], ["a2", "a1", "same"]], tie_break="first")
    ['a1', 'a1', 'a2']
    """
    from mmjudge.benchmarks.emoprefer.scoring import LABELS

    check_nonempty("votes", votes)
    check_same_length(**{f"votes[{i}]": v for i, v in enumerate(votes)})
    for i, row in enumerate(votes):
        check_labels(f"votes[{i}]", row, LABELS)
    if tie_break not in ("same", "first"):
        raise SchemaError(f"tie_break must be 'same' or 'first', got {tie_break!r}")
    index = {label: k for k, label in enumerate(LABELS)}
    codes = np.array([[index[v] for v in row] for row in votes], dtype=np.int64)  # (voters, items)
    counts = np.stack([(codes == k).sum(axis=0) for k in range(len(LABELS))])  # (labels, items)
    tied = counts == counts.max(axis=0)
    winner = np.argmax(counts, axis=0)
    if tie_break == "same":
        fallback = np.full_like(winner, index["same"])
    else:
        voter_in_tie = np.take_along_axis(tied, codes, axis=0)  # (voters, items)
        fallback = codes[np.argmax(voter_in_tie, axis=0), np.arange(codes.shape[1])]
    chosen = np.where(tied.sum(axis=0) > 1, fallback, winner)
    return [LABELS[k] for k in chosen]


def vote_normal_swapped(
    forward_runs: Sequence[Sequence[str]],
    swapped_runs: Sequence[Sequence[str]],
    tie_break: TieBreak = "first",
) -> list[str]:
    """Normal+swapped majority vote, the release's ``func_normal_reverse_voting``: flip the reversed runs
    back a1<->a2, then vote over all runs, forward runs first.

    A tie goes to the tied label seen first in that voter order (``tie_break="first"``, the official
    rule); ``tie_break="same"`` makes a tie ``same`` instead. Responses are parsed with
    :func:`~mmjudge.benchmarks.emoprefer.parse_response` first.

    >>> vote_normal_swapped([["a1", "a2"], ["a1", "same"]], [["a2", "a1"], ["a1", "a1"]])
    ['a1', 'a2']
    >>> vote_normal_swapped([["a1"]], [["a1"]]), vote_normal_swapped([["a1"]], [["a1"]], tie_break="same")
    (['a1'], ['same'])
    """
    from mmjudge.benchmarks.emoprefer.scoring import flip_labels, parse_responses

    forward = [parse_responses(f"forward_runs[{i}]", run) for i, run in enumerate(forward_runs)]
    back = [flip_labels(parse_responses(f"swapped_runs[{i}]", run)) for i, run in enumerate(swapped_runs)]
    return majority_vote(forward + back, tie_break)


def top_k_vote(
    predictions_by_model: Mapping[str, Sequence[str]],
    references: Sequence[str],
    k: int,
    tie_break: TieBreak = "same",
) -> TopKVote:
    """Crowdsourcing: rank models by 2-class WAF, keep the best ``k``, majority-vote their labels.

    Equal WAF goes to the model name that sorts first. With ``tie_break="first"`` the best model's
    label breaks a tie among the voted labels.

    >>> preds = {"m1": ["a1", "a2", "a1"], "m2": ["a1", "a1", "a1"], "m3": ["a2", "a2", "same"]}
    >>> top_k_vote(preds, ["a1", "a2", "a1"], k=3)
    TopKVote(models=('m1', 'm3', 'm2'), predictions=['a1', 'a2', 'a1'])
    """
    from mmjudge.benchmarks.emoprefer.scoring import parse_responses, score

    if not 1 <= k <= len(predictions_by_model):
        raise SchemaError(f"k must be between 1 and {len(predictions_by_model)} (models given), got {k}")
    parsed = {
        name: parse_responses(f"predictions_by_model[{name!r}]", p)
        for name, p in predictions_by_model.items()
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        waf = {name: float(score(p, references, n_resamples=0)["waf_2class"]) for name, p in parsed.items()}
    order = sorted(parsed, key=lambda name: (-_nan_low(waf[name]), name))[:k]
    return TopKVote(tuple(order), majority_vote([parsed[name] for name in order], tie_break))


def _nan_low(value: float) -> float:
    return -math.inf if math.isnan(value) else value


def best_strategy(results: Mapping[str, Mapping[str, float]], key: str = "waf_2class") -> str:
    """The strategy the paper reports for a model: the highest ``key`` (2-class WAF by default).

    Args:
        results: strategy name -> result dict (from :func:`score` or :func:`mean_std_over_rounds`).
        key: the score to rank by.

    >>> best_strategy({"S1": {"waf_2class": 60.0}, "S2": {"waf_2class": 71.5}, "S3": {"waf_2class": 71.5}})
    'S2'
    """
    check_nonempty("results", results)
    missing = [name for name, r in results.items() if key not in r]
    if missing:
        raise SchemaError(f"strategies {missing} have no {key!r} score; pass results that contain it")
    return min(results, key=lambda name: (-_nan_low(float(results[name][key])), name))


def rank_description_models(
    model1: Sequence[str], model2: Sequence[str], preferences: Sequence[str]
) -> DescriptionRanking:
    """Rank description models with Bradley-Terry with ties from the ``_with_modelnames`` layout.

    ``a1`` counts as a win of ``model1`` over ``model2``, ``a2`` the reverse, ``same`` a tie.
    Rows comparing a model with itself carry no information: they are dropped with a warning.

    >>> r = rank_description_models(["x", "x", "y", "x", "y"], ["y", "y", "x", "y", "x"], ["a1", "a1", "a2", "same", "a1"])
    >>> r.ranking, r.wins.tolist(), r.ties.tolist()
    (('x', 'y'), [[0, 3], [1, 0]], [[0, 1], [1, 0]])
    """
    from mmjudge.benchmarks.emoprefer.scoring import LABELS

    check_same_length(model1=model1, model2=model2, preferences=preferences)
    check_nonempty("preferences", preferences)
    check_labels("preferences", preferences, LABELS)
    rows = [
        (str(a), str(b), _OUTCOME[p]) for a, b, p in zip(model1, model2, preferences, strict=True) if a != b
    ]
    if len(rows) < len(preferences):
        warnings.warn(f"dropped {len(preferences) - len(rows)} self-comparisons", UserWarning, stacklevel=2)
    if len({m for a, b, _ in rows for m in (a, b)}) < 2:
        raise SchemaError(
            f"need comparisons between at least two models, got {sorted(set(model1) | set(model2))}"
        )
    first, second, outcome = zip(*rows, strict=True)
    counts: Any = pairwise_counts(first, second, outcome)
    fit: Any = bradley_terry_ties(counts.wins, counts.ties, names=counts.names)
    theta = np.asarray(fit.theta, dtype=np.float64)
    models = tuple(str(m) for m in counts.names)
    ranking = tuple(sorted(models, key=lambda m: (-theta[models.index(m)], m)))
    return DescriptionRanking(models, theta, float(fit.beta), counts.wins, counts.ties, ranking)


_OUTCOME = {"a1": "first", "a2": "second", "same": "tie"}


__all__ = [
    "DescriptionRanking",
    "TieBreak",
    "TopKVote",
    "best_strategy",
    "majority_vote",
    "mean_std_over_rounds",
    "rank_description_models",
    "top_k_vote",
    "vote_normal_swapped",
]
