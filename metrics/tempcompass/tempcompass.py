"""TempCompass metric (caption matching by a reward model): accuracy overall and per dimension.

A thin shell over :func:`mmjudge.benchmarks.tempcompass.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import tempcompass
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a judge's caption scores on TempCompass' caption-matching questions as the IsoVRBench paper scores reward
models (Appendix M): per question, the caption with the unique highest score is the answer and an exact tie for
the highest is wrong. `accuracy` is the percent of questions answered right over every dimension (the official
`print_result`'s `avg`), `accuracy/<dimension>` per temporal dimension; a question without scores counts wrong, as
the official script counts a missing prediction. Percentages, each with a 95% CI: videos are the clusters (Wilson
on the effective sample size of the delete-one-video jackknife, t quantile; none under 5 videos).
"""

_CITATION = """\
@article{liu2024tempcompass,
  title   = {TempCompass: Do Video LLMs Really Understand Videos?},
  author  = {Liu, Yuanxin and Li, Shicheng and Liu, Yi and others},
  journal = {arXiv preprint arXiv:2403.00476},
  year    = {2024}
}
"""

_KWARGS_DESCRIPTION = """\
Args (per question, all lists of equal length; give them to `compute`, or to `add_batch`/`add` then `compute()`):
    predictions (`list` of `list` of `float`): the judge's score of each caption, in the question's order; None
        when the judge gave none.
    references (`list` of `int`): the index of the right caption.
    videos (`list` of `str`): the question's video (its cluster).
    categories (`list` of `str`, optional): the question's temporal dimension (default: one, `all`).
    ids (`list` of `str` or `int`, optional): question ids; duplicates are refused.
Optional keyword arguments of `compute`:
    confidence (`float`, default 0.95): the level of every CI. n_resamples (`int`, default 10000), seed (`int`,
    default 0): checked, but no CI depends on them (closed forms). mode: "strict" only.
Returns:
    accuracy, accuracy/<dimension>, n_questions, n_counted, n_correct, n_missing, n_ties, n_videos, mode; every
    score with <key>_ci_low and <key>_ci_high; interval_notes (a string: the thin and withheld intervals).
Examples:
    >>> metric = evaluate.load("metrics/tempcompass")  # doctest: +SKIP
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
class Tempcompass(RowColumns, evaluate.Metric):
    """TempCompass caption-matching accuracy."""

    optional_columns = ("categories", "ids")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"ids": _ID}),
            homepage="https://llyx97.github.io/tempcompass/",
            codebase_urls=["https://github.com/llyx97/TempCompass"],
            reference_urls=["https://arxiv.org/abs/2403.00476"],
        )

    def _compute(self, predictions, references, videos, categories, ids, mode="strict", n_resamples=10_000,
                 confidence=0.95, seed=0):
        rows = self.given({"categories": categories, "ids": ids})
        return with_interval_notes(
            tempcompass.score(predictions, references, videos, rows["categories"], ids=rows["ids"], mode=mode,
                                n_resamples=n_resamples, confidence=confidence, seed=seed)
        )
