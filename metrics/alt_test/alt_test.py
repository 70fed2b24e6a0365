"""Alt-test metric: can an LLM judge replace the human annotators of a labelling task?

A thin shell over :func:`mmjudge.stats.alt_test_from_rows`; see README.md.
"""

import datasets
import evaluate

from mmjudge.metric_inputs import MissingFirstValueAllowed
from mmjudge.stats import alt_test_from_rows

_DESCRIPTION = """\
The alternative annotator test (alt-test; Calderon, Reichart and Dror, ACL 2025) asks whether a judge
(an LLM or any automatic annotator) can replace a pool of human annotators. Leaving one annotator out at
a time, it compares how well the judge and the left-out annotator agree with the remaining annotators,
tests per annotator whether the judge wins by more than a cost-benefit margin epsilon (one-sided t-test),
corrects with Benjamini-Yekutieli and reports the winning rate (pass iff >= 50%) and the advantage
probability (to compare judges), both in percent.
"""

_CITATION = """\
@inproceedings{calderon-etal-2025-alternative,
  title     = {The Alternative Annotator Test for {LLM}-as-a-Judge: How to Statistically Justify Replacing Human Annotators with {LLM}s},
  author    = {Calderon, Nitay and Reichart, Roi and Dror, Rotem},
  booktitle = {Proceedings of the 63rd Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)},
  year      = {2025},
  pages     = {16051--16081},
  url       = {https://aclanthology.org/2025.acl-long.782/}
}
"""

_KWARGS_DESCRIPTION = """\
Args (long format, one row per human label; all lists of equal length):
    item_ids (`list` of `str`): the item each row belongs to.
    annotators (`list` of `str`): the human annotator of the row.
    references (`list` of `str` or `float`): the annotator's label.
    predictions (`list` of `str` or `float`): the judge's label for the item, repeated on every row of
        the item (None when the judge gave no label).
Optional keyword arguments:
    scoring (`str`): "accuracy" (exact match, default), "neg_rmse" or "neg_mae" (numeric labels).
    epsilon (`float`): cost-benefit margin, default 0.2 (experts); 0.15 skilled, 0.1 crowd workers.
    q (`float`): Benjamini-Yekutieli false discovery rate, default 0.05.
    min_humans_per_instance (`int`): default 2. min_instances_per_human (`int`): default 30.
Returns:
    winning_rate, advantage_probability (percentages 0-100, higher is better), passed, the settings, counts of
    tested and dropped annotators and dropped items, and per annotator p_value/<id>, rejected/<id>,
    advantage_probability/<id>, n_items/<id>.
"""


def _features(label_type):
    return datasets.Features(
        {
            "item_ids": datasets.Value("string"),
            "annotators": datasets.Value("string"),
            "references": datasets.Value(label_type),
            "predictions": datasets.Value(label_type),
        }
    )


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class AltTest(MissingFirstValueAllowed, evaluate.Metric):
    """The alt-test of a judge against human annotators."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[_features("string"), _features("float64")],
            homepage="https://aclanthology.org/2025.acl-long.782/",
            codebase_urls=["https://github.com/nitaytech/AltTest"],
            reference_urls=["https://arxiv.org/abs/2501.10970", "https://aclanthology.org/2025.acl-long.782/"],
        )

    def _compute(
        self,
        item_ids,
        annotators,
        references,
        predictions,
        scoring="accuracy",
        epsilon=0.2,
        q=0.05,
        min_humans_per_instance=2,
        min_instances_per_human=30,
    ):
        return alt_test_from_rows(
            item_ids,
            annotators,
            references,
            predictions,
            scoring=scoring,
            epsilon=epsilon,
            q=q,
            min_humans_per_instance=min_humans_per_instance,
            min_instances_per_human=min_instances_per_human,
        ).as_dict()
