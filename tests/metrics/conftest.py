"""Fixtures for the evaluate-module tests: ``test_<name>_module.py`` tests the folder ``metrics/<name>``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import evaluate
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def metric_folder(request: pytest.FixtureRequest) -> Path:
    """``metrics/<name>`` for the test module ``test_<name>_module.py``."""
    stem = Path(request.module.__file__).stem
    assert stem.startswith("test_") and stem.endswith("_module"), stem
    folder = REPO / "metrics" / stem.removeprefix("test_").removesuffix("_module")
    assert folder.is_dir(), folder
    return folder


@pytest.fixture(scope="module")
def metric(metric_folder: Path) -> Iterator[Any]:
    """The test module's evaluate module, loaded offline once per test module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_EVALUATE_OFFLINE", "1")
        yield evaluate.load(str(metric_folder))


@pytest.fixture
def card_text(metric_folder: Path) -> str:
    """The text of the test module's metric card (``README.md``)."""
    return (metric_folder / "README.md").read_text(encoding="utf-8")
