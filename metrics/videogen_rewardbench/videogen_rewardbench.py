"""VideoGen-RewardBench metric: VideoAlign's accuracy without ties and with ties per aspect.

A thin shell over :func:`mmjudge.benchmarks.videogen_rewardbench.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import videogen_rewardbench
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a video judge on VideoGen-RewardBench: two generated clips of a prompt and human labels A, B or same on
VQ, MQ, TA and Overall. One entry per pair and aspect: the label and the judge's scores of clip A and clip B at
the aspect's head. Accuracy without ties (VideoAlign: pairs humans tied left out, a zero difference and a missing
judgment wrong), the Ties-Matter accuracy with ties (epsilon tuned on the test pairs, the official number) and
the same with epsilon cross-fitted over folds of prompts. Percentages with 95% CIs.
"""

_CITATION = """\
@article{liu2025videoalign,
  title   = {Improving Video Generation with Human Feedback},
  author  = {Liu, Jie and others},
  journal = {arXiv preprint arXiv:2501.13918},
  year    = {2025}
}
"""

_KWARGS_DESCRIPTION = """\
Args (one entry per pair and aspect, lists of equal length):
    preference (`list` of `str`): A, B or same.
    score_a, score_b (`list` of `float`): the judge's score of clip A and of clip B at the aspect's head.
    aspect (`list` of `str`, optional): VQ, MQ, TA or Overall (default: every entry Overall).
    no_judgment (`list` of `bool`, optional): entries the judge did not score (wrong in every key).
    pair_id (`list`, optional): pair ids; (pair_id, aspect) must be unique.
    cluster (`list`, optional): each pair's prompt (the intervals take a prompt's pairs together).
Optional keyword arguments of `compute`:
    folds (`int`, default 5): folds of prompts for the cross-fitted epsilon.
    confidence (`float`, default 0.95); n_resamples, seed: checked, no interval depends on them.
Returns:
    accuracy_without_ties/<aspect>, accuracy_with_ties/<aspect>, accuracy_with_ties_crossfit/<aspect> (each with
    _ci_low/_ci_high), epsilon/<aspect>, n/<aspect>, n_human_ties/<aspect>, n_no_judgment/<aspect>, n_pairs, folds,
    intervals, interval_notes.
"""

_ROWS = {
    "preference": datasets.Value("string"),
    "score_a": datasets.Value("float64"),
    "score_b": datasets.Value("float64"),
    "aspect": datasets.Value("string"),
    "no_judgment": datasets.Value("bool"),
}
_ID = [datasets.Value("string"), datasets.Value("int64")]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class VideogenRewardbench(RowColumns, evaluate.Metric):
    """VideoGen-RewardBench accuracies."""

    optional_columns = ("aspect", "no_judgment", "pair_id", "cluster")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"pair_id": _ID, "cluster": _ID}),
            reference_urls=["https://arxiv.org/abs/2501.13918", "https://huggingface.co/datasets/KwaiVGI/VideoGen-RewardBench"],
            codebase_urls=["https://github.com/KwaiVGI/VideoAlign"],
            homepage="https://github.com/KwaiVGI/VideoAlign",
        )

    def _compute(
        self,
        preference,
        score_a,
        score_b,
        aspect,
        no_judgment,
        pair_id,
        cluster,
        folds=5,
        n_resamples=10_000,
        confidence=0.95,
        seed=0,
    ):
        rows = self.given({"aspect": aspect, "no_judgment": no_judgment, "pair_id": pair_id, "cluster": cluster})
        return with_interval_notes(
            videogen_rewardbench.score(
                preference,
                score_a,
                score_b,
                **rows,
                folds=folds,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        )
