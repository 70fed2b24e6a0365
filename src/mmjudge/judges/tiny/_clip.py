"""Tiny random CLIP (the ``clip_score`` judge's model)."""

from __future__ import annotations

from pathlib import Path

from mmjudge.judges.tiny._common import VOCAB_SIZE, build_tokenizer, save_random, special_ids
from mmjudge.judges.tiny._tokens import PAD_TOKEN


def build_clip(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny CLIP (text and vision hidden 32, 1 layer, projection 16, 32-px images in 8-px patches)."""
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor

    tokenizer = build_tokenizer(append_eos=True)
    ids = special_ids(tokenizer)
    common = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2}
    text = {
        **common,
        "vocab_size": VOCAB_SIZE,
        "max_position_embeddings": 77,
        "eos_token_id": ids["<|im_end|>"],
        "bos_token_id": ids[PAD_TOKEN],
        "pad_token_id": ids[PAD_TOKEN],
    }
    vision = {**common, "image_size": 32, "patch_size": 8}
    config = CLIPConfig(text_config=text, vision_config=vision, projection_dim=16)
    image = CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32})
    processor = CLIPProcessor(image_processor=image, tokenizer=tokenizer)
    return save_random(CLIPModel, config, processor, out_dir, seed)
