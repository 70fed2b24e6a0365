"""The leaderboard shows the robustness summary of verified rows that have one (``side_results``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mmjudge.errors import SchemaError
from mmjudge.leaderboard import Leaderboard, Settings, Store, ingest_demo_output
from mmjudge.leaderboard.board.table import robustness_table
from mmjudge.leaderboard.core.columns import ROBUSTNESS
from mmjudge.robustness import RobustnessOptions, robustness_report
from mmjudge.runner import RunOptions, evaluate_judge


@pytest.fixture
def board(sample_data: Path, tmp_path: Path) -> Leaderboard:
    from mmjudge.scoring import load_reference_rows

    settings = Settings(data_root=sample_data, require_login=False)
    return Leaderboard(Store(tmp_path / "lb.sqlite"), settings, rows_fn=lambda b, folder: load_reference_rows(b, folder))


def _demo_folder(sample_data: Path, root: Path, judge: str, *, robustness: bool) -> Path:
    folder = root / "isovrbench" / judge
    options = RunOptions(progress=False)
    evaluate_judge("isovrbench", judge, sample_data / "isovrbench", folder, options)
    if robustness:
        robustness_report("isovrbench", judge, sample_data / "isovrbench", folder,
                          RobustnessOptions(run=options, probes=("ties", "irrelevant_prompt")))  # fmt: skip
    return folder


def test_ingested_rows_carry_their_summary_and_the_table_shows_it(
    board: Leaderboard, sample_data: Path, tmp_path: Path
) -> None:
    demo = tmp_path / "demo-output"
    folder = _demo_folder(sample_data, demo, "random", robustness=True)
    _demo_folder(sample_data, demo, "frame_smoothness", robustness=False)
    messages = ingest_demo_output(board, demo)
    assert sum("stored" in m for m in messages) == 2, messages
    summary = json.loads((folder / "robustness_summary.json").read_text(encoding="utf-8"))["summary"]
    rows = {s.judge: s for s in board.store.submissions("isovrbench")}
    assert (rows["random"].side_results or {})[ROBUSTNESS] == summary
    assert ROBUSTNESS not in (rows["frame_smoothness"].side_results or {})
    table = robustness_table("isovrbench", board.store.submissions())
    assert [row[2] for row in table.values] == ["random"]  # only the row with a report
    assert table.headers[-2:] == ["ties/tie_rate", "irrelevant_prompt/prompt_drop"]
    tie = summary["ties/tie_rate"]
    assert table.values[0][-2] == round(tie, 4)
    # the sample's two prompts are too few for the tie rate's interval: the cell shows the value alone
    assert "ties/tie_rate_ci_low" not in summary and table.display[0][-2] == f"{tie:.1f} (no CI)"
    board.store.set_hidden(rows["random"].id, True)
    assert robustness_table("isovrbench", board.store.submissions()).values == []


def test_the_app_has_a_robustness_block_only_where_a_row_has_a_summary(
    board: Leaderboard, sample_data: Path, tmp_path: Path
) -> None:
    from mmjudge.leaderboard.app.ui import build_app

    ingest_demo_output(board, tmp_path / "nothing")  # empty store: no block
    ids = {getattr(b, "elem_id", None) for b in build_app(board).blocks.blocks.values()}
    assert "robustness-isovrbench" not in ids
    _demo_folder(sample_data, tmp_path / "demo-output", "random", robustness=True)
    ingest_demo_output(board, tmp_path / "demo-output")
    ids = {getattr(b, "elem_id", None) for b in build_app(board).blocks.blocks.values()}
    assert "robustness-isovrbench" in ids and "robustness-emoprefer" not in ids


def test_a_report_of_another_judge_is_refused(board: Leaderboard, sample_data: Path, tmp_path: Path) -> None:
    folder = _demo_folder(sample_data, tmp_path / "demo-output", "random", robustness=True)
    other = _demo_folder(sample_data, tmp_path / "other", "frame_smoothness", robustness=True)
    shutil.copy(other / "robustness.json", folder / "robustness.json")
    (message,) = ingest_demo_output(board, tmp_path / "demo-output")
    assert "robustness report of 'frame_smoothness' on 'isovrbench', expected 'random'" in message
    with pytest.raises(SchemaError):
        from mmjudge.robustness import read_report

        (folder / "robustness.json").write_text("{}", encoding="utf-8")
        read_report(folder / "robustness.json")
