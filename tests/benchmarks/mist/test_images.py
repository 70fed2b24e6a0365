"""MIST images as ``datasets.Image`` features: bytes embedded, path kept under ``media/``; judges get the
same image as from a folder that stores plain path strings."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from PIL import Image

from mmjudge.benchmarks import QuerySource
from mmjudge.benchmarks.mist import sample
from mmjudge.benchmarks.mist.build import IMAGE_COLUMNS, build_tables
from mmjudge.benchmarks.mist.queries import build_queries
from mmjudge.data.build import write_folder
from mmjudge.data.images import IMAGE_TYPE, image_path
from mmjudge.data.rows import dataset_hash, load_rows
from mmjudge.errors import SchemaError

SHARD = Path("data/items/test-00000-of-00001.parquet")


@pytest.fixture(scope="module")
def raw(tmp_path_factory) -> Path:
    return sample.write_raw(tmp_path_factory.mktemp("mist") / "raw", size="small", seed=0).source


@pytest.fixture(scope="module")
def folders(raw, tmp_path_factory) -> tuple[Path, Path]:
    """The folder as built now, and the same build with the image columns left as path strings."""
    root = tmp_path_factory.mktemp("folders")
    write_folder(build_tables(raw), root / "images")
    plain = build_tables(raw)
    plain.configs = [dataclasses.replace(c, image_columns=()) for c in plain.configs]
    write_folder(plain, root / "paths")
    return root / "images", root / "paths"


def test_image_columns_are_image_features_in_the_parquet_and_the_card(folders) -> None:
    folder, _ = folders
    schema = pq.read_schema(folder / SHARD)
    for column in IMAGE_COLUMNS:
        assert schema.field(column).type == IMAGE_TYPE
    meta = yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    items = next(info for info in meta["dataset_info"] if info["config_name"] == "items")
    dtypes = {f["name"]: f.get("dtype") for f in items["features"]}
    assert {c: dtypes[c] for c in IMAGE_COLUMNS} == dict.fromkeys(IMAGE_COLUMNS, "image")
    assert dtypes["sentence"] == "string"


def test_each_value_holds_the_file_bytes_and_the_relative_path_of_the_file_kept_in_media(folders) -> None:
    folder, plain = folders
    rows = pq.read_table(folder / SHARD).to_pylist()
    paths = pq.read_table(plain / SHARD).to_pylist()
    for row, old in zip(rows, paths, strict=True):
        for column in IMAGE_COLUMNS:
            assert row[column]["path"] == old[column] and old[column].startswith("media/images/")
            assert row[column]["bytes"] == (folder / old[column]).read_bytes()


def test_load_dataset_gives_pil_images_and_load_rows_gives_bytes_and_path(folders) -> None:
    from datasets import load_dataset

    folder, _ = folders
    dataset = load_dataset(str(folder), "items", split="test", cache_dir=str(folder.parent / "cache"))
    first = dataset[0]
    assert isinstance(first["aligned_image"], Image.Image)
    with Image.open(folder / image_path(load_rows(folder, "items")[0]["aligned_image"])) as image:
        assert first["aligned_image"].tobytes() == image.tobytes()
    row = load_rows(folder, "items")[0]
    assert set(row["misleading_image"]) == {"bytes", "path"}


def test_judge_items_are_the_same_with_the_same_pixels_as_from_plain_paths(folders) -> None:
    folder, plain = folders
    new = build_queries(load_rows(folder, "items"), QuerySource(folder))
    old = build_queries(load_rows(plain, "items"), QuerySource(plain))
    assert len(new) == len(old) == 20 * sample.SIZES["small"]
    for a, b in zip(new, old, strict=True):
        assert dataclasses.replace(a, image=None) == dataclasses.replace(b, image=None)
        assert (a.image is None) == (b.image is None)
        if a.image is None:
            continue
        assert a.image.relative_to(folder) == b.image.relative_to(plain)
        with Image.open(a.image) as x, Image.open(b.image) as y:
            assert x.size == y.size and x.tobytes() == y.tobytes()
    assert sum(item.image is not None for item in new) == 16 * sample.SIZES["small"]


def test_the_folder_hash_changes_with_the_storage_but_record_ids_and_other_columns_do_not(folders) -> None:
    folder, plain = folders
    assert dataset_hash(folder) != dataset_hash(plain)
    rest = [{k: v for k, v in row.items() if k not in IMAGE_COLUMNS} for row in load_rows(folder, "items")]
    assert rest == [
        {k: v for k, v in row.items() if k not in IMAGE_COLUMNS} for row in load_rows(plain, "items")
    ]
    ids = [i.item_id for i in build_queries(load_rows(folder, "items"), QuerySource(folder))]
    assert ids == [i.item_id for i in build_queries(load_rows(plain, "items"), QuerySource(plain))]


def test_a_missing_image_keeps_its_path_with_no_bytes(raw, tmp_path) -> None:
    import shutil
    import warnings

    release = Path(shutil.copytree(raw, tmp_path / "release"))
    rows = pq.read_table(_any_build(release, tmp_path / "first") / SHARD).to_pylist()
    gone = rows[0]["aligned_image"]["path"].removeprefix("media/")
    (release / gone).unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        built = build_tables(release, allow_missing_media=True)
    write_folder(built, tmp_path / "kept")
    kept = pq.read_table(tmp_path / "kept" / SHARD).to_pylist()
    assert kept[0]["media_missing"] is True
    assert kept[0]["aligned_image"] == {"bytes": None, "path": rows[0]["aligned_image"]["path"]}
    assert kept[0]["misleading_image"]["bytes"] is not None


def _any_build(release: Path, out: Path) -> Path:
    write_folder(build_tables(release), out)
    return out


def test_image_path_refuses_a_value_that_is_neither_a_path_nor_an_image_with_a_path() -> None:
    with pytest.raises(
        SchemaError,
        match=r"expected a relative path string or an image .* got a mapping with keys \['bytes'\]",
    ):
        image_path({"bytes": b"x"})
    with pytest.raises(SchemaError, match="got int"):
        image_path(3)


def test_the_card_says_the_image_columns_are_image_features(folders) -> None:
    text = (folders[0] / "README.md").read_text(encoding="utf-8")
    assert "`aligned_image`, `misleading_image` are `datasets.Image` features" in text
    assert "`aligned_image` (image)" in text
