"""Tiny random Hugging Face models for judge tests (a helper module, not a test module).

Every builder makes a model from a config with random weights (hidden size 32-64, one or two layers,
vision depth 1), a byte-level BPE tokenizer trained on the spot with ``tokenizers``, a chat template and
the matching image / video / audio processors (with the released checkpoints' pixel limits,
:data:`OFFICIAL_PIXELS`), and ``save_pretrained`` s all of it to ``out_dir``. Tests
then load the folder back through a backend's real loading path (``from_pretrained(...,
local_files_only=True)``). Random weights prove the plumbing, not the scores.

Public API (kept stable; other judge tests build on it):

- :func:`build_tokenizer` -> a ``transformers`` fast tokenizer with :data:`SPECIAL_TOKENS` (the Qwen chat
  and vision tokens, the Omni audio / vision tokens, the three reward markers) and the digits ``0``-``9``
  as single tokens (:data:`DIGITS`). Any text tokenizes (byte-level alphabet).
- ``build_qwen2_vl(out_dir, reward_markers=True)``, ``build_qwen2_5_vl(out_dir)``, ``build_qwen3_vl(out_dir)``,
  ``build_qwen2_5_omni_thinker(out_dir)``, ``build_clip(out_dir)``: each writes a model folder and returns
  ``out_dir`` (a :class:`~pathlib.Path`); keyword ``seed`` (default 0) fixes the weights.
- :data:`BUILDERS`: family name -> builder (``"qwen2_vl"``, ``"qwen2_5_vl"``, ``"qwen3_vl"``,
  ``"qwen2_5_omni_thinker"``, ``"clip"``).
- :data:`QWEN_CHAT_TEMPLATE`, :data:`OMNI_CHAT_TEMPLATE`: the (shortened) Qwen chat templates saved with the
  processors: ``{"type": "image" | "video" | "audio" | "text"}`` content parts, a default system turn,
  ``add_generation_prompt``.

Session fixtures exposing built folders (built once, lazily) are in ``tests/judges/conftest.py``:
``tiny_qwen2_vl``, ``tiny_qwen2_5_vl``, ``tiny_qwen3_vl``, ``tiny_omni_thinker``, ``tiny_clip``.
Import this module as ``from tiny_models import ...`` (pytest's importlib mode with ``tests/judges`` on
``sys.path``, arranged by that conftest).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

DIGITS = tuple(str(d) for d in range(10))
"""The ten digit tokens (each a single token)."""
REWARD_MARKERS = ("<|VQ_reward|>", "<|MQ_reward|>", "<|TA_reward|>")
"""VideoAlign's reward marker tokens."""
QWEN_TOKENS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
)
"""Qwen2/2.5/3-VL chat and vision tokens (``<|endoftext|>`` pads)."""
OMNI_TOKENS = (
    "<|AUDIO|>",
    "<|audio_bos|>",
    "<|audio_eos|>",
    "<|IMAGE|>",
    "<|VIDEO|>",
    "<|vision_bos|>",
    "<|vision_eos|>",
)
"""Qwen2.5-Omni's audio and vision placeholder tokens."""
OMNI_NAMED_TOKENS = {
    "image_token": "<|IMAGE|>",
    "audio_token": "<|AUDIO|>",
    "video_token": "<|VIDEO|>",
    "vision_bos_token": "<|vision_bos|>",
    "vision_eos_token": "<|vision_eos|>",
    "audio_bos_token": "<|audio_bos|>",
    "audio_eos_token": "<|audio_eos|>",
}
"""Tokenizer attributes Qwen2.5-Omni's processor reads."""
SPECIAL_TOKENS = QWEN_TOKENS + OMNI_TOKENS + REWARD_MARKERS
"""Every special token of the tiny tokenizer, in id order from 0."""
PAD_TOKEN = "<|endoftext|>"
"""Padding token."""

QWEN_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'video' %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""Qwen-VL chat template (the official one without tools and numbering)."""
OMNI_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'audio' %}<|audio_bos|><|AUDIO|><|audio_eos|>"
    "{% elif part['type'] == 'image' %}<|vision_bos|><|IMAGE|><|vision_eos|>"
    "{% elif part['type'] == 'video' %}<|vision_bos|><|VIDEO|><|vision_eos|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""Qwen2.5-Omni chat template (audio, image and video parts)."""

_SPLIT_PATTERN = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
"""Qwen2's pre-tokenizer split: every digit is its own piece, so digits stay single tokens."""
_WORDS_TEXT = (
    "a the of and to in on is with at from by video frame clip rate score quality motion text prompt "
    "image audio emotion answer question choose label literal figurative sentence idiom camera scene "
    "person cat dog walks runs beach sunset city night red blue green light fast slow smooth good bad "
    "best worst rating please output one digit yes no same which description user assistant system"
)
_WORDS = _WORDS_TEXT.split()


def _corpus() -> list[str]:
    lines = [" ".join(w) for w in itertools.islice(itertools.permutations(_WORDS[:30], 6), 0, 400, 7)]
    lines += [" ".join(_WORDS[i : i + 8]) for i in range(0, len(_WORDS), 3)]
    lines += ["Answer with one digit from 0 to 9.", "(A) yes (B) no", "FF WF FL LL a1 a2 same"]
    return lines


def build_tokenizer(
    vocab_size: int = 512,
    named_tokens: dict[str, str] | None = None,
    *,
    append_eos: bool = False,
    reward_markers: bool = True,
    extra_special_tokens: Sequence[str] = (),
) -> Any:
    """A byte-level BPE tokenizer with the Qwen special tokens, trained on a small generated corpus.

    ``named_tokens`` become tokenizer attributes (``{"audio_token": "<|AUDIO|>"}`` -> ``tok.audio_token``),
    as Qwen2.5-Omni's processor expects; the Qwen-VL processors fall back to ``<|image_pad|>`` /
    ``<|video_pad|>`` when the attributes are absent. ``append_eos`` ends every encoded text with
    ``<|im_end|>`` (CLIP pools its text embedding at the end-of-text token). ``reward_markers=False``
    leaves out VideoAlign's three markers (as in a stock Qwen2-VL tokenizer). ``extra_special_tokens``
    (another family's chat and vision tokens) get the ids after :data:`SPECIAL_TOKENS`, inside ``vocab_size``.

    >>> tok = build_tokenizer()
    >>> [tok.convert_ids_to_tokens(i) for i in tok("<|im_start|>7 <|VQ_reward|>")["input_ids"]]
    ['<|im_start|>', '7', 'Ġ', '<|VQ_reward|>']
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(_SPLIT_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[t for t in SPECIAL_TOKENS if reward_markers or t not in REWARD_MARKERS]
        + [t for t in extra_special_tokens if t not in SPECIAL_TOKENS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(_corpus(), trainer)
    if append_eos:
        eos = ("<|im_end|>", backend.token_to_id("<|im_end|>"))
        backend.post_processor = processors.TemplateProcessing(single="$A <|im_end|>", special_tokens=[eos])
    named = {"extra_special_tokens": dict(named_tokens)} if named_tokens else {}
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, eos_token="<|im_end|>", pad_token=PAD_TOKEN, **named
    )


def _ids(tokenizer: Any) -> dict[str, int]:
    return {t: int(tokenizer.convert_tokens_to_ids(t)) for t in SPECIAL_TOKENS if t in tokenizer.get_vocab()}


def _vision_token_ids(ids: dict[str, int]) -> dict[str, int]:
    """The image/video placeholder and vision start/end token ids every Qwen-VL config takes."""
    return {
        "image_token_id": ids["<|image_pad|>"],
        "video_token_id": ids["<|video_pad|>"],
        "vision_start_token_id": ids["<|vision_start|>"],
        "vision_end_token_id": ids["<|vision_end|>"],
    }


def _text(hidden: int = 32, layers: int = 1, heads: int = 2, **extra: Any) -> dict[str, Any]:
    return {
        "vocab_size": 512,
        "hidden_size": hidden,
        "intermediate_size": 2 * hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "max_position_embeddings": 4096,
        **extra,
    }


def _seeded(seed: int) -> None:
    import torch

    torch.manual_seed(seed)


def _save(model: Any, processor: Any, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.save_pretrained(out_dir)
    processor.save_pretrained(out_dir)
    return out_dir


OFFICIAL_PIXELS = {
    14: ({"shortest_edge": 3136, "longest_edge": 12_845_056}, {"shortest_edge": 3136, "longest_edge": 12_845_056}),
    16: ({"shortest_edge": 65_536, "longest_edge": 16_777_216}, {"shortest_edge": 4096, "longest_edge": 25_165_824}),
}
"""(image, video) processor ``size`` of the released checkpoints by patch size: Qwen2-VL, Qwen2.5-VL and
Qwen2.5-Omni (patch 14), Qwen3-VL (patch 16; its video limits bound the whole clip)."""


def _qwen_vl_processor(processor_cls: Any, video_cls: Any, tokenizer: Any, patch: int) -> Any:
    from transformers import Qwen2VLImageProcessor

    image_size, video_size = OFFICIAL_PIXELS[patch]
    image = Qwen2VLImageProcessor(patch_size=patch, merge_size=2, temporal_patch_size=2, size=image_size)
    video = video_cls(patch_size=patch, merge_size=2, temporal_patch_size=2, size=video_size)
    return processor_cls(
        image_processor=image, video_processor=video, tokenizer=tokenizer, chat_template=QWEN_CHAT_TEMPLATE
    )


def build_qwen2_vl(out_dir: str | Path, *, seed: int = 0, reward_markers: bool = True) -> Path:
    """Tiny Qwen2-VL (text hidden 32, 1 layer; vision depth 1, patch 14, merge 2: frames in 28-px cells)."""
    from transformers import Qwen2VLConfig, Qwen2VLForConditionalGeneration, Qwen2VLProcessor
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    tokenizer = build_tokenizer(reward_markers=reward_markers)
    ids = _ids(tokenizer)
    rope = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]}
    config = Qwen2VLConfig(
        text_config=_text(
            rope_parameters=rope, bos_token_id=ids["<|endoftext|>"], eos_token_id=ids["<|im_end|>"]
        ),
        vision_config={
            "depth": 1,
            "embed_dim": 32,
            "hidden_size": 32,
            "num_heads": 2,
            "mlp_ratio": 2,
            "patch_size": 14,
        },
        **_vision_token_ids(ids),
    )
    config.text_config.pad_token_id = ids[PAD_TOKEN]
    _seeded(seed)
    model = Qwen2VLForConditionalGeneration(config)
    processor = _qwen_vl_processor(Qwen2VLProcessor, Qwen2VLVideoProcessor, tokenizer, 14)
    return _save(model, processor, Path(out_dir))


def build_qwen2_5_vl(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny Qwen2.5-VL (text hidden 32, 1 layer; vision depth 1, patch 14, window attention off)."""
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    tokenizer = build_tokenizer()
    ids = _ids(tokenizer)
    rope = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]}
    vision = {
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": 32,
        "patch_size": 14,
        "window_size": 56,
        "fullatt_block_indexes": [0],
    }
    config = Qwen2_5_VLConfig(
        text_config=_text(rope_parameters=rope, bos_token_id=ids[PAD_TOKEN], eos_token_id=ids["<|im_end|>"]),
        vision_config=vision,
        **_vision_token_ids(ids),
    )
    config.text_config.pad_token_id = ids[PAD_TOKEN]
    _seeded(seed)
    model = Qwen2_5_VLForConditionalGeneration(config)
    processor = _qwen_vl_processor(Qwen2_5_VLProcessor, Qwen2VLVideoProcessor, tokenizer, 14)
    return _save(model, processor, Path(out_dir))


def build_qwen3_vl(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny Qwen3-VL (text hidden 32, 1 layer; vision depth 1, patch 16, one deepstack layer)."""
    from transformers import Qwen3VLConfig, Qwen3VLForConditionalGeneration, Qwen3VLProcessor
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    tokenizer = build_tokenizer()
    ids = _ids(tokenizer)
    rope = {
        "rope_type": "default",
        "rope_theta": 10000.0,
        "mrope_section": [2, 3, 3],
        "mrope_interleaved": True,
    }
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
        text_config=_text(
            head_dim=16, rope_parameters=rope, bos_token_id=ids[PAD_TOKEN], eos_token_id=ids["<|im_end|>"]
        ),
        vision_config=vision,
        **_vision_token_ids(ids),
    )
    config.text_config.pad_token_id = ids[PAD_TOKEN]
    _seeded(seed)
    model = Qwen3VLForConditionalGeneration(config)
    processor = _qwen_vl_processor(Qwen3VLProcessor, Qwen3VLVideoProcessor, tokenizer, 16)
    return _save(model, processor, Path(out_dir))


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
    ids = _ids(tokenizer)
    rope = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]}
    vision = {
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": 32,
        "patch_size": 14,
        "window_size": 56,
        "fullatt_block_indexes": [0],
    }
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
    config = Qwen2_5OmniThinkerConfig(
        audio_config=audio,
        vision_config=vision,
        text_config=_text(rope_parameters=rope, bos_token_id=ids[PAD_TOKEN], eos_token_id=ids["<|im_end|>"]),
        audio_token_index=ids["<|AUDIO|>"],
        image_token_index=ids["<|IMAGE|>"],
        video_token_index=ids["<|VIDEO|>"],
        audio_start_token_id=ids["<|audio_bos|>"],
        audio_end_token_id=ids["<|audio_eos|>"],
        vision_start_token_id=ids["<|vision_bos|>"],
        vision_end_token_id=ids["<|vision_eos|>"],
        user_token_id=int(tokenizer("user")["input_ids"][0]),
    )
    config.text_config.pad_token_id = ids[PAD_TOKEN]
    _seeded(seed)
    model = Qwen2_5OmniThinkerForConditionalGeneration(config)
    image_size, video_size = OFFICIAL_PIXELS[14]
    processor = Qwen2_5OmniProcessor(
        image_processor=Qwen2VLImageProcessor(patch_size=14, merge_size=2, temporal_patch_size=2, size=image_size),
        video_processor=Qwen2VLVideoProcessor(patch_size=14, merge_size=2, temporal_patch_size=2, size=video_size),
        feature_extractor=WhisperFeatureExtractor(feature_size=128),
        tokenizer=tokenizer,
        chat_template=OMNI_CHAT_TEMPLATE,
    )
    return _save(model, processor, Path(out_dir))


def build_clip(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny CLIP (text and vision hidden 32, 1 layer, projection 16, 32-px images in 8-px patches)."""
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor

    tokenizer = build_tokenizer(append_eos=True)
    ids = _ids(tokenizer)
    common = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2}
    text = {
        **common,
        "vocab_size": 512,
        "max_position_embeddings": 77,
        "eos_token_id": ids["<|im_end|>"],
        "bos_token_id": ids[PAD_TOKEN],
    }
    text["pad_token_id"] = ids[PAD_TOKEN]
    vision = {**common, "image_size": 32, "patch_size": 8}
    config = CLIPConfig(text_config=text, vision_config=vision, projection_dim=16)
    _seeded(seed)
    model = CLIPModel(config)
    image = CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32})
    processor = CLIPProcessor(image_processor=image, tokenizer=tokenizer)
    return _save(model, processor, Path(out_dir))


BUILDERS: dict[str, Callable[..., Path]] = {
    "qwen2_vl": build_qwen2_vl,
    "qwen2_5_vl": build_qwen2_5_vl,
    "qwen3_vl": build_qwen3_vl,
    "qwen2_5_omni_thinker": build_qwen2_5_omni_thinker,
    "clip": build_clip,
}
"""Family name -> builder."""
