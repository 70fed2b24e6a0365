"""TemporalBench metric (caption ranking by a reward model): Binary and Multiple Binary Accuracy.

A thin shell over :func:`mmjudge.benchmarks.temporalbench.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import temporalbench
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a judge's caption scores on TemporalBench's binary caption questions as the IsoVRBench paper scores reward
models (Appendix M): per question, the caption with the unique highest score is the answer and an exact tie for
the highest is wrong. Binary Accuracy (`accuracy`) is the percent of questions answered right, Multiple Binary
Accuracy (`multiple_binary_accuracy`) the percent of videos whose every question is right (the official
`get_qa_acc.py` counts), each also per category. `mode="official"` leaves a question without scores out (as the
official script does with an item missing from the prediction file); "strict" counts it wrong. Percentages, each
with a 95% CI: videos are the clusters (Wilson on the effective sample size of the delete-one-video jackknife, t
quantile, for Binary Accuracy; Wilson over the independent videos for Multiple Binary Accuracy; none under 5 videos).
"""

_CITATION = """\
@article{cai2024temporalbench,
  title   = {TemporalBench: Towards Fine-grained Temporal Understanding for Multimodal Video Models},
  author  = {Cai, Mu and Tan, Reuben and Zhang, Jianrui and others},
  journal = {arXiv preprint arXiv:2410.10818},
  year    = {2024}
}
"""

_KWARGS_DESCRIPTION = """\
Args (per question, all lists of equal length; give them to `compute`, or to `add_batch`/`add` then `compute()`):
    predictions (`list` of `list` of `float`): the judge's score of each caption, in the question's order; None
        when the judge gave none.
    references (`list` of `int`): the index of the right caption (the release's GT letter: A = 0).
    videos (`list` of `str`): the question's video (its cluster, and the unit of Multiple Binary Accuracy).
    categories (`list` of `str`, optional): the question's category (default: one category, `all`).
    ids (`list` of `str` or `int`, optional): question ids; duplicates are refused.
Optional keyword arguments of `compute`:
    mode (`str`, default "strict"): "strict" counts a question without scores wrong, "official" leaves it out.
    confidence (`float`, default 0.95): the level of every CI. n_resamples (`int`, default 10000), seed (`int`,
    default 0): checked, but no CI depends on them (closed forms).
Returns:
    multiple_binary_accuracy, accuracy, multiple_binary_accuracy/<category>, accuracy/<category>, n_questions,
    n_counted, n_correct, n_missing, n_ties, n_videos, mode; every score with <key>_ci_low and <key>_ci_high;
    interval_notes (a string: the thin and withheld intervals, "" when none).
Examples:
    >>> metric = evaluate.load("metrics/temporalbench")  # doctest: +SKIP
    >>> metric.compute(predictions=[[0.9, 0.1]], references=[0], videos=["v1"])  # doctest: +SKIP
"""

_ROWS = {
    "predictions": datasets.Sequence(datasets.Value("float64")),
    "references": datasets.Value("int64"),
    "videos": datasets.Value("string"),
    "categories": datasets.Value("string"),
}
_ID = [datasets.Value("string"), datasets.Value("int64")]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Temporalbench(RowColumns, evaluate.Metric):
    """TemporalBench caption-ranking accuracy."""

    optional_columns = ("categories", "ids")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"ids": _ID}),
            homepage="https://temporalbench.github.io/",
            codebase_urls=["https://github.com/mu-cai/TemporalBench"],
            reference_urls=["https://arxiv.org/abs/2410.10818"],
        )

    def _compute(self, predictions, references, videos, categories, ids, mode="strict", n_resamples=10_000,
                 confidence=0.95, seed=0):
        rows = self.given({"categories": categories, "ids": ids})
        return with_interval_notes(
            temporalbench.score(predictions, references, videos, rows["categories"], ids=rows["ids"], mode=mode,
                                n_resamples=n_resamples, confidence=confidence, seed=seed)
        )
