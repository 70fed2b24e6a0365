"""A tiny random Mistral-3 whose only tokenizer file is a mistral-common ``tekken.json``.

Mistral-Small-3.2-24B-Instruct-2506 (a MIST judge) ships its tokenizer as ``tekken.json`` alone. This builder
makes the same layout at toy size: Mistral's control tokens at their real ranks (``<unk>`` 0, ``<s>`` 1,
``</s>`` 2, ``[INST]`` 3, ``[/INST]`` 4, ..., ``[IMG]`` 10, ``<pad>`` 11, ``[IMG_BREAK]`` 12, ``[IMG_END]``
13, ..., ``[SYSTEM_PROMPT]`` 17), then a byte-level BPE vocabulary in tekken's form (the 256 single bytes in
byte order, then each merged token, base64-encoded, shifted by the number of special tokens), a Pixtral image
processor (images at most 112 px a side) and a one-layer model. No ``tokenizer.json``, ``tokenizer_config.json`` or chat template is written.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

MISTRAL_CONTROL_TOKENS = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
    "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]",
)  # fmt: skip
"""Tekken's control tokens in rank order (mistral-common's ``Tekkenizer.DEPRECATED_SPECIAL_TOKENS``)."""
NUM_SPECIAL = 32
"""Special ranks reserved (the control tokens, then ``<SPECIAL_i>`` fillers, as tekken's v7 layout has)."""
VOCAB = 512
"""Vocabulary size of the file and of the model."""
LONGEST_EDGE = 112
"""Images are sized to at most this many pixels a side (the released 1540 makes a MIST run minutes long)."""


def _bpe(special: list[str]) -> Any:
    """A byte-level BPE trained on the tiny corpus with the Qwen-2 split (digits stay single tokens)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    from mmjudge.judges.tiny._common import _SPLIT_PATTERN, _corpus

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(_SPLIT_PATTERN), behavior="isolated"),
         pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    )  # fmt: skip
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=special, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())  # fmt: skip
    backend.train_from_iterator(_corpus(), trainer)
    return backend


def tekken_file(special: list[str]) -> dict[str, Any]:
    """A ``tekken.json`` (v7 layout) of a BPE trained here, with ``special`` at ranks 0.."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    from mmjudge.judges.tiny._common import _SPLIT_PATTERN

    backend = _bpe(special)
    to_byte = {char: byte for byte, char in bytes_to_unicode().items()}
    pieces = [bytes(to_byte[c] for c in token) for token, i in sorted(backend.get_vocab().items(), key=lambda kv: kv[1])
              if token not in special]  # fmt: skip
    singles = sorted(p for p in pieces if len(p) == 1)
    ranked = singles + [p for p in pieces if len(p) > 1]  # tekken: ranks 0-255 are the bytes, in byte order
    assert [p[0] for p in singles] == list(range(256)), "the byte alphabet is incomplete"
    ranked = ranked[: VOCAB - NUM_SPECIAL]
    return {
        "config": {"pattern": _SPLIT_PATTERN, "num_vocab_tokens": len(ranked), "default_vocab_size": VOCAB,
                   "default_num_special_tokens": NUM_SPECIAL, "version": "v7"},
        "vocab": [{"rank": r, "token_bytes": base64.b64encode(p).decode(), "token_str": p.decode("utf-8", "replace")}
                  for r, p in enumerate(ranked)],
        "special_tokens": [{"rank": r, "token_str": s, "is_control": True} for r, s in enumerate(special)],
        "image": {"image_patch_size": 14, "max_image_size": LONGEST_EDGE, "spatial_merge_size": 2},
    }  # fmt: skip


def build_mistral3_tekken(out_dir: str | Path, *, seed: int = 0) -> Path:
    """The tiny Mistral-3 folder: ``config.json``, weights, ``processor_config.json`` and ``tekken.json`` only."""
    import torch
    from transformers import Mistral3Config, Mistral3ForConditionalGeneration, PixtralImageProcessor

    from mmjudge.judges.tiny._families import _vision

    special = list(MISTRAL_CONTROL_TOKENS)
    ids = {token: i for i, token in enumerate(special)}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    text_config = {
        "model_type": "mistral", "vocab_size": VOCAB, "hidden_size": 32, "intermediate_size": 64,
        "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 2, "head_dim": 16,
        "max_position_embeddings": 16_384, "pad_token_id": ids["<pad>"], "bos_token_id": ids["<s>"],
        "eos_token_id": ids["</s>"],
    }  # fmt: skip
    config = Mistral3Config(vision_config=_vision("pixtral", LONGEST_EDGE, 14, head_dim=16), text_config=text_config,
                            image_token_index=ids["[IMG]"], spatial_merge_size=2, vision_feature_layer=-1,
                            multimodal_projector_bias=False)  # fmt: skip
    torch.manual_seed(seed)
    Mistral3ForConditionalGeneration(config).eval().save_pretrained(out)
    # the processor's own files, written with a throwaway tokenizer whose files are then removed
    from transformers import PixtralProcessor, PreTrainedTokenizerFast

    throwaway = PreTrainedTokenizerFast(tokenizer_object=_bpe(special), bos_token="<s>", eos_token="</s>",
                                        pad_token="<pad>", unk_token="<unk>")  # fmt: skip
    image = PixtralImageProcessor(size={"longest_edge": LONGEST_EDGE}, patch_size={"height": 14, "width": 14})
    PixtralProcessor(image, throwaway, patch_size=14, spatial_merge_size=2).save_pretrained(out)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "chat_template.jinja"):
        (out / name).unlink(missing_ok=True)
    (out / "tekken.json").write_text(json.dumps(tekken_file(special)), encoding="utf-8")
    return out
