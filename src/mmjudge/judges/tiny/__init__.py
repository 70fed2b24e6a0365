"""Tiny random checkpoints of every model family, and judge configs that try them without weights.

Every builder makes a model from a config with random weights (hidden size 32, one or two layers, vision
depth 1), a byte-level BPE tokenizer trained on the spot with ``tokenizers``, a chat template and the
family's image / video / audio processors at the released checkpoints' sizes (Qwen2-Audio: :mod:`._audio`), and ``save_pretrained`` s
all of it to ``out_dir``, which then loads through a judge's real loading path (``from_pretrained(...,
local_files_only=True)``). **The weights are random: they prove the plumbing, not the scores.** torch,
transformers and tokenizers are imported inside the builders (the ``judges`` extra).

- :data:`CHECKPOINTS`: name -> builder ``(out_dir, *, seed=0) -> Path`` for every family of
  :data:`mmjudge.judges.families.FAMILIES` (``qwen2_5_omni``: the thinker alone) and ``clip``.
- :data:`RECIPES` and :func:`write_tiny_judge`: the checkpoint and config a judge is tried with
  (``mmjudge tiny-model``).
- :func:`build_tokenizer` and the token and template constants the test helpers build on.

>>> sorted(RECIPES)
['audio_language', 'audio_visual', 'clip_score', 'label_choice', 'pairwise_describe', 'unified_reward', 'unified_reward_flex', 'unified_reward_pair', 'video_reward', 'video_score', 'videoscore2', 'vlm_digit']
>>> from mmjudge.judges.families import FAMILIES
>>> sorted(f.name for f in FAMILIES) == sorted(set(CHECKPOINTS) - {"clip"})
True
"""

from mmjudge.judges.tiny._audio import QWEN2_AUDIO_CHAT_TEMPLATE, QWEN2_AUDIO_NAMED_TOKENS, build_qwen2_audio
from mmjudge.judges.tiny._clip import build_clip
from mmjudge.judges.tiny._common import VOCAB_SIZE, build_tokenizer, save_random, special_ids, token_id
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
from mmjudge.judges.tiny._qwen import (
    OFFICIAL_PIXELS,
    build_qwen2_5_omni_thinker,
    build_qwen2_5_vl,
    build_qwen2_vl,
    build_qwen3_5,
    build_qwen3_vl,
)
from mmjudge.judges.tiny._recipes import (
    CHECKPOINTS,
    RANDOM_WEIGHTS_NOTICE,
    RECIPES,
    TinyJudge,
    TinyRecipe,
    recipe_for,
    write_tiny_judge,
)
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
from mmjudge.judges.tiny._videoalign import build_videoalign
from mmjudge.judges.tiny._videoscore import build_videoscore

__all__ = [
    "CHECKPOINTS",
    "DIGITS",
    "GEMMA3_CHAT_TEMPLATE",
    "IDEFICS2_CHAT_TEMPLATE",
    "IDEFICS3_CHAT_TEMPLATE",
    "IMAGENET_MEAN",
    "IMAGENET_STD",
    "INTERNVL_CHAT_TEMPLATE",
    "LLAVA_ONEVISION_CHAT_TEMPLATE",
    "LLAVA_VICUNA_CHAT_TEMPLATE",
    "MISTRAL3_CHAT_TEMPLATE",
    "OFFICIAL_PIXELS",
    "OMNI_CHAT_TEMPLATE",
    "OMNI_NAMED_TOKENS",
    "OMNI_TOKENS",
    "PAD_TOKEN",
    "QWEN2_AUDIO_CHAT_TEMPLATE",
    "QWEN2_AUDIO_NAMED_TOKENS",
    "QWEN3_5_CHAT_TEMPLATE",
    "QWEN_CHAT_TEMPLATE",
    "QWEN_TOKENS",
    "RANDOM_WEIGHTS_NOTICE",
    "RECIPES",
    "REWARD_MARKERS",
    "ROW_COL_TOKENS",
    "SPECIAL_TOKENS",
    "VOCAB_SIZE",
    "TinyJudge",
    "TinyRecipe",
    "build_clip",
    "build_gemma3",
    "build_idefics2",
    "build_idefics3",
    "build_internvl",
    "build_llava_next_video",
    "build_llava_onevision",
    "build_mistral3",
    "build_qwen2_5_omni_thinker",
    "build_qwen2_5_vl",
    "build_qwen2_audio",
    "build_qwen2_vl",
    "build_qwen3_5",
    "build_qwen3_vl",
    "build_smolvlm",
    "build_tokenizer",
    "build_video_llava",
    "build_videoalign",
    "build_videoscore",
    "recipe_for",
    "save_random",
    "special_ids",
    "token_id",
    "write_tiny_judge",
]
