"""The rows a leaderboard server keeps for scoring: MIST's without the embedded image bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmjudge.leaderboard import Leaderboard, Settings, Store, SubmissionMeta
from mmjudge.predictions import parse_predictions
from mmjudge.scoring import load_reference_rows, score_predictions

from ..app.test_hostile_inputs import _lines


def _is_image(value: object) -> bool:
    return isinstance(value, dict) and set(value) == {"bytes", "path"}


def test_the_server_keeps_mist_rows_without_image_bytes_and_scores_the_same(tmp_path: Path) -> None:
    """The default rows loader (what a Space runs) drops the image bytes from the rows the server keeps
    for its lifetime, keeps every other value, and a submission scores exactly as against the full rows
    ``load_dataset`` gives."""
    from mmjudge.benchmarks import write_sample_data

    root = tmp_path / "labels"
    write_sample_data(root, benchmarks=["mist"])
    full = load_reference_rows("mist", root / "mist")
    images = [k for k, v in full[0].items() if _is_image(v)]
    assert images and all(isinstance(r[k]["bytes"], bytes) for r in full for k in images)  # as loaded

    board = Leaderboard(Store(tmp_path / "lb.sqlite"), Settings(data_root=root, require_login=False))
    kept = board.reference_rows("mist")
    assert all(r[k] == {"bytes": None, "path": f[k]["path"]} for r, f in zip(kept, full, strict=True) for k in images)
    assert [{k: v for k, v in r.items() if k not in images} for r in kept] == [
        {k: v for k, v in r.items() if k not in images} for r in full
    ]
    lines = _lines("mist", {"mist": full})
    stored = board.submit(("\n".join(lines) + "\n").encode(), SubmissionMeta("j", "org/j", "r1"), "local")
    expected = score_predictions(parse_predictions(lines), full, mode="strict")
    assert {k: stored.results[k] for k in expected} == pytest.approx(expected, nan_ok=True)
