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

These are the public names (what ``mmjudge tiny-model`` needs). The builders, the tokenizer and the token and
chat-template constants the test helpers build on live in the private modules (``_common``, ``_tokens``,
``_templates``, ``_qwen``, ``_families``, ...), which tests import directly.

>>> sorted(RECIPES)
['audio_language', 'audio_visual', 'clip_score', 'label_choice', 'pairwise_describe', 'unified_reward', 'unified_reward_flex', 'unified_reward_pair', 'video_reward', 'video_score', 'videoscore2', 'vlm_digit']
>>> from mmjudge.judges.families import FAMILIES
>>> sorted(f.name for f in FAMILIES) == sorted(set(CHECKPOINTS) - {"clip"})
True
"""

from mmjudge.judges.tiny._recipes import (
    CHECKPOINTS,
    RANDOM_WEIGHTS_NOTICE,
    RECIPES,
    TinyJudge,
    TinyRecipe,
    write_tiny_judge,
)

__all__ = ["CHECKPOINTS", "RANDOM_WEIGHTS_NOTICE", "RECIPES", "TinyJudge", "TinyRecipe", "write_tiny_judge"]
