"""TemporalBench scored as the IsoVRBench paper scores reward models on it (Appendix M): each caption of a binary
question rated by the judge's text-alignment output, the unique maximum chosen, an exact tie wrong; then the
official ``get_qa_acc.py`` counts: Binary Accuracy (``accuracy``), Multiple Binary Accuracy
(``multiple_binary_accuracy``: a video counts only when every one of its questions is right) and both per category.

``mode="official"`` leaves a question without scores out, as ``get_qa_acc.py`` does with an item its prediction
file lacks; ``mode="strict"`` (the leaderboard's ranking) counts it wrong. The rule and the intervals are
:mod:`mmjudge.benchmarks._captions.scoring`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks._captions import scoring as _captions
from mmjudge.benchmarks._intervals import Scores
from mmjudge.stats import Metric, Outcomes

__all__ = ["MODES", "RESULT_KEYS", "choose", "score", "score_outcomes"]

MODES = _captions.MODES
choose = _captions.choose


def score(scores: Sequence[Sequence[float] | None], answers: Sequence[int], videos: Sequence[Any],
          categories: Sequence[str] | None = None, **options: Any) -> Scores:  # fmt: skip
    """:func:`mmjudge.benchmarks._captions.scoring.score` with the per-video accuracy (Multiple Binary Accuracy).

    >>> r = score([[0.9, 0.1], [0.3, 0.4], [0.5, 0.5]], [0, 1, 1], ["v1", "v1", "v2"], n_resamples=0)
    >>> round(r["accuracy"], 2), r["multiple_binary_accuracy"], r["n_ties"]
    (66.67, 50.0, 1)
    """
    return _captions.score(scores, answers, videos, categories, videos_all_right=True, **options)


def score_outcomes(scores: Sequence[Sequence[float] | None], answers: Sequence[int], videos: Sequence[Any],
                   categories: Sequence[str] | None = None, **options: Any) -> tuple[Outcomes, dict[str, Metric]]:  # fmt: skip
    """The outcomes of :func:`score`'s arguments and the metric of every score key over them."""
    return _captions.score_outcomes(scores, answers, videos, categories, videos_all_right=True, **options)


RESULT_KEYS = (
    ResultKey("multiple_binary_accuracy", True, "percent of videos whose every binary question is answered right (0-100)"),
    ResultKey("accuracy", True, "percent of binary questions answered right: the right caption alone scores highest (0-100)"),
    ResultKey("multiple_binary_accuracy/<category>", True, "Multiple Binary Accuracy over each video's questions of one category (0-100)"),
    ResultKey("accuracy/<category>", True, "percent of one category's questions answered right (0-100)"),
    *_captions.COUNT_KEYS,
    ResultKey("mode", True, "how a question without scores counts: strict (wrong) or official (left out)"),
)  # fmt: skip
"""The documented result keys."""
