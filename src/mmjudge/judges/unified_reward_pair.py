"""``unified_reward_pair``: UnifiedReward-2.0 pairwise, two clips of one prompt scored against each other.

Protocol (CodeGoat24/UnifiedReward@ff6f520: ``inference_qwen/UnifiedReward-2.0-inference/
pair_score_video_generation.py``, the "PAIR" script, sent through ``vllm_qwen/vllm_request.py`` to a vLLM
OpenAI server), as this module runs it on a :class:`~mmjudge.queries.ClipPairQuery` (the benchmark decides
which clip is "Video 1"). It is UnifiedReward-2.0's second official video protocol; the IsoVRBench paper does
not say whether it scored the model pointwise (``unified_reward``) or pairwise.

1. **Frames**: per clip, the pointwise script's rule, ``[int(i * total / k) for i in range(k)]`` read
   sequentially (a repeated index is one frame; policy ``int_scaled``): 81 frames, k = 8 ->
   ``[0, 10, ..., 70]``. ``k`` is the config's ``frames`` (default 8, as the script and IsoVRBench's Table 6).
2. **Images**: each frame JPEG-compressed twice at quality 95, as the official path does (``cv2.imwrite``,
   then the client's re-encode); the checkpoint's own image processor sizes them.
3. **Prompt**: one user turn: video 1's frames, video 2's frames, then :data:`PAIR_PROMPT` with the caption in
   square brackets; no system message; the chat template with the generation prompt (Qwen3.5: thinking off).
4. **Decoding**: greedy, at most ``options.max_new_tokens`` (default 256), special tokens dropped.
5. **Readout** (the repository ships no parser; :func:`parse_pair_scores` is strict): the reply must be the
   three blocks of the prompt's output format, ``Alignment Score:`` / ``Coherence Score:`` / ``Style Score:``
   each followed by `` Video 1: X`` and `` Video 2: Y`` lines, numbers in ``[0, 1]``; anything else is a
   ``no_judgment`` answer (never a guess).
6. **Answer**: the official code stops at the scores. The judge answers ``first`` when video 1's three scores
   sum higher than video 2's, ``second`` when lower and ``same`` when equal (a tie, wrong on IsoVRBench);
   the six scores go to ``diagnostics.extra``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, NamedTuple

import numpy as np

from mmjudge._configs import config_dataclass
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.judges.unified_reward import FAMILIES, UnifiedRewardBase, UnifiedRewardOptions
from mmjudge.queries import ClipPairQuery, Diagnostics, Verdict

__all__ = [
    "DIMENSIONS",
    "PAIR_PROMPT",
    "PairScores",
    "UnifiedRewardPairJudge",
    "UnifiedRewardPairOptions",
    "parse_pair_scores",
]

PAIR_PROMPT = (
    "You are presented with two generated videos (Video 1 and Video 2) along with a shared text caption. "
    "Your task is to comparatively evaluate the two videos across three specific dimensions:\n\n"
    "- Alignment Score: How well each video matches the caption in terms of content.\n"
    "- Coherence Score: How logically consistent and visually coherent each video is (absence of visual "
    "glitches, distorted objects, etc.).\n"
    "- Style Score: How aesthetically appealing each video is, regardless of caption accuracy.\n\n"
    "For each dimension, you must assign a relative score to Video 1 and Video 2, such that:\n"
    "- Each score is a float between 0 and 1 (inclusive).\n"
    "- The scores for Video 1 and Video 2 must sum to exactly 1.0 for each dimension.\n"
    "- The higher the score, the better that video is in the corresponding dimension *relative to the other*.\n\n"
    "This format emphasizes comparative quality rather than absolute evaluation.\n\n"
    "Please provide your evaluation in the format below:\n\n"
    "Alignment Score:\n"
    " Video 1: X\n"
    " Video 2: Y\n\n"
    "Coherence Score:\n"
    " Video 1: X\n"
    " Video 2: Y\n\n"
    "Style Score:\n"
    " Video 1: X\n"
    " Video 2: Y\n\n"
    "Your task is provided as follows:\n"
    "Text Caption: [{prompt}]"
)
"""The pairwise video prompt of UnifiedReward-2.0 (PAIR script, lines 64-87); ``{prompt}`` takes the caption."""

DIMENSIONS = ("alignment", "coherence", "style")
"""The three dimensions of a pairwise reply, in the prompt's order."""

_NUMBER = r"(\d+(?:\.\d+)?)"
_BLOCK = r"{name} Score:[ \t]*\r?\n[ \t]*Video 1:[ \t]*{n}[ \t]*\r?\n[ \t]*Video 2:[ \t]*{n}"
_REPLY = re.compile(
    r"\s*".join(_BLOCK.format(name=name.capitalize(), n=_NUMBER) for name in DIMENSIONS)
)


class PairScores(NamedTuple):
    """The six scores of a pairwise reply (each in ``[0, 1]``), video 1 and video 2 per dimension."""

    alignment: tuple[float, float]
    """How well each clip matches the caption."""
    coherence: tuple[float, float]
    """Logical and visual coherence (no glitches or distorted objects)."""
    style: tuple[float, float]
    """Aesthetic appeal."""

    def totals(self) -> tuple[float, float]:
        """Video 1's and video 2's sums over the three dimensions.

        >>> PairScores((0.4, 0.6), (0.5, 0.5), (0.7, 0.3)).totals()
        (1.6, 1.4)
        """
        return (round(sum(s[0] for s in self), 10), round(sum(s[1] for s in self), 10))

    def answer(self) -> str:
        """``first``, ``second`` or ``same`` by :meth:`totals`.

        >>> PairScores((0.4, 0.6), (0.5, 0.5), (0.6, 0.4)).answer()
        'same'
        """
        one, two = self.totals()
        return "first" if one > two else "second" if two > one else "same"


def parse_pair_scores(text: str) -> PairScores | None:
    """The scores of a reply that is exactly the PAIR output format (whitespace aside), else ``None``.

    >>> reply = ("Alignment Score:\\n Video 1: 0.4736\\n Video 2: 0.5264\\n\\nCoherence Score:\\n Video 1: 0.5981\\n"
    ...          " Video 2: 0.4019\\n\\nStyle Score:\\n Video 1: 0.3484\\n Video 2: 0.6516\\n")
    >>> parse_pair_scores(reply).alignment, parse_pair_scores(reply).answer()
    ((0.4736, 0.5264), 'second')
    >>> parse_pair_scores("Alignment Score:\\n Video 1: 0.4\\n Video 2: 0.6") is None
    True
    """
    found = _REPLY.fullmatch(text.strip())
    if found is None:
        return None
    values = [float(v) for v in found.groups()]
    if not all(0.0 <= v <= 1.0 for v in values):
        return None
    return PairScores(*((values[i], values[i + 1]) for i in range(0, 6, 2)))


@config_dataclass
class UnifiedRewardPairOptions(UnifiedRewardOptions):
    """``options`` of a ``unified_reward_pair`` config (those of ``unified_reward``)."""

    judge_name: ClassVar[str] = "unified_reward_pair"


@register_judge("unified_reward_pair")
class UnifiedRewardPairJudge(UnifiedRewardBase):
    """UnifiedReward-2.0 pairwise judge for two clips of one prompt (see the module docstring)."""

    answers: ClassVar[frozenset[type]] = frozenset({ClipPairQuery})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = UnifiedRewardPairOptions
    default_frames: ClassVar[int | None] = 8
    frame_policy = "int_scaled"
    default_prompt = PAIR_PROMPT
    released = FAMILIES
    title = "UnifiedReward-2.0"
    jpeg_passes = 2

    def clips(self, x: JudgeInput) -> list[np.ndarray]:
        """Video 1's frames, then video 2's."""
        assert x.frames is not None and x.other is not None and x.other.frames is not None
        return [x.frames, x.other.frames]

    def verdict(self, x: JudgeInput, text: str, encoded: dict[str, Any]) -> Verdict:
        """The verdict of one reply: ``first``/``second``/``same``, or ``no_judgment`` when it is not the format."""
        scores = parse_pair_scores(text)
        other = x.other if x.other is not None else JudgeInput(x.query)
        extra: dict[str, Any] = {
            "scores": None if scores is None else {k: list(v) for k, v in scores._asdict().items()},
            "totals": None if scores is None else list(scores.totals()),
            "frame_indices": [list(x.frame_indices), list(other.frame_indices)],
            "tokens": int(encoded["input_ids"].shape[-1]),
        }
        diagnostics = Diagnostics(raw_text=text, extra=extra)
        if scores is None:
            error = f"no 'Alignment/Coherence/Style Score: Video 1: X, Video 2: Y' blocks in the reply {text[:200]!r}"
            return Verdict(x.query.item_id, None, no_judgment=True, error=error, diagnostics=diagnostics)
        return Verdict(x.query.item_id, scores.answer(), diagnostics=diagnostics)
