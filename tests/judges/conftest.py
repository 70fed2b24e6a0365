"""The judge tests' helper folder on ``sys.path``; the tiny model fixtures live in ``tests/conftest.py``.

The tiny random model folders, each built once per session on first use:

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
from pathlib import Path

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
