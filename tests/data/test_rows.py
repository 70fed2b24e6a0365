"""Reading a built folder (:func:`mmjudge.data.rows.load_rows`) draws no ``datasets`` progress bar and leaves
the user's ``datasets`` settings (progress bars, verbosity) as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmjudge.data.rows import load_rows

CARD = """---
configs:
- config_name: items
  data_files:
  - split: test
    path: data/items/test.parquet
---
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "data" / "items").mkdir(parents=True)
    (tmp_path / "README.md").write_text(CARD, encoding="utf-8")
    pq.write_table(pa.table({"id": ["a", "b"], "label": [0, 1]}), tmp_path / "data" / "items" / "test.parquet")
    return tmp_path


@pytest.mark.parametrize("bars_on", [True, False])
def test_reading_a_folder_draws_no_progress_bar_and_restores_the_settings(folder, capfd, bars_on) -> None:
    import datasets
    from datasets.utils import logging as datasets_logging

    before = datasets_logging.get_verbosity()
    (datasets.enable_progress_bars if bars_on else datasets.disable_progress_bars)()
    try:
        capfd.readouterr()
        assert [r["id"] for r in load_rows(folder, "items")] == ["a", "b"]
        out, err = capfd.readouterr()
        assert "Generating" not in out + err and "split" not in err, err
        assert datasets.are_progress_bars_disabled() is not bars_on  # the user's setting, restored
        assert datasets_logging.get_verbosity() == before
    finally:
        datasets.enable_progress_bars()
