"""Tiny random checkpoints of the other vision-language families (a helper module, not a test module).

The recipe of :mod:`tiny_models`, for the families ``transformers`` 5 loads natively through
``AutoModelForImageTextToText``: a config with random weights (text hidden 32, one layer; vision depth 1,
hidden 32), the byte-level tokenizer of :func:`tiny_models.build_tokenizer` with the family's special
tokens added, a shortened but faithful copy of the family's chat template, and the processor at the
released checkpoint's sizes, all ``save_pretrained`` to ``out_dir``. Patch sizes are the released ones and
each vision tower's ``image_size`` matches its processor, so the folders take images and videos at the
sizes a real checkpoint would see. Random weights prove the plumbing, not the scores.

Public API:

- ``build_<key>(out_dir, *, seed=0) -> Path`` for each key of :data:`FAMILY_BUILDERS`.
- :data:`FAMILY_BUILDERS`: key -> builder; :data:`VIDEO_FAMILIES`: keys whose processor takes ``videos=``.

The session fixture ``tiny_family(key)`` in ``tests/judges/conftest.py`` builds each family once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tiny_models import OFFICIAL_PIXELS, PAD_TOKEN, build_tokenizer

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]
ROW_COL_TOKENS = tuple(f"<row_{r}_col_{c}>" for r in range(1, 7) for c in range(1, 7))
"""Idefics3 / SmolVLM tile-position tokens."""

GEMMA3_CHAT_TEMPLATE = (
    "<bos>{% if messages[0]['role'] == 'system' %}"
    "{% set first = messages[0]['content'] if messages[0]['content'] is string "
    "else messages[0]['content'][0]['text'] %}"
    "{% set prefix = first + '\n\n' %}{% set loop_messages = messages[1:] %}"
    "{% else %}{% set prefix = '' %}{% set loop_messages = messages %}{% endif %}"
    "{% for message in loop_messages %}"
    "{% set role = 'model' if message['role'] == 'assistant' else message['role'] %}"
    "{{ '<start_of_turn>' + role + '\n' + (prefix if loop.first else '') }}"
    "{% if message['content'] is string %}{{ message['content'] | trim }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}<start_of_image>"
    "{% elif item['type'] == 'text' %}{{ item['text'] | trim }}{% endif %}"
    "{% endfor %}{% endif %}<end_of_turn>\n{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)
"""Gemma-3 (``<start_of_image>`` per image; a system turn is prefixed to the first user turn)."""
MISTRAL3_CHAT_TEMPLATE = (
    "<s>{% if messages[0]['role'] == 'system' %}"
    "{% set system = messages[0]['content'] if messages[0]['content'] is string "
    "else messages[0]['content'][0]['text'] %}{% set loop_messages = messages[1:] %}"
    "{% else %}{% set system = 'You are Mistral Small 3.1, a Large Language Model (LLM) created by Mistral AI.' %}"
    "{% set loop_messages = messages %}{% endif %}[SYSTEM_PROMPT]{{ system }}[/SYSTEM_PROMPT]"
    "{% for message in loop_messages %}{% if message['role'] == 'user' %}[INST]"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for block in message['content'] %}"
    "{% if block['type'] == 'text' %}{{ block['text'] }}"
    "{% elif block['type'] in ['image', 'image_url'] %}[IMG]{% endif %}"
    "{% endfor %}{% endif %}[/INST]"
    "{% elif message['role'] == 'assistant' %}{{ message['content'] if message['content'] is string "
    "else message['content'][0]['text'] }}</s>{% endif %}{% endfor %}"
)
"""Mistral-Small-3.1 (``[IMG]`` per image). As the official template, it ignores ``add_generation_prompt``:
generation starts right after ``[/INST]``."""
_IDEFICS_TURNS = (
    "{% for message in messages %}{{ message['role'] | capitalize }}"
    "{% if message['content'] is string %}{{ ': ' + message['content'] }}"
    "{% else %}{% if message['content'][0]['type'] == 'image' %}{{ ':' }}{% else %}{{ ': ' }}{% endif %}"
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{ line['text'] }}"
    "{% elif line['type'] == 'image' %}<image>{% endif %}{% endfor %}{% endif %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}Assistant:{% endif %}"
)
IDEFICS2_CHAT_TEMPLATE = _IDEFICS_TURNS
"""Idefics2 (``User:<image>...<end_of_utterance>``, generation prompt ``Assistant:``)."""
IDEFICS3_CHAT_TEMPLATE = "<|begin_of_text|>" + _IDEFICS_TURNS
"""Idefics3-8B-Llama3 (Idefics2's turns after ``<|begin_of_text|>``)."""
INTERNVL_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' %}<IMG_CONTEXT>\n"
    "{% elif content['type'] == 'video' %}<video>\n"
    "{% elif content['type'] == 'text' %}{{ content['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""InternVL3 -hf (``<IMG_CONTEXT>\\n`` per image, ``<video>\\n`` per video)."""
LLAVA_ONEVISION_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }} "
    "{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}<image>{% endfor %}"
    "{% for content in message['content'] | selectattr('type', 'equalto', 'video') %}<video>{% endfor %}"
    "{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}"
    "{{ '\n' + content['text'] }}{% endfor %}<|im_end|>{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""LLaVA-OneVision (images, then videos, then texts of each turn)."""
LLAVA_VICUNA_CHAT_TEMPLATE = (
    "{% for message in messages %}{% if message['role'] != 'system' %}{{ message['role'].upper() + ': ' }}"
    "{% endif %}{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}<image>\n"
    "{% endfor %}{% for content in message['content'] | selectattr('type', 'equalto', 'video') %}<video>\n"
    "{% endfor %}{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}"
    "{{ content['text'] + ' ' }}{% endfor %}{% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)
"""LLaVA-NeXT-Video and Video-LLaVA (Vicuna turns: ``USER: <video>\\n... ASSISTANT:``)."""
QWEN3_5_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'video' %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n"
    "{% if enable_thinking is defined and enable_thinking is false %}<think>\n\n</think>\n\n"
    "{% else %}<think>\n{% endif %}{% endif %}"
)
"""Qwen3.5 (Qwen3-VL's vision parts, no default system turn, thinking on unless ``enable_thinking=False``)."""


def _tokenizer(tokens: Sequence[str], named: dict[str, str] | None = None) -> Any:
    extra = tuple(tokens) + tuple((named or {}).values())
    return build_tokenizer(named_tokens=named, extra_special_tokens=tuple(dict.fromkeys(extra)))


def _id(tokenizer: Any, token: str) -> int:
    return int(tokenizer.convert_tokens_to_ids(token))


def _text(model_type: str | None, tokenizer: Any, **extra: Any) -> dict[str, Any]:
    """A one-layer text decoder (hidden 32, 2 heads of 16) over the 512-token vocabulary."""
    config = {
        "vocab_size": 512,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "max_position_embeddings": 16_384,
        "pad_token_id": _id(tokenizer, PAD_TOKEN),
        "bos_token_id": _id(tokenizer, PAD_TOKEN),
        "eos_token_id": _id(tokenizer, "<|im_end|>"),
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


def _finish(model_cls: Any, config: Any, processor: Any, out_dir: str | Path, seed: int) -> Path:
    import torch

    torch.manual_seed(seed)
    model = model_cls(config).eval()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return out


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
        boi_token_index=_id(tokenizer, named["boi_token"]),
        eoi_token_index=_id(tokenizer, named["eoi_token"]),
        image_token_index=_id(tokenizer, named["image_token"]),
    )
    image = Gemma3ImageProcessor(size={"height": 896, "width": 896})
    processor = Gemma3Processor(image, tokenizer, chat_template=GEMMA3_CHAT_TEMPLATE, image_seq_length=256)
    return _finish(Gemma3ForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_index=_id(tokenizer, "[IMG]"),
        spatial_merge_size=2,
        vision_feature_layer=-1,
        multimodal_projector_bias=False,
    )
    image = PixtralImageProcessor(size={"longest_edge": 1540}, patch_size={"height": 14, "width": 14})
    processor = PixtralProcessor(
        image, tokenizer, patch_size=14, spatial_merge_size=2, chat_template=MISTRAL3_CHAT_TEMPLATE
    )
    return _finish(Mistral3ForConditionalGeneration, config, processor, out_dir, seed)


def build_idefics2(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Idefics2 (980-px SigLIP in 14-px patches, a perceiver to 64 latents, no image splitting)."""
    from transformers import (
        Idefics2Config,
        Idefics2ForConditionalGeneration,
        Idefics2ImageProcessor,
        Idefics2Processor,
    )

    tokenizer = _tokenizer(("<fake_token_around_image>", "<image>", "<end_of_utterance>"))
    perceiver = {
        "resampler_n_latents": 64,
        "resampler_depth": 1,
        "resampler_n_heads": 2,
        "resampler_head_dim": 16,
        "num_key_value_heads": 1,
        "hidden_size": 32,
        "rms_norm_eps": 1e-6,
    }
    config = Idefics2Config(
        vision_config=_vision(None, 980, 14),
        perceiver_config=perceiver,
        text_config=_text("mistral", tokenizer),
        image_token_id=_id(tokenizer, "<image>"),
    )
    image = Idefics2ImageProcessor(size={"longest_edge": 980, "shortest_edge": 378}, do_image_splitting=False)
    processor = Idefics2Processor(image, tokenizer, image_seq_len=64, chat_template=IDEFICS2_CHAT_TEMPLATE)
    return _finish(Idefics2ForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_id=_id(tokenizer, "<image>"),
    )
    image = Idefics3ImageProcessor(
        size={"longest_edge": 4 * 364}, max_image_size={"longest_edge": 364}, do_image_splitting=True
    )
    processor = Idefics3Processor(image, tokenizer, image_seq_len=169, chat_template=IDEFICS3_CHAT_TEMPLATE)
    return _finish(Idefics3ForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_id=_id(tokenizer, "<image>"),
    )
    tile = {"longest_edge": 384}
    image = SmolVLMImageProcessor(
        size={"longest_edge": 4 * 384}, max_image_size=tile, do_image_splitting=True
    )
    video = SmolVLMVideoProcessor(
        video_sampling={"fps": 1, "max_frames": 64, "video_size": tile}, max_image_size=tile
    )
    processor = SmolVLMProcessor(
        image, tokenizer, video, image_seq_len=81, chat_template=DEFAULT_CHAT_TEMPLATE
    )
    return _finish(SmolVLMForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_id=_id(tokenizer, "<IMG_CONTEXT>"),
        image_seq_length=256,
        downsample_ratio=0.5,
    )
    pixels = {"size": {"height": 448, "width": 448}, "image_mean": IMAGENET_MEAN, "image_std": IMAGENET_STD}
    processor = InternVLProcessor(
        GotOcr2ImageProcessor(**pixels),
        tokenizer,
        InternVLVideoProcessor(**pixels),
        image_seq_length=256,
        chat_template=INTERNVL_CHAT_TEMPLATE,
    )
    return _finish(InternVLForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_index=_id(tokenizer, "<image>"),
        video_token_index=_id(tokenizer, "<video>"),
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
    return _finish(LlavaOnevisionForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_index=_id(tokenizer, "<image>"),
        video_token_index=_id(tokenizer, "<video>"),
        vision_feature_select_strategy="default",
        vision_feature_layer=-2,
    )
    crops = {"size": {"shortest_edge": 336}, "crop_size": {"height": 336, "width": 336}}
    processor = LlavaNextVideoProcessor(
        video_processor=LlavaNextVideoVideoProcessor(**crops),
        image_processor=LlavaNextImageProcessor(**crops),
        tokenizer=tokenizer,
        chat_template=LLAVA_VICUNA_CHAT_TEMPLATE,
        patch_size=14,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
    )
    return _finish(LlavaNextVideoForConditionalGeneration, config, processor, out_dir, seed)


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
        image_token_index=_id(tokenizer, "<image>"),
        video_token_index=_id(tokenizer, "<video>"),
        vision_feature_select_strategy="default",
        vision_feature_layer=-2,
    )
    crops = {"size": {"shortest_edge": 224}, "crop_size": {"height": 224, "width": 224}}
    processor = VideoLlavaProcessor(
        image_processor=VideoLlavaImageProcessor(**crops),
        video_processor=VideoLlavaVideoProcessor(**crops),
        tokenizer=tokenizer,
        patch_size=14,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
        chat_template=LLAVA_VICUNA_CHAT_TEMPLATE,
    )
    return _finish(VideoLlavaForConditionalGeneration, config, processor, out_dir, seed)


def build_qwen3_5(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Qwen3.5 (Qwen3-VL processor at patch 16; text: one linear-attention and one full-attention layer)."""
    from transformers import (
        Qwen2VLImageProcessor,
        Qwen3_5Config,
        Qwen3_5ForConditionalGeneration,
        Qwen3VLProcessor,
    )
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    tokenizer = _tokenizer(("<think>", "</think>"))
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
    text = _text(None, tokenizer, num_hidden_layers=2, layer_types=["linear_attention", "full_attention"])
    vision = {"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 32}
    config = Qwen3_5Config(
        text_config={**text, **linear, "rope_parameters": rope},
        vision_config={**vision, "patch_size": 16, "num_position_embeddings": 64},
        image_token_id=_id(tokenizer, "<|image_pad|>"),
        video_token_id=_id(tokenizer, "<|video_pad|>"),
        vision_start_token_id=_id(tokenizer, "<|vision_start|>"),
        vision_end_token_id=_id(tokenizer, "<|vision_end|>"),
    )
    image_size, video_size = OFFICIAL_PIXELS[16]
    grid = {"patch_size": 16, "merge_size": 2, "temporal_patch_size": 2}
    processor = Qwen3VLProcessor(
        image_processor=Qwen2VLImageProcessor(**grid, size=image_size),
        video_processor=Qwen3VLVideoProcessor(**grid, size=video_size),
        tokenizer=tokenizer,
        chat_template=QWEN3_5_CHAT_TEMPLATE,
    )
    return _finish(Qwen3_5ForConditionalGeneration, config, processor, out_dir, seed)


FAMILY_BUILDERS: dict[str, Callable[..., Path]] = {
    "gemma3": build_gemma3,
    "mistral3": build_mistral3,
    "idefics2": build_idefics2,
    "idefics3": build_idefics3,
    "smolvlm": build_smolvlm,
    "internvl": build_internvl,
    "llava_onevision": build_llava_onevision,
    "llava_next_video": build_llava_next_video,
    "video_llava": build_video_llava,
    "qwen3_5": build_qwen3_5,
}
"""Family key -> builder."""
VIDEO_FAMILIES: frozenset[str] = frozenset(
    {"smolvlm", "internvl", "llava_onevision", "llava_next_video", "video_llava", "qwen3_5"}
)
"""Families whose processor takes ``videos=``."""
