"""MIST metric: does an image change a judge's idiom label (FF / WF / FL / LL)?

A thin shell over :func:`mmjudge.benchmarks.mist.score`; see README.md.
"""

import datasets
import evaluate

from mmjudge.benchmarks import mist
from mmjudge.metric_inputs import RowColumns, with_interval_notes

_DESCRIPTION = """\
Scores judge labels on MIST (Misleading-Image Stress Test): 200 idiom sentences labelled FF, WF, FL
or LL (ordinal 0..3) with no image, an aligned image or a misleading image, with the judge told to
ignore the image (explicit arm) or not told (silent arm, the control). Reports change rates, the
direction of changes (pooled, and the mean over judges), the drift decomposition per sentence type and
prompt and, given human labels, agreement with the trio majority, Fleiss' kappa per trio and the
alt-test per trio on all / aligned / misleading items. Rates are percentages with 95% CIs over items
(a cluster jackknife; none under 5 items).
"""

_CITATION = """\
@misc{mist2026,
  title = {MIST: a Misleading-Image Stress Test for multimodal judges},
  year  = {2026},
  note  = {arXiv:2609.37863 (see the arXiv page for the full title and author list)}
}
"""

_KWARGS_DESCRIPTION = """\
Args (one row per judge label; all lists of equal length; give them to `compute`, or to `add_batch`/`add`
then `compute()`):
    predictions (`list` of `str`): FF, WF, FL or LL; None for a cell the judge gave no label for.
    item_ids (`list` of `str`): item id.
    image_conditions (`list` of `str`): none (text only), aligned or misleading.
    arms (`list` of `str`): explicit (told to ignore the image) or silent; none for text-only rows.
    prompt_strategies (`list` of `str`): the grid's zero_shot, few_shot, cot, few_shot_cot (any names are
        scored; `mmjudge eval` and the leaderboard use these four).
    judges (`list` of `str`, optional): judge name per row.
Optional keyword arguments of `compute` (tables of their own lengths, and settings):
    meta_item_ids, meta_cells (T1..T4), meta_trios, meta_sentence_senses: item metadata.
    human_item_ids, human_annotators, human_labels: human labels. epsilons (trio -> alt-test epsilon),
    confidence (level of every CI), n_resamples and seed (checked; no CI depends on them), q,
    min_humans_per_instance, min_instances_per_human (alt-test). mode: "official" (default; cells without a label are left out) or
    "strict" (a missing label counts as changed and as a disagreement; the leaderboard ranks in strict mode).
Returns:
    A flat dict of percentages (0-100), drift in label steps, kappa, their CIs and counts, and
    interval_notes (a string: the thin and withheld intervals, "" when none); see README.md for every key.
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Mist(RowColumns, evaluate.Metric):
    """MIST judge-label measures."""

    optional_columns = ("judges",)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Value("string"),
                    "item_ids": datasets.Value("string"),
                    "image_conditions": datasets.Value("string"),
                    "arms": datasets.Value("string"),
                    "prompt_strategies": datasets.Value("string"),
                    "judges": datasets.Value("string"),
                }
            ),
            homepage="https://arxiv.org/abs/2609.37863",
            reference_urls=["https://arxiv.org/abs/2609.37863", "https://arxiv.org/abs/2501.10970"],
        )

    def _compute(
        self,
        predictions,
        item_ids,
        image_conditions,
        arms,
        prompt_strategies,
        judges,
        meta_item_ids=None,
        meta_cells=None,
        meta_trios=None,
        meta_sentence_senses=None,
        human_item_ids=None,
        human_annotators=None,
        human_labels=None,
        epsilons=None,
        n_resamples=2000,
        confidence=0.95,
        seed=0,
        q=0.05,
        min_humans_per_instance=2,
        min_instances_per_human=30,
        mode="official",
    ):
        return with_interval_notes(
            mist.score(
                item_ids=item_ids,
                image_conditions=image_conditions,
                arms=arms,
                prompt_strategies=prompt_strategies,
                predictions=predictions,
                judges=self.given({"judges": judges})["judges"],
                meta_item_ids=meta_item_ids,
                meta_cells=meta_cells,
                meta_trios=meta_trios,
                meta_sentence_senses=meta_sentence_senses,
                human_item_ids=human_item_ids,
                human_annotators=human_annotators,
                human_labels=human_labels,
                epsilons=epsilons,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
                q=q,
                min_humans_per_instance=min_humans_per_instance,
                min_instances_per_human=min_instances_per_human,
                mode=mode,
            )
        )
