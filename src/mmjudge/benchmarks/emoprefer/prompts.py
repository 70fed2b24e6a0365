"""EmoPrefer judge prompts for strategies S1-S4 (part of the benchmark's protocol).

**mmjudge's wording, not the papers' verbatim prompts** (REFERENCE.md names the strategies, not their
text). S1: the clip and both descriptions, answer a1, a2 or same. S2/S3: describe the clip's emotions
first (:data:`DESCRIBE`), then compare the description with a1 and a2 in text (:func:`compare`).
S4: the comparison with a reasoning step (:func:`compare` with ``reason=True``), then answer
extraction (:func:`extract`). Every answer request names the three answers the official parser reads.

>>> "a1: happy" in choose("happy", "sad") and "a2: sad" in choose("happy", "sad")
True
"""

from __future__ import annotations

__all__ = ["ANSWER_INSTRUCTION", "DESCRIBE", "choose", "compare", "extract"]

ANSWER_INSTRUCTION = (
    "Answer with exactly one of: a1 (the first description is better), a2 (the second is better), "
    "same (they are equally good)."
)
"""The answer request shared by every strategy."""
DESCRIBE = (
    "Describe the emotional state of the person in this video: the emotions they show, and the facial, "
    "bodily and situational cues that reveal them. Be specific and concise."
)
"""S2-S4 step one: the description request."""


def _pair(a1: str, a2: str) -> str:
    return f"a1: {a1}\n\na2: {a2}"


def choose(a1: str, a2: str) -> str:
    """S1 (and ``label_choice``): the clip is attached; which description matches it better?"""
    return (
        "Two descriptions of the emotional state of the person in the video follow.\n\n"
        f"{_pair(a1, a2)}\n\nWhich description matches the person's emotions in the video better? "
        f"{ANSWER_INSTRUCTION}"
    )


def compare(description: str, a1: str, a2: str, *, reason: bool = False) -> str:
    """S2-S4 step two: compare a reference description of the clip with a1 and a2, in text only."""
    ask = (
        "Think step by step: compare each candidate with the reference (emotions, cues, consistency), "
        "then say which candidate is better."
        if reason
        else ANSWER_INSTRUCTION
    )
    return (
        "A reference description of the emotional state of a person in a video:\n\n"
        f"{description}\n\nTwo candidate descriptions of the same video:\n\n{_pair(a1, a2)}\n\n"
        f"Which candidate agrees better with the reference? {ask}"
    )


def extract(analysis: str) -> str:
    """S4 step three: read the answer out of the reasoning."""
    return f"An analysis comparing two descriptions, a1 and a2:\n\n{analysis}\n\nWhat is its conclusion? {ANSWER_INSTRUCTION}"
