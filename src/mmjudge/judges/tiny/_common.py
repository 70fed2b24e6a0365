"""What every tiny checkpoint shares: the byte-level BPE tokenizer trained on the spot, and the save step."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mmjudge.judges.tiny._tokens import PAD_TOKEN, REWARD_MARKERS, SPECIAL_TOKENS

VOCAB_SIZE = 512
"""Vocabulary of every tiny tokenizer and text model."""

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
    vocab_size: int = VOCAB_SIZE,
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
    (another family's chat and vision tokens) get the ids after ``SPECIAL_TOKENS``, inside ``vocab_size``.
    Any text tokenizes (byte-level alphabet); the digits ``0``-``9`` are single tokens.

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


def token_id(tokenizer: Any, token: str) -> int:
    """The id of one token."""
    return int(tokenizer.convert_tokens_to_ids(token))


def special_ids(tokenizer: Any) -> dict[str, int]:
    """Id of each of ``SPECIAL_TOKENS`` the tokenizer has."""
    vocab = tokenizer.get_vocab()
    return {t: token_id(tokenizer, t) for t in SPECIAL_TOKENS if t in vocab}


def save_random(model_cls: Any, config: Any, processor: Any, out_dir: str | Path, seed: int) -> Path:
    """``model_cls(config)`` with weights drawn after ``torch.manual_seed(seed)``, saved with its processor
    (``save_pretrained``) to ``out_dir``, which is returned."""
    import torch

    torch.manual_seed(seed)
    model = model_cls(config).eval()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return out
