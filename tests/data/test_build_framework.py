"""The build framework: parquet shards, card YAML, streamed splits, atomic writes."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from data_helpers import CARD, leftovers, write_csv

from mmjudge.benchmarks import build_dataset
from mmjudge.data import build as build_module
from mmjudge.data.build import BatchStream, BuiltConfig, BuiltDataset, shard_path, write_folder
from mmjudge.data.card import split_front_matter
from mmjudge.errors import ConfigError, SchemaError, UnknownNameError


def _built() -> BuiltDataset:
    table = pa.table({"id": ["a", "b", "c"], "n": [1, 2, 3], "tags": [["x"], [], ["y", "z"]]})
    batches = [pa.record_batch({"id": [f"s{i}"], "n": [i], "tags": [["t"]]}) for i in range(4)]
    stream = BatchStream(table.schema, lambda: iter(batches))
    return BuiltDataset(
        "emoprefer",
        [
            BuiltConfig("first", {"test": table}, "one"),
            BuiltConfig("second", {"train": stream, "test": table}),
        ],
        card_context={"num_pairs": 3},
        card_template=CARD,
    )


def test_write_folder_layout_and_card_yaml(tmp_path, load_offline):
    summaries = write_folder(_built(), tmp_path / "out")
    out = tmp_path / "out"
    assert (out / shard_path("second", "train")).is_file()
    assert [(s.config, s.split, s.num_rows) for s in summaries] == [
        ("first", "test", 3),
        ("second", "train", 4),
        ("second", "test", 3),
    ]
    meta, body = split_front_matter((out / "README.md").read_text())
    assert [c["config_name"] for c in meta["configs"]] == ["first", "second"]
    assert meta["configs"][0]["default"] is True and "default" not in meta["configs"][1]
    assert meta["configs"][1]["data_files"] == [
        {"split": "train", "path": "data/second/train-00000-of-00001.parquet"},
        {"split": "test", "path": "data/second/test-00000-of-00001.parquet"},
    ]
    info = {i["config_name"]: i for i in meta["dataset_info"]}
    assert info["first"]["features"] == [
        {"name": "id", "dtype": "string"},
        {"name": "n", "dtype": "int64"},
        {"name": "tags", "list": "string"},
    ]
    assert {s["name"]: s["num_examples"] for s in info["second"]["splits"]} == {"train": 4, "test": 3}
    assert "| `second` | train | 4 |" in body
    ds = load_offline(out, "second")
    assert ds["train"]["id"] == ["s0", "s1", "s2", "s3"] and ds["test"]["tags"] == [["x"], [], ["y", "z"]]
    assert load_offline(out)["test"]["id"] == ["a", "b", "c"]  # first config is the default


def test_streamed_split_is_written_row_group_by_row_group(tmp_path):
    write_folder(_built(), tmp_path)
    assert pq.ParquetFile(tmp_path / shard_path("second", "train")).num_row_groups == 4


def test_large_string_and_null_columns_become_plain_strings(tmp_path):
    table = pa.table({"a": pa.array(["x"], pa.large_string()), "b": pa.array([None], pa.null())})
    write_folder(
        BuiltDataset("emorealm", [BuiltConfig("all", {"test": table})], card_template=CARD), tmp_path
    )
    schema = pq.read_schema(tmp_path / shard_path("all", "test"))
    assert schema.field("a").type == pa.string() and schema.field("b").type == pa.string()


def test_card_template_front_matter_and_placeholders(tmp_path):
    template = tmp_path / "card.md"
    template.write_text(
        "---\nlicense: other\nlicense_name: t\nlicense_link: https://example.org/terms\n---\n# T\n"
        "pairs=${num_pairs} rows=${total_rows} ${unknown}\n"
    )
    write_folder(_built(), tmp_path / "out", card_template=template)
    meta, body = split_front_matter((tmp_path / "out" / "README.md").read_text())
    assert meta["license"] == "other" and "configs" in meta
    assert "pairs=3 rows=10 ${unknown}" in body


@pytest.mark.parametrize(
    ("configs", "match"),
    [([], "no configs"), ([BuiltConfig("a", {"test": pa.table({"x": [1]})})] * 2, "duplicate config")],
)
def test_bad_configs_are_refused(tmp_path, configs, match):
    with pytest.raises(SchemaError, match=match):
        write_folder(BuiltDataset("emoprefer", configs), tmp_path)


def test_unknown_split_name_is_refused(tmp_path):
    with pytest.raises(SchemaError, match="splits among"):
        write_folder(BuiltDataset("emoprefer", [BuiltConfig("a", {"dev": pa.table({"x": [1]})})]), tmp_path)


def test_media_outside_media_folder_is_refused(tmp_path):
    src = tmp_path / "clip.mp4"
    src.write_bytes(b"x")
    built = BuiltDataset(
        "isovrbench", [BuiltConfig("a", {"test": pa.table({"x": [1]})})], {"../clip.mp4": src}
    )
    with pytest.raises(SchemaError, match="under media/"):
        write_folder(built, tmp_path / "out")


def _emoprefer_source(tmp_path):
    rows = [{"name": "s1", "a1": "x", "a2": "y", "preference": "a1"}]
    return write_csv(tmp_path / "raw" / "emoprefer.csv", rows).parent


def test_unknown_benchmark_and_missing_source(tmp_path):
    with pytest.raises(UnknownNameError):
        build_dataset("emo", tmp_path, tmp_path / "o")
    with pytest.raises(ConfigError, match="does not exist"):
        build_dataset("emoprefer", tmp_path / "nope", tmp_path / "o")


def test_unknown_build_option_is_a_config_error(tmp_path):
    with pytest.raises(
        ConfigError, match=r"unknown build options \['medai'\]; this benchmark accepts \['media', 'split'"
    ):
        build_dataset("isovrbench", _emoprefer_source(tmp_path), tmp_path / "o", medai="copy")


def test_existing_output_needs_overwrite(tmp_path):
    source = _emoprefer_source(tmp_path)
    out = build_dataset("emoprefer", source, tmp_path / "out")
    with pytest.raises(ConfigError, match="already exists"):
        build_dataset("emoprefer", source, out)
    (out / "stale.txt").write_text("old")
    build_dataset("emoprefer", source, out, overwrite=True)
    assert not (out / "stale.txt").exists()
    assert leftovers(tmp_path, "out") == ["out"]


def test_failed_write_leaves_nothing_and_keeps_the_old_folder(tmp_path, monkeypatch):
    source = _emoprefer_source(tmp_path)

    def broken(built, folder, *, card_template=None):
        (folder / "data").mkdir(parents=True)
        (folder / "data" / "half.parquet").write_bytes(b"partial")
        raise OSError("disk full")

    monkeypatch.setattr(build_module, "write_folder", broken)
    with pytest.raises(OSError, match="disk full"):
        build_dataset("emoprefer", source, tmp_path / "new")
    assert leftovers(tmp_path, "new") == []
    monkeypatch.undo()
    out = build_dataset("emoprefer", source, tmp_path / "kept")
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    monkeypatch.setattr(build_module, "write_folder", broken)
    with pytest.raises(OSError):
        build_dataset("emoprefer", source, out, overwrite=True)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before
    assert leftovers(tmp_path, "kept") == ["kept"]


def test_failed_builder_creates_no_folder(tmp_path):
    raw = write_csv(
        tmp_path / "raw" / "emoprefer.csv", [{"name": "s1", "a1": "x", "a2": "y", "preference": "?"}]
    )
    with pytest.raises(SchemaError):
        build_dataset("emoprefer", raw.parent, tmp_path / "out")
    assert leftovers(tmp_path, "out") == []


def test_card_yaml_is_valid_yaml_with_unicode(tmp_path):
    table = pa.table({"text": ["café ✓"]})
    built = BuiltDataset("emorealm", [BuiltConfig("all", {"test": table}, "ünïcode")], card_template=CARD)
    write_folder(built, tmp_path)
    text = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert yaml.safe_load(text.split("---\n")[1])["configs"][0]["config_name"] == "all"
    assert "ünïcode" in text
