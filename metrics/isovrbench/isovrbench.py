"""IsoVRBench metric: pairwise accuracy per intervention, ties and missing judgments counted wrong.

A thin shell over :func:`mmjudge.benchmarks.isovrbench.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import isovrbench
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores a video judge on IsoVRBench pairs (an anchor clip and a counterpart made from it by one
controlled intervention; the anchor is always preferred). Per intervention: accuracy with ties and
missing judgments counted wrong (the paper's Table 2 rule), accuracy over decided pairs (Table 5), tie
and no-judgment rates, VideoAlign's accuracy w/o ties (VideoGen-RewardBench), counts; then
per-dimension means, the average over the interventions present, the mean decided accuracy (Table 5
"Avg."). All rates are percentages with 95% CIs: Wilson over independent pairs, else (pairs sharing an
anchor prompt, and the means over interventions) Wilson on the effective sample size of a cluster
jackknife with a t quantile; none under 5 clusters.
"""

_CITATION = """\
@misc{isovrbench2026,
  title  = {IsoVRBench},
  author = {Li and others},
  year   = {2026},
  note   = {see the IsoVRBench paper for the full reference}
}
"""

_KWARGS_DESCRIPTION = """\
Args (per pair, all lists of equal length; give them to `compute`, or to `add_batch`/`add` then `compute()`):
    intervention (`list` of `str`): intervention id per pair: temporal_shuffle, frame_hold,
        motion_regen, attribute_edit, reduced_steps, i2v_continuation, t2v_5b or t2v_1_3b.
    score_chosen, score_rejected (`list` of `float`, optional): the judge's score of the anchor and of
        the intervened clip; give both, or `choice`.
    choice (`list` of `str`, optional): chosen, rejected, tie or none per pair.
    no_judgment (`list` of `bool`, optional): with scores, marks pairs the judge did not score.
    pair_id (`list`, optional): pair ids; duplicates are refused.
    cluster (`list`, optional): each pair's anchor prompt (or any cluster id): the pairs of one cluster are
        one independent draw, so the intervals allow for what they share. Without it pairs are independent.
Optional keyword arguments of `compute`:
    tie_tolerance (`float`, default 0): |chosen - rejected| <= tie_tolerance is a tie.
    confidence (`float`, default 0.95): the level of every CI. n_resamples (`int`, default 10000), seed
    (`int`, default 0): checked, but no CI depends on them (closed forms, present with n_resamples=0).
Returns:
    accuracy/<intervention>, decided_accuracy/<intervention>, tie_rate/<intervention>,
    no_judgment_rate/<intervention>, vgrb_accuracy/<intervention>, counts,
    dimension_accuracy/<dimension>, average, decided_average, decided_accuracy_pooled, pooled rates,
    each with <key>_ci_low and <key>_ci_high; n_pairs, tie_tolerance; intervals (how each CI was made);
    interval_notes (a string: the thin and withheld intervals, "" when none).
Examples:
    >>> metric = evaluate.load("metrics/isovrbench")  # doctest: +SKIP
    >>> metric.compute(intervention=["frame_hold"], score_chosen=[0.9], score_rejected=[0.2])  # doctest: +SKIP
"""


_ROWS = {
    "intervention": datasets.Value("string"),
    "score_chosen": datasets.Value("float64"),
    "score_rejected": datasets.Value("float64"),
    "choice": datasets.Value("string"),
    "no_judgment": datasets.Value("bool"),
}
_ID = [datasets.Value("string"), datasets.Value("int64")]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Isovrbench(RowColumns, evaluate.Metric):
    """IsoVRBench pairwise accuracy."""

    optional_columns = ("score_chosen", "score_rejected", "choice", "no_judgment", "pair_id", "cluster")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"pair_id": _ID, "cluster": _ID}),
            reference_urls=["https://github.com/KwaiVGI/VideoAlign", "https://arxiv.org/abs/2501.13918"],
        )

    def _compute(
        self,
        intervention,
        score_chosen,
        score_rejected,
        choice,
        no_judgment,
        pair_id,
        cluster,
        tie_tolerance=0.0,
        n_resamples=10_000,
        confidence=0.95,
        seed=0,
    ):
        rows = self.given(
            {
                "score_chosen": score_chosen,
                "score_rejected": score_rejected,
                "choice": choice,
                "no_judgment": no_judgment,
                "pair_id": pair_id,
                "cluster": cluster,
            }
        )
        return with_interval_notes(
            isovrbench.score(
                intervention,
                **rows,
                tie_tolerance=tie_tolerance,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        )
