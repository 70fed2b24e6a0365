"""Every column a built config holds is documented in its card, and the card says how to get gated media."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from data_helpers import write_csv

from mmjudge.benchmarks import build_dataset
from mmjudge.benchmarks.emorealm.scoring import TASKS
from mmjudge.data.card import split_front_matter


def _emoprefer(tmp_path):
    rows = [
        {
            "name": "s1",
            "model1": "merrfine",
            "a1": "x",
            "model2": "mercaptionplus",
            "a2": "y",
            "preference": "a1",
        }
    ]
    write_csv(tmp_path / "emoprefer_with_modelnames.csv", rows)
    (tmp_path / "m" / "video").mkdir(parents=True)
    return build_dataset(
        "emoprefer", tmp_path, tmp_path / "out", media_root=tmp_path / "m", allow_missing_media=True
    )


def _emorealm(tmp_path):
    items = [
        {
            "id": i,
            "video": f"c/{i}.mp4",
            "task": t,
            "question": "q",
            "choices": ["(A) Yes", "(B) No"],
            "answer": "A",
        }
        for i, t in enumerate(TASKS)
    ]
    (tmp_path / "emorealm_v1.json").write_text(json.dumps(items))
    (tmp_path / "m").mkdir()
    return build_dataset(
        "emorealm",
        tmp_path / "emorealm_v1.json",
        tmp_path / "out",
        media_root=tmp_path / "m",
        allow_missing_media=True,
    )


def _isovrbench(tmp_path):
    row = {
        "pair_id": "p",
        "prompt": "x",
        "intervention": "frame_hold",
        "video_chosen": "a.mp4",
        "video_rejected": "b.mp4",
    }
    write_csv(tmp_path / "test.csv", [row])
    (tmp_path / "a.mp4").write_bytes(b"a")
    return build_dataset(
        "isovrbench", tmp_path / "test.csv", tmp_path / "out", media="reference", allow_missing_media=True
    )


def _videogen_rewardbench(tmp_path):
    row = {
        "path_A": "a.mp4",
        "path_B": "b.mp4",
        "A_model": "m",
        "B_model": "n",
        "prompt": "p",
        "VQ": "A",
        "MQ": "A",
        "TA": "A",
        "Overall": "same",
    }
    write_csv(tmp_path / "vgrb.csv", [row])
    return build_dataset("videogen_rewardbench", tmp_path / "vgrb.csv", tmp_path / "out", media="metadata")


@pytest.mark.parametrize("build", [_emoprefer, _emorealm, _isovrbench, _videogen_rewardbench])
def test_card_documents_every_column_and_fills_every_placeholder(tmp_path, build):
    expect_warning = build is not _videogen_rewardbench  # the others are built with missing media allowed
    with pytest.warns(UserWarning, match="missing") if expect_warning else contextlib.nullcontext():
        out = build(tmp_path)
    meta, body = split_front_matter((out / "README.md").read_text(encoding="utf-8"))
    for info in meta["dataset_info"]:
        for feature in info["features"]:
            assert f"`{feature['name']}`" in body, (
                f"{info['config_name']}.{feature['name']} is not in the card"
            )
    assert "${" not in body, re.findall(r"\$\{\w+\}", body)
    assert "licen" in body.lower() and "bibtex" in body


@pytest.mark.parametrize(("build", "gate"), [(_emoprefer, "MER2025"), (_emorealm, "DFEW")])
def test_gated_cards_say_how_to_get_media(tmp_path, build, gate):
    with pytest.warns(UserWarning):
        out = build(tmp_path)
    body = (out / "README.md").read_text(encoding="utf-8")
    assert f"gated: {gate}" in body and "may not be redistributed" in body and "media root" in body
    assert not (out / "media").exists()
