"""EmoPrefer-Data metric: 2-/3-class weighted F1 and accuracy, and swap consistency (percent).

A thin shell over :func:`mmjudge.benchmarks.emoprefer.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import emoprefer
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a judge on EmoPrefer-Data (which of two emotion descriptions of a video is better: a1, a2 or
same) with the official rules: the official response parser, 3-class weighted F1 (WAF) and accuracy,
2-class WAF and accuracy (items with gold `same` dropped, predicted `same` mapped to `a1`), and swap
consistency when the predictions on the reversed pairs are given. All numbers are percentages, each
with a 95% CI (Wilson over independent items for the accuracies and swap consistency; Wilson on the
effective sample size of a cluster jackknife, t quantile, for the WAF scores; none under 5 clips).
"""

_CITATION = """\
@misc{emoprefer2026,
  title = {EmoPrefer (EmoPrefer-Data)},
  year  = {2026},
  note  = {ICLR 2026; arXiv:2507.04278 (see the arXiv page for the full author list)}
}
"""

_KWARGS_DESCRIPTION = """\
Args (per pair, all lists of equal length; give them to `compute`, or to `add_batch`/`add` then `compute()`):
    predictions (`list` of `str`): raw judge responses or labels on the forward pairs; parsed by
        lowercasing, taking a leading a1/a2/same, else the earliest of the three, else `same`.
    references (`list` of `str`): gold labels in {a1, a2, same}.
    swapped_predictions (`list` of `str`, optional): responses on the same items from the
        `_reverse` file, in that file's label space (a1 and a2 swapped).
    ids (`list` of `str` or `int`, optional): item names; duplicates are refused.
    clusters (`list` of `str` or `int`, optional): the clip of each item: items of one clip are one
        independent draw (the release has one item per clip, so without it items are independent and the
        accuracies get Wilson intervals).
Optional keyword arguments of `compute`:
    strategy (`str`, optional): the prompting strategy (S1-S4), echoed.
    confidence (`float`, default 0.95): the level of every CI. n_resamples (`int`, default 10000), seed
    (`int`, default 0): checked, but no CI depends on them (closed forms, present with n_resamples=0).
Returns:
    waf_2class, acc_2class, waf_3class, acc_3class (0-100; the 2-class pair is NaN when no gold label
    is a1/a2), swap_consistency (0-100, only with swapped_predictions), each with <key>_ci_low and
    <key>_ci_high; n_items, n_2class, confusion/<gold>/<predicted> (nine counts), strategy (when given);
    interval_notes (a string: the thin and withheld intervals, "" when none).
Examples:
    >>> metric = evaluate.load("metrics/emoprefer")  # doctest: +SKIP
    >>> metric.compute(predictions=["a1", "a2"], references=["a1", "a2"])  # doctest: +SKIP
"""


_ROWS = {
    "predictions": datasets.Value("string"),
    "references": datasets.Value("string"),
    "swapped_predictions": datasets.Value("string"),
}
_ID = [datasets.Value("string"), datasets.Value("int64")]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Emoprefer(RowColumns, evaluate.Metric):
    """EmoPrefer-Data preference scores."""

    optional_columns = ("swapped_predictions", "ids", "clusters")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"ids": _ID, "clusters": _ID}),
            homepage="https://arxiv.org/abs/2507.04278",
            codebase_urls=["https://github.com/zeroQiaoba/AffectGPT"],
            reference_urls=["https://arxiv.org/abs/2507.04278"],
        )

    def _compute(
        self,
        predictions,
        references,
        swapped_predictions,
        ids,
        clusters,
        strategy=None,
        n_resamples=10_000,
        confidence=0.95,
        seed=0,
    ):
        rows = self.given({"swapped_predictions": swapped_predictions, "ids": ids, "clusters": clusters})
        return with_interval_notes(
            emoprefer.score(
                predictions,
                references,
                rows["swapped_predictions"],
                ids=rows["ids"],
                clusters=rows["clusters"],
                strategy=strategy,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        )
