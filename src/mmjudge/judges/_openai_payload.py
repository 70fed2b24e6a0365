"""Request bodies and reply parsing for the ``openai_compatible`` judge (no network here).

- Frames and images travel as JPEG data URIs (:func:`jpeg_data_uri`: ``data:image/jpeg;base64,...``,
  PIL's JPEG encoder at the given quality, PIL's other defaults, RGB, no resize here) in
  ``{"type": "image_url"}`` content parts, before the text part.
- A choice can be constrained to its labels on a vLLM server (:func:`guided_choice_body`).
- The answer is ``choices[0].message.content`` (:func:`answer_text`); a reply without one (a reasoning
  model cut off at the token limit: ``finish_reason: "length"``, ``content: null``, the text in
  ``reasoning_content``) raises :class:`NoAnswerError` saying so.
- IsoVRBench is scored by the **expected digit from the top logprobs of the first answer token**
  (:func:`expected_digit_from_top_logprobs`), the GPT-4.1 protocol of digit judges served by an API:
  the endpoint returns at most 20 alternatives per position, so the distribution over the ten digits is
  known only where they are among those alternatives. Step by step, for the ``top_logprobs`` list of the
  reply's first generated token:

  1. an entry is a digit entry when its ``token`` with surrounding whitespace removed is one of
     ``"0"`` .. ``"9"``; ``p_d`` = sum of ``exp(logprob)`` over the entries of digit ``d`` (``"7"`` and
     ``" 7"`` both count for 7; a digit not in the list gets ``p_d = 0``);
  2. ``valid_mass = sum_d p_d`` (the probability the listed digit tokens carry; recorded);
  3. ``q_d = p_d / valid_mass`` (renormalised over the digits present);
  4. ``expected = sum_d d * q_d`` in ``[0, 9]``; ``score = expected * 100 / 9`` in ``[0, 100]``.

  No digit among the alternatives gives no score (the judge records ``no_judgment``).
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from mmjudge.errors import SchemaError

__all__ = [
    "DIGITS",
    "GUIDED_CHOICE_FIELDS",
    "LogprobDigits",
    "NoAnswerError",
    "ReplyText",
    "answer_text",
    "expected_digit_from_top_logprobs",
    "first_top_logprobs",
    "guided_choice_body",
    "image_part",
    "jpeg_data_uri",
]

DIGITS = tuple(str(d) for d in range(10))
"""The ten answer digits."""
GUIDED_CHOICE_FIELDS = ("structured_outputs", "guided_choice")
"""Request fields a vLLM server reads a choice's labels from (``options.guided_choice_field``)."""
REASONING_FIELDS = ("reasoning_content", "reasoning")
"""Message fields where vLLM puts a reasoning model's reasoning (``--reasoning-parser``; newer: ``reasoning``)."""


class NoAnswerError(SchemaError):
    """A reply without an answer: cut off at the token limit before one, or ended without one."""


class ReplyText(NamedTuple):
    """The answer text of a chat reply and why generation stopped."""

    text: str
    """``choices[0].message.content``."""
    finish_reason: str | None
    """``choices[0].finish_reason`` (``"stop"``, ``"length"``, ...; ``None``: not sent)."""


class LogprobDigits(NamedTuple):
    """The expected digit read from one position's top logprobs."""

    score: float
    """``expected * 100 / 9``, in ``[0, 100]``."""
    expected: float
    """Expected digit under the renormalised digit distribution, in ``[0, 9]``."""
    valid_mass: float
    """Sum of the listed digit tokens' probabilities (before renormalising)."""
    probs: list[float]
    """Renormalised ``q_0 .. q_9`` (0 for digits not listed)."""


def expected_digit_from_top_logprobs(top_logprobs: Sequence[Mapping[str, Any]]) -> LogprobDigits | None:
    """The expected digit of one position's ``top_logprobs`` (see the module docstring), or ``None``.

    >>> top = [{"token": "7", "logprob": math.log(0.5)}, {"token": "8", "logprob": math.log(0.3)},
    ...        {"token": "Sure", "logprob": math.log(0.1)}, {"token": " 7", "logprob": math.log(0.1)}]
    >>> out = expected_digit_from_top_logprobs(top)
    >>> round(out.expected, 4), round(out.score, 3), round(out.valid_mass, 4)
    (7.3333, 81.481, 0.9)
    >>> expected_digit_from_top_logprobs([{"token": "Yes", "logprob": 0.0}]) is None
    True
    """
    mass = np.zeros(10)
    for entry in top_logprobs:
        token = entry.get("token")
        logprob = entry.get("logprob")
        if not isinstance(token, str) or not isinstance(logprob, (int, float)) or isinstance(logprob, bool):
            raise SchemaError(
                f"expected top_logprobs entries with a string token and a number logprob, got {entry!r}"
            )
        digit = token.strip()
        if digit in DIGITS and math.isfinite(logprob):
            mass[int(digit)] += math.exp(logprob)
    total = float(mass.sum())
    if total <= 0.0:
        return None
    probs = mass / total
    expected = float(np.dot(probs, np.arange(10)))
    return LogprobDigits(expected * 100.0 / 9.0, expected, total, probs.tolist())


def jpeg_data_uri(image: Any, quality: int = 90) -> str:
    """A ``data:image/jpeg;base64,...`` URI of a ``uint8 (H, W, 3)`` frame or a PIL image (PIL's encoder).

    >>> uri = jpeg_data_uri(np.zeros((4, 6, 3), dtype=np.uint8))
    >>> uri.startswith("data:image/jpeg;base64,/9j/")
    True
    """
    from PIL import Image

    picture = Image.fromarray(np.asarray(image, dtype=np.uint8)) if isinstance(image, np.ndarray) else image
    if picture.mode != "RGB":
        picture = picture.convert("RGB")
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG", quality=int(quality))
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def image_part(image: Any, *, quality: int = 90, detail: str | None = None) -> dict[str, Any]:
    """An ``image_url`` content part holding ``image`` as a JPEG data URI."""
    url: dict[str, Any] = {"url": jpeg_data_uri(image, quality)}
    if detail:
        url["detail"] = detail
    return {"type": "image_url", "image_url": url}


def guided_choice_body(labels: Sequence[str], field: str) -> dict[str, Any]:
    """Request fields that make a vLLM server reply with exactly one of ``labels``, sent as ``field``.

    ``structured_outputs`` is vLLM 0.10.2 and later (the only form from 0.12.0, which ignores a
    ``guided_choice`` field without an error); ``guided_choice`` is vLLM before 0.12.0.

    >>> guided_choice_body(("FF", "WF"), "structured_outputs")
    {'structured_outputs': {'choice': ['FF', 'WF']}}
    >>> guided_choice_body(("FF", "WF"), "guided_choice")
    {'guided_choice': ['FF', 'WF']}
    """
    if field == "structured_outputs":
        return {"structured_outputs": {"choice": list(labels)}}
    if field == "guided_choice":
        return {"guided_choice": list(labels)}
    raise SchemaError(f"expected a guided choice field among {list(GUIDED_CHOICE_FIELDS)}, got {field!r}")


def _first_choice(reply: Mapping[str, Any]) -> Mapping[str, Any]:
    choices = reply.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise SchemaError(f"malformed reply: expected a non-empty `choices` list, got {_short(choices)}")
    return choices[0]


def answer_text(reply: Mapping[str, Any], *, limit: str, fix: str) -> ReplyText:
    """The answer (``choices[0].message.content``) of a chat reply and its ``finish_reason``.

    A reply whose content is null raises :class:`NoAnswerError`: cut off (``finish_reason`` ``"length"``)
    it names ``limit`` (e.g. ``"max_tokens=512"``) and says ``fix``; ended (``"stop"``) it says where a
    reasoning model's text went. An empty content is returned (the caller's parser finds no answer in it); a
    message without ``content`` raises :class:`~mmjudge.errors.SchemaError`.

    >>> answer_text({"choices": [{"message": {"content": "a2"}, "finish_reason": "stop"}]}, limit="", fix="")
    ReplyText(text='a2', finish_reason='stop')
    >>> cut = {"choices": [{"message": {"content": None, "reasoning_content": "Let me think"},
    ...                      "finish_reason": "length"}]}
    >>> answer_text(cut, limit="max_tokens=2", fix="raise options.max_tokens")
    Traceback (most recent call last):
    ...
    mmjudge.judges._openai_payload.NoAnswerError: the reply was cut off at max_tokens=2 before an answer (finish_reason=length, content null, 12 characters of reasoning in `reasoning_content`); raise options.max_tokens
    """
    choice = _first_choice(reply)
    message = choice.get("message")
    if not isinstance(message, Mapping) or "content" not in message:
        raise SchemaError(f"malformed reply: expected choices[0].message.content, got {_short(message)}")
    content, finish = message.get("content"), choice.get("finish_reason")
    finish = finish if isinstance(finish, str) else None
    if content is not None and not isinstance(content, str):
        raise SchemaError(f"malformed reply: expected choices[0].message.content text, got {_short(content)}")
    if content is not None:
        return ReplyText(content, finish)
    thought = _reasoning_note(message)
    if finish == "length":
        raise NoAnswerError(
            f"the reply was cut off at {limit} before an answer (finish_reason=length, content null{thought}); "
            f"{fix}"
        )
    hint = (
        "if the answer is in the reasoning, the server's reasoning parser (vLLM: `--reasoning-parser`) did "
        "not find where the reasoning ends"
        if thought
        else "the model ended without writing an answer"
    )
    raise NoAnswerError(f"the reply holds no answer (finish_reason={finish}, content null{thought}); {hint}")


def _reasoning_note(message: Mapping[str, Any]) -> str:
    for key in REASONING_FIELDS:
        text = message.get(key)
        if isinstance(text, str) and text:
            return f", {len(text):,} characters of reasoning in `{key}`"
    return ""


def first_top_logprobs(reply: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``choices[0].logprobs.content[0].top_logprobs``: the first generated token's alternatives.

    >>> first_top_logprobs({"choices": [{"logprobs": {"content": [{"token": "7", "logprob": 0.0,
    ...     "top_logprobs": [{"token": "7", "logprob": 0.0}]}]}}]})
    [{'token': '7', 'logprob': 0.0}]
    """
    logprobs = _first_choice(reply).get("logprobs")
    content = logprobs.get("content") if isinstance(logprobs, Mapping) else None
    if not isinstance(content, list) or not content or not isinstance(content[0], Mapping):
        raise SchemaError(
            "malformed reply: expected choices[0].logprobs.content with one entry per token (does the "
            f"endpoint support `logprobs`?), got {_short(logprobs)}"
        )
    top = content[0].get("top_logprobs")
    if not isinstance(top, list):
        raise SchemaError(f"malformed reply: expected a top_logprobs list, got {_short(top)}")
    return top


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
