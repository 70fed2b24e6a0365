"""Fixtures for the judge tests: tiny random model folders, each built once per session on first use.

Each fixture returns the folder (a :class:`~pathlib.Path`) of a model written by
:mod:`tiny_models` (``save_pretrained`` of the model, its processor, tokenizer and chat template), to be
loaded back through a backend's real loading path with ``local_files_only=True``:

- ``tiny_qwen2_vl`` (Qwen2-VL, patch 14, factor 28; also the VideoAlign backbone),
- ``tiny_qwen2_5_vl`` (Qwen2.5-VL),
- ``tiny_qwen3_vl`` (Qwen3-VL, patch 16, factor 32),
- ``tiny_omni_thinker`` (Qwen2.5-Omni thinker, with audio),
- ``tiny_clip`` (CLIP, 32-px images).

``tiny_family(key)`` builds the other vision-language families of :mod:`tiny_families` (Gemma-3, Mistral-3,
Idefics2/3, SmolVLM, InternVL, LLaVA-OneVision, LLaVA-NeXT-Video, Video-LLaVA, Qwen3.5) the same way, each
once per session.

Tests must not modify the folders (copy one with ``shutil.copytree`` first). Helpers are imported as
``from tiny_models import ...``: this file puts ``tests/judges`` on ``sys.path`` (pytest runs in
importlib mode, which adds no test folder).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))


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
