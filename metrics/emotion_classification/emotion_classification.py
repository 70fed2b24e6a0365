"""Emotion classification metric: UAR, WAR, weighted F1, macro F1 and accuracy.

A thin shell over :func:`mmjudge.stats.classification_summary`; see README.md.
"""

import datasets
import evaluate

from mmjudge.metric_inputs import MissingFirstValueAllowed
from mmjudge.stats import classification_summary

_DESCRIPTION = """\
Classification scores for emotion recognition: unweighted average recall (UAR, the mean of per-class
recalls) and weighted average recall (WAR, equal to accuracy), as DFEW and RAVDESS report them, and
weighted F1, as MER2023 reports it, plus macro F1 and accuracy. All in percent (0-100), higher is better.
"""

_CITATION = """\
@inproceedings{jiang2020dfew,
  title     = {{DFEW}: A Large-Scale Database for Recognizing Dynamic Facial Expressions in the Wild},
  author    = {Jiang, Xingxun and Zong, Yuan and Zheng, Wenming and Tang, Chuangao and Xia, Wanchuang and Lu, Cheng and Liu, Jiateng},
  booktitle = {Proceedings of the 28th ACM International Conference on Multimedia},
  year      = {2020}
}
@inproceedings{lian2023mer,
  title     = {{MER} 2023: Multi-label Learning, Modality Robustness, and Semi-Supervised Learning},
  author    = {Lian, Zheng and others},
  booktitle = {Proceedings of the 31st ACM International Conference on Multimedia},
  year      = {2023}
}
"""

_KWARGS_DESCRIPTION = """\
Args:
    predictions (`list` of `str` or `int`): predicted emotion labels (or class indices).
    references (`list` of `str` or `int`): reference labels, same length and order.
    labels (`list`, optional): the allowed label set; a label outside it raises a ValueError.
Returns:
    accuracy, weighted_f1, macro_f1, uar, war (percentages 0-100, higher is better) and n (items).
"""


def _features(label_type):
    return datasets.Features(
        {"predictions": datasets.Value(label_type), "references": datasets.Value(label_type)}
    )


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class EmotionClassification(MissingFirstValueAllowed, evaluate.Metric):
    """UAR / WAR / weighted F1 for emotion classification."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[_features("string"), _features("int64")],
            reference_urls=["https://scikit-learn.org/stable/api/sklearn.metrics.html"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Refuse empty input with the core's message (evaluate's type inference fails on it)."""
        if (
            predictions is not None
            and references is not None
            and not len(predictions)
            and not len(references)
        ):
            classification_summary(references, predictions)  # raises SchemaError: expected at least one item
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions, references, labels=None):
        return classification_summary(references, predictions, labels=labels).as_dict()
