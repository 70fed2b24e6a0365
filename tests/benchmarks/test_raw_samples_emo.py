"""Sample raw writers for EmoPrefer and EmoReAlM: real raw formats, deterministic, every label/task."""

from __future__ import annotations

import json

import pytest

from mmjudge.benchmarks import build_dataset
from mmjudge.benchmarks.emoprefer import sample as emoprefer
from mmjudge.benchmarks.emorealm import sample as emorealm
from mmjudge.benchmarks.emorealm.scoring import TASKS
from mmjudge.errors import ConfigError


def _texts(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in folder.rglob("*")
        if p.suffix in {".csv", ".json"}
    }


def _folder(raw):
    return raw.source.parent if raw.source.is_file() else raw.source


@pytest.mark.parametrize("module", [emoprefer, emorealm])
def test_deterministic_and_size_checked(tmp_path, module):
    a, b, c = (module.write_raw(tmp_path / n, seed=s) for n, s in (("a", 0), ("b", 0), ("c", 1)))
    assert _texts(_folder(a)) == _texts(_folder(b))
    assert _texts(_folder(a)) != _texts(_folder(c))
    with pytest.raises(ConfigError, match="sample size"):
        module.write_raw(tmp_path / "d", size="huge")


def test_emoprefer_sample_builds_with_media_and_all_labels(tmp_path, load_offline):
    raw = emoprefer.write_raw(tmp_path / "raw")
    out = build_dataset("emoprefer", raw.source, tmp_path / "out", media_root=raw.media_root, **raw.options)
    pairs = load_offline(out, "pairs")["test"]
    assert set(pairs["preference"]) == {"a1", "a2", "same"}
    assert set(pairs["model1"]) | set(pairs["model2"]) == {"merrfine", "mercaptionplus"}
    assert pairs["media_missing"] == [False] * pairs.num_rows
    assert "sample data" in (out / "README.md").read_text()
    import av

    with av.open(str(raw.media_root / pairs["video_path"][0])) as container:
        assert {s.type for s in container.streams} == {"video", "audio"}


def test_emorealm_sample_has_all_five_tasks_and_builds(tmp_path, load_offline):
    raw = emorealm.write_raw(tmp_path / "raw")
    items = json.loads(raw.source.read_text())
    assert {i["task"] for i in items} == set(TASKS)
    out = build_dataset("emorealm", raw.source, tmp_path / "out", media_root=raw.media_root, **raw.options)
    rows = load_offline(out, "all")["test"]
    assert rows.num_rows == len(items)
    yes_no_tasks = {"reasoning_stress_audio", "reasoning_stress_video", "modality_agreement"}
    assert rows["is_yes_no"] == [i["task"] in yes_no_tasks for i in items]
    assert rows["media_missing"] == [False] * len(items)
    for task in TASKS:
        assert load_offline(out, task)["test"].num_rows >= 2
