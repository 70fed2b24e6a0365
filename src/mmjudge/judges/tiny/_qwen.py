"""Tiny random Qwen checkpoints: Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen3.5 and the Qwen2.5-Omni thinker.

Text hidden 32 with one layer (Qwen3.5: one linear-attention and one full-attention layer), vision depth 1,
the released patch sizes and the released processors' pixel limits (:data:`OFFICIAL_PIXELS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mmjudge.judges.tiny._common import VOCAB_SIZE, build_tokenizer, save_random, special_ids, token_id
from mmjudge.judges.tiny._templates import QWEN3_5_CHAT_TEMPLATE
from mmjudge.judges.tiny._tokens import OMNI_CHAT_TEMPLATE, OMNI_NAMED_TOKENS, PAD_TOKEN, QWEN_CHAT_TEMPLATE

OFFICIAL_PIXELS = {
    14: (
        {"shortest_edge": 3136, "longest_edge": 12_845_056},
        {"shortest_edge": 3136, "longest_edge": 12_845_056},
    ),
    16: (
        {"shortest_edge": 65_536, "longest_edge": 16_777_216},
        {"shortest_edge": 4096, "longest_edge": 25_165_824},
    ),
}
"""(image, video) processor ``size`` of the released checkpoints by patch size: Qwen2-VL, Qwen2.5-VL and
Qwen2.5-Omni (patch 14), Qwen3-VL and Qwen3.5 (patch 16; its video limits bound the whole clip)."""

_MROPE = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]}
_WINDOWED_VISION = {
    "depth": 1,
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_heads": 2,
    "out_hidden_size": 32,
    "patch_size": 14,
    "window_size": 56,
    "fullatt_block_indexes": [0],
}
"""Qwen2.5-VL's and Qwen2.5-Omni's vision tower, window attention off (one full-attention block)."""


def _text(ids: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {
        "vocab_size": VOCAB_SIZE,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "max_position_embeddings": 4096,
        "bos_token_id": ids[PAD_TOKEN],
        "eos_token_id": ids["<|im_end|>"],
        **extra,
    }


def _vision_token_ids(ids: dict[str, int]) -> dict[str, Any]:
    """The image/video placeholder and vision start/end token ids every Qwen-VL config takes."""
    return {
        "image_token_id": ids["<|image_pad|>"],
        "video_token_id": ids["<|video_pad|>"],
        "vision_start_token_id": ids["<|vision_start|>"],
        "vision_end_token_id": ids["<|vision_end|>"],
    }


def _qwen_vl_processor(
    processor_cls: Any, video_cls: Any, tokenizer: Any, patch: int, template: str = QWEN_CHAT_TEMPLATE
) -> Any:
    from transformers import Qwen2VLImageProcessor

    image_size, video_size = OFFICIAL_PIXELS[patch]
    grid: dict[str, Any] = {"patch_size": patch, "merge_size": 2, "temporal_patch_size": 2}
    return processor_cls(
        image_processor=Qwen2VLImageProcessor(**grid, size=image_size),
        video_processor=video_cls(**grid, size=video_size),
        tokenizer=tokenizer,
        chat_template=template,
    )


def _finish(model_cls: Any, config: Any, processor: Any, out_dir: str | Path, seed: int) -> Path:
    config.text_config.pad_token_id = token_id(processor.tokenizer, PAD_TOKEN)
    return save_random(model_cls, config, processor, out_dir, seed)


def build_qwen2_vl(out_dir: str | Path, *, seed: int = 0, reward_markers: bool = True, patch: int = 14) -> Path:
    """Tiny Qwen2-VL (text hidden 32, 1 layer; vision depth 1, patch 14, merge 2: frames in 28-px cells).
    ``reward_markers=False``: a stock tokenizer without VideoAlign's three markers; ``patch=16``: 16-px patches
    in model and processor (32-px cells, a factor no released Qwen2-VL has: it tests that judges read it)."""
    from transformers import Qwen2VLConfig, Qwen2VLForConditionalGeneration, Qwen2VLProcessor
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    tokenizer = build_tokenizer(reward_markers=reward_markers)
    ids = special_ids(tokenizer)
    vision = {
        "depth": 1,
        "embed_dim": 32,
        "hidden_size": 32,
        "num_heads": 2,
        "mlp_ratio": 2,
        "patch_size": patch,
    }
    config = Qwen2VLConfig(
        text_config=_text(ids, rope_parameters=_MROPE),
        vision_config=vision,
        **_vision_token_ids(ids),
    )
    processor = _qwen_vl_processor(Qwen2VLProcessor, Qwen2VLVideoProcessor, tokenizer, patch)
    return _finish(Qwen2VLForConditionalGeneration, config, processor, out_dir, seed)


def build_qwen2_5_vl(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny Qwen2.5-VL (text hidden 32, 1 layer; vision depth 1, patch 14, window attention off)."""
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    tokenizer = build_tokenizer()
    ids = special_ids(tokenizer)
    config = Qwen2_5_VLConfig(
        text_config=_text(ids, rope_parameters=_MROPE),
        vision_config=_WINDOWED_VISION,
        **_vision_token_ids(ids),
    )
    processor = _qwen_vl_processor(Qwen2_5_VLProcessor, Qwen2VLVideoProcessor, tokenizer, 14)
    return _finish(Qwen2_5_VLForConditionalGeneration, config, processor, out_dir, seed)


def build_qwen3_vl(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny Qwen3-VL (text hidden 32, 1 layer; vision depth 1, patch 16, one deepstack layer)."""
    from transformers import Qwen3VLConfig, Qwen3VLForConditionalGeneration, Qwen3VLProcessor
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    tokenizer = build_tokenizer()
    ids = special_ids(tokenizer)
    rope = {**_MROPE, "mrope_interleaved": True}
    vision = {
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": 32,
        "patch_size": 16,
        "num_position_embeddings": 64,
        "deepstack_visual_indexes": [0],
    }
    config = Qwen3VLConfig(
        text_config=_text(ids, head_dim=16, rope_parameters=rope),
        vision_config=vision,
        **_vision_token_ids(ids),
    )
    processor = _qwen_vl_processor(Qwen3VLProcessor, Qwen3VLVideoProcessor, tokenizer, 16)
    return _finish(Qwen3VLForConditionalGeneration, config, processor, out_dir, seed)


def build_qwen3_5(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Qwen3.5 (Qwen3-VL processor at patch 16; text: one linear-attention and one full-attention layer)."""
    from transformers import Qwen3_5Config, Qwen3_5ForConditionalGeneration, Qwen3VLProcessor
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    tokenizer = build_tokenizer(extra_special_tokens=("<think>", "</think>"))
    ids = special_ids(tokenizer)
    rope = {
        "rope_type": "default",
        "rope_theta": 10000.0,
        "mrope_section": [1, 1, 0],
        "mrope_interleaved": True,
    }
    linear = {
        "linear_key_head_dim": 16,
        "linear_value_head_dim": 16,
        "linear_num_key_heads": 2,
        "linear_num_value_heads": 2,
    }
    text = _text(ids, num_hidden_layers=2, layer_types=["linear_attention", "full_attention"], head_dim=16)
    text.update(max_position_embeddings=16_384, pad_token_id=ids[PAD_TOKEN], rope_parameters=rope, **linear)
    vision = {"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 32}
    config = Qwen3_5Config(
        text_config=text,
        vision_config={**vision, "patch_size": 16, "num_position_embeddings": 64},
        **_vision_token_ids(ids),
    )
    processor = _qwen_vl_processor(
        Qwen3VLProcessor, Qwen3VLVideoProcessor, tokenizer, 16, template=QWEN3_5_CHAT_TEMPLATE
    )
    return save_random(Qwen3_5ForConditionalGeneration, config, processor, out_dir, seed)


def build_qwen2_5_omni_thinker(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny Qwen2.5-Omni thinker (text hidden 32, 1 layer; vision depth 1; audio encoder 1 layer, 128 mels)."""
    from transformers import (
        Qwen2_5OmniProcessor,
        Qwen2_5OmniThinkerConfig,
        Qwen2_5OmniThinkerForConditionalGeneration,
        Qwen2VLImageProcessor,
        WhisperFeatureExtractor,
    )
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    tokenizer = build_tokenizer(named_tokens=OMNI_NAMED_TOKENS)
    ids = special_ids(tokenizer)
    audio = {
        "num_mel_bins": 128,
        "encoder_layers": 1,
        "encoder_attention_heads": 2,
        "encoder_ffn_dim": 64,
        "d_model": 32,
        "output_dim": 32,
        "max_source_positions": 1500,
        "n_window": 100,
    }
    config = Qwen2_5OmniThinkerConfig(  # type: ignore[call-arg]  # vision_*_token_id: through **kwargs
        audio_config=audio,
        vision_config=_WINDOWED_VISION,
        text_config=_text(ids, rope_parameters=_MROPE),
        audio_token_index=ids["<|AUDIO|>"],
        image_token_index=ids["<|IMAGE|>"],
        video_token_index=ids["<|VIDEO|>"],
        audio_start_token_id=ids["<|audio_bos|>"],
        audio_end_token_id=ids["<|audio_eos|>"],
        vision_start_token_id=ids["<|vision_bos|>"],
        vision_end_token_id=ids["<|vision_eos|>"],
        user_token_id=int(tokenizer("user")["input_ids"][0]),
    )
    image_size, video_size = OFFICIAL_PIXELS[14]
    grid: dict[str, Any] = {"patch_size": 14, "merge_size": 2, "temporal_patch_size": 2}
    processor = Qwen2_5OmniProcessor(
        image_processor=Qwen2VLImageProcessor(**grid, size=image_size),
        video_processor=Qwen2VLVideoProcessor(**grid, size=video_size),
        feature_extractor=WhisperFeatureExtractor(feature_size=128),
        tokenizer=tokenizer,
        chat_template=OMNI_CHAT_TEMPLATE,
    )
    return _finish(Qwen2_5OmniThinkerForConditionalGeneration, config, processor, out_dir, seed)
