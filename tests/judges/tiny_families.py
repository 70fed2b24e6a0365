"""Tiny random checkpoints of the other vision-language families for judge tests (re-exported from the package).

The builders live in :mod:`mmjudge.judges.tiny` (also behind ``mmjudge tiny-model``): Gemma-3, Mistral-3,
Idefics2/3, SmolVLM, InternVL, LLaVA-OneVision, LLaVA-NeXT-Video, Video-LLaVA and Qwen3.5, each with its
processor at the released checkpoint's sizes and a faithful short chat template.

- ``build_<key>(out_dir, *, seed=0) -> Path`` for each key of :data:`FAMILY_BUILDERS`;
- :data:`FAMILY_BUILDERS`: key -> builder; :data:`VIDEO_FAMILIES`: keys whose processor takes ``videos=``.

The session fixture ``tiny_family(key)`` in ``tests/judges/conftest.py`` builds each family once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mmjudge.judges.tiny import CHECKPOINTS
from mmjudge.judges.tiny._families import (
    IMAGENET_MEAN,
    IMAGENET_STD,
    ROW_COL_TOKENS,
    build_gemma3,
    build_idefics2,
    build_idefics3,
    build_internvl,
    build_llava_next_video,
    build_llava_onevision,
    build_mistral3,
    build_smolvlm,
    build_video_llava,
)
from mmjudge.judges.tiny._qwen import build_qwen3_5
from mmjudge.judges.tiny._templates import (
    GEMMA3_CHAT_TEMPLATE,
    IDEFICS2_CHAT_TEMPLATE,
    IDEFICS3_CHAT_TEMPLATE,
    INTERNVL_CHAT_TEMPLATE,
    LLAVA_ONEVISION_CHAT_TEMPLATE,
    LLAVA_VICUNA_CHAT_TEMPLATE,
    MISTRAL3_CHAT_TEMPLATE,
    QWEN3_5_CHAT_TEMPLATE,
)

__all__ = [
    "FAMILY_BUILDERS",
    "GEMMA3_CHAT_TEMPLATE",
    "IDEFICS2_CHAT_TEMPLATE",
    "IDEFICS3_CHAT_TEMPLATE",
    "IMAGENET_MEAN",
    "IMAGENET_STD",
    "INTERNVL_CHAT_TEMPLATE",
    "LLAVA_ONEVISION_CHAT_TEMPLATE",
    "LLAVA_VICUNA_CHAT_TEMPLATE",
    "MISTRAL3_CHAT_TEMPLATE",
    "QWEN3_5_CHAT_TEMPLATE",
    "ROW_COL_TOKENS",
    "VIDEO_FAMILIES",
    "build_gemma3",
    "build_idefics2",
    "build_idefics3",
    "build_internvl",
    "build_llava_next_video",
    "build_llava_onevision",
    "build_mistral3",
    "build_qwen3_5",
    "build_smolvlm",
    "build_video_llava",
]

FAMILY_BUILDERS: dict[str, Callable[..., Path]] = {
    key: CHECKPOINTS[key]
    for key in ("gemma3", "mistral3", "idefics2", "idefics3", "smolvlm", "internvl", "llava_onevision",
                "llava_next_video", "video_llava", "qwen3_5")
}  # fmt: skip
"""Family key -> builder."""
VIDEO_FAMILIES: frozenset[str] = frozenset(
    {"smolvlm", "internvl", "llava_onevision", "llava_next_video", "video_llava", "qwen3_5"}
)
"""Families whose processor takes ``videos=`` (written out: ``test_family_parity`` checks it against the families)."""
