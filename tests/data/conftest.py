"""Fixtures for the data tests: offline ``load_dataset`` with a private cache per test."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

# pytest runs with --import-mode=importlib, which puts no test folder on sys.path: make the plain
# helper module next to this file importable as `data_helpers`.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def load_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``load_offline(folder, config)`` -> DatasetDict, offline, with a cache under ``tmp_path``."""
    home = tmp_path / "hf_home"
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True, raising=False)

    def load(folder: Path, config: str | None = None) -> Any:
        return datasets.load_dataset(str(folder), config, cache_dir=str(home / "datasets"))

    return load
