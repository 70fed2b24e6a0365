"""``unified_reward_flex``: UnifiedReward-Flex (a generative Qwen-VL reward model) ranking two clips of one prompt.

Protocol (CodeGoat24/UnifiedReward@ff6f520: ``UnifiedReward-Flex/flex_pair_rank_video_generation.py``, the
"FLEX" script, sent through ``vllm_qwen/vllm_request.py`` to a vLLM OpenAI server), as this module runs it on a
:class:`~mmjudge.queries.ClipPairQuery` (the benchmark decides which clip is "Video 1"):

1. **Frames**: per clip, ``np.linspace(0, total - 1, k).astype(int)`` with ``total`` the container's frame
   count, each index read on its own (a repeated index gives its frame twice; sampling policy
   ``linspace_floor``, :func:`mmjudge.media.video.linspace_floor_indices`:
   81 frames, k = 8 -> ``[0, 11, 22, 34, 45, 57, 68, 80]``). ``k`` is the config's ``frames`` (default 8, as
   the script and IsoVRBench's Table 6).
2. **Images**: each frame is one image, JPEG-encoded once at quality 95 as the script's ``_encode_image``
   does (the client passes the base64 string on without re-encoding), then sized by the checkpoint's own
   image processor (as the server's), so mmjudge resizes nothing. ``options.jpeg_quality: null``: no JPEG.
3. **Prompt**: one user turn: the ``k`` images of video 1, the ``k`` of video 2, then :data:`FLEX_PROMPT` with
   the caption in ``**Prompt:** [...]``; no system message; the checkpoint's chat template with the
   generation prompt (Qwen3.5: ``enable_thinking=False``, as the Flex vLLM server sets).
4. **Decoding**: greedy, at most ``options.max_new_tokens`` (default 4096, the client's ``max_tokens``: the
   JSON analysis runs to about 1,500 tokens), special tokens dropped from the reply.
5. **Readout** (:func:`read_reply`; the repository ships no parser): the reply's JSON object (the one fenced
   in ```` ```json ```` if there is exactly one fence, else the text from the first ``{`` to the last ``}``);
   its top-level ``"winner"`` exactly ``"Video 1"`` -> ``first``, ``"Video 2"`` -> ``second``. No JSON, no
   winner or any other value is a ``no_judgment`` answer (never a guess, never a tie: the prompt offers none),
   the reply kept in ``diagnostics.raw_text``; the per-dimension scores go to ``diagnostics.extra``.

The card, ``judges/unified_reward_flex/README.md``, lists every deviation from the official vLLM path.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar, NamedTuple

import numpy as np

from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.judges.unified_reward import UnifiedRewardBase, UnifiedRewardFlexOptions
from mmjudge.queries import ClipPairQuery, Diagnostics, Verdict

__all__ = [
    "FAMILIES",
    "FLEX_FRAMES",
    "FLEX_PROMPT",
    "WINNERS",
    "FlexReading",
    "UnifiedRewardFlexJudge",
    "UnifiedRewardFlexOptions",
    "read_reply",
]

FLEX_PROMPT = """## Identity
You are a top-tier AI Video Evaluation Expert. Perform a hierarchical, multi-dimensional comparative analysis of Video 1 and Video 2 based on the provided Prompt.

## Evaluation Framework

### 1. Mandatory Categories
For each, independently define **3-5 specific sub-dimensions** based on the videos' actual content:
- **A. Semantic Alignment & Accuracy**: Accuracy of subjects, attributes, spatial relationships, and environment as defined by the prompt.
- **B. Video Quality & Dynamic Realism**: Technical fidelity, temporal stability (no flickering/warping), subject identity persistence, and physical plausibility of motion.
- **C. Narrative, Aesthetics & Cinematography**: Composition, color harmony, camera movement quality (smoothness/intent), and narrative flow.
*Note: If the prompt involves unique traits, you are encouraged to add a personalized Category D.*

### 2. Core Rules
- **Dynamic Selection**: Do NOT simply copy a fixed list. Choose sub-dimensions that most effectively differentiate the two videos.
- **Sum-of-10 Scoring**: For every sub-dimension, the total score (Video 1 + Video 2) MUST strictly equal 10 points (e.g., 6+4, 5+5).
- **Evidence-Based Reasoning**: Provide professional, critical analysis pointing to specific visual/temporal evidence.

## Input Data
**Prompt:** [{prompt}]

**Content to be Evaluated:**
[Video 1] \n[Video 2] \n
## Output Format
Return a single, valid JSON object in English.

```json
{
  "prompt": "[Original Prompt]",
  "categories": [
    {
      "name": "[Category Name]",
      "dims": [
        {
          "name": "[Custom Sub-dimension]",
          "reason_1": "[Specific evidence]",
          "reason_2": "[Specific evidence]",
          "score_1": 0-10,
          "score_2": 0-10
        }
      ],
      "cat_reason": "[Category-level analysis]",
      "cat_winner": "Video 1/2"
    }
  ],
  "reason": "[Overall analysis]",
  "winner": "Video 1/2"
}
"""
"""The Flex video prompt (FLEX lines 51-100, the f-string's doubled braces written single; ``[Video 1] `` and
``[Video 2] `` end in a space, the text in a newline after the unclosed fence). ``{prompt}`` takes the caption
(substituted with ``str.replace``: the other braces are literal)."""

FLEX_FRAMES = 8
"""Frames per clip the FLEX script samples (``extract_frames(..., num_frames=8)``)."""

FAMILIES = ("qwen3_vl", "qwen3_5")
"""Model families UnifiedReward-Flex is released in (``...-Flex-qwen3vl-8b``, ``...-Flex-qwen35-9b``)."""

WINNERS = {"Video 1": "first", "Video 2": "second"}
"""The JSON's ``winner`` values read as an answer, and the answer each gives."""

_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\r?\n(.*?)```", re.DOTALL | re.IGNORECASE)


class FlexReading(NamedTuple):
    """What :func:`read_reply` reads in a reply."""

    answer: str | None
    """``first`` (the JSON's winner is ``"Video 1"``), ``second`` (``"Video 2"``), or ``None``."""
    winner: Any
    """The top-level ``winner`` value as written (``None``: no JSON object, or no ``winner`` in it)."""
    categories: list[dict[str, Any]]
    """Per category: ``name``, ``cat_winner`` and ``dims`` (each ``name``, ``score_1``, ``score_2``)."""
    totals: tuple[float, float] | None
    """Sums of ``score_1`` and ``score_2`` over every sub-dimension (``None``: none, or one not a number)."""
    problem: str | None
    """Why there is no answer (``None`` when there is one)."""


def _json_object(text: str) -> dict[str, Any] | None:
    fenced = _FENCE.findall(text)
    if len(fenced) == 1:
        candidate = fenced[0]
    else:
        start, end = text.find("{"), text.rfind("}")
        if not 0 <= start < end:
            return None
        candidate = text[start : end + 1]
    try:  # strict=False: a raw newline inside a reason string is still the model's JSON
        value = json.loads(candidate, strict=False)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _categories(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    kept = []
    for category in (c for c in value if isinstance(c, dict)):
        dims = [{"name": d.get("name"), "score_1": d.get("score_1"), "score_2": d.get("score_2")}
                for d in category.get("dims") or [] if isinstance(d, dict)]  # fmt: skip
        kept.append({"name": category.get("name"), "cat_winner": category.get("cat_winner"), "dims": dims})
    return kept


def read_reply(text: str) -> FlexReading:
    """The answer of a Flex reply: its JSON's top-level ``winner`` mapped by :data:`WINNERS`, else ``None``.

    >>> read_reply('```json\\n{"categories": [], "reason": "sharper", "winner": "Video 2"}\\n```').answer
    'second'
    >>> read_reply('{"winner": "Video 1/2"}').problem
    "the JSON's winner is 'Video 1/2', not 'Video 1' or 'Video 2'"
    """
    found = _json_object(text)
    if found is None:
        return FlexReading(None, None, [], None, "no JSON object in the reply")
    categories = _categories(found.get("categories"))
    scores = [(d["score_1"], d["score_2"]) for c in categories for d in c["dims"]]
    totals = None
    if scores and all(_number(a) and _number(b) for a, b in scores):
        totals = (float(sum(a for a, _ in scores)), float(sum(b for _, b in scores)))
    winner = found.get("winner")
    answer = WINNERS.get(winner) if isinstance(winner, str) else None
    problem = None
    if "winner" not in found:
        problem = "no winner in the reply's JSON"
    elif answer is None:
        problem = f"the JSON's winner is {winner!r}, not 'Video 1' or 'Video 2'"
    return FlexReading(answer, winner, categories, totals, problem)


@register_judge("unified_reward_flex")
class UnifiedRewardFlexJudge(UnifiedRewardBase):
    """UnifiedReward-Flex pairwise judge for two clips of one prompt (see the module docstring)."""

    answers: ClassVar[frozenset[type]] = frozenset({ClipPairQuery})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = UnifiedRewardFlexOptions
    default_frames: ClassVar[int | None] = FLEX_FRAMES
    frame_policy = "linspace_floor"
    default_prompt = FLEX_PROMPT
    released = FAMILIES
    title = "UnifiedReward-Flex"
    jpeg_passes = 1

    def clips(self, x: JudgeInput) -> list[np.ndarray]:
        """Video 1's frames, then video 2's."""
        assert x.frames is not None and x.other is not None and x.other.frames is not None
        return [x.frames, x.other.frames]

    def verdict(self, x: JudgeInput, text: str, encoded: dict[str, Any]) -> Verdict:
        """The verdict of one reply: ``first``/``second``, or ``no_judgment`` when it names no winner."""
        reading = read_reply(text)
        other = x.other if x.other is not None else JudgeInput(x.query)
        extra: dict[str, Any] = {
            "winner": reading.winner,
            "totals": None if reading.totals is None else list(reading.totals),
            "categories": reading.categories,
            "frame_indices": [list(x.frame_indices), list(other.frame_indices)],
            "tokens": int(encoded["input_ids"].shape[-1]),
        }
        diagnostics = Diagnostics(raw_text=text, extra=extra)
        if reading.answer is None:
            error = f"{reading.problem}: {text[:200]!r}"
            return Verdict(x.query.item_id, None, no_judgment=True, error=error, diagnostics=diagnostics)
        return Verdict(x.query.item_id, reading.answer, diagnostics=diagnostics)
