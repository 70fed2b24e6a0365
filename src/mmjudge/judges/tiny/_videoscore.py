"""A tiny random VideoScore checkpoint (the ``video_score`` judge's ``model``), in Mantis' key layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mmjudge.judges.tiny._common import token_id
from mmjudge.judges.tiny._families import _perceiver, _text, _tokenizer, _vision

BOS_TOKEN = "<s>"
"""Mistral's BOS, which Idefics2's tokenizer puts first (the official call keeps the default special tokens)."""
IMAGE_SEQ_LEN = 4
"""Perceiver latents per frame (VideoScore: 64), so a 48-frame clip stays a short sequence."""


def build_videoscore(out_dir: str | Path, *, seed: int = 0) -> Path:
    """An Idefics2 backbone (text hidden 32, one layer; vision depth 1 at the released 980 / 378 px edges,
    14-px patches; a one-layer perceiver to :data:`IMAGE_SEQ_LEN` latents) and a random ``score`` head
    ``Linear(32, 5)``, saved as ``model.*`` + ``score.*`` (VideoScore's keys) with an ``Idefics2Processor``
    (``do_image_splitting: false``, as VideoScore's training saved it; a tokenizer that adds a BOS) to
    ``out_dir``, which is returned and loads through the judge's own path."""
    import torch
    from tokenizers import processors
    from transformers import Idefics2Config, Idefics2ImageProcessor, Idefics2Processor

    from mmjudge.judges._videoscore_model import VideoScoreRegressor

    tokenizer = _tokenizer((BOS_TOKEN, "<fake_token_around_image>", "<image>", "<end_of_utterance>"))
    bos = (BOS_TOKEN, token_id(tokenizer, BOS_TOKEN))
    tokenizer.backend_tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{BOS_TOKEN} $A", pair=f"{BOS_TOKEN} $A {BOS_TOKEN} $B", special_tokens=[bos]
    )
    tokenizer.bos_token = BOS_TOKEN
    perceiver = _perceiver(IMAGE_SEQ_LEN)
    head: dict[str, Any] = {"num_labels": 5, "problem_type": "regression"}  # as VideoScore's config.json
    config = Idefics2Config(
        vision_config=_vision(None, 980, 14),
        perceiver_config=perceiver,
        text_config=_text("mistral", tokenizer, bos_token_id=bos[1]),
        image_token_id=token_id(tokenizer, "<image>"),
        **head,
    )
    image = Idefics2ImageProcessor(size={"longest_edge": 980, "shortest_edge": 378}, do_image_splitting=False)
    processor = Idefics2Processor(image, tokenizer, image_seq_len=IMAGE_SEQ_LEN)
    torch.manual_seed(seed)
    model = VideoScoreRegressor(config).eval()
    torch.nn.init.normal_(model.score.weight)  # a visible spread of scores
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    model.config.architectures = ["Idefics2ForSequenceClassification"]  # as VideoScore's config.json names it
    model.config.save_pretrained(out)
    processor.save_pretrained(out)
    return out
