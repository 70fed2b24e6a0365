"""EmoReAlM metric: per-task accuracy of lettered answers, yes/no accuracies, unweighted overall mean.

A thin shell over :func:`mmjudge.benchmarks.emorealm.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import emorealm
from mmjudge.metric_inputs import RowColumns, feature_sets, with_interval_notes

_DESCRIPTION = """\
Scores raw model responses on EmoReAlM (AVERE, arXiv 2602.07054), the audiovisual emotion reasoning
benchmark, with the official answer matcher: a response is correct iff the gold letter occurs in it as a
whole word, optionally bracketed (so the English article "a" counts as A). Per-task accuracy, the
unweighted mean over tasks, and on the yes/no tasks the accuracies on gold-Yes and gold-No items (the
paper's "precision" and "recall"), their F1 and the Yes rate. Only None is a missing output (an empty
response is an answer, as in the official code); `mode="strict"` counts missing outputs as wrong (the
official code skips them); an opt-in stricter parser is available. Percentages, each with a 95% CI
(Wilson over independent questions for proportions; Wilson on the effective sample size of a cluster
jackknife, t quantile, for `overall`, the yes/no F1 and rates over clips; none under 5 clips).
"""

_CITATION = """\
@misc{avere2026,
  title = {AVERE (EmoReAlM benchmark)},
  year  = {2026},
  note  = {arXiv:2602.07054 (see the arXiv page for the title and author list)}
}
"""

_KWARGS_DESCRIPTION = """\
Args (per question, all lists of equal length; give them to `compute`, or to `add_batch`/`add` then
`compute()`):
    predictions (`list` of `str`): raw model responses; None is a missing output ("" is an answer).
    references (`list` of `str`): gold letters.
    tasks (`list` of `str`): reasoning_basic_audio, reasoning_basic_video, reasoning_stress_audio,
        reasoning_stress_video or modality_agreement.
    choices (`list` of `list` of `str`, optional): the lettered choices per item, e.g.
        ["(A) Yes", "(B) No"]; they say which gold letter means Yes.
    gold_is_yes (`list` of `bool` or None, optional): overrides the Yes/No reading of the gold.
    ids (`list` of `str` or `int`, optional): item ids; duplicates are refused.
    clusters (`list` of `str` or `int`, optional): the clip of each question: its questions are one
        independent draw (without it questions are independent and rates get Wilson intervals).
Optional keyword arguments of `compute`:
    mode (`str`, default "official"): "official" skips missing outputs, "strict" counts them wrong.
    matcher (`str`, default "official"): "official", "official_parse" (needs choices) or "explicit".
    confidence (`float`, default 0.95): the level of every CI. n_resamples (`int`, default 10000), seed
    (`int`, default 0): checked, but no CI depends on them (closed forms, present with n_resamples=0).
Returns:
    accuracy/<task>, n/<task>, n_correct/<task>, n_missing/<task>; yes_accuracy/<task>,
    no_accuracy/<task>, yes_no_f1/<task>, yes_rate/<task>, n_yes/<task>, n_no/<task> on yes/no tasks;
    overall, n_items, n_missing, mode, matcher; every score with <key>_ci_low and <key>_ci_high;
    interval_notes (a string: the thin and withheld intervals, "" when none).
Examples:
    >>> metric = evaluate.load("metrics/emorealm")  # doctest: +SKIP
    >>> metric.compute(predictions=["(B)"], references=["B"], tasks=["reasoning_basic_audio"])  # doctest: +SKIP
"""


_ROWS = {
    "predictions": datasets.Value("string"),
    "references": datasets.Value("string"),
    "tasks": datasets.Value("string"),
    "choices": datasets.Sequence(datasets.Value("string")),
    "gold_is_yes": datasets.Value("bool"),
}
_ID = [datasets.Value("string"), datasets.Value("int64")]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Emorealm(RowColumns, evaluate.Metric):
    """EmoReAlM answer accuracy."""

    optional_columns = ("choices", "gold_is_yes", "ids", "clusters")

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=feature_sets(_ROWS, {"ids": _ID, "clusters": _ID}),
            homepage="https://arxiv.org/abs/2602.07054",
            codebase_urls=["https://github.com/avere-iclr"],
            reference_urls=["https://arxiv.org/abs/2602.07054"],
        )

    def _compute(
        self,
        predictions,
        references,
        tasks,
        choices,
        gold_is_yes,
        ids,
        clusters,
        mode="official",
        matcher="official",
        n_resamples=10_000,
        confidence=0.95,
        seed=0,
    ):
        rows = self.given({"choices": choices, "gold_is_yes": gold_is_yes, "ids": ids, "clusters": clusters})
        return with_interval_notes(
            emorealm.score(
                predictions,
                references,
                tasks,
                **rows,
                mode=mode,
                matcher=matcher,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
            )
        )
