"""Tiny random Qwen-VL, Qwen2.5-Omni-thinker and CLIP checkpoints for judge tests (re-exported from the package).

The builders live in :mod:`mmjudge.judges.tiny` (also behind ``mmjudge tiny-model``); this helper keeps the
names the judge tests import with ``from tiny_models import ...`` (``tests/judges/conftest.py`` puts this
folder on ``sys.path``). Random weights prove the plumbing, not the scores.

- :func:`build_tokenizer`, :data:`SPECIAL_TOKENS`, :data:`DIGITS`, :data:`PAD_TOKEN`, :data:`QWEN_CHAT_TEMPLATE`,
  :data:`OMNI_CHAT_TEMPLATE`, :data:`OFFICIAL_PIXELS` and the other token constants;
- ``build_qwen2_vl(out_dir, reward_markers=True)``, ``build_qwen2_5_vl``, ``build_qwen3_vl``,
  ``build_qwen2_5_omni_thinker``, ``build_clip``: each writes a model folder and returns it; keyword ``seed``;
- :data:`BUILDERS`: name -> builder (``qwen2_vl``, ``qwen2_5_vl``, ``qwen3_vl``, ``qwen2_5_omni_thinker``,
  ``clip``), behind the session fixtures of ``tests/judges/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mmjudge.judges.tiny._clip import build_clip
from mmjudge.judges.tiny._common import build_tokenizer
from mmjudge.judges.tiny._qwen import (
    OFFICIAL_PIXELS,
    build_qwen2_5_omni_thinker,
    build_qwen2_5_vl,
    build_qwen2_vl,
    build_qwen3_vl,
)
from mmjudge.judges.tiny._tokens import (
    DIGITS,
    OMNI_CHAT_TEMPLATE,
    OMNI_NAMED_TOKENS,
    OMNI_TOKENS,
    PAD_TOKEN,
    QWEN_CHAT_TEMPLATE,
    QWEN_TOKENS,
    REWARD_MARKERS,
    SPECIAL_TOKENS,
)

__all__ = [
    "BUILDERS",
    "DIGITS",
    "OFFICIAL_PIXELS",
    "OMNI_CHAT_TEMPLATE",
    "OMNI_NAMED_TOKENS",
    "OMNI_TOKENS",
    "PAD_TOKEN",
    "QWEN_CHAT_TEMPLATE",
    "QWEN_TOKENS",
    "REWARD_MARKERS",
    "SPECIAL_TOKENS",
    "build_clip",
    "build_qwen2_5_omni_thinker",
    "build_qwen2_5_vl",
    "build_qwen2_vl",
    "build_qwen3_vl",
    "build_tokenizer",
]

BUILDERS: dict[str, Callable[..., Path]] = {
    "qwen2_vl": build_qwen2_vl,
    "qwen2_5_vl": build_qwen2_5_vl,
    "qwen3_vl": build_qwen3_vl,
    "qwen2_5_omni_thinker": build_qwen2_5_omni_thinker,
    "clip": build_clip,
}
"""Name -> builder."""
