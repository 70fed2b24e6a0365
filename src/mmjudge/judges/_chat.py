"""Chat prompts in, tensors out: the model I/O every transformers judge shares.

Each item's prompt is encoded on its own (no padding) by the model's processor or tokenizer (a judge's
:meth:`~mmjudge.judges.Judge.model_inputs`, made ahead in a decode worker or by the judge); :func:`batches` is
the one way those encodings are batched: grouped by the shape of their media (:func:`media_groups`), each
group padded by :func:`collate`. For scoring, rows are
then built from an encoding plus extra token ids appended on the right (an answer prefix, a label
prefix, a reasoning) and left-padded together by :func:`collate`, so the last position of every row
is its own last real token and a batch of many gives what a batch of one gives. Sequence tensors
(``input_ids``, ``attention_mask``, ``mm_token_type_ids``, ``token_type_ids``) are padded; vision
tensors (``pixel_values``, ``image_grid_thw``, ``pixel_values_videos``, ``video_grid_thw``,
``second_per_grid_ts``) are concatenated in row order (a row repeating an item repeats its images).
torch and transformers are imported inside the functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mmjudge.judges._family import Media, processor_inputs
from mmjudge.judges._hf import to_device
from mmjudge.judges.families import ModelFamily, family_of

__all__ = [
    "Encoded",
    "batches",
    "collate",
    "encode_chat",
    "encode_text",
    "generate_texts",
    "media_groups",
    "next_logprobs",
    "pad_token_id",
    "row_logprobs",
    "user_content",
]

Encoded = dict[str, Any]
"""One prompt's processor output (tensors with a batch dimension of 1)."""
_SEQUENCE_KEYS = ("input_ids", "attention_mask", "mm_token_type_ids", "token_type_ids")


def user_content(text: str, *, images: int = 0, video: bool = False) -> list[dict[str, Any]]:
    """Content parts of a user turn: media placeholders first, then the text.

    >>> user_content("Which?", images=1)
    [{'type': 'image'}, {'type': 'text', 'text': 'Which?'}]
    """
    parts: list[dict[str, Any]] = [{"type": "image"} for _ in range(images)]
    if video:
        parts.append({"type": "video"})
    return [*parts, {"type": "text", "text": text}]


def _template(owner: Any, messages: list[dict[str, Any]]) -> str:
    if getattr(owner, "chat_template", None) is None:  # a plain LM: the user text is the prompt
        return "".join(p["text"] for m in messages for p in m["content"] if p["type"] == "text")
    return str(owner.apply_chat_template(messages, add_generation_prompt=True, tokenize=False))


def encode_chat(
    processor: Any,
    text: str,
    *,
    family: ModelFamily | None = None,
    images: Sequence[Any] = (),
    frames: np.ndarray | None = None,
    frame_indices: Sequence[int] = (),
    fps: float | None = None,
    frames_as_video: bool = True,
    max_pixels: int | None = None,
    total_frames: int | None = None,
    frame_size: tuple[int, int] | None = None,
) -> Encoded:
    """Encode one user turn (with its images or video frames) plus the generation prompt, as ``family``
    takes it (:func:`mmjudge.judges._family.processor_inputs`; ``None``: a Qwen-VL family).

    ``frames`` (``uint8 (T, H, W, 3)``) go in as one video (with the sampled indices as metadata) or, with
    ``frames_as_video=False``, as T images after the query's own images.
    """
    family = family or family_of("qwen2_vl")
    as_video = frames is not None and frames_as_video
    pictures = [*images, *(list(frames) if frames is not None and not as_video else [])]
    media = Media(pictures, frames if as_video else None, frame_indices, fps, total_frames, frame_size)
    prompt = _template(processor, [{"role": "user", "content": media.content(text)}])
    return processor_inputs(processor, family, [prompt], [media], max_pixels=max_pixels)


def encode_text(tokenizer: Any, text: str) -> Encoded:
    """Encode a text-only user turn for a text LLM (its chat template when it has one)."""
    prompt = _template(tokenizer, [{"role": "user", "content": user_content(text)}])
    return dict(tokenizer([prompt], return_tensors="pt", add_special_tokens=False))


def pad_token_id(tokenizer: Any) -> int:
    """The tokenizer's padding id, its end-of-sequence id when it has no pad token.

    >>> from types import SimpleNamespace
    >>> pad_token_id(SimpleNamespace(pad_token_id=None, eos_token_id=7))
    7
    """
    return int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id)


def collate(
    rows: Sequence[tuple[Mapping[str, Any], Sequence[int]]], pad_id: int, *, padding_side: str = "left"
) -> dict[str, Any]:
    """Left-pad ``encoding + extra ids`` rows into one batch (see the module docstring); ``padding_side="right"``
    pads on the right instead (for a model that reads its last real token, as VideoScore's head does)."""
    import torch

    if padding_side not in ("left", "right"):
        raise ValueError(f"padding_side must be 'left' or 'right', got {padding_side!r}")

    seqs = []
    for enc, extra in rows:
        ids = enc["input_ids"][0].tolist() + [int(t) for t in extra]
        parts = {"input_ids": ids, "attention_mask": [1] * len(ids)}
        for key in _SEQUENCE_KEYS[2:]:
            if key in enc:
                parts[key] = enc[key][0].tolist() + [0] * len(extra)
        seqs.append(parts)
    width = max(len(s["input_ids"]) for s in seqs)
    batch: dict[str, Any] = {}
    for key in seqs[0]:
        fill = pad_id if key == "input_ids" else 0
        pads = [[fill] * (width - len(s[key])) for s in seqs]
        rows_of = [p + s[key] if padding_side == "left" else s[key] + p for p, s in zip(pads, seqs, strict=True)]
        batch[key] = torch.tensor(rows_of, dtype=torch.long)
    media_keys = dict.fromkeys(k for enc, _ in rows for k in enc if k not in _SEQUENCE_KEYS)
    for key in media_keys:  # rows without images or video contribute nothing to these
        values = [enc[key] for enc, _ in rows if key in enc]
        tensors = all(isinstance(v, torch.Tensor) for v in values)
        batch[key] = torch.cat(values) if tensors else [v for vs in values for v in vs]
    return batch


def batches(
    encodings: Sequence[Mapping[str, Any]], pad_id: int, *, padding_side: str = "left", alone: bool = False
) -> list[tuple[list[int], dict[str, Any]]]:
    """The one way judges batch: ``(positions, batch)`` pairs covering ``encodings`` (each query's own processor
    output), one batch per :func:`media_groups` group padded on ``padding_side`` by :func:`collate`.

    A group of one is that query's processor output itself (as its reference calls the processor); ``alone``
    gives every query a batch of its own (sampled decoding, where each query draws with its own seed).

    >>> import torch
    >>> one = {"input_ids": torch.tensor([[5, 6, 7]]), "attention_mask": torch.ones(1, 3, dtype=torch.long)}
    >>> two = {"input_ids": torch.tensor([[8]]), "attention_mask": torch.ones(1, 1, dtype=torch.long)}
    >>> [(group, batch["input_ids"].tolist()) for group, batch in batches([one, two], 0)]
    [([0, 1], [[5, 6, 7], [0, 0, 8]])]
    >>> [group for group, _ in batches([one, two], 0, alone=True)]
    [[0], [1]]
    """
    groups = [[i] for i in range(len(encodings))] if alone else media_groups(encodings)
    return [
        (group, dict(encodings[group[0]]) if len(group) == 1
         else collate([(encodings[i], ()) for i in group], pad_id, padding_side=padding_side))
        for group in groups
    ]  # fmt: skip


def media_groups(encodings: Sequence[Mapping[str, Any]]) -> list[list[int]]:
    """Positions of ``encodings`` whose media tensors can share a batch (equal shapes past the first axis).

    Processors pad images to a common size only within one call: Idefics pads each prompt's images to
    its own largest, LLaVA-OneVision gives each image as many tiles as its aspect ratio needs. Rows of
    prompts encoded on their own are batched with the rows whose media tensors have the same trailing
    shape; every group is judged on its own (left padding makes the answers independent of the grouping).

    >>> import torch
    >>> media_groups([{"pixel_values": torch.zeros(1, 3, 8, 8)}, {"pixel_values": torch.zeros(2, 3, 4, 4)},
    ...               {"pixel_values": torch.zeros(5, 3, 8, 8)}])
    [[0, 2], [1]]
    """
    groups: dict[tuple[object, ...], list[int]] = {}
    for position, enc in enumerate(encodings):
        signature = tuple(
            (key, tuple(value.shape[1:]))
            for key, value in sorted(enc.items())
            if key not in _SEQUENCE_KEYS and hasattr(value, "shape")
        )
        groups.setdefault(signature, []).append(position)
    return list(groups.values())


def _model_dtype(model: Any) -> Any:
    return getattr(model, "dtype", None)


def row_logprobs(model: Any, rows: Sequence[tuple[Mapping[str, Any], Sequence[int]]], pad_id: int) -> np.ndarray:
    """``(rows, vocab)`` log-probs after each ``encoding + extra ids`` row, batched by :func:`media_groups`."""
    out: list[np.ndarray | None] = [None] * len(rows)
    for group in media_groups([enc for enc, _ in rows]):
        for position, values in zip(group, next_logprobs(model, collate([rows[i] for i in group], pad_id)),
                                    strict=True):  # fmt: skip
            out[position] = values
    return np.stack([v for v in out if v is not None])


def next_logprobs(model: Any, batch: Mapping[str, Any]) -> np.ndarray:
    """``(rows, vocab)`` float64 log-probs of the token after each row's last position."""
    import torch

    inputs = to_device(batch, model.device, _model_dtype(model))
    with torch.inference_mode():
        try:
            logits = model(**inputs, logits_to_keep=1).logits[:, -1, :]
        except TypeError:  # a model class without ``logits_to_keep``: compute all, keep the last
            logits = model(**inputs).logits[:, -1, :]
    return torch.log_softmax(logits.double(), dim=-1).cpu().numpy()


def generate_texts(
    model: Any, tokenizer: Any, encodings: Sequence[Encoded], max_new_tokens: int, pad_id: int, **options: Any
) -> list[str]:
    """Greedy free generation for each encoding (one batch per :func:`media_groups` group); the new text,
    special tokens dropped. ``options`` go to ``model.generate`` as well (Qwen2.5-Omni's ``use_audio_in_video``)."""
    import torch

    texts = [""] * len(encodings)
    for group, encoded in batches(encodings, pad_id):
        batch = to_device(encoded, model.device, _model_dtype(model))
        with torch.inference_mode():
            out = model.generate(**batch, max_new_tokens=max_new_tokens, do_sample=False, pad_token_id=pad_id,
                                 **options)  # fmt: skip
        new = out[:, batch["input_ids"].shape[1] :]
        for i, text in zip(group, tokenizer.batch_decode(new, skip_special_tokens=True), strict=True):
            texts[i] = str(text)
    return texts
