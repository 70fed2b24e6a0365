"""Tiny random checkpoints of the vision-language families transformers loads as ``AutoModelForImageTextToText``.

Gemma-3, Mistral-3, Idefics2/3, SmolVLM, InternVL, LLaVA-OneVision, LLaVA-NeXT-Video and Video-LLaVA: a config
with random weights (text hidden 32, one layer; vision depth 1, hidden 32), the tiny byte-level tokenizer
with the family's special tokens added, a shortened but faithful copy of the family's chat template
(:mod:`mmjudge.judges.tiny._templates`) and the processor at the released checkpoint's sizes. Patch sizes are
the released ones and each vision tower's ``image_size`` matches its processor, so the folders take images
and videos at the sizes a real checkpoint would see.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mmjudge.judges.tiny._common import VOCAB_SIZE, build_tokenizer, save_random, token_id
from mmjudge.judges.tiny._templates import (
    GEMMA3_CHAT_TEMPLATE,
    IDEFICS2_CHAT_TEMPLATE,
    IDEFICS3_CHAT_TEMPLATE,
    INTERNVL_CHAT_TEMPLATE,
    LLAVA_ONEVISION_CHAT_TEMPLATE,
    LLAVA_VICUNA_CHAT_TEMPLATE,
    MISTRAL3_CHAT_TEMPLATE,
)
from mmjudge.judges.tiny._tokens import PAD_TOKEN

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]
ROW_COL_TOKENS = tuple(f"<row_{r}_col_{c}>" for r in range(1, 7) for c in range(1, 7))
"""Idefics3 / SmolVLM tile-position tokens."""


def _tokenizer(tokens: Sequence[str], named: dict[str, str] | None = None) -> Any:
    extra = tuple(tokens) + tuple((named or {}).values())
    return build_tokenizer(named_tokens=named, extra_special_tokens=tuple(dict.fromkeys(extra)))


def _perceiver(latents: int) -> dict[str, Any]:
    """Idefics2's perceiver resampler, one layer, to ``latents`` image tokens per image."""
    return {
        "resampler_n_latents": latents,
        "resampler_depth": 1,
        "resampler_n_heads": 2,
        "resampler_head_dim": 16,
        "num_key_value_heads": 1,
        "hidden_size": 32,
        "rms_norm_eps": 1e-6,
    }


def _text(model_type: str | None, tokenizer: Any, **extra: Any) -> dict[str, Any]:
    """A one-layer text decoder (hidden 32, 2 heads of 16) over the 512-token vocabulary."""
    config = {
        "vocab_size": VOCAB_SIZE,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "max_position_embeddings": 16_384,
        "pad_token_id": token_id(tokenizer, PAD_TOKEN),
        "bos_token_id": token_id(tokenizer, PAD_TOKEN),
        "eos_token_id": token_id(tokenizer, "<|im_end|>"),
        **extra,
    }
    return {"model_type": model_type, **config} if model_type else config


def _vision(model_type: str | None, image_size: Any, patch_size: Any, **extra: Any) -> dict[str, Any]:
    """A one-layer vision tower (hidden 32, 2 heads) at the released image and patch size."""
    config = {
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "image_size": image_size,
        "patch_size": patch_size,
        **extra,
    }
    return {"model_type": model_type, **config} if model_type else config


def build_gemma3(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Gemma-3 (SigLIP 896 px in 14-px patches, pooled to 256 soft tokens), as google/gemma-3-4b-it."""
    from transformers import (
        Gemma3Config,
        Gemma3ForConditionalGeneration,
        Gemma3ImageProcessor,
        Gemma3Processor,
    )

    named = {
        "boi_token": "<start_of_image>",
        "eoi_token": "<end_of_image>",
        "image_token": "<image_soft_token>",
    }
    tokenizer = _tokenizer(("<bos>", "<start_of_turn>", "<end_of_turn>"), named)
    text = _text(None, tokenizer, num_key_value_heads=1, query_pre_attn_scalar=16, sliding_window=512)
    config = Gemma3Config(
        text_config={**text, "layer_types": ["full_attention"]},
        vision_config=_vision("siglip_vision_model", 896, 14, vision_use_head=False),
        mm_tokens_per_image=256,
        boi_token_index=token_id(tokenizer, named["boi_token"]),
        eoi_token_index=token_id(tokenizer, named["eoi_token"]),
        image_token_index=token_id(tokenizer, named["image_token"]),
    )
    image = Gemma3ImageProcessor(size={"height": 896, "width": 896})
    processor = Gemma3Processor(image, tokenizer, chat_template=GEMMA3_CHAT_TEMPLATE, image_seq_length=256)
    return save_random(Gemma3ForConditionalGeneration, config, processor, out_dir, seed)


def build_mistral3(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Mistral-Small-3.1 (Pixtral vision, 14-px patches merged 2x2, longest edge 1540)."""
    from transformers import (
        Mistral3Config,
        Mistral3ForConditionalGeneration,
        PixtralImageProcessor,
        PixtralProcessor,
    )

    tokens = (
        "<s>",
        "</s>",
        "[INST]",
        "[/INST]",
        "[SYSTEM_PROMPT]",
        "[/SYSTEM_PROMPT]",
        "[IMG]",
        "[IMG_BREAK]",
        "[IMG_END]",
    )
    tokenizer = _tokenizer(tokens)
    config = Mistral3Config(
        vision_config=_vision("pixtral", 1540, 14, head_dim=16),
        text_config=_text("mistral", tokenizer),
        image_token_index=token_id(tokenizer, "[IMG]"),
        spatial_merge_size=2,
        vision_feature_layer=-1,
        multimodal_projector_bias=False,
    )
    image = PixtralImageProcessor(size={"longest_edge": 1540}, patch_size={"height": 14, "width": 14})
    processor = PixtralProcessor(
        image, tokenizer, patch_size=14, spatial_merge_size=2, chat_template=MISTRAL3_CHAT_TEMPLATE
    )
    return save_random(Mistral3ForConditionalGeneration, config, processor, out_dir, seed)


def build_idefics2(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Idefics2 (980-px SigLIP in 14-px patches, a perceiver to 64 latents, no image splitting)."""
    from transformers import (
        Idefics2Config,
        Idefics2ForConditionalGeneration,
        Idefics2ImageProcessor,
        Idefics2Processor,
    )

    tokenizer = _tokenizer(("<fake_token_around_image>", "<image>", "<end_of_utterance>"))
    perceiver = _perceiver(64)
    config = Idefics2Config(
        vision_config=_vision(None, 980, 14),
        perceiver_config=perceiver,
        text_config=_text("mistral", tokenizer),
        image_token_id=token_id(tokenizer, "<image>"),
    )
    image = Idefics2ImageProcessor(size={"longest_edge": 980, "shortest_edge": 378}, do_image_splitting=False)
    processor = Idefics2Processor(image, tokenizer, image_seq_len=64, chat_template=IDEFICS2_CHAT_TEMPLATE)
    return save_random(Idefics2ForConditionalGeneration, config, processor, out_dir, seed)


def build_idefics3(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Idefics3-8B-Llama3 (364-px tiles of a 1456-px image plus a global view, 169 tokens a tile)."""
    from transformers import (
        Idefics3Config,
        Idefics3ForConditionalGeneration,
        Idefics3ImageProcessor,
        Idefics3Processor,
    )

    tokens = (
        "<|begin_of_text|>",
        "<fake_token_around_image>",
        "<image>",
        "<end_of_utterance>",
        "<global-img>",
    )
    tokenizer = _tokenizer(tokens + ROW_COL_TOKENS)
    config = Idefics3Config(
        vision_config=_vision(None, 364, 14),
        text_config=_text("llama", tokenizer),
        scale_factor=2,
        image_token_id=token_id(tokenizer, "<image>"),
    )
    image = Idefics3ImageProcessor(
        size={"longest_edge": 4 * 364}, max_image_size={"longest_edge": 364}, do_image_splitting=True
    )
    processor = Idefics3Processor(image, tokenizer, image_seq_len=169, chat_template=IDEFICS3_CHAT_TEMPLATE)
    return save_random(Idefics3ForConditionalGeneration, config, processor, out_dir, seed)


def build_smolvlm(out_dir: str | Path, *, seed: int = 0) -> Path:
    """SmolVLM2-2.2B (384-px tiles of a 1536-px image in 14-px patches, pixel shuffle 3: 81 tokens a tile;
    videos at 1 fps, at most 64 frames, 384 px). ``SmolVLMProcessor`` needs ``num2words`` (in the ``judges`` extra)."""
    from transformers import (
        SmolVLMConfig,
        SmolVLMForConditionalGeneration,
        SmolVLMImageProcessor,
        SmolVLMProcessor,
    )
    from transformers.models.smolvlm.processing_smolvlm import DEFAULT_CHAT_TEMPLATE
    from transformers.models.smolvlm.video_processing_smolvlm import SmolVLMVideoProcessor

    tokens = ("<fake_token_around_image>", "<image>", "<end_of_utterance>", "<global-img>")
    tokenizer = _tokenizer(tokens + ROW_COL_TOKENS)
    config = SmolVLMConfig(
        vision_config=_vision(None, 384, 14),
        text_config=_text("llama", tokenizer),
        scale_factor=3,
        image_token_id=token_id(tokenizer, "<image>"),
    )
    tile = {"longest_edge": 384}
    image = SmolVLMImageProcessor(
        size={"longest_edge": 4 * 384}, max_image_size=tile, do_image_splitting=True
    )
    video = SmolVLMVideoProcessor(  # type: ignore[call-arg]  # video_sampling: through **kwargs
        video_sampling={"fps": 1, "max_frames": 64, "video_size": tile}, max_image_size=tile
    )
    processor = SmolVLMProcessor(
        image, tokenizer, video, image_seq_len=81, chat_template=DEFAULT_CHAT_TEMPLATE
    )
    return save_random(SmolVLMForConditionalGeneration, config, processor, out_dir, seed)


def build_internvl(out_dir: str | Path, *, seed: int = 0) -> Path:
    """InternVL3-1B-hf (448-px InternViT in 14-px patches, pixel shuffle 0.5: 256 tokens an image or frame)."""
    from transformers import (
        GotOcr2ImageProcessor,
        InternVLConfig,
        InternVLForConditionalGeneration,
        InternVLProcessor,
    )
    from transformers.models.internvl.video_processing_internvl import InternVLVideoProcessor

    named = {
        "start_image_token": "<img>",
        "end_image_token": "</img>",
        "context_image_token": "<IMG_CONTEXT>",
        "video_token": "<video>",
    }
    tokenizer = _tokenizer((), named)
    config = InternVLConfig(
        vision_config=_vision("internvl_vision", [448, 448], [14, 14]),
        text_config=_text("qwen2", tokenizer),
        image_token_id=token_id(tokenizer, "<IMG_CONTEXT>"),
        image_seq_length=256,
        downsample_ratio=0.5,
    )
    pixels: dict[str, Any] = {
        "size": {"height": 448, "width": 448},
        "image_mean": IMAGENET_MEAN,
        "image_std": IMAGENET_STD,
    }
    processor = InternVLProcessor(
        GotOcr2ImageProcessor(**pixels),
        tokenizer,
        InternVLVideoProcessor(**pixels),
        image_seq_length=256,
        chat_template=INTERNVL_CHAT_TEMPLATE,
    )
    return save_random(InternVLForConditionalGeneration, config, processor, out_dir, seed)


def build_llava_onevision(out_dir: str | Path, *, seed: int = 0) -> Path:
    """LLaVA-OneVision-qwen2-0.5b-ov (SigLIP 384 px in 14-px patches, 729 tokens a view, anyres_max_9)."""
    from transformers import (
        LlavaOnevisionConfig,
        LlavaOnevisionForConditionalGeneration,
        LlavaOnevisionImageProcessor,
        LlavaOnevisionProcessor,
    )
    from transformers.models.llava_onevision.video_processing_llava_onevision import (
        LlavaOnevisionVideoProcessor,
    )

    tokenizer = _tokenizer(("<image>", "<video>"))
    config = LlavaOnevisionConfig(
        vision_config=_vision("siglip_vision_model", 384, 14, vision_use_head=False),
        text_config=_text("qwen2", tokenizer),
        image_token_index=token_id(tokenizer, "<image>"),
        video_token_index=token_id(tokenizer, "<video>"),
        vision_feature_select_strategy="full",
        vision_feature_layer=-1,
    )
    square = {"height": 384, "width": 384}
    processor = LlavaOnevisionProcessor(
        LlavaOnevisionImageProcessor(size=square),
        tokenizer,
        LlavaOnevisionVideoProcessor(size=square),
        num_image_tokens=729,
        vision_feature_select_strategy="full",
        chat_template=LLAVA_ONEVISION_CHAT_TEMPLATE,
    )
    return save_random(LlavaOnevisionForConditionalGeneration, config, processor, out_dir, seed)


def build_llava_next_video(out_dir: str | Path, *, seed: int = 0) -> Path:
    """LLaVA-NeXT-Video-7B (CLIP 336 px in 14-px patches; images anyres, frames 336 px pooled 2x2)."""
    from transformers import (
        LlavaNextImageProcessor,
        LlavaNextVideoConfig,
        LlavaNextVideoForConditionalGeneration,
        LlavaNextVideoProcessor,
    )
    from transformers.models.llava_next_video.video_processing_llava_next_video import (
        LlavaNextVideoVideoProcessor,
    )

    tokenizer = _tokenizer(("<s>", "</s>", "<image>", "<video>"))
    config = LlavaNextVideoConfig(
        vision_config=_vision("clip_vision_model", 336, 14),
        text_config=_text("llama", tokenizer),
        image_token_index=token_id(tokenizer, "<image>"),
        video_token_index=token_id(tokenizer, "<video>"),
        vision_feature_select_strategy="default",
        vision_feature_layer=-2,
    )
    crops: dict[str, Any] = {"size": {"shortest_edge": 336}, "crop_size": {"height": 336, "width": 336}}
    processor = LlavaNextVideoProcessor(
        video_processor=LlavaNextVideoVideoProcessor(**crops),
        image_processor=LlavaNextImageProcessor(**crops),
        tokenizer=tokenizer,
        chat_template=LLAVA_VICUNA_CHAT_TEMPLATE,
        patch_size=14,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
    )
    return save_random(LlavaNextVideoForConditionalGeneration, config, processor, out_dir, seed)


def build_video_llava(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Video-LLaVA-7B (LanguageBind CLIP towers, 224-px crops in 14-px patches, 257 tokens an image or frame)."""
    from transformers import (
        VideoLlavaConfig,
        VideoLlavaForConditionalGeneration,
        VideoLlavaImageProcessor,
        VideoLlavaProcessor,
    )
    from transformers.models.video_llava.video_processing_video_llava import VideoLlavaVideoProcessor

    tokenizer = _tokenizer(("<s>", "</s>", "<image>", "<video>"))
    config = VideoLlavaConfig(
        vision_config=_vision("clip_vision_model", 224, 14),
        text_config=_text("llama", tokenizer),
        image_token_index=token_id(tokenizer, "<image>"),
        video_token_index=token_id(tokenizer, "<video>"),
        vision_feature_select_strategy="default",
        vision_feature_layer=-2,
    )
    crops: dict[str, Any] = {"size": {"shortest_edge": 224}, "crop_size": {"height": 224, "width": 224}}
    processor = VideoLlavaProcessor(
        image_processor=VideoLlavaImageProcessor(**crops),
        video_processor=VideoLlavaVideoProcessor(**crops),
        tokenizer=tokenizer,
        patch_size=14,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
        chat_template=LLAVA_VICUNA_CHAT_TEMPLATE,
    )
    return save_random(VideoLlavaForConditionalGeneration, config, processor, out_dir, seed)
