"""Score digits in a generative reward model's reply: where each one was generated, and how sure the model was.

Generative reward models (VideoScore2, UnifiedReward's pointwise prompts) write their scores as text,
``"visual quality: 4; ..."``. Besides the digit itself, the official code of VideoScore2
(``TIGER-AI-Lab/VideoScore2`` ``vs2_inference.py``, ``find_score_token_index_by_prompt`` and
``ll_based_soft_score_normed``) reads the model's distribution at the step that produced the digit:

- :func:`score_step`: the step is found by string prefixes, not by token ids: the first match of the
  label (optionally after ``(n)`` or a newline, case-insensitive) in the decoded reply, the first digit
  after it, and then the smallest ``i`` such that the first ``i + 1`` generated tokens decode to exactly the
  reply up to and including that digit (``-1`` when there is no such step, e.g. the digit shares a token);
- :func:`normed_top_score`: with ``p_s`` the probability of the token of ``str(s)`` at that step
  (single-token values only), ``s* = argmax p_s`` and the score ``s* * p_{s*} / sum_s p_s``, rounded to 4
  decimals. It is the top value times its renormalised probability, not an expected value.

The digits' probabilities are read while ``generate`` runs (:func:`digit_recorder`, a logits processor that
keeps five numbers a step), not from ``output_scores``, which holds every step's full-vocabulary scores
(about 2.5 GB at 1,024 steps, batch 4 and a 152k vocabulary).

torch and transformers are imported inside :func:`step_probs` and :func:`digit_recorder` only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

__all__ = ["Warping", "digit_recorder", "normed_top_score", "score_step", "single_token_ids", "step_probs"]


def score_step(tokenizer: Any, generated: Sequence[int], label: str) -> int:
    """The index in ``generated`` of the token that completes the first digit after ``label`` (``-1``: none).

    The reply is decoded with special tokens kept, as the official search does.

    >>> from types import SimpleNamespace
    >>> chars = SimpleNamespace(decode=lambda ids, skip_special_tokens=False: "".join(map(chr, ids)))
    >>> ids = [ord(c) for c in "Visual quality: 4; text-to-video alignment: 3"]
    >>> score_step(chars, ids, "visual quality:"), score_step(chars, ids, "text-to-video alignment:")
    (16, 44)
    >>> score_step(chars, ids, "physical/common-sense consistency:")
    -1
    """
    ids = [int(i) for i in generated]
    reply = tokenizer.decode(ids, skip_special_tokens=False)
    found = re.search(r"(?:\(\d+\)\s*|\n\s*)?" + re.escape(label), reply, flags=re.IGNORECASE)
    digit = re.search(r"\d", reply[found.end() :]) if found else None
    if found is None or digit is None:
        return -1
    target = reply[: found.end() + digit.start() + 1]
    return next(
        (i for i in range(len(ids)) if tokenizer.decode(ids[: i + 1], skip_special_tokens=False) == target),
        -1,
    )


def single_token_ids(tokenizer: Any, values: Sequence[int]) -> dict[int, int]:
    """``value -> token id`` for each of ``values`` whose text ``str(value)`` is one token (others left out).

    >>> from types import SimpleNamespace
    >>> tok = SimpleNamespace(encode=lambda text, add_special_tokens=False: [7] if text == "1" else [8, 9])
    >>> single_token_ids(tok, [1, 10])
    {1: 7}
    """
    found = {v: tokenizer.encode(str(v), add_special_tokens=False) for v in values}
    return {v: int(ids[0]) for v, ids in found.items() if len(ids) == 1}


def step_probs(step_scores: Any, token_ids: Mapping[int, int], temperature: float = 1.0) -> dict[int, float]:
    """``value -> softmax(step_scores / temperature)[token]`` over the whole vocabulary, in float64.

    >>> import torch
    >>> probs = step_probs(torch.tensor([0.0, 0.0, 2.0]), {1: 1, 2: 2}, temperature=2.0)
    >>> {k: round(v, 4) for k, v in probs.items()}
    {1: 0.2119, 2: 0.5761}
    """
    import torch

    probs = torch.softmax(step_scores.double() / temperature, dim=-1)
    return {value: float(probs[token]) for value, token in token_ids.items()}


def normed_top_score(probs: Mapping[int, float]) -> float | None:
    """``s* * p_{s*} / sum_s p_s`` with ``s*`` the most probable value (the first on ties), to 4 decimals;
    ``None`` without any value.

    >>> normed_top_score({1: 0.1, 2: 0.1, 3: 0.6, 4: 0.2})
    1.8
    >>> normed_top_score({}) is None
    True
    """
    if not probs:
        return None
    best = max(probs, key=lambda v: probs[v])  # max keeps the first of equal values, as list.index does
    total = sum(probs.values())
    return round(best * (probs[best] / total if total > 0 else 0.0), 4)


class Warping(NamedTuple):
    """The sampling warpers whose output a soft score reads, in ``generate``'s order (temperature, top-k, top-p)."""

    temperature: float
    """Divide the scores by this."""
    top_k: int
    """Keep the ``top_k`` highest scores (ties at the threshold kept, as transformers does); 0 keeps all."""
    top_p: float
    """Keep the smallest set of tokens whose probability reaches ``top_p``; 1.0 keeps all."""


def digit_recorder(token_ids: Mapping[int, int], warping: Warping, *, in_float64: bool) -> Any:
    """A transformers ``LogitsProcessor`` that records, at each generated step and for each row, the probability
    of each value's token under ``softmax(warped scores)`` over the whole vocabulary, and changes nothing.

    It sees the scores after ``generate``'s own processors (repetition penalty, sequence bias, ...) and
    applies ``warping`` itself with transformers' warper classes, so its probabilities are those of the
    processed scores ``output_scores`` would hold under sampling with the same warpers. ``in_float64`` warps
    a float64 copy (greedy decoding, where ``generate`` applies no warper) instead of the float32 scores as
    ``generate`` warps them when sampling. ``recorder.probs(row, steps)`` gives ``value -> probability`` per step.
    """
    import torch
    from transformers import LogitsProcessor, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

    warpers: list[Any] = [TemperatureLogitsWarper(warping.temperature)] if warping.temperature != 1.0 else []
    if warping.top_k:
        warpers.append(TopKLogitsWarper(top_k=warping.top_k))
    if warping.top_p < 1.0:
        warpers.append(TopPLogitsWarper(top_p=warping.top_p))
    values, ids = list(token_ids), list(token_ids.values())

    class DigitRecorder(LogitsProcessor):
        def __init__(self) -> None:
            self.steps: list[Any] = []

        def __call__(self, input_ids: Any, scores: Any) -> Any:
            warped = scores.double() if in_float64 else scores
            for warper in warpers:
                warped = warper(input_ids, warped)
            self.steps.append(torch.softmax(warped.double(), dim=-1)[:, ids])
            return scores

        def probs(self, row: int, steps: int) -> list[dict[int, float]]:
            if not self.steps:
                return []
            table = torch.stack(self.steps[:steps])[:, row].cpu().tolist()
            return [dict(zip(values, step, strict=True)) for step in table]

    return DigitRecorder()
