"""The MIST item draw (paper Appendix D) over AdMIRe rows, as pure functions.

The paper's code is not public; every decision below is mmjudge's reading of Appendix D as the
project's issue states it, and the dataset card repeats it.

1. **Rows.** One :class:`AdmireRow` per AdMIRe record. ``sentence_type`` ``idiomatic`` (or
   ``figurative``) is the figurative sense, ``literal`` the literal sense.
2. **Eligibility.** A row *matches* when its ``language`` is English (``en``/``english``, any case)
   and :func:`~mmjudge.benchmarks.mist._match.find_compound` finds its compound in its sentence. A compound
   is *eligible* when it has at least one matching figurative row and one matching literal row
   (compounds are compared as written, after stripping outer whitespace).
3. **Draw.** ``rng = random.Random(seed)`` (the same stream as ``random.seed(123)`` followed by
   module-level calls), then ``compounds = rng.sample(sorted(eligible), n_items)``. Compound ``i``
   of that list (0-based) goes to cell ``CELLS[i // (n_items // 4)]``: the first quarter T1, then T2,
   T3, T4 (T1 figurative sentence + literal image, T2 fig + fig, T3 literal + literal, T4 literal +
   fig; aligned = T2, T3; misleading = T1, T4).
4. **Sentence cascade.** Candidates are the compound's matching rows of the cell's sentence sense,
   one per distinct sentence text (the representative row: style ``<NONE>`` first, then the lowest
   ``id``). The first tier of ``<= 20``, ``<= 25``, ``<= 30`` words (``len(sentence.split())``),
   else all candidates, that is non-empty wins; it is sorted by (words, id) and
   ``rng.choice(tier[:3])`` picks the row. Exactly one ``choice`` call per item, in draw order
   (T1's items first), after the single ``sample`` call, even when the tier holds one row.
5. **Images.** AdMIRe's ``correct_image`` (1-based) is the image depicting the sentence's own sense,
   so the chosen row's correct image is the *aligned* image. The *misleading* image depicts the other
   sense: it is the ``correct_image`` of a partner row of the same compound and the opposite sense
   (any English row, matching or not; same ``style`` preferred, then lowest ``id``). When the
   partner's correct-image prompt also appears among the chosen row's five prompts, that copy in the
   chosen row is used (same generation, so the two images share a style); otherwise the partner's
   own image is used. The image shown in the cell is the aligned one for T2/T3 and the misleading
   one for T1/T4.
6. **Markup.** The matched span of the compound is wrapped in ``**...**``.
7. **Ids.** ``item_id`` is ``mist-001`` ... in draw order.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from mmjudge.benchmarks.mist._match import find_compound, mark_compound
from mmjudge.errors import SchemaError, summarize

__all__ = [
    "CELLS",
    "CELL_ALIGNMENT",
    "CELL_IMAGE_SENSE",
    "CELL_SENTENCE_SENSE",
    "LENGTH_TIERS",
    "AdmireRow",
    "DrawResult",
    "DrawnItem",
    "ImageRef",
    "choose_sentence",
    "draw_items",
    "eligible_compounds",
    "normalize_sense",
]

CELLS = ("T1", "T2", "T3", "T4")
"""The four cells, in the order the drawn compounds fill them."""
CELL_SENTENCE_SENSE = {"T1": "figurative", "T2": "figurative", "T3": "literal", "T4": "literal"}
"""Sense of the sentence in each cell."""
CELL_IMAGE_SENSE = {"T1": "literal", "T2": "figurative", "T3": "literal", "T4": "figurative"}
"""Sense depicted by the image shown in each cell."""
CELL_ALIGNMENT = {"T1": "misleading", "T2": "aligned", "T3": "aligned", "T4": "misleading"}
"""Whether the cell's image depicts the sentence's sense."""
LENGTH_TIERS = (20, 25, 30, None)
"""Word-count ceilings of the sentence cascade; ``None`` is the final "any length" tier."""

_SENSES = {"idiomatic": "figurative", "figurative": "figurative", "literal": "literal"}
_OTHER = {"figurative": "literal", "literal": "figurative"}
_NO_STYLE = "<NONE>"


class AdmireRow(NamedTuple):
    """The text fields of one AdMIRe record (images are fetched later, by reference)."""

    row_id: int
    """AdMIRe ``id``."""
    language: str
    """``language`` as released (``en`` for English)."""
    compound: str
    """The idiom compound."""
    sense: str
    """``figurative`` or ``literal`` (from ``sentence_type``, see :func:`normalize_sense`)."""
    sentence: str
    """The sentence using the compound."""
    style: str
    """Image style modifier (``<NONE>`` for the base generation)."""
    correct_image: int
    """1-based position of the image depicting the sentence's sense."""
    prompts: tuple[str, ...]
    """``image_1_prompt`` .. ``image_5_prompt``."""


class ImageRef(NamedTuple):
    """One image of the release, by row and position."""

    row_id: int
    """AdMIRe ``id`` of the row holding the image."""
    position: int
    """1-based image column (``image_<position>``)."""
    prompt: str
    """The image's generation prompt."""


class DrawnItem(NamedTuple):
    """One MIST item."""

    item_id: str
    """``mist-001`` ... in draw order."""
    compound: str
    """The idiom compound."""
    cell: str
    """``T1`` .. ``T4``."""
    sentence_sense: str
    """``figurative`` or ``literal``."""
    alignment: str
    """``aligned`` (T2, T3) or ``misleading`` (T1, T4)."""
    image_sense: str
    """Sense depicted by the cell's image."""
    sentence: str
    """The sentence with the compound wrapped in ``**``."""
    source_id: int
    """AdMIRe ``id`` of the sentence's row."""
    exact_match: bool
    """True when the compound appears verbatim (no variant, no fillers)."""
    aligned: ImageRef
    """Image depicting the sentence's sense."""
    misleading: ImageRef
    """Image depicting the other sense."""


class DrawResult(NamedTuple):
    """The drawn items and the counts the card reports."""

    items: list[DrawnItem]
    """The items, in draw order."""
    english_compounds: int
    """Distinct compounds with at least one English row."""
    eligible_compounds: int
    """Compounds passing the eligibility rule."""


def normalize_sense(sentence_type: str) -> str | None:
    """``figurative``/``literal`` for a ``sentence_type`` value, ``None`` when unknown.

    >>> normalize_sense(" Idiomatic"), normalize_sense("literal"), normalize_sense("metaphor")
    ('figurative', 'literal', None)
    """
    return _SENSES.get(str(sentence_type).strip().lower())


def _is_english(language: str) -> bool:
    return str(language).strip().lower() in {"en", "english"}


def eligible_compounds(rows: Iterable[AdmireRow]) -> dict[str, dict[str, list[AdmireRow]]]:
    """Compound -> sense -> matching rows, for the eligible compounds only (rule 2).

    >>> fig = AdmireRow(1, "en", "hot potato", "figurative", "A hot potato issue.", "<NONE>", 1, ("",) * 5)
    >>> lit = fig._replace(row_id=2, sense="literal", sentence="Hot potatoes burn.")
    >>> sorted(eligible_compounds([fig, lit])), eligible_compounds([fig])
    (['hot potato'], {})
    """
    found: dict[str, dict[str, list[AdmireRow]]] = defaultdict(lambda: {"figurative": [], "literal": []})
    for row in rows:
        if _is_english(row.language) and find_compound(row.compound, row.sentence) is not None:
            found[row.compound.strip()][row.sense].append(row)
    return {c: senses for c, senses in found.items() if senses["figurative"] and senses["literal"]}


def _word_count(sentence: str) -> int:
    return len(sentence.split())


def _distinct_sentences(candidates: Sequence[AdmireRow]) -> list[AdmireRow]:
    best: dict[str, AdmireRow] = {}
    for row in sorted(candidates, key=lambda r: (r.style != _NO_STYLE, r.row_id)):
        best.setdefault(row.sentence, row)
    return list(best.values())


def choose_sentence(candidates: Sequence[AdmireRow], rng: random.Random) -> AdmireRow:
    """Pick one row by the length cascade (rule 4); makes exactly one ``rng.choice`` call.

    >>> rows = [AdmireRow(i, "en", "c", "literal", "w " * n, "<NONE>", 1, ()) for i, n in
    ...         enumerate([40, 22, 26, 24, 21])]
    >>> choose_sentence(rows, random.Random(0)).row_id in {1, 3, 4}
    True
    """
    distinct = _distinct_sentences(candidates)
    for limit in LENGTH_TIERS:
        tier = [r for r in distinct if limit is None or _word_count(r.sentence) <= limit]
        if tier:
            break
    tier.sort(key=lambda r: (_word_count(r.sentence), r.row_id))
    return rng.choice(tier[:3])


def _partner(row: AdmireRow, others: Sequence[AdmireRow]) -> AdmireRow:
    return min(others, key=lambda r: (r.style != row.style, r.row_id))


def _images(row: AdmireRow, partner: AdmireRow) -> tuple[ImageRef, ImageRef]:
    aligned = ImageRef(row.row_id, row.correct_image, row.prompts[row.correct_image - 1])
    wanted = partner.prompts[partner.correct_image - 1]
    if wanted.strip() == aligned.prompt.strip():
        raise SchemaError(
            f"AdMIRe rows {row.row_id} and {partner.row_id} (compound {row.compound!r}) name the same "
            f"image prompt as correct for both senses: expected two different images, got {wanted[:80]!r}"
        )
    stripped = [p.strip() for p in row.prompts]
    if wanted.strip() in stripped:
        return aligned, ImageRef(row.row_id, stripped.index(wanted.strip()) + 1, wanted)
    return aligned, ImageRef(partner.row_id, partner.correct_image, wanted)


def _item(index: int, cell: str, row: AdmireRow, partner: AdmireRow) -> DrawnItem:
    match = find_compound(row.compound, row.sentence)
    assert match is not None  # eligibility guarantees it
    aligned, misleading = _images(row, partner)
    return DrawnItem(
        item_id=f"mist-{index + 1:03d}",
        compound=row.compound.strip(),
        cell=cell,
        sentence_sense=CELL_SENTENCE_SENSE[cell],
        alignment=CELL_ALIGNMENT[cell],
        image_sense=CELL_IMAGE_SENSE[cell],
        sentence=mark_compound(row.sentence, match),
        source_id=row.row_id,
        exact_match=match.exact,
        aligned=aligned,
        misleading=misleading,
    )


def draw_items(rows: Sequence[AdmireRow], *, n_items: int = 200, seed: int = 123) -> DrawResult:
    """Draw ``n_items`` MIST items from AdMIRe rows (rules 2-7 of the module docstring).

    Raises:
        SchemaError: ``n_items`` is not a positive multiple of 4, or fewer compounds are eligible.

    >>> rows = []
    >>> for k in range(8):
    ...     base = AdmireRow(2 * k, "en", f"red herring{k}", "figurative", f"A red herring{k} here.",
    ...                      "<NONE>", 1, ("fig", "a", "b", "lit", "c"))
    ...     rows += [base, base._replace(row_id=2 * k + 1, sense="literal", correct_image=2,
    ...                                  prompts=("x", "lit", "y", "fig", "z"))]
    >>> result = draw_items(rows, n_items=8)
    >>> [item.cell for item in result.items]
    ['T1', 'T1', 'T2', 'T2', 'T3', 'T3', 'T4', 'T4']
    >>> result.items[0].sentence.count("**")
    2
    """
    if n_items <= 0 or n_items % len(CELLS):
        raise SchemaError(f"n_items must be a positive multiple of {len(CELLS)}, got {n_items}")
    rows = list(rows)
    eligible = eligible_compounds(rows)
    english = {r.compound.strip() for r in rows if _is_english(r.language)}
    if len(eligible) < n_items:
        raise SchemaError(
            f"only {len(eligible)} of {len(english)} English compounds are eligible (a figurative and a "
            f"literal row whose sentence contains the compound), expected at least {n_items}; eligible: "
            f"{summarize(sorted(eligible))}. Pass the full AdMIRe release or a smaller n_items"
        )
    by_compound: dict[str, dict[str, list[AdmireRow]]] = defaultdict(
        lambda: {"figurative": [], "literal": []}
    )
    for row in rows:
        if _is_english(row.language):
            by_compound[row.compound.strip()][row.sense].append(row)
    rng = random.Random(seed)
    compounds = rng.sample(sorted(eligible), n_items)
    per_cell = n_items // len(CELLS)
    items = []
    for index, compound in enumerate(compounds):
        cell = CELLS[index // per_cell]
        sense = CELL_SENTENCE_SENSE[cell]
        row = choose_sentence(eligible[compound][sense], rng)
        partner = _partner(row, by_compound[compound][_OTHER[sense]])
        items.append(_item(index, cell, row, partner))
    return DrawResult(items, len(english), len(eligible))
