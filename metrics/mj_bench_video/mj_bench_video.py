"""MJ-Bench-Video metric: overall and per-aspect preference accuracy without and with ties.

A thin shell over :func:`mmjudge.benchmarks.mj_bench_video.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import mj_bench_video
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a video judge on MJ-Bench-Video: two generated clips of a caption and human labels Video 1 better, Video 2
better, Same or Hard to judge, overall and on five aspects. One entry per pair and aspect: the label and the
judge's scores of video_0 and video_1 at the aspect's head. Accuracy without ties (Same dropped, a zero difference
wrong) and with ties (|difference| <= tie_threshold is the judge's Same), as VideoScore2's script computes it (no
official video scoring code is public), pairs without a judgment skipped, and strict variants counting them wrong.
"""

_CITATION = """\
@article{tong2025mjvideo,
  title   = {MJ-VIDEO: Fine-Grained Benchmarking and Rewarding Video Preferences in Video Generation},
  author  = {Tong, Haibo and others},
  journal = {arXiv preprint arXiv:2502.01719},
  year    = {2025}
}
"""

_KWARGS_DESCRIPTION = """\
Args (one entry per pair and aspect, lists of equal length):
    preference (`list` of `str`): Video 1 better, Video 2 better, Same or Hard to judge (left out of every key).
    score_a, score_b (`list` of `float`): the judge's score of video_0 and of video_1 at the aspect's head.
    aspect (`list` of `str`, optional): Overall, Alignment, Safety, Fineness, Coherence & Consistency or Bias
        (default: every entry Overall).
    no_judgment (`list` of `bool`, optional): entries the judge did not score.
    pair_id (`list`, optional): pair ids; (pair_id, aspect) must be unique.
    cluster (`list`, optional): each pair's caption.
Optional keyword arguments of `compute`:
    tie_threshold (`float`, default 0): the judge's tie threshold with ties.
    confidence (`float`, default 0.95); n_resamples, seed: checked, no interval depends on them.
Returns:
    accuracy_without_ties/<aspect>, accuracy_with_ties/<aspect>, strict_accuracy_without_ties/<aspect>,
    strict_accuracy_with_ties/<aspect> (each with _ci_low/_ci_high), n/<aspect>, n_human_ties/<aspect>,
    n_no_judgment/<aspect>, n_hard_to_judge/<aspect>, tie_threshold, intervals, interval_notes.
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
class MjBenchVideo(RowColumns, evaluate.Metric):
    """MJ-Bench-Video preference accuracy."""

    optional_columns = ("aspect", "no_judgment", "pair_id", "cluster")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"pair_id": _ID, "cluster": _ID}),
            reference_urls=["https://arxiv.org/abs/2502.01719", "https://huggingface.co/datasets/MJ-Bench/MJ-BENCH-VIDEO"],
            codebase_urls=["https://github.com/aiming-lab/MJ-Video", "https://github.com/TIGER-AI-Lab/VideoScore2"],
            homepage="https://aiming-lab.github.io/MJ-VIDEO.github.io/",
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
        tie_threshold=0.0,
        n_resamples=10_000,
        confidence=0.95,
        seed=0,
    ):
        rows = self.given({"aspect": aspect, "no_judgment": no_judgment, "pair_id": pair_id, "cluster": cluster})
        return with_interval_notes(
            mj_bench_video.score(
                preference,
                score_a,
                score_b,
                **rows,
                tie_threshold=tie_threshold,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        )
