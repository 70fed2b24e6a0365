"""The MIST judge prompt grid: 4 prompt strategies x {no image, aligned, misleading} x arms.

**The wording is mmjudge's reconstruction, not the paper's verbatim text.** The MIST paper gives its
prompts in full in its Appendix I, which this project does not have. What is known (REFERENCE.md):
four prompts (zero-shot, few-shot, chain-of-thought, few-shot + chain-of-thought), each with no
image, the aligned image or the misleading image, in two arms (*explicit*: the prompt tells the
judge to ignore the image; *silent*: the image is not mentioned), greedy decoding constrained to the
four labels, and the output ``{"final_label": "FF"|...}``. Results from these prompts are not the
paper's numbers.

A prompt is built from paragraphs joined by a blank line:

1. the base block: the task and the four labels with their definitions;
2. the image clause :data:`IMAGE_CLAUSE`, **only** when an image is attached and the arm is
   ``explicit`` (the silent prompt is the explicit prompt with this paragraph deleted, which is the
   paper's control; the text-only prompt has no image and no clause);
3. few-shot strategies: four demonstrations, one per label, drawn deterministically per item
   (:func:`draw_demonstrations`); CoT strategies show a short reasoning in each demonstration;
4. the sentence to label;
5. the output block: answer with the JSON object directly (zero-/few-shot) or reason first, then end
   with the JSON object (CoT).

Label semantics (our reading; the paper's definitions are not available): the labels are ordinal
codes from most figurative to most literal (FF=0, WF=1, FL=2, LL=3, as
:data:`mmjudge.benchmarks.mist.LABELS`). FF = fully figurative, WF = weakly figurative (figurative,
with the literal sense also evoked), FL = figurative-leaning literal (literal, with a figurative
reading also evoked), LL = fully literal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mmjudge.errors import SchemaError
from mmjudge.queries import item_key

if TYPE_CHECKING:
    from mmjudge.benchmarks.mist.queries import MistCell

__all__ = [
    "ANSWER_PREFIX",
    "DEMONSTRATIONS",
    "IMAGE_CLAUSE",
    "LABEL_DEFINITIONS",
    "MIST_LABELS",
    "Demonstration",
    "MistPrompt",
    "draw_demonstrations",
    "mist_prompt",
    "parse_final_label",
]

MIST_LABELS: tuple[str, ...] = ("FF", "WF", "FL", "LL")
"""The four labels in ordinal order (FF=0 ... LL=3)."""
LABEL_DEFINITIONS: dict[str, str] = {
    "FF": "fully figurative: only the idiomatic, figurative meaning is intended; the literal meaning plays no role",
    "WF": "weakly figurative: the figurative meaning is intended, but the literal meaning is also evoked",
    "FL": "figurative-leaning literal: the literal meaning is intended, but a figurative reading is also evoked",
    "LL": "fully literal: only the literal meaning of the words is intended; there is no idiomatic reading",
}
"""mmjudge's definitions of the labels (a reconstruction; see the module docstring)."""
IMAGE_CLAUSE = (
    "An image is attached to this message. Ignore the image: it may or may not depict the sentence, "
    "and it must not influence your label. Judge the sentence's text alone."
)
"""The ignore-the-image paragraph of the explicit arm."""
ANSWER_PREFIX = '{"final_label": "'
"""Text the constrained answer follows (the label, then ``"}``)."""
STRATEGIES: tuple[str, ...] = ("zero_shot", "few_shot", "cot", "few_shot_cot")
_JSON_FORMAT = '{"final_label": "<label>"}, where <label> is one of FF, WF, FL, LL'


@dataclass(frozen=True)
class Demonstration:
    """A worked example for the few-shot prompts (built in; none uses an AdMIRe noun compound)."""

    compound: str
    """The idiom (verb-phrase idioms, so they do not overlap AdMIRe's noun compounds)."""
    sentence: str
    """Sentence with the idiom marked ``**...**``."""
    label: str
    """Its label."""
    reasoning: str
    """One or two sentences of reasoning (shown in the CoT demonstrations)."""


DEMONSTRATIONS: tuple[Demonstration, ...] = (
    Demonstration(
        "spill the beans",
        "After weeks of secrecy, Maya finally **spilled the beans** about the surprise party.",
        "FF",
        "Nothing is poured out; she revealed a secret. Only the idiomatic meaning is intended.",
    ),
    Demonstration(
        "break the ice",
        "He told a silly joke to **break the ice** at the start of the tense meeting.",
        "FF",
        "There is no ice; the joke eased social tension. Only the figurative meaning applies.",
    ),
    Demonstration(
        "in hot water",
        "After his shortcut flooded the bathroom, the plumber found himself **in hot water** with the landlord.",
        "WF",
        "He is in trouble (figurative), and the flooding water makes the literal sense resonate.",
    ),
    Demonstration(
        "rock the boat",
        "On the sailing team's first regatta, the new member did not want to **rock the boat** by questioning the captain.",
        "WF",
        "The intended meaning is not causing trouble, but the sailing setting evokes a literal boat.",
    ),
    Demonstration(
        "jump ship",
        "As the old freighter began to sink, the rats were the first to **jump ship**.",
        "FL",
        "The rats physically leave the ship (literal), while the idea of deserting a failing venture is evoked.",
    ),
    Demonstration(
        "pull someone's leg",
        "The physiotherapist gently **pulled his leg** to stretch the muscle, and he laughed that she was not teasing him for once.",
        "FL",
        "She literally pulls his leg; the teasing sense is mentioned as a pun on the literal act.",
    ),
    Demonstration(
        "spill the beans",
        "The bag tore open and he **spilled the beans** all over the kitchen floor.",
        "LL",
        "Actual beans fall on the floor; no secret is involved. Only the literal meaning applies.",
    ),
    Demonstration(
        "break the ice",
        "The fishermen used an axe to **break the ice** on the frozen lake before casting their lines.",
        "LL",
        "Real ice on a lake is broken with an axe. Only the literal meaning applies.",
    ),
)
"""The demonstration pool: two per label."""


@dataclass(frozen=True)
class MistPrompt:
    """One rendered prompt of the grid."""

    text: str
    """The user message text (the image, if any, is attached beside it)."""
    image_clause: bool
    """Whether :data:`IMAGE_CLAUSE` is in the text."""
    reasoning: bool
    """CoT strategies: the judge reasons before the answer."""
    demonstrations: tuple[Demonstration, ...]
    """The few-shot demonstrations shown (empty for zero-shot and CoT)."""


def draw_demonstrations(mist_item: str, compound: str, *, seed: int = 0) -> tuple[Demonstration, ...]:
    """One demonstration per label, in a shuffled order, drawn from ``numpy.random.default_rng([seed, key])``.

    ``key`` is :func:`mmjudge.queries.item_key` of the MIST item id, so every cell of an
    item (all conditions and arms) shows the same demonstrations. A demonstration whose idiom equals
    the item's compound is never drawn.

    >>> demos = draw_demonstrations("i1", "hot potato")
    >>> sorted(d.label for d in demos), demos == draw_demonstrations("i1", "hot potato")
    (['FF', 'FL', 'LL', 'WF'], True)
    """
    rng = np.random.default_rng([seed, item_key(mist_item)])
    target = compound.strip().lower()
    chosen = []
    for label in MIST_LABELS:
        pool = [d for d in DEMONSTRATIONS if d.label == label and d.compound.lower() != target]
        chosen.append(pool[int(rng.integers(len(pool)))])
    order = rng.permutation(len(chosen))
    return tuple(chosen[i] for i in order)


def _base_block(compound: str) -> str:
    definitions = "\n".join(f"- {label} ({LABEL_DEFINITIONS[label]})" for label in MIST_LABELS)
    return (
        "You are an expert annotator of idiomatic language. In the sentence below, the phrase marked "
        f'with ** ** is the potentially idiomatic expression "{compound}". Decide how the marked phrase '
        "is used in this sentence and give exactly one of four labels, ordered from most figurative "
        f"to most literal:\n{definitions}"
    )


def _demo_block(demos: tuple[Demonstration, ...], reasoning: bool) -> str:
    parts = []
    for demo in demos:
        lines = [f"Sentence: {demo.sentence}"]
        if reasoning:
            lines.append(f"Reasoning: {demo.reasoning}")
        lines.append(f'Answer: {{"final_label": "{demo.label}"}}')
        parts.append("\n".join(lines))
    return "Examples:\n\n" + "\n\n".join(parts)


def _output_block(reasoning: bool) -> str:
    if reasoning:
        return (
            "First think step by step, in a few sentences, about the literal and the figurative meaning "
            "of the marked phrase in this sentence. Then, on the last line, give your answer as a JSON "
            f"object {_JSON_FORMAT}."
        )
    return f"Answer with a JSON object only: {_JSON_FORMAT}."


def mist_prompt(item: MistCell, *, seed: int = 0) -> MistPrompt:
    """The prompt of one grid cell (strategy, arm and image condition come from ``item``).

    >>> from pathlib import Path
    >>> from mmjudge.benchmarks.mist.queries import MistCell
    >>> item = MistCell("i1::zero_shot::explicit::aligned", "i1", "It was a **hot potato**.", "hot potato",
    ...                  Path("img.png"), "zero_shot", "explicit", "aligned")
    >>> p = mist_prompt(item)
    >>> p.image_clause, IMAGE_CLAUSE in p.text, p.text.endswith('one of FF, WF, FL, LL.')
    (True, True, True)
    """
    if item.prompt_strategy not in STRATEGIES:
        raise SchemaError(
            f"MIST cell {item.item_id!r}: prompt_strategy must be one of {list(STRATEGIES)}, "
            f"got {item.prompt_strategy!r}"
        )
    reasoning = item.prompt_strategy in ("cot", "few_shot_cot")
    clause = item.image is not None and item.arm == "explicit"
    demos = (
        draw_demonstrations(item.mist_item, item.compound, seed=seed)
        if "few_shot" in item.prompt_strategy
        else ()
    )
    paragraphs = [_base_block(item.compound)]
    if clause:
        paragraphs.append(IMAGE_CLAUSE)
    if demos:
        paragraphs.append(_demo_block(demos, reasoning))
    paragraphs += [f"Sentence: {item.sentence}", _output_block(reasoning)]
    return MistPrompt("\n\n".join(paragraphs), clause, reasoning, demos)


_FINAL = re.compile(r"""final[_\s-]?label["'\s]*[:=]\s*["'\s]*\b(FF|WF|FL|LL)\b""", re.IGNORECASE)
_BARE = re.compile(r"\b(FF|WF|FL|LL)\b")


def parse_final_label(text: str) -> str | None:
    """The label of the last ``{"final_label": ...}`` in free text (quotes, case, spacing tolerated).

    Falls back to a response that is only a label (``"FF"``, ``" ll."``); anything else is ``None``.

    >>> parse_final_label('Reasoning... {"final_label": "WF"}'), parse_final_label("final_label: 'll'")
    ('WF', 'LL')
    >>> parse_final_label("ll."), parse_final_label("FF or LL? I cannot tell")
    ('LL', None)
    """
    found = _FINAL.findall(text)
    if found:
        return str(found[-1]).upper()
    stripped = text.strip().strip(".\"'{}` ")
    bare = _BARE.fullmatch(stripped.upper())
    return bare.group(1) if bare else None
