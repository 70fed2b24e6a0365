"""Tiny random Qwen2-Audio checkpoint: the audio-language family (:mod:`mmjudge.judges.families`, ``qwen2_audio``).

Text hidden 32 with one layer; a one-layer Whisper-style audio encoder (128 mel bins, as the released
checkpoints); ``Qwen2AudioProcessor`` with the released ``WhisperFeatureExtractor`` settings (16 kHz,
30-second windows, 128 mels, attention mask on) and Qwen2-Audio-7B-Instruct's own chat template
(:data:`QWEN2_AUDIO_CHAT_TEMPLATE`).
"""

from __future__ import annotations

from pathlib import Path

from mmjudge.judges.tiny._common import build_tokenizer, save_random, special_ids
from mmjudge.judges.tiny._qwen import _text
from mmjudge.judges.tiny._tokens import PAD_TOKEN

__all__ = ["QWEN2_AUDIO_CHAT_TEMPLATE", "QWEN2_AUDIO_NAMED_TOKENS", "build_qwen2_audio"]

QWEN2_AUDIO_CHAT_TEMPLATE = (
    "{% set audio_count = namespace(value=0) %}{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if 'audio' in content or 'audio_url' in content %}{% set audio_count.value = audio_count.value + 1 %}"
    "Audio {{ audio_count.value }}: <|audio_bos|><|AUDIO|><|audio_eos|>\n"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""Qwen/Qwen2-Audio-7B-Instruct's chat template, verbatim: an audio part is a content item with an ``audio``
or ``audio_url`` key (rendered ``Audio N: <|audio_bos|><|AUDIO|><|audio_eos|>`` and a newline); a part with
only ``{"type": "audio"}`` renders nothing."""
QWEN2_AUDIO_NAMED_TOKENS = {
    "audio_token": "<|AUDIO|>",
    "audio_bos_token": "<|audio_bos|>",
    "audio_eos_token": "<|audio_eos|>",
}
"""Tokenizer attributes ``Qwen2AudioProcessor`` reads."""


def build_qwen2_audio(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Tiny Qwen2-Audio (text hidden 32, 1 layer; audio encoder 1 layer, d_model 32, 128 mels), with the
    released ``WhisperFeatureExtractor`` (16 kHz) and chat template."""
    from transformers import (
        Qwen2AudioConfig,
        Qwen2AudioForConditionalGeneration,
        Qwen2AudioProcessor,
        WhisperFeatureExtractor,
    )

    tokenizer = build_tokenizer(named_tokens=QWEN2_AUDIO_NAMED_TOKENS)
    ids = special_ids(tokenizer)
    audio = {
        "model_type": "qwen2_audio_encoder",
        "num_mel_bins": 128,
        "encoder_layers": 1,
        "encoder_attention_heads": 2,
        "encoder_ffn_dim": 64,
        "d_model": 32,
        "max_source_positions": 1500,
    }
    text = _text(ids, model_type="qwen2", pad_token_id=ids[PAD_TOKEN])
    config = Qwen2AudioConfig(audio_config=audio, text_config=text, audio_token_index=ids["<|AUDIO|>"])
    features = WhisperFeatureExtractor(feature_size=128, sampling_rate=16_000, return_attention_mask=True)
    processor = Qwen2AudioProcessor(features, tokenizer, chat_template=QWEN2_AUDIO_CHAT_TEMPLATE)
    return save_random(Qwen2AudioForConditionalGeneration, config, processor, out_dir, seed)
