"""Sample data: the IsoVRBench raw writer, and the small sample of all four benchmarks built and loaded.

The full sample is generated once per test session through the CLI (``mmjudge sample-data``) and
loaded with ``datasets.load_dataset`` in a subprocess with the Hub offline.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

from mmjudge import BENCHMARK_IDS
from mmjudge.benchmarks import write_sample_data
from mmjudge.benchmarks.isovrbench import DIMENSIONS, INTERVENTIONS
from mmjudge.benchmarks.isovrbench import sample as iso_sample
from mmjudge.cli import main
from mmjudge.errors import ConfigError

pytest.importorskip("av")

MAX_BYTES = 50 * 1024 * 1024


@pytest.fixture(scope="session")
def sample_dir(tmp_path_factory) -> Path:
    """The small sample of all four benchmarks, written once through the CLI."""
    out = tmp_path_factory.mktemp("sample") / "out"
    assert main(["sample-data", "--out", str(out), "--size", "small"]) == 0
    return out


@pytest.fixture(scope="session")
def iso_raw(sample_dir) -> Path:
    return sample_dir / "raw" / "isovrbench"


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "test.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_isovrbench_raw_table_has_every_intervention_per_anchor(iso_raw):
    rows = _rows(iso_raw)
    required = {"pair_id", "prompt", "intervention", "video_chosen", "video_rejected"}
    assert required <= set(rows[0])
    spec = iso_sample.SIZES["small"]
    assert len(rows) == spec.anchors * 8
    per_anchor = Counter(r["video_chosen"] for r in rows)
    assert len(per_anchor) == spec.anchors and set(per_anchor.values()) == {8}
    assert Counter(r["intervention"] for r in rows) == Counter({i: spec.anchors for i in INTERVENTIONS})
    assert len({r["pair_id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["intervention"] in DIMENSIONS[row["dimension"]]
        assert row["synthetic"].startswith("anchor: procedural")
        assert row["num_frames"] == "81" and row["fps"] == "16"
        assert (row["index_map"] != "") == (row["intervention"] in ("temporal_shuffle", "frame_hold"))
        assert (row["edited_prompt"] != "") == (row["intervention"] == "attribute_edit")
        assert float(row["motion_score"]) > 5.0


def test_isovrbench_raw_clips_are_81_frames_at_16_fps(iso_raw):
    from mmjudge.media.video import video_info

    paths = {r[c] for r in _rows(iso_raw) for c in ("video_chosen", "video_rejected")}
    assert len(paths) == iso_sample.SIZES["small"].anchors * 9
    for rel in paths:
        info = video_info(iso_raw / rel)
        assert (info.num_frames, info.fps, info.height, info.width) == (81, 16.0, 128, 224)


def _mad(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b).mean())


def test_isovrbench_stored_index_map_reproduces_the_counterpart(iso_raw):
    from mmjudge.media.video import read_all

    for row in _rows(iso_raw):
        if not row["index_map"]:
            continue
        index_map = json.loads(row["index_map"])
        anchor = read_all(iso_raw / row["video_chosen"])
        counterpart = read_all(iso_raw / row["video_rejected"])
        assert len(index_map) == len(counterpart) == len(anchor)
        if row["intervention"] == "temporal_shuffle":
            assert sorted(index_map) == list(range(81)) and index_map != list(range(81))
        else:
            assert 8 <= len(set(index_map)) <= 12 and index_map[0] == 0
        # Both clips are encoded once from the same arrays: each counterpart frame is closest to the
        # anchor frame the map names, within the crf-28 coding error (about 3-5 levels here; distinct
        # anchor frames differ by 8 or more). Every other pixel is compared, to keep the test quick.
        small = anchor[:, ::2, ::2].astype(np.int16)
        for i, frame in enumerate(counterpart[:, ::2, ::2]):
            distances = np.abs(small - frame).mean(axis=(1, 2, 3))
            assert int(np.argmin(distances)) == index_map[i], (row["pair_id"], i)
            assert distances[index_map[i]] < 6.0


def test_isovrbench_stand_ins_differ_visibly_from_the_anchor(iso_raw):
    from mmjudge.media.video import read_frames

    for row in _rows(iso_raw):
        anchor = read_frames(iso_raw / row["video_chosen"], [10, 40])
        other = read_frames(iso_raw / row["video_rejected"], [10, 40])
        if row["intervention"] not in ("temporal_shuffle", "frame_hold"):
            assert _mad(anchor, other) > 2.0, row["pair_id"]


def test_isovrbench_raw_sample_is_deterministic(iso_raw, tmp_path):
    again = iso_sample.write_raw(tmp_path / "raw", size="small", seed=0)
    assert again.source == again.media_root
    assert "128x224" in again.options["card_notes"]
    again = again.source
    first = sorted(p.relative_to(iso_raw) for p in iso_raw.rglob("*") if p.is_file())
    second = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert first == second
    for rel in first:
        assert (iso_raw / rel).read_bytes() == (again / rel).read_bytes(), rel


def test_isovrbench_raw_rejects_unknown_size(tmp_path):
    with pytest.raises(ConfigError, match="medium"):
        iso_sample.write_raw(tmp_path, size="large")


# --- the full small sample, all four benchmarks ------------------------------------------------


@pytest.fixture(scope="session")
def loaded(sample_dir, tmp_path_factory) -> dict:
    """Row counts per benchmark, config and split, as ``datasets.load_dataset`` reads them offline."""
    code = textwrap.dedent(
        """
        import json, sys, yaml, datasets
        out, cache = sys.argv[1], sys.argv[2]
        result = {}
        for bench in sys.argv[3:]:
            folder = f"{out}/{bench}"
            card = open(f"{folder}/README.md", encoding="utf-8").read()
            meta = yaml.safe_load(card.split("---\\n")[1])
            result[bench] = {}
            for config in meta["configs"]:
                name = config["config_name"]
                ds = datasets.load_dataset(folder, name, cache_dir=cache)
                result[bench][name] = {split: ds[split].num_rows for split in ds}
        print(json.dumps(result))
        """
    )
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    cache = tmp_path_factory.mktemp("hf_cache")
    proc = subprocess.run(
        [sys.executable, "-c", code, str(sample_dir), str(cache), *BENCHMARK_IDS],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _card_meta(folder: Path) -> dict:
    return yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---\n")[1])


def test_small_sample_builds_every_benchmark(sample_dir):
    for benchmark in BENCHMARK_IDS:
        assert (sample_dir / benchmark / "README.md").is_file()
        assert any((sample_dir / "raw" / benchmark).iterdir())
    summary = json.loads((sample_dir / "sample_summary.json").read_text())
    assert summary["size"] == "small" and set(summary["benchmarks"]) == set(BENCHMARK_IDS)


def test_small_sample_is_under_50_mb(sample_dir):
    total = sum(p.stat().st_size for p in sample_dir.rglob("*") if p.is_file())
    assert total < MAX_BYTES, f"{total / 1e6:.1f} MB"


def test_every_config_loads_offline_with_the_card_row_counts(sample_dir, loaded):
    assert set(loaded) == set(BENCHMARK_IDS)
    for benchmark, configs in loaded.items():
        meta = _card_meta(sample_dir / benchmark)
        infos = meta["dataset_info"]
        infos = infos if isinstance(infos, list) else [infos]
        expected = {
            info["config_name"]: {s["name"]: s["num_examples"] for s in info["splits"]} for info in infos
        }
        assert configs == expected, benchmark
        assert all(n > 0 for splits in configs.values() for n in splits.values()), benchmark


def test_cards_say_the_sample_is_synthetic(sample_dir):
    for benchmark in BENCHMARK_IDS:
        text = (sample_dir / benchmark / "README.md").read_text(encoding="utf-8")
        assert "## Sample data" in text and "synthetic small sample" in text
    assert "128x224" in (sample_dir / "isovrbench" / "README.md").read_text(encoding="utf-8")


def test_isovrbench_sample_ships_its_clips(sample_dir):
    media = list((sample_dir / "isovrbench").rglob("*.mp4"))
    assert len(media) == iso_sample.SIZES["small"].anchors * 9


def test_sample_data_refuses_to_overwrite_without_the_flag(sample_dir):
    before = (sample_dir / "sample_summary.json").stat().st_mtime_ns
    with pytest.raises(ConfigError, match="--overwrite"):
        write_sample_data(sample_dir, size="small")
    assert (sample_dir / "sample_summary.json").stat().st_mtime_ns == before


def test_sample_data_rejects_unknown_benchmarks_before_writing(tmp_path):
    with pytest.raises(ConfigError, match="isovr"):
        write_sample_data(tmp_path / "out", benchmarks=["isovr"])
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_medium_isovrbench_sample_has_full_size_clips(tmp_path):
    from mmjudge.media.video import video_info

    raw = iso_sample.write_raw(tmp_path / "raw", size="medium").source
    rows = _rows(raw)
    assert len(rows) == iso_sample.SIZES["medium"].anchors * 8
    info = video_info(raw / rows[0]["video_chosen"])
    assert (info.num_frames, info.fps, info.height, info.width) == (81, 16.0, 480, 832)


def test_built_isovrbench_rows_keep_the_index_maps(sample_dir, iso_raw):
    import pyarrow.parquet as pq

    raw = {r["pair_id"]: r["index_map"] for r in _rows(iso_raw)}
    table = pq.read_table(sample_dir / "isovrbench" / "data" / "all" / "test-00000-of-00001.parquet")
    for pair_id, index_map in zip(table["pair_id"].to_pylist(), table["index_map"].to_pylist(), strict=True):
        assert (index_map or None) == (json.loads(raw[pair_id]) if raw[pair_id] else None), pair_id
