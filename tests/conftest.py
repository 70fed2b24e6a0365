"""Session-wide test setup: offline Hugging Face libraries with a private cache, and the sample data.

Nothing in the test suite may reach the network or the user's Hugging Face cache: the variables below
are set before any test imports ``datasets``, ``evaluate`` or ``huggingface_hub``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

# pytest runs with --import-mode=importlib, which puts no test folder on sys.path: make the plain helper
# modules of this folder (data_helpers) importable.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

_HF_HOME = Path(tempfile.mkdtemp(prefix="mmjudge-tests-hf-"))


def pytest_configure(config: pytest.Config) -> None:
    os.environ["HF_HOME"] = str(_HF_HOME)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    os.environ["HF_EVALUATE_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="session")
def sample_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small sample data of all four benchmarks (``mmjudge sample-data``), built once per session.

    ``<dir>/<id>/`` are the Hub-ready folders; gated-media roots are ``<dir>/raw/emoprefer/MER2025`` and
    ``<dir>/raw/emorealm/DFEW``. Tests must not modify it.
    """
    from mmjudge.benchmarks import write_sample_data

    out = tmp_path_factory.mktemp("sample-data")
    write_sample_data(out, size="small")
    return out


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
