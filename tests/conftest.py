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
# and the tiny-checkpoint helpers of tests/judges (tiny_models, tiny_families), which the fixtures below, the runner
# tests and the leaderboard's worker tests build models with
if str(Path(__file__).parent / "judges") not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent / "judges"))

_HF_HOME = Path(tempfile.mkdtemp(prefix="mmjudge-tests-hf-"))


def pytest_configure(config: pytest.Config) -> None:
    os.environ["HF_HOME"] = str(_HF_HOME)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    os.environ["HF_EVALUATE_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"  # a gradio app the tests build never calls home
    os.environ.setdefault("MPLBACKEND", "Agg")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _one_thread_per_worker()


def _one_thread_per_worker() -> None:
    """Under ``pytest -n N`` each worker computes on one thread (unless the caller chose otherwise).

    By default torch and the BLAS libraries start one thread per core in every worker, so N workers run N x cores
    threads on N cores and spin against each other: on the 2-core CI machine two workers running the tiny models
    took about three times as long as with one thread each. Set before the test modules import torch (the
    variables) and after a plugin may have (``set_num_threads``); subprocesses the tests start inherit the
    variables.
    """
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


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


# --- tiny random model folders (tests/judges/tiny_models.py, tiny_families.py), each built once per session


def _build(factory: pytest.TempPathFactory, family: str) -> Path:
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    from tiny_models import BUILDERS

    builder: Callable[..., Path] = BUILDERS[family]
    return builder(factory.mktemp(f"tiny-{family}"), seed=0)


@pytest.fixture(scope="session")
def tiny_qwen2_vl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Folder of a tiny random Qwen2-VL (text hidden 32, 1 layer; vision depth 1, patch 14)."""
    return _build(tmp_path_factory, "qwen2_vl")


@pytest.fixture(scope="session")
def tiny_qwen2_5_vl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Folder of a tiny random Qwen2.5-VL."""
    return _build(tmp_path_factory, "qwen2_5_vl")


@pytest.fixture(scope="session")
def tiny_qwen3_vl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Folder of a tiny random Qwen3-VL (patch 16, so frames come in 32-px cells)."""
    return _build(tmp_path_factory, "qwen3_vl")


@pytest.fixture(scope="session")
def tiny_omni_thinker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Folder of a tiny random Qwen2.5-Omni thinker (vision and audio encoders, Whisper features)."""
    return _build(tmp_path_factory, "qwen2_5_omni_thinker")


@pytest.fixture(scope="session")
def tiny_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Folder of a tiny random CLIP (projection 16)."""
    return _build(tmp_path_factory, "clip")


@pytest.fixture(scope="session")
def tiny_family(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``tiny_family(key) -> Path``: the folder of a tiny random checkpoint of family ``key``
    (a key of ``tiny_families.FAMILY_BUILDERS``), built on first request and reused for the session."""
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    from tiny_families import FAMILY_BUILDERS

    built: dict[str, Path] = {}

    def folder(key: str) -> Path:
        if key not in built:
            built[key] = FAMILY_BUILDERS[key](tmp_path_factory.mktemp(f"tiny-{key}"), seed=0)
        return built[key]

    return folder
