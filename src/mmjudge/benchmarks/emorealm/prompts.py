"""EmoReAlM question prompts (part of the benchmark's protocol).

The official zero-shot audio-visual prompt is the question followed by the lettered choices, joined by
single spaces (``"<question> (A) ... (B) ..."``); no subtitles or transcript are added (REFERENCE.md:
"No subtitles in the prompt"). Judges that constrain the answer to the letters ask with
:func:`answer_question`, which appends mmjudge's answer request.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["answer_question", "question_prompt"]


def question_prompt(question: str, choices: Sequence[str]) -> str:
    """The official prompt: the question, then the choices, joined by spaces.

    >>> question_prompt("Is the person happy?", ("(A) Yes", "(B) No"))
    'Is the person happy? (A) Yes (B) No'
    """
    return " ".join([question, *choices])


def answer_question(question: str, choices: Sequence[str]) -> str:
    """The official prompt plus mmjudge's answer request.

    >>> answer_question("Does the voice match the face?", ["(A) Yes", "(B) No"])
    'Does the voice match the face? (A) Yes (B) No\\nAnswer with the letter of the correct choice.'
    """
    return f"{question} {' '.join(choices)}\nAnswer with the letter of the correct choice."
