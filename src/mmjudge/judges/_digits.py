"""Expected-digit scoring from a language model's next-token distribution (shared by digit judges).

A judge asked for one digit 0-9 is scored by the **expected digit** rather than the decoded one (the
decoded digit gives many ties): with ``p`` the softmax of the next-token logits over the whole
vocabulary and ``d_k`` the token of digit ``k``,

- ``valid_mass = sum_k p[d_k]`` (how much of the distribution the model put on digits),
- ``q_k = p[d_k] / valid_mass`` (the distribution restricted to the ten digits, i.e. the softmax of the
  ten digit logits),
- ``expected = sum_k k * q_k`` in ``[0, 9]``, reported as ``score = 100 * expected / 9`` in ``[0, 100]``.

The next-token logits are read at each row's **last real position** (:func:`last_positions`), which is
correct under left and right padding alike.

>>> import torch
>>> logits = torch.full((1, 12), -1e4)
>>> logits[0, 2:12] = torch.tensor([0.0] * 9 + [2.0])  # tokens 2..11 are the digits 0..9
>>> out = expected_digit(logits, list(range(2, 12)))
>>> round(out.scores[0], 3), round(out.valid_mass[0], 3)
(69.492, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from mmjudge.errors import ConfigError

__all__ = [
    "DIGITS",
    "DigitScores",
    "digit_token_ids",
    "expected_digit",
    "last_positions",
    "next_token_logits",
]

DIGITS = tuple(str(d) for d in range(10))
"""The ten answer digits, ``"0"`` .. ``"9"``."""


class DigitScores(NamedTuple):
    """Expected-digit scores of a batch."""

    scores: list[float]
    """``100 * E[digit] / 9`` per row, in ``[0, 100]``."""
    expected: list[float]
    """``E[digit]`` under the distribution restricted to the digits, in ``[0, 9]``."""
    valid_mass: list[float]
    """Total next-token probability on the ten digit tokens."""
    probs: list[list[float]]
    """The restricted distribution ``q_0 .. q_9`` per row."""
    argmax: list[int]
    """The most likely digit per row."""


def digit_token_ids(tokenizer: Any) -> list[int]:
    """Token ids of ``"0"`` .. ``"9"``; each digit must encode to exactly one token.

    Raises:
        ConfigError: a digit is not a single token of this tokenizer (expected-digit scoring needs it).
    """
    ids: list[int] = []
    for digit in DIGITS:
        encoded = tokenizer.encode(digit, add_special_tokens=False)
        if len(encoded) != 1:
            raise ConfigError(
                f"expected digit {digit!r} to be one token of {type(tokenizer).__name__}, got ids {encoded}; "
                "expected-digit scoring needs single-token digits (use a model whose tokenizer splits digits)"
            )
        ids.append(int(encoded[0]))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"expected ten distinct digit tokens, got ids {ids}")
    return ids


def last_positions(attention_mask: Any) -> Any:
    """Index of the last real (mask 1) position of each row, under left or right padding.

    >>> import torch
    >>> last_positions(torch.tensor([[1, 1, 1, 0], [0, 1, 1, 1], [1, 1, 1, 1]])).tolist()
    [2, 3, 3]
    """
    import torch

    mask = torch.as_tensor(attention_mask).to(torch.long)
    length = mask.shape[-1]
    positions = torch.arange(length, device=mask.device).expand_as(mask)
    return torch.where(mask.bool(), positions, torch.full_like(positions, -1)).max(dim=-1).values


def expected_digit(next_logits: Any, digit_ids: Sequence[int]) -> DigitScores:
    """Expected digit, restricted distribution and digit mass from next-token logits ``(B, V)``.

    Computed in float64 from ``log_softmax`` over the whole vocabulary (see the module docstring).
    """
    import torch

    logits = torch.as_tensor(next_logits).double()
    if logits.ndim != 2:
        raise ValueError(f"expected next-token logits of shape (batch, vocab), got {tuple(logits.shape)}")
    index = torch.as_tensor(list(digit_ids), device=logits.device, dtype=torch.long)
    digit_logp = torch.log_softmax(logits, dim=-1).index_select(-1, index)
    mass = digit_logp.exp().sum(dim=-1)
    probs = torch.softmax(digit_logp, dim=-1)
    values = torch.arange(10, device=logits.device, dtype=probs.dtype)
    expected = (probs * values).sum(dim=-1)
    return DigitScores(
        scores=(expected * (100.0 / 9.0)).tolist(),
        expected=expected.tolist(),
        valid_mass=mass.tolist(),
        probs=probs.tolist(),
        argmax=probs.argmax(dim=-1).tolist(),
    )


def next_token_logits(logits: Any, attention_mask: Any) -> Any:
    """Logits ``(B, V)`` at each row's last real position of ``(B, L, V)`` model logits."""
    import torch

    rows = torch.arange(logits.shape[0], device=logits.device)
    return logits[rows, last_positions(attention_mask).to(logits.device)]
