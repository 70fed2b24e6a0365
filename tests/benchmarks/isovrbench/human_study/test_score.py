"""``mmjudge human-study score`` against a hand computation: three annotators on five pairs and two controls.

Each pair's verdicts on its targeted dimension (+1 anchor, -1 counterpart, 0 same; for t2v_5b the sign of
the sum of the three answers, given as (visual, motion, text) with L/S/R for left/same/right):

- fh1, frame_hold, anchor left: motion left +1 / left +1 / same 0 -> majority +1 (chosen)
- fh2, frame_hold, anchor right: motion left -1 / right +1 / same 0 -> no majority (tie)
- ae1, attribute_edit, anchor left: text left +1 / left +1 / right -1 -> +1 (chosen)
- t1, t2v_5b, anchor right: (R,S,L) 0 / (R,R,R) +1 / (R,L,L) -1 -> no majority (tie)
- t2, t2v_5b, anchor left: (L,L,S) +1 / (L,S,S) +1 / (R,S,S) -1 -> +1 (chosen)

Pair verdicts: frame_hold 1 of 2, attribute_edit 1 of 1, t2v_5b 1 of 2 -> 50, 100, 50, average 66.67.
Per answer: frame_hold 3 of 6, attribute_edit 2 of 3, t2v_5b 3 of 6. Controls: 4 of 6 answers "same" on
all three questions; visual 5/6, motion 5/6, text 6/6. Fleiss' kappa (n = 3 raters, categories chosen,
rejected, tie): P_i = 1/3, 0, 1/3, 0, 1/3 -> P = 0.2; p = (8, 4, 3) / 15 -> P_e = 89/225;
kappa = (0.2 - 89/225) / (1 - 89/225) = -0.32353.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.benchmarks.isovrbench.human_study import (
    Answer,
    AnswerStore,
    Study,
    StudyItem,
    human_row,
    score_study,
    write_outputs,
)
from mmjudge.benchmarks.isovrbench.human_study._study import write_study

ITEMS = [
    StudyItem("fh1", "pair", "p1_frame_hold", "frame_hold", "motion", "x", "a.mp4", "b.mp4", "left"),
    StudyItem("fh2", "pair", "p2_frame_hold", "frame_hold", "motion", "x", "b.mp4", "a.mp4", "right"),
    StudyItem("ae1", "pair", "p1_attribute_edit", "attribute_edit", "text", "x", "a.mp4", "b.mp4", "left"),
    StudyItem("t1", "pair", "p1_t2v_5b", "t2v_5b", "overall", "x", "b.mp4", "a.mp4", "right"),
    StudyItem("t2", "pair", "p2_t2v_5b", "t2v_5b", "overall", "x", "a.mp4", "b.mp4", "left"),
    StudyItem(
        "c1", "control", "p1_frame_hold", "frame_hold", "motion", "x", "a.mp4", "a.mp4", None, "anchor"
    ),
    StudyItem("c2", "control", "p2_t2v_5b", "t2v_5b", "overall", "x", "b.mp4", "b.mp4", None, "counterpart"),
]
S, L, R = "same", "left", "right"
ANSWERS = {  # item -> annotator -> (visual, motion, text)
    "fh1": {"A": (S, L, S), "B": (S, L, S), "C": (L, S, S)},
    "fh2": {"A": (S, L, S), "B": (S, R, S), "C": (R, S, L)},
    "ae1": {"A": (S, S, L), "B": (R, S, L), "C": (S, S, R)},
    "t1": {"A": (R, S, L), "B": (R, R, R), "C": (R, L, L)},
    "t2": {"A": (L, L, S), "B": (L, S, S), "C": (R, S, S)},
    "c1": {"A": (S, S, S), "B": (S, L, S), "C": (S, S, S)},
    "c2": {"A": (S, S, S), "B": (S, S, S), "C": (R, S, S)},
}


@pytest.fixture
def study(tmp_path: Path) -> Study:
    study = write_study(tmp_path / "study", {"name": "hand"}, ITEMS)
    store = AnswerStore(study.answers_path)
    for item_id, by in ANSWERS.items():
        for annotator, (visual, motion, text) in by.items():
            store.record(annotator, item_id, {"visual": visual, "motion": motion, "text": text})
    return study


def _wilson(k: int, n: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    return 100 * low, 100 * high


def test_agreement_per_intervention_matches_the_hand_computation(study: Study) -> None:
    score = score_study(study, n_resamples=0)
    r = score.results
    assert (r["accuracy/frame_hold"], r["accuracy/attribute_edit"], r["accuracy/t2v_5b"]) == (
        50.0,
        100.0,
        50.0,
    )
    assert (r["n/frame_hold"], r["n_tie/frame_hold"], r["n_tie/t2v_5b"]) == (2, 1, 1)
    assert r["average"] == pytest.approx(200 / 3)
    assert "accuracy/frame_hold_ci_low" not in r  # two pairs: no interval, and the record says why
    assert r.intervals["accuracy/frame_hold"]["method"] == "none: no interval: 2 pairs (at least 5 needed)"
    assert r["dimension_accuracy/overall"] == 50.0 and "accuracy/motion_regen" not in r
    x = score.extra
    assert x["annotation_agreement/frame_hold"] == 50.0 and x["n_annotations/frame_hold"] == 6
    assert x["annotation_agreement/attribute_edit"] == pytest.approx(200 / 3)
    assert x["annotation_agreement/t2v_5b"] == 50.0
    assert (
        x["annotation_agreement/attribute_edit_ci_low"],
        x["annotation_agreement/attribute_edit_ci_high"],
    ) == pytest.approx(_wilson(2, 3))
    assert score.annotators == ("A", "B", "C") and score.unanswered == {"pair": 0, "control": 0}


def test_control_tie_rates_match_the_hand_computation(study: Study) -> None:
    x = score_study(study, n_resamples=0).extra
    assert x["n_control_answers"] == 6
    assert x["control_tie_rate"] == pytest.approx(400 / 6)
    assert (x["control_tie_rate_ci_low"], x["control_tie_rate_ci_high"]) == pytest.approx(_wilson(4, 6))
    assert x["control_same_rate/visual"] == pytest.approx(500 / 6)
    assert x["control_same_rate/motion"] == pytest.approx(500 / 6)
    assert x["control_same_rate/text"] == 100.0


def test_fleiss_kappa_matches_the_hand_computation(study: Study) -> None:
    expected = (0.2 - 89 / 225) / (1 - 89 / 225)
    point = score_study(study, n_resamples=0).extra
    assert point["fleiss_kappa"] == pytest.approx(expected) == pytest.approx(-0.32353, abs=1e-5)
    assert (point["kappa_items"], point["kappa_raters"]) == (5, 3)
    with_ci = score_study(study, n_resamples=500).extra
    assert with_ci["fleiss_kappa_ci_low"] <= expected <= with_ci["fleiss_kappa_ci_high"]
    assert "average_ci_low" in score_study(study, n_resamples=500).results


def test_one_annotator_per_pair_is_the_papers_count(tmp_path: Path) -> None:
    """45 rated pairs, 42 agreeing: 93.3%, the paper's printed 93 for frame_hold."""
    items = [
        StudyItem(f"q{i}", "pair", f"p{i}", "frame_hold", "motion", "x", "a", "b", "left") for i in range(45)
    ]
    study = write_study(tmp_path / "s", {"name": "one"}, items)
    answers = [Answer("solo", f"q{i}", "same", "left" if i >= 3 else "right", "same") for i in range(45)]
    score = score_study(study, answers, n_resamples=0)
    assert round(score.results["accuracy/frame_hold"]) == 93 and score.results["n_correct/frame_hold"] == 42
    assert score.extra["fleiss_kappa"] is None and score.extra["kappa_items"] == 0


def test_the_human_row_goes_into_the_leaderboard(study: Study, tmp_path: Path) -> None:
    from mmjudge.cli import main
    from mmjudge.leaderboard import Store, build_table

    db = tmp_path / "lb.sqlite"
    out = tmp_path / "scores"
    assert (
        main(
            [
                "human-study",
                "score",
                str(study.folder),
                "--out",
                str(out),
                "--resamples",
                "200",
                "--leaderboard",
                str(db),
            ]
        )
        == 0
    )
    row = json.loads((out / "human_row.json").read_text())
    assert (row["judge"], row["kind"], row["benchmark"]) == ("Human raters", "verified", "isovrbench")
    assert row["results"]["accuracy/attribute_edit"] == 100.0
    (stored,) = Store(db).submissions("isovrbench")
    assert stored.kind == "verified" and stored.judge == "Human raters" and stored.sha256
    table = build_table("isovrbench", [stored])
    assert "Human raters" in json.dumps(table.gradio_value(), default=str)
    report = (out / "report.md").read_text()
    assert "| frame_hold | 2 | 50.0 |" in report  # two pairs: no interval
    withheld = report.split("Withheld: ", 1)[1]
    assert withheld.startswith("accuracy/frame_hold, ") and "no interval: 2 pairs (at least 5 needed)" in withheld
    assert human_row(score_study(study, n_resamples=0), study, kind="reported")["revision"] == ""
    write_outputs(score_study(study, n_resamples=0), study, tmp_path / "again", kind="reported")
    assert json.loads((tmp_path / "again" / "human_row.json").read_text())["kind"] == "reported"
