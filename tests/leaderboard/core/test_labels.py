"""The server scores against the folder it was given, never against cached rows of another folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq

from mmjudge.scoring import load_reference_rows


def test_two_folders_with_the_same_name_and_card_load_their_own_rows(data_root: Path, tmp_path: Path) -> None:
    first = shutil.copytree(data_root / "emoprefer", tmp_path / "a" / "emoprefer")
    second = shutil.copytree(data_root / "emoprefer", tmp_path / "b" / "emoprefer")
    (path,) = (second / "data" / "pairs").glob("*.parquet")  # the reference config of emoprefer
    table = pq.read_table(path)
    rows = table.to_pylist()
    flipped = {"a1": "a2", "a2": "a1", "same": "a1"}
    for row in rows:
        row["preference"] = flipped[row["preference"]]
    pq.write_table(table.from_pylist(rows, schema=table.schema), path)
    loaded_first = load_reference_rows("emoprefer", first)
    loaded_second = load_reference_rows("emoprefer", second)
    assert [r["preference"] for r in loaded_second] == [flipped[r["preference"]] for r in loaded_first]
