"""Tiny random Wan pipelines for generation tests (a helper module, not a test module).

Each builder makes a diffusers Wan pipeline from configs with random weights at toy sizes (transformer
width 24, two blocks; VAE base width 3; a one-block UMT5 encoder of width 32), the way diffusers' own
``tests/pipelines/wan`` build theirs, with a byte-level BPE tokenizer trained on the spot with
``tokenizers`` (no download), and ``save_pretrained`` s it. Tests load the folder back with
``from_pretrained(path, local_files_only=True)``, the path a user takes. Random weights prove the
plumbing (shapes, frame counts, seeds, recorded calls), not the pictures.

- :func:`build_t2v`: ``WanPipeline`` (Wan2.1/2.2 T2V layout; ``two_experts=True`` adds ``transformer_2``
  and ``boundary_ratio=0.875`` as in Wan2.2-T2V-A14B).
- :func:`build_i2v`: ``WanImageToVideoPipeline`` without an image encoder (Wan2.2-I2V-A14B layout,
  36 input channels: latents, 4 mask channels, condition latents): first-frame and first-last-frame.
- :func:`build_ti2v`: Wan2.2-TI2V-5B layout (48-channel VAE with 2x2 patching, spatial factor 16,
  ``expand_timesteps=True``), saved as a ``WanPipeline``; load it as ``WanImageToVideoPipeline`` too.

Frame sizes must be multiples of 16 (32 for :func:`build_ti2v`); frame counts ``4k + 1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

TEXT_WIDTH = 32
"""Width of the tiny text encoder (the transformers' ``text_dim``)."""

_CORPUS = [
    "a cat walks on the beach at sunset",
    "a red car drives fast through the city at night",
    "a dog runs across green grass with a blue ball",
    "two people dance in the rain under a yellow umbrella",
    "a camera pans over mountains covered in snow",
]


def build_tokenizer(vocab_size: int = 300) -> Any:
    """A byte-level BPE tokenizer (``<pad>`` = 0, ``</s>`` = 1, ``<unk>`` = 2) that appends ``</s>``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE(unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<pad>", "</s>", "<unk>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(_CORPUS * 4, trainer)
    backend.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )


def build_text_encoder(vocab_size: int) -> Any:
    """A one-block UMT5 encoder of width :data:`TEXT_WIDTH` (random weights)."""
    from transformers import UMT5Config, UMT5EncoderModel

    config = UMT5Config(
        vocab_size=vocab_size,
        d_model=TEXT_WIDTH,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_heads=2,
        relative_attention_num_buckets=8,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
    )
    return UMT5EncoderModel(config)


def _transformer(in_channels: int, out_channels: int) -> Any:
    from diffusers import WanTransformer3DModel

    return WanTransformer3DModel(
        patch_size=(1, 2, 2),
        num_attention_heads=2,
        attention_head_dim=12,
        in_channels=in_channels,
        out_channels=out_channels,
        text_dim=TEXT_WIDTH,
        freq_dim=256,
        ffn_dim=32,
        num_layers=2,
        cross_attn_norm=True,
        qk_norm="rms_norm_across_heads",
        rope_max_seq_len=32,
    )


def _vae(wide: bool = False) -> Any:
    from diffusers import AutoencoderKLWan

    if not wide:
        return AutoencoderKLWan(
            base_dim=3,
            z_dim=16,
            dim_mult=[1, 1, 1, 1],
            num_res_blocks=1,
            temperal_downsample=[False, True, True],
        )
    return AutoencoderKLWan(
        base_dim=3,
        z_dim=48,
        in_channels=12,
        out_channels=12,
        is_residual=True,
        patch_size=2,
        latents_mean=[0.0] * 48,
        latents_std=[1.0] * 48,
        dim_mult=[1, 1, 1, 1],
        num_res_blocks=1,
        scale_factor_spatial=16,
        scale_factor_temporal=4,
        temperal_downsample=[False, True, True],
    )


def _scheduler() -> Any:
    from diffusers import UniPCMultistepScheduler

    return UniPCMultistepScheduler(prediction_type="flow_prediction", use_flow_sigmas=True, flow_shift=3.0)


def _common(seed: int) -> dict[str, Any]:
    import torch

    torch.manual_seed(seed)
    tokenizer = build_tokenizer()
    return {
        "tokenizer": tokenizer,
        "text_encoder": build_text_encoder(len(tokenizer)),
        "scheduler": _scheduler(),
    }


def _save(pipe: Any, out_dir: str | Path) -> Path:
    out = Path(out_dir)
    pipe.save_pretrained(out)
    return out


def build_t2v(out_dir: str | Path, *, seed: int = 0, two_experts: bool = False) -> Path:
    """A tiny ``WanPipeline`` saved to ``out_dir`` (returned)."""
    import torch
    from diffusers import WanPipeline

    parts = _common(seed)
    parts["vae"] = _vae()
    parts["transformer"] = _transformer(16, 16)
    if two_experts:
        torch.manual_seed(seed + 1)
        parts.update(transformer_2=_transformer(16, 16), boundary_ratio=0.875)
    return _save(WanPipeline(**parts), out_dir)


def build_i2v(out_dir: str | Path, *, seed: int = 0, two_experts: bool = False) -> Path:
    """A tiny ``WanImageToVideoPipeline`` (no image encoder; first-last-frame capable) saved to ``out_dir``;
    ``two_experts=True`` adds ``transformer_2`` and ``boundary_ratio=0.9`` as in Wan2.2-I2V-A14B."""
    import torch
    from diffusers import WanImageToVideoPipeline

    parts = _common(seed)
    parts.update(vae=_vae(), transformer=_transformer(36, 16), image_encoder=None, image_processor=None)
    if two_experts:
        torch.manual_seed(seed + 1)
        parts.update(transformer_2=_transformer(36, 16), boundary_ratio=0.9)
    return _save(WanImageToVideoPipeline(**parts), out_dir)


def build_ti2v(out_dir: str | Path, *, seed: int = 0) -> Path:
    """A tiny Wan2.2-TI2V-5B-like pipeline (``expand_timesteps=True``), saved as ``WanPipeline``."""
    from diffusers import WanPipeline

    parts = _common(seed)
    parts.update(vae=_vae(wide=True), transformer=_transformer(48, 48), expand_timesteps=True)
    return _save(WanPipeline(**parts), out_dir)


BUILDERS = {"t2v": build_t2v, "i2v": build_i2v, "ti2v": build_ti2v}
"""Layout name -> builder."""


def build_editor_lm(out_dir: str | Path, *, max_new_tokens: int = 3) -> tuple[Path, str]:
    """A tiny GPT-2 rigged to answer one token over and over; returns its folder and the expected edit.

    Its final norm outputs a constant vector and the output head scores one token only, so greedy decoding
    is deterministic whatever the random weights: the prompt editor's plumbing (loading, decoding,
    cleaning the answer) is tested, not a language model.
    """
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    tokenizer = build_tokenizer()
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(tokenizer), n_embd=32, n_layer=1, n_head=2, n_positions=512,
                        bos_token_id=1, eos_token_id=1, pad_token_id=0, tie_word_embeddings=False)  # fmt: skip
    model = GPT2LMHeadModel(config)
    token = tokenizer(" dog", add_special_tokens=False)["input_ids"][0]
    with torch.no_grad():
        model.transformer.ln_f.weight.zero_()
        model.transformer.ln_f.bias.zero_()
        model.transformer.ln_f.bias[0] = 1.0
        model.lm_head.weight.zero_()
        model.lm_head.weight[token, 0] = 10.0
    out = Path(out_dir)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    expected = tokenizer.decode([token] * max_new_tokens, skip_special_tokens=True).strip()
    return out, expected
