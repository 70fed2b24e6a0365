"""VideoScore's regression model on transformers 5: the native ``Idefics2Model`` plus a ``score`` head.

transformers 5 has no ``Idefics2ForSequenceClassification``; Mantis' class (TIGER-AI-Lab/Mantis@f3a3192
``mantis/models/idefics2/modeling_idefics2.py``) is an ``Idefics2Model`` named ``model`` and a
``nn.Linear(text hidden, num_labels)`` with bias named ``score``, read at the last non-pad token. This module
holds the same two children under the same names, so a VideoScore checkpoint's keys
(``model.{vision_model,connector,text_model}.*``, ``score.{weight,bias}``) load as they are, through
``from_pretrained`` (shards, dtype, device). Imported by :mod:`mmjudge.judges.video_score` at load time only:
it imports torch and transformers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
from transformers import Idefics2Config, Idefics2Model, Idefics2PreTrainedModel

from mmjudge.errors import ConfigError

__all__ = ["NUM_OUTPUTS", "VideoScoreRegressor", "check_loading_info", "last_real_positions"]

NUM_OUTPUTS = 5
"""VideoScore's outputs: visual quality, temporal consistency, dynamic degree, text-to-video alignment,
factual consistency."""


def last_real_positions(attention_mask: torch.Tensor) -> torch.Tensor:
    """Index of each row's last real (mask 1) token; under right padding, Mantis' ``argmax(ids == pad) - 1``.

    >>> last_real_positions(torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1]])).tolist()
    [2, 3]
    """
    mask = attention_mask.to(torch.long)
    positions = torch.arange(mask.shape[-1], device=mask.device).expand_as(mask)
    return torch.where(mask.bool(), positions, torch.full_like(positions, -1)).max(dim=-1).values


class VideoScoreRegressor(Idefics2PreTrainedModel):
    """``Idefics2Model`` (``model``) + ``Linear(text hidden, 5, bias=True)`` (``score``), Mantis' key layout."""

    def __init__(self, config: Idefics2Config) -> None:
        super().__init__(config)
        self.model = Idefics2Model(config)
        text: Any = config.text_config
        self.score = torch.nn.Linear(text.hidden_size, NUM_OUTPUTS, bias=True)
        self.post_init()

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **inputs: Any) -> torch.Tensor:
        """The five outputs ``(B, 5)``: the head, in the model's dtype as Mantis runs it, at each row's last
        real token (the processor pads on the right)."""
        hidden = self.model(input_ids=input_ids, attention_mask=attention_mask, **inputs).last_hidden_state
        rows = torch.arange(hidden.shape[0], device=hidden.device)
        last = last_real_positions(attention_mask).to(hidden.device)
        return self.score(hidden[rows, last])


def check_loading_info(info: Mapping[str, Any], source: str) -> None:
    """Refuse a checkpoint whose keys are not exactly VideoScore's (``output_loading_info`` of
    ``from_pretrained``), naming the missing, unexpected and mis-shaped keys.

    >>> check_loading_info({"missing_keys": {"score.bias"}, "unexpected_keys": set()}, "ckpt")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: ckpt is not a VideoScore checkpoint (Idefics2 backbone under model.* + a 5-output score head): missing keys ['score.bias']; expected model.{vision_model,connector,text_model}.* and score.{weight,bias}
    """
    problems = []
    for name in ("missing_keys", "unexpected_keys", "mismatched_keys"):
        keys = sorted(str(k if isinstance(k, str) else k[0]) for k in info.get(name) or ())
        if keys:
            shown = keys[:8] + ([f"... {len(keys) - 8} more"] if len(keys) > 8 else [])
            problems.append(f"{name.replace('_', ' ')} {shown}")
    if problems:
        raise ConfigError(
            f"{source} is not a VideoScore checkpoint (Idefics2 backbone under model.* + a {NUM_OUTPUTS}-output "
            f"score head): {'; '.join(problems)}; expected model.{{vision_model,connector,text_model}}.* and "
            "score.{weight,bias}"
        )
