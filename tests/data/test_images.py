"""Generic image columns of a built folder: ``datasets.Image`` values with bytes and the relative path,
features in the parquet metadata and the card, row groups sized by ``datasets``' rule."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from data_helpers import CARD
from PIL import Image

from mmjudge.data.build import BatchStream, BuiltConfig, BuiltDataset, write_folder
from mmjudge.data.images import IMAGE_TYPE, image_columns, image_table
from mmjudge.errors import SchemaError


def _images(folder: Path, count: int) -> dict[str, Path]:
    folder.mkdir(parents=True)
    files = {}
    for i in range(count):
        path = folder / f"{i}.png"
        Image.new("RGB", (16, 16), (i * 20 % 256, 0, 0)).save(path)
        files[f"media/{i}.png"] = path
    return files


def _built(files: dict[str, Path], paths: list[str | None]) -> BuiltDataset:
    table = pa.table({"id": [str(i) for i in range(len(paths))], "picture": pa.array(paths, pa.string())})
    config = BuiltConfig("items", {"test": table}, "toy rows", ("picture",))
    return BuiltDataset("toy", [config], files, card_template=CARD)


def test_values_keep_the_path_embed_the_bytes_and_a_missing_file_or_null_path_is_kept(tmp_path) -> None:
    files = _images(tmp_path / "src", 2)
    table = image_table(pa.table({"picture": ["media/0.png", "media/9.png", None]}), ["picture"], files)
    assert table.schema.field("picture").type == IMAGE_TYPE
    assert table.column("picture").to_pylist() == [
        {"bytes": files["media/0.png"].read_bytes(), "path": "media/0.png"},
        {"bytes": None, "path": "media/9.png"},
        None,
    ]
    assert image_columns(table.schema) == ["picture"]


def test_an_unknown_image_column_is_refused_naming_the_columns() -> None:
    with pytest.raises(
        SchemaError, match=r"image columns \['nope'\] are not in the table \(columns \['a'\]\)"
    ):
        image_table(pa.table({"a": ["x"]}), ["nope"], {})


def test_the_written_folder_declares_image_features_and_loads_as_pil(tmp_path) -> None:
    from datasets import load_dataset

    files = _images(tmp_path / "src", 3)
    write_folder(_built(files, list(files)), tmp_path / "out")
    meta = yaml.safe_load((tmp_path / "out" / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    assert meta["dataset_info"]["features"] == [
        {"name": "id", "dtype": "string"},
        {"name": "picture", "dtype": "image"},
    ]
    rows = load_dataset(str(tmp_path / "out"), "items", split="test", cache_dir=str(tmp_path / "cache"))
    with Image.open(files["media/2.png"]) as expected:
        assert rows[2]["picture"].tobytes() == expected.tobytes()
    assert (tmp_path / "out" / "media" / "2.png").read_bytes() == files["media/2.png"].read_bytes()


def test_row_groups_follow_the_datasets_size_rule(tmp_path, monkeypatch) -> None:
    import datasets.config
    from datasets.utils.py_utils import convert_file_size_to_int

    files = _images(tmp_path / "src", 12)
    monkeypatch.setattr(datasets.config, "MAX_ROW_GROUP_SIZE", "1KB")
    write_folder(_built(files, list(files)), tmp_path / "out")
    parquet = pq.ParquetFile(tmp_path / "out" / "data" / "items" / "test-00000-of-00001.parquet")
    table = parquet.read()
    rule = max(
        1, table.num_rows * convert_file_size_to_int("1KB") // table.nbytes
    )  # datasets' rule, written out
    assert rule < 12 and parquet.metadata.num_row_groups == -(-12 // rule)


def test_image_columns_of_a_batch_stream_are_refused(tmp_path) -> None:
    schema = pa.schema([("picture", pa.string())])
    stream = BatchStream(schema, lambda: iter([pa.table({"picture": ["media/0.png"]}, schema=schema)]))
    built = BuiltDataset("toy", [BuiltConfig("items", {"test": stream}, "", ("picture",))], {})
    with pytest.raises(SchemaError, match=r"image columns \['picture'\] need a table split"):
        write_folder(built, tmp_path / "out")
