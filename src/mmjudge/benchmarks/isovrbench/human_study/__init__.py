"""Validating intervention pairs with people, once per intervention, as the IsoVRBench paper did.

``make_study`` draws pairs per intervention (default 45) plus control pairs that show one clip on both
sides (default 8 per intervention), randomises sides and order and writes a study folder;
:mod:`mmjudge.benchmarks.isovrbench.human_study.app` serves it to annotators (Gradio; answers in SQLite, resumable per
annotator); ``score_study`` measures agreement with the intervention label on the targeted dimension,
control ties and Fleiss' kappa, and ``human_row`` turns the result into a leaderboard row.

Importing this package does not import gradio (the app module does).
"""

from __future__ import annotations

from mmjudge.benchmarks.isovrbench.human_study._answers import Answer, AnswerStore, check_annotator
from mmjudge.benchmarks.isovrbench.human_study._make import make_study
from mmjudge.benchmarks.isovrbench.human_study._report import (
    HUMAN_JUDGE,
    answers_digest,
    human_row,
    report_markdown,
    write_outputs,
)
from mmjudge.benchmarks.isovrbench.human_study._score import (
    StudyScore,
    annotation_verdict,
    majority_verdict,
    score_study,
)
from mmjudge.benchmarks.isovrbench.human_study._study import ANSWERS, QUESTIONS, Study, StudyItem, load_study

__all__ = [
    "ANSWERS",
    "HUMAN_JUDGE",
    "QUESTIONS",
    "Answer",
    "AnswerStore",
    "Study",
    "StudyItem",
    "StudyScore",
    "annotation_verdict",
    "answers_digest",
    "check_annotator",
    "human_row",
    "load_study",
    "majority_verdict",
    "make_study",
    "report_markdown",
    "score_study",
    "write_outputs",
]
