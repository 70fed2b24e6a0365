"""TempCompass caption matching scored as the IsoVRBench paper scores reward models on it (Appendix M): each
caption rated by the judge's text-alignment output, the unique maximum chosen, an exact tie wrong; then the
official ``print_result`` counts: ``accuracy`` over every question (its ``avg``: questions of all dimensions
pooled) and ``accuracy/<dimension>``. The official script counts a question without a prediction wrong, as here
(one mode). The rule and the intervals are :mod:`mmjudge.benchmarks._captions.scoring`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._captions import scoring as _captions
from mmjudge.benchmarks._intervals import Scores
from mmjudge.errors import ConfigError
from mmjudge.stats import Metric, Outcomes

__all__ = ["RESULT_KEYS", "choose", "score", "score_outcomes"]

choose = _captions.choose


def _strict(options: dict[str, Any]) -> dict[str, Any]:
    if options.get("mode", "strict") != "strict":
        raise ConfigError(f"TempCompass has one mode, strict (its script counts a missing answer wrong); got "
                          f"mode={options['mode']!r}")  # fmt: skip
    return {**options, "mode": "strict"}


def score(scores: Sequence[Sequence[float] | None], answers: Sequence[int], videos: Sequence[Any],
          categories: Sequence[str] | None = None, **options: Any) -> Scores:  # fmt: skip
    """:func:`mmjudge.benchmarks._captions.scoring.score`, strict, without a per-video accuracy.

    >>> r = score([[0.9, 0.1], [0.3, 0.4], [0.5, 0.5]], [0, 0, 1], ["v1", "v1", "v2"], ["action", "speed", "order"],
    ...           n_resamples=0)
    >>> round(r["accuracy"], 2), r["accuracy/action"], r["accuracy/order"], "multiple_binary_accuracy" in r
    (33.33, 100.0, 0.0, False)
    """
    return _captions.score(scores, answers, videos, categories, **_strict(options))


def score_outcomes(scores: Sequence[Sequence[float] | None], answers: Sequence[int], videos: Sequence[Any],
                   categories: Sequence[str] | None = None, **options: Any) -> tuple[Outcomes, dict[str, Metric]]:  # fmt: skip
    """The outcomes of :func:`score`'s arguments and the metric of every score key over them."""
    return _captions.score_outcomes(scores, answers, videos, categories, **_strict(options))


RESULT_KEYS = (
    ResultKey("accuracy", True, "percent of caption-matching questions answered right: the right caption alone scores highest (0-100)"),
    ResultKey("accuracy/<dimension>", True, "percent of one temporal dimension's questions answered right (0-100)"),
    *_captions.COUNT_KEYS,
    ResultKey("mode", True, "how a question without scores counts: strict (wrong)"),
)  # fmt: skip
"""The documented result keys."""
