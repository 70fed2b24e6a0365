"""The toy metric: a thin evaluate shell over ``toybench.score``, written like ``metrics/<id>/<id>.py``."""

import datasets
import evaluate
import toybench


class Toy(evaluate.Metric):
    """Accuracy of answer letters."""

    def _info(self):
        return evaluate.MetricInfo(
            description="toy accuracy",
            citation="",
            inputs_description="predictions, references",
            features=datasets.Features(
                {"predictions": datasets.Value("string"), "references": datasets.Value("string")}
            ),
        )

    def _compute(self, predictions, references):
        return toybench.score(predictions, references)
