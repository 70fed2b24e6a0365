"""``mmjudge human-study make``: pairs and controls drawn per intervention, sides and order randomised."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mmjudge.benchmarks.isovrbench import DIMENSIONS, INTERVENTIONS
from mmjudge.benchmarks.isovrbench.human_study import load_study, make_study
from mmjudge.cli import main
from mmjudge.errors import ConfigError, MediaError, SchemaError

from .conftest import PAIRS_PER_INTERVENTION


def test_each_intervention_gets_its_pairs_and_controls(pair_table: Path, tmp_path: Path) -> None:
    study = make_study(
        pair_table, tmp_path / "study", pairs_per_intervention=3, controls_per_intervention=2, seed=1
    )
    kinds = Counter((item.intervention, item.kind) for item in study.items)
    assert kinds == {(iv, kind): n for iv in INTERVENTIONS for kind, n in (("pair", 3), ("control", 2))}
    target = {iv: dim for dim, members in DIMENSIONS.items() for iv in members}
    assert all(item.dimension == target[item.intervention] for item in study.items)
    pairs = [item for item in study.items if item.kind == "pair"]
    controls = [item for item in study.items if item.kind == "control"]
    assert {item.anchor_side for item in pairs} == {"left", "right"}  # sides randomised
    assert all(item.left != item.right for item in pairs)
    assert all(item.left == item.right and item.anchor_side is None for item in controls)
    assert [item.item_id for item in study.items] == [f"q{i:04d}" for i in range(1, 41)]
    shown = [item.intervention for item in study.items]
    assert shown != sorted(shown, key=INTERVENTIONS.index)  # order randomised, not grouped
    assert load_study(study.folder).items == study.items


def test_clip_names_do_not_tell_the_anchor(pair_table: Path, tmp_path: Path) -> None:
    study = make_study(pair_table, tmp_path / "study", pairs_per_intervention=2, controls_per_intervention=1)
    names = {p for item in study.items for p in (item.left, item.right)}
    assert all(name.startswith("media/") and len(Path(name).stem) == 16 for name in names)
    assert not any(word in name for name in names for word in ("anchor", *INTERVENTIONS))
    assert all((study.folder / name).is_file() for name in names)
    source = {item.pair_id: item for item in study.items if item.kind == "pair"}
    for item in source.values():  # the anchor side really holds the anchor's bytes
        anchor = item.left if item.anchor_side == "left" else item.right
        prompt = item.pair_id.split("_")[0]
        assert (study.folder / anchor).read_bytes() == (
            pair_table / f"clips/{prompt}/anchor.mp4"
        ).read_bytes()


def test_the_same_seed_makes_the_same_study(pair_table: Path, tmp_path: Path) -> None:
    one = make_study(pair_table, tmp_path / "a", pairs_per_intervention=2, seed=3)
    two = make_study(pair_table, tmp_path / "b", pairs_per_intervention=2, seed=3)
    other = make_study(pair_table, tmp_path / "c", pairs_per_intervention=2, seed=4)
    assert one.items == two.items and one.items != other.items


def test_fewer_pairs_than_asked_uses_them_all(
    pair_table: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    study = make_study(pair_table, tmp_path / "study")  # the paper's 45 + 8 per intervention
    assert study.meta["counts"]["frame_hold"] == {"pairs": PAIRS_PER_INTERVENTION, "controls": PAIRS_PER_INTERVENTION,
                                                  "available": PAIRS_PER_INTERVENTION}  # fmt: skip
    assert "fewer than the 45 asked for" in caplog.text


def test_bad_inputs_are_refused(pair_table: Path, tmp_path: Path) -> None:
    (tmp_path / "exists").mkdir()
    with pytest.raises(ConfigError, match="exists"):
        make_study(pair_table, tmp_path / "exists")
    table = tmp_path / "bad.csv"
    table.write_text(
        "pair_id,prompt,intervention,video_chosen,video_rejected\nx,p,frame_hold,../a.mp4,b.mp4\n"
    )
    with pytest.raises(SchemaError, match="escapes"):
        make_study(table, tmp_path / "s1", media_root=pair_table)
    table.write_text(
        "pair_id,prompt,intervention,video_chosen,video_rejected\nx,p,frame_hold,nope.mp4,b.mp4\n"
    )
    with pytest.raises(MediaError, match="2 clips are missing"):
        make_study(table, tmp_path / "s2")
    table.write_text("pair_id,prompt,intervention,video_chosen\nx,p,frame_hold,a.mp4\n")
    with pytest.raises(SchemaError, match="missing columns \\['video_rejected'\\]"):
        make_study(table, tmp_path / "s3")


def test_the_command_writes_the_study(
    pair_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["human-study", "make", "--pairs", str(pair_table), "--out", str(tmp_path / "s"),
            "--pairs-per-intervention", "1", "--controls-per-intervention", "1"]  # fmt: skip
    assert main(argv) == 0
    assert "16 items (8 pairs, 8 controls)" in capsys.readouterr().out
    meta = json.loads((tmp_path / "s" / "study.json").read_text())
    assert meta["questions"].keys() == {"visual", "motion", "text"}
