"""GenAI-Bench (video generation) metric: pairwise accuracy as VideoScore's and VideoScore2's scripts compute it.

A thin shell over :func:`mmjudge.benchmarks.genai_bench_video.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import genai_bench_video
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a video judge on GenAI-Bench's video votes (GenAI Arena): two generated clips of a prompt and a vote
leftvote, rightvote, tievote or bothbad_vote. Per vote: the vote and the judge's scores of the left and right clip.
Accuracy without ties and with ties (the judge's per-judge tie threshold) as VideoScore2's get_pairwise_acc.py
computes it, VideoScore v1's rule with ties, and mmjudge's strict variants that count a pair without a judgment as
wrong (the official scripts skip it). Percentages with 95% CIs.
"""

_CITATION = """\
@article{jiang2024genai,
  title   = {GenAI Arena: An Open Evaluation Platform for Generative Models},
  author  = {Jiang, Dongfu and others},
  journal = {arXiv preprint arXiv:2406.04485},
  year    = {2024}
}
"""

_KWARGS_DESCRIPTION = """\
Args (one entry per vote, lists of equal length):
    preference (`list` of `str`): leftvote, rightvote, tievote or bothbad_vote.
    score_a, score_b (`list` of `float`): the judge's score of the left and of the right clip.
    no_judgment (`list` of `bool`, optional): votes whose clips the judge did not score (skipped by the official keys).
    pair_id (`list`, optional): vote ids (unique).
    cluster (`list`, optional): each vote's prompt.
Optional keyword arguments of `compute`:
    tie_threshold (`float`, default 0): |left - right| <= tie_threshold is the judge's tie (VideoScore2's per-judge value).
    confidence (`float`, default 0.95); n_resamples, seed: checked, no interval depends on them.
Returns:
    accuracy_without_ties, accuracy_with_ties, videoscore_accuracy_with_ties, strict_accuracy_without_ties,
    strict_accuracy_with_ties (each with _ci_low/_ci_high), n, n_human_ties, n_no_judgment, n_tie_votes,
    n_bothbad_votes, tie_threshold, intervals, interval_notes.
"""

_ROWS = {
    "preference": datasets.Value("string"),
    "score_a": datasets.Value("float64"),
    "score_b": datasets.Value("float64"),
    "no_judgment": datasets.Value("bool"),
}
_ID = [datasets.Value("string"), datasets.Value("int64")]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class GenaiBenchVideo(RowColumns, evaluate.Metric):
    """GenAI-Bench (video) pairwise accuracy."""

    optional_columns = ("no_judgment", "pair_id", "cluster")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"pair_id": _ID, "cluster": _ID}),
            reference_urls=["https://arxiv.org/abs/2406.04485", "https://huggingface.co/datasets/TIGER-Lab/GenAI-Bench"],
            codebase_urls=["https://github.com/TIGER-AI-Lab/VideoScore", "https://github.com/TIGER-AI-Lab/VideoScore2"],
            homepage="https://huggingface.co/spaces/TIGER-Lab/GenAI-Arena",
        )

    def _compute(
        self,
        preference,
        score_a,
        score_b,
        no_judgment,
        pair_id,
        cluster,
        tie_threshold=0.0,
        n_resamples=10_000,
        confidence=0.95,
        seed=0,
    ):
        rows = self.given({"no_judgment": no_judgment, "pair_id": pair_id, "cluster": cluster})
        return with_interval_notes(
            genai_bench_video.score(
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
