"""Chat prompts in, tensors out: the model I/O shared by ``label_choice`` and ``pairwise_describe``.

Each item's prompt is encoded on its own (no padding) by the model's processor or tokenizer; rows are
then built from an encoding plus extra token ids appended on the right (an answer prefix, a label
prefix, a reasoning) and left-padded together by :func:`collate`, so the last position of every row
is its own last real token and a batch of many gives what a batch of one gives. Sequence tensors
(``input_ids``, ``attention_mask``, ``mm_token_type_ids``, ``token_type_ids``) are padded; vision
tensors (``pixel_values``, ``image_grid_thw``, ``pixel_values_videos``, ``video_grid_thw``,
``second_per_grid_ts``) are concatenated in row order (a row repeating an item repeats its images).
torch and transformers are imported inside the functions.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mmjudge.judges.profiles import QWEN_VL_UTILS, VisionProfile

__all__ = [
    "Encoded",
    "collate",
    "encode_chat",
    "encode_text",
    "generate_texts",
    "next_logprobs",
    "timed_verdicts",
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
    images: Sequence[Any] = (),
    frames: np.ndarray | None = None,
    frame_indices: Sequence[int] = (),
    fps: float | None = None,
    frames_as: str = "video",
    max_pixels: int | None = None,
    total_frames: int | None = None,
    frame_size: tuple[int, int] | None = None,
    profile: VisionProfile = QWEN_VL_UTILS,
) -> Encoded:
    """Encode one user turn (with its images or video frames) plus the generation prompt.

    Media are resized once by the judge's preprocessing ``profile`` at the model's factor (images as
    qwen-vl-utils' ``fetch_image``, a video as its ``fetch_video``; ``max_pixels`` per frame from the
    config) and given to the processor with ``do_resize=False``, as ``vlm_digit`` does. ``frames``
    (``uint8 (T, H, W, 3)``) go in as one video (``do_sample_frames=False`` with qwen-vl-utils' metadata:
    the clip's fps, the sampled indices, ``total_frames``) or, with ``frames_as="images"``, as T images.
    """
    from mmjudge.judges._vision_batch import model_factor, video_metadata

    arrays = [np.asarray(image.convert("RGB") if hasattr(image, "convert") else image) for image in images]
    as_video = frames is not None and frames_as == "video"
    if frames is not None and not as_video:
        arrays += list(frames)
    if arrays:
        factor = model_factor(processor, video=False)
        arrays = [profile.fit_image(a, factor, max_pixels=max_pixels) for a in arrays]
    content = user_content(text, images=len(arrays), video=as_video)
    prompt = _template(processor, [{"role": "user", "content": content}])
    kwargs: dict[str, Any] = {"text": [prompt], "return_tensors": "pt", "do_resize": False}
    if arrays:
        kwargs["images"] = [arrays]
    if as_video:
        assert frames is not None
        factor = model_factor(processor, video=True)
        video = profile.fit_video(frames, factor, source_size=frame_size, max_pixels=max_pixels)
        meta = video_metadata(frame_indices, fps, len(frames), total_frames)
        kwargs.update(videos=[video], video_metadata=[meta], do_sample_frames=False)
    return dict(processor(**kwargs))


def timed_verdicts(judge_fn: Callable[[Sequence[Any]], list[Any]], inputs: Sequence[Any]) -> list[Any]:
    """``judge_fn(inputs)`` with ``diagnostics.latency_s`` set to the batch time divided by the batch size."""
    started = time.perf_counter()
    verdicts = judge_fn(inputs)
    latency = (time.perf_counter() - started) / max(1, len(inputs))
    return [
        dataclasses.replace(v, diagnostics=dataclasses.replace(v.diagnostics, latency_s=latency))
        for v in verdicts
    ]


def encode_text(tokenizer: Any, text: str) -> Encoded:
    """Encode a text-only user turn for a text LLM (its chat template when it has one)."""
    prompt = _template(tokenizer, [{"role": "user", "content": user_content(text)}])
    return dict(tokenizer([prompt], return_tensors="pt", add_special_tokens=False))


def collate(rows: Sequence[tuple[Mapping[str, Any], Sequence[int]]], pad_id: int) -> dict[str, Any]:
    """Left-pad ``encoding + extra ids`` rows into one batch (see the module docstring)."""
    import torch

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
        batch[key] = torch.tensor([[fill] * (width - len(s[key])) + s[key] for s in seqs], dtype=torch.long)
    media_keys = dict.fromkeys(k for enc, _ in rows for k in enc if k not in _SEQUENCE_KEYS)
    for key in media_keys:  # rows without images or video contribute nothing to these
        values = [enc[key] for enc, _ in rows if key in enc]
        tensors = all(isinstance(v, torch.Tensor) for v in values)
        batch[key] = torch.cat(values) if tensors else [v for vs in values for v in vs]
    return batch


def _model_dtype(model: Any) -> Any:
    return getattr(model, "dtype", None)


def next_logprobs(model: Any, batch: Mapping[str, Any]) -> np.ndarray:
    """``(rows, vocab)`` float64 log-probs of the token after each row's last position."""
    import torch

    from mmjudge.judges._hf import to_device

    inputs = to_device(batch, model.device, _model_dtype(model))
    with torch.inference_mode():
        try:
            logits = model(**inputs, logits_to_keep=1).logits[:, -1, :]
        except TypeError:  # a model class without ``logits_to_keep``: compute all, keep the last
            logits = model(**inputs).logits[:, -1, :]
    return torch.log_softmax(logits.double(), dim=-1).cpu().numpy()


def generate_texts(
    model: Any, tokenizer: Any, encodings: Sequence[Encoded], max_new_tokens: int, pad_id: int
) -> list[str]:
    """Greedy free generation for each encoding (one batch); the new text, special tokens dropped."""
    import torch

    from mmjudge.judges._hf import to_device

    batch = to_device(collate([(e, ()) for e in encodings], pad_id), model.device, _model_dtype(model))
    with torch.inference_mode():
        out = model.generate(**batch, max_new_tokens=max_new_tokens, do_sample=False, pad_token_id=pad_id)
    new = out[:, batch["input_ids"].shape[1] :]
    return [str(t) for t in tokenizer.batch_decode(new, skip_special_tokens=True)]
