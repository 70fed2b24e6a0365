"""MIST released-table builder: sample raw writer, build, offline ``load_dataset`` round trip, bad input."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import warnings
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from PIL import Image

from mmjudge.benchmarks import build_dataset
from mmjudge.benchmarks.mist import sample
from mmjudge.benchmarks.mist.build import IMAGE_COLUMNS, build_tables, majority_label
from mmjudge.errors import MediaError, SchemaError

ROOT = Path(__file__).resolve().parents[3]
CODES = {"FF": 0, "WF": 1, "FL": 2, "LL": 3}
N = sample.SIZES["small"]
CELLS = {"T1": N // 4, "T2": N // 4, "T3": N // 4, "T4": N // 4}


@pytest.fixture(scope="module")
def raw(tmp_path_factory) -> Path:
    return sample.write_raw(tmp_path_factory.mktemp("mist") / "raw", size="small", seed=0).source


@pytest.fixture(scope="module")
def built(raw, tmp_path_factory) -> Path:
    return build_dataset(
        "mist", raw, tmp_path_factory.mktemp("built") / "mist", card_notes=sample.card_note("small")
    )


@pytest.fixture
def release(raw, tmp_path) -> Path:
    """A private copy of the sample release to break."""
    return Path(shutil.copytree(raw, tmp_path / "release"))


def _items(folder: Path) -> list[dict]:
    return pq.read_table(folder / "data" / "items" / "test-00000-of-00001.parquet").to_pylist()


def _reference_majority(labels: list[str]) -> str:
    """Mode if unique; otherwise the lower median of the ordinal codes (written out independently)."""
    counts = Counter(labels)
    top = max(counts.values())
    modes = [label for label, n in counts.items() if n == top]
    if len(modes) == 1:
        return modes[0]
    codes = sorted(CODES[label] for label in labels)
    median = codes[(len(codes) - 1) // 2]
    return next(label for label, code in CODES.items() if code == median)


def test_sample_release_has_the_documented_layout_and_is_deterministic(raw, tmp_path):
    items = (raw / "items.csv").read_text(encoding="utf-8").splitlines()
    assert items[0].startswith("item_id,compound,sentence,sentence_sense,cell,alignment,aligned_image")
    assert len(items) == 1 + sample.SIZES["small"]
    humans = (raw / "human_labels.csv").read_text(encoding="utf-8").splitlines()
    assert humans[0] == "item_id,trio,annotator_id,label" and len(humans) == 1 + 3 * sample.SIZES["small"]
    again = sample.write_raw(tmp_path / "again", size="small", seed=0).source
    for name in ("items.csv", "human_labels.csv", "judge_labels.csv"):
        assert (raw / name).read_bytes() == (again / name).read_bytes()
    for path in sorted((raw.parent / "admire").rglob("*.parquet")):
        twin = again.parent / path.relative_to(raw.parent)
        assert pq.read_table(path).equals(pq.read_table(twin))
    assert sorted(p.name for p in (raw / "images").iterdir()) == sorted(
        p.name for p in (again / "images").iterdir()
    )


def test_items_carry_trio_labels_annotators_and_majority(built, raw):
    rows = _items(built)
    assert len(rows) == sample.SIZES["small"]
    assert Counter(r["cell"] for r in rows) == CELLS
    assert Counter(r["trio"] for r in rows) == {"informed": N // 2, "blind": N // 2}
    split = 0
    for row in rows:
        assert len(row["human_labels"]) == len(row["human_annotators"]) == 3
        assert {a.split("-")[0] for a in row["human_annotators"]} == {row["trio"][:3]}
        assert row["majority_label"] == _reference_majority(row["human_labels"])
        split += len(set(row["human_labels"])) == 3
        assert row["cell_image"] == row[f"{row['alignment']}_image"]["path"]
        for column in ("aligned_image", "misleading_image"):
            path = row[column]["path"]
            assert path.startswith("media/images/") and (built / path).read_bytes() == row[column]["bytes"]
        assert row["media_missing"] is False
    assert split > 0, "the sample should exercise the three-way-split tie-break"


def test_majority_label_rule():
    assert majority_label(["LL", "LL", "FF"]) == "LL"
    assert majority_label(["FF", "WF", "LL"]) == "WF"
    assert majority_label(["FL", "WF", "LL"]) == "FL"
    assert majority_label(["LL", "FF"]) == "FF"
    assert majority_label(["FF", "FF", "LL", "LL"]) == "FF"
    assert majority_label(["WF"]) == "WF" and majority_label([]) is None


def test_judge_labels_config_is_the_full_grid(built):
    table = pq.read_table(built / "data" / "judge_labels" / "test-00000-of-00001.parquet")
    assert table.column_names == ["judge", "prompt_strategy", "arm", "image_condition", "item_id", "label"]
    rows = table.to_pylist()
    per = Counter((r["judge"], r["item_id"]) for r in rows)
    assert set(per.values()) == {20} and len(per) == 2 * sample.SIZES["small"]
    assert Counter(r["image_condition"] for r in rows) == {
        "none": 8 * N,
        "aligned": 16 * N,
        "misleading": 16 * N,
    }
    assert {r["label"] for r in rows} <= set(CODES)


def test_card_lists_both_configs_and_fills_every_placeholder(built):
    text = (built / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert [c["config_name"] for c in meta["configs"]] == ["items", "judge_labels"]
    assert meta["configs"][0]["default"] is True
    assert "${" not in text and f"{N} items (T1: {N // 4}, T2: {N // 4}, T3: {N // 4}, T4: {N // 4})" in text
    assert "**(b) A released MIST table" in text and "not MIST.** Every field is synthetic" in text


def test_load_dataset_offline_round_trip(built, tmp_path):
    # run from another folder: the images must decode from the parquet, not from a path relative to the cwd
    code = textwrap.dedent(
        """
        import hashlib, json, sys, datasets
        folder, cache = sys.argv[1], sys.argv[2]
        items = datasets.load_dataset(folder, "items", cache_dir=cache)["test"]
        judge = datasets.load_dataset(folder, "judge_labels", cache_dir=cache)["test"]
        first = items[0]
        images = {c: [type(first[c]).__module__, first[c].mode, list(first[c].size),
                      hashlib.sha256(first[c].tobytes()).hexdigest()] for c in sys.argv[3:]}
        plain = {k: v for k, v in first.items() if k not in images}
        print(json.dumps({"items": items.num_rows, "judge": judge.num_rows,
                          "features": {k: repr(v) for k, v in items.features.items()},
                          "first": plain, "images": images}))
        """
    )
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    proc = subprocess.run(
        [sys.executable, "-c", code, str(built), str(tmp_path / "cache"), *IMAGE_COLUMNS],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["items"] == N and result["judge"] == N * 2 * 20
    assert "List(Value('string'))" in result["features"]["human_labels"]
    assert "Value('bool')" in result["features"]["media_missing"]
    assert all(result["features"][c].startswith("Image(") for c in IMAGE_COLUMNS)
    stored = _items(built)[0]
    assert result["first"] == {k: v for k, v in stored.items() if k not in IMAGE_COLUMNS}
    for column in IMAGE_COLUMNS:
        with Image.open(built / stored[column]["path"]) as image:
            expected = [image.mode, list(image.size), hashlib.sha256(image.tobytes()).hexdigest()]
        assert result["images"][column] == ["PIL.PngImagePlugin", *expected]


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _first_line(path: Path, line: int = 1) -> str:
    return path.read_text(encoding="utf-8").splitlines()[line]


@pytest.mark.parametrize(
    ("file", "breaker", "message"),
    [
        ("items.csv", lambda p: _edit(p, ",trio,", ",group,"), r"items\.csv, column 'trio': expected columns"),
        ("human_labels.csv", lambda p: _edit(p, ",FF\n", ",XX\n"), r"human_labels\.csv, row \d+ \(item_id 'mist-\d+'\), column 'label': expected one of \['FF', 'WF', 'FL', 'LL'\], got 'XX'"),
        ("judge_labels.csv", lambda p: _edit(p, ",LL\n", ",ll\n"), r"judge_labels\.csv, row \d+ \(item_id 'mist-\d+'\), column 'label'.*got 'll'"),
        ("judge_labels.csv", lambda p: _edit(p, ",none,mist", ",text,mist"), r"column 'image_condition': expected one of \['none', 'aligned', 'misleading'\], got 'text'"),
        ("judge_labels.csv", lambda p: _edit(p, "explicit,aligned", "loud,aligned"), r"judge_labels\.csv, row 2 \(item_id 'mist-001'\), column 'arm': expected one of \['explicit', 'silent'\] for image_condition 'aligned', got 'loud'"),
        ("judge_labels.csv", lambda p: _edit(p, "zero_shot,none,none", "zero_shot,silent,none"), r"column 'arm': expected one of \['none'\] for image_condition 'none', got 'silent'"),
        ("items.csv", lambda p: _edit(p, "mist-002,", "mist-001,"), r"items\.csv, row 2, column 'item_id': expected each item_id once, got \{'item_id': 'mist-001'\} again \(first at row 1\)"),
        ("human_labels.csv", lambda p: _edit(p, "inf-2", "inf-1"), r"human_labels\.csv, row 2, column 'item_id/annotator_id': expected each"),
        ("items.csv", lambda p: _edit(p, ",T1,misleading,", ",T1,aligned,"), r"items\.csv, row 1 \(item_id 'mist-001'\), column 'alignment': expected 'misleading' for cell T1, got 'aligned'"),
        ("items.csv", lambda p: _edit(p, ",figurative,T1,", ",literal,T1,"), r"column 'sentence_sense': expected 'figurative' for cell T1, got 'literal'"),
        ("items.csv", lambda p: _edit(p, ",T1,", ",T5,"), r"row 1 \(item_id 'mist-001'\), column 'cell': expected one of \['T1', 'T2', 'T3', 'T4'\], got 'T5'"),
        ("items.csv", lambda p: _edit(p, "**", ""), r"row 1 \(item_id 'mist-001'\), column 'sentence': expected the compound wrapped in one \*\*\.\.\.\*\* pair"),
        ("human_labels.csv", lambda p: _edit(p, "mist-001,informed", "mist-001,blind"), r"human_labels\.csv, row 1 \(item_id 'mist-001'\), column 'trio': expected the item's trio 'blind'|column 'trio': expected the item's trio 'informed'"),
        ("human_labels.csv", lambda p: _edit(p, "mist-001,", "mist-999,"), r"row 1 \(item_id 'mist-999'\), column 'item_id': expected an item_id of items\.csv"),
        ("judge_labels.csv", lambda p: _edit(p, ",mist-001,", ",nope,"), r"judge_labels\.csv, row 1 \(item_id 'nope'\), column 'item_id'"),
        ("items.csv", lambda p: p.write_bytes(b""), r"items\.csv: expected a non-empty file, got 0 bytes"),
        ("human_labels.csv", lambda p: p.write_text("item_id,trio,annotator_id,label\n", encoding="utf-8"), r"human_labels\.csv: expected at least one data row, got only the header"),
        ("judge_labels.csv", lambda p: p.write_bytes(p.read_bytes().replace(b"sample-judge-a", b"sample-judge-\xe9", 1)), r"judge_labels\.csv, row 1: expected UTF-8 text, got bytes"),
        ("human_labels.csv", lambda p: p.unlink(), r"no human_labels\.csv; expected it beside items\.csv"),
        ("items.csv", lambda p: _edit(p, "images/mist-001_aligned.png", "../mist-001_aligned.png"), r"items\.csv: row 'mist-001', column 'aligned_image': media path '\.\./mist-001_aligned\.png' escapes"),
    ],
)  # fmt: skip
def test_bad_release_input_names_file_row_column_expected_and_got(release, tmp_path, file, breaker, message):
    breaker(release / file)
    with pytest.raises(SchemaError, match=message):
        build_tables(release)
    out = tmp_path / "out"
    with pytest.raises(SchemaError):
        build_dataset("mist", release, out)
    assert not out.exists() and not list(tmp_path.glob(".out.*"))


def test_missing_image_fails_or_is_marked(release):
    (release / "images" / "mist-003_misleading.png").unlink()
    with pytest.raises(MediaError, match=rf"1 of {N} media files in column 'misleading_image'.*mist-003"):
        build_tables(release)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        built = build_tables(release, allow_missing_media=True)
    table = built.configs[0].splits["test"].to_pylist()
    assert [r["item_id"] for r in table if r["media_missing"]] == ["mist-003"]
    assert "media/images/mist-003_misleading.png" not in built.media_files
    assert any("rows kept with media_missing=True" in str(w.message) for w in caught)


def test_release_without_judge_labels_has_items_only_and_keeps_extra_columns(release):
    (release / "judge_labels.csv").unlink()
    _edit(release / "items.csv", ",source_id\n", ",source_id,note\n")
    text = (release / "items.csv").read_text(encoding="utf-8").splitlines()
    (release / "items.csv").write_text(
        "\n".join([text[0], *(f"{line},n{i}" for i, line in enumerate(text[1:]))]) + "\n", encoding="utf-8"
    )
    built = build_tables(release)
    assert [c.name for c in built.configs] == ["items"]
    table = built.configs[0].splits["test"]
    assert table.column_names[-1] == "note" and table.column("note").to_pylist()[:2] == ["n0", "n1"]
    assert "no judge labels" in built.card_context["judge_note"]


def test_dataset_script_is_a_thin_shell(raw, tmp_path):
    if not (ROOT / "src" / "mmjudge" / "commands" / "build_dataset.py").is_file():
        pytest.skip("the build-dataset command is not in this checkout yet")
    out = tmp_path / "via_script"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "dataset_scripts" / "mist" / "build.py"),
            "--source",
            str(raw),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert len(_items(out)) == N
    rebuilt = tmp_path / "rebuilt"
    args = ["--source", str(raw.parent / "admire"), "--out", str(rebuilt), "--option", f"n_items={N}"]
    proc = subprocess.run(
        [sys.executable, str(ROOT / "dataset_scripts" / "mist" / "build.py"), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [r["sentence"] for r in _items(rebuilt)] == [r["sentence"] for r in _items(out)]
    bad = [*args[:3], str(tmp_path / "bad"), "--option", "n_items=many"]
    proc = subprocess.run(
        [sys.executable, str(ROOT / "dataset_scripts" / "mist" / "build.py"), *bad],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "option n_items: expected an integer, got 'many'" in proc.stderr


@pytest.mark.slow
def test_medium_sample_draws_the_paper_count(tmp_path):
    raw = sample.write_raw(tmp_path / "raw", size="medium")
    rows = _items(build_dataset("mist", raw.source, tmp_path / "out"))
    assert len(rows) == 200 and Counter(r["cell"] for r in rows) == {"T1": 50, "T2": 50, "T3": 50, "T4": 50}
    built = build_tables(tmp_path / "raw" / "admire", n_items=200)
    for resource in built.resources:
        resource.cleanup()
    again = built.configs[0].splits["test"].to_pylist()
    assert [r["sentence"] for r in again] == [r["sentence"] for r in rows]


def test_item_without_labels_keeps_empty_lists_and_trio_may_come_from_the_labels(release):
    path = release / "human_labels.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text(
        "\n".join(line for line in lines if not line.startswith("mist-005,")) + "\n", encoding="utf-8"
    )
    _edit(release / "items.csv", ".png,blind,", ".png,,")  # mist-002 loses its trio in items.csv
    built = build_tables(release)
    rows = {r["item_id"]: r for r in built.configs[0].splits["test"].to_pylist()}
    assert rows["mist-005"]["human_labels"] == [] and rows["mist-005"]["majority_label"] is None
    assert rows["mist-005"]["trio"] == "informed"
    assert rows["mist-002"]["trio"] == "blind" and len(rows["mist-002"]["human_labels"]) == 3
    assert f"{N - 1} of {N} items carry human labels" in built.card_context["label_note"]


@pytest.mark.filterwarnings("ignore:alt-test not run")  # the sample's slices hold fewer than 30 items
def test_built_sample_feeds_the_mist_scorer(built):
    from mmjudge.benchmarks.mist import score

    items = _items(built)
    judge = pq.read_table(built / "data" / "judge_labels" / "test-00000-of-00001.parquet").to_pylist()
    humans = [
        (i["item_id"], a, lab)
        for i in items
        for a, lab in zip(i["human_annotators"], i["human_labels"], strict=True)
    ]
    results = {}
    for name in sample.JUDGES:
        rows = [r for r in judge if r["judge"] == name]
        results[name] = score(
            item_ids=[r["item_id"] for r in rows],
            image_conditions=[r["image_condition"] for r in rows],
            arms=[r["arm"] for r in rows],
            prompt_strategies=[r["prompt_strategy"] for r in rows],
            predictions=[r["label"] for r in rows],
            meta_item_ids=[i["item_id"] for i in items],
            meta_cells=[i["cell"] for i in items],
            meta_trios=[i["trio"] for i in items],
            meta_sentence_senses=[i["sentence_sense"] for i in items],
            human_item_ids=[h[0] for h in humans],
            human_annotators=[h[1] for h in humans],
            human_labels=[h[2] for h in humans],
            n_resamples=20,
        )
    a, b = results["sample-judge-a"], results["sample-judge-b"]
    key = "change_rate/none_to_misleading/silent"
    assert b[key] > a[key] + 20.0
    assert b["direction/silent"] > 80.0
    assert any(k.startswith("alt_test/informed/") for k in a)
