"""Finding an idiom compound in a sentence, and marking it up as ``**...**`` (MIST, Appendix D).

The MIST paper keeps a sentence only when "the compound is present as an exact substring or a simple
morphological variant with up to three filler tokens". Its code is not public; this is the rule as
mmjudge implements it:

1. **Tokens.** Sentence and compound are split into word tokens with :data:`TOKEN_PATTERN`: runs of
   letters or digits, with inner apostrophes kept (``don't``, ``dog's``) and one trailing apostrophe
   kept (``dogs'``). Hyphens, punctuation and whitespace separate tokens, so ``bread-and-butter``
   matches the compound ``bread and butter``. Comparison is case-insensitive; the typographic
   apostrophe ``’`` counts as ``'``.
2. **Word forms.** A sentence token matches compound word ``w`` when it is one of :func:`word_forms`
   of ``w``: ``w`` itself; ``w`` + ``s``/``es``/``ed``/``ing``; after a final ``e`` also ``w`` + ``d``
   and ``w`` minus the ``e`` + ``ing`` (``bake`` → ``baked``, ``baking``); consonant doubling +
   ``ed``/``ing`` after a consonant–vowel–consonant ending (``cut`` → ``cutting``); a final
   consonant + ``y`` turned into ``ies``/``ied`` (``carry`` → ``carries``); and each of these with a
   possessive ``'s`` (or a bare ``'`` after a final ``s``). Irregular forms (``break`` → ``broke``)
   do not match. Over-generated non-words (``cated``) are harmless: they never occur in a sentence.
3. **Fillers.** The compound's words must appear in order; at most :data:`MAX_FILLERS` (three) other
   tokens *in total* may sit between them (``spill the beans`` matches ``spilled all the beans``).
   No token may come before the first word inside the match.
4. **Which match.** The leftmost first word that starts a match wins; from it, each next word is the
   nearest acceptable token (fewest fillers first, with backtracking when that choice dead-ends).
   An "exact substring" is the special case with identical tokens and no fillers; it is found by the
   same search, so a substring that is not on word boundaries (``hot dog`` inside ``shot dog``) is
   *not* a match.

The marked-up sentence wraps the characters from the first matched token's start to the last matched
token's end (fillers included) in ``**``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

__all__ = ["MAX_FILLERS", "TOKEN_PATTERN", "CompoundMatch", "find_compound", "mark_compound", "word_forms"]

TOKEN_PATTERN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*['’]?")
"""Word tokens: letters/digits with inner apostrophes and an optional trailing apostrophe."""

MAX_FILLERS = 3
"""Most tokens allowed between the compound's words, summed over all gaps."""

_VOWELS = frozenset("aeiou")


class CompoundMatch(NamedTuple):
    """Where a compound was found in a sentence."""

    start: int
    """Character offset of the first matched token."""
    end: int
    """Character offset just past the last matched token."""
    fillers: int
    """Number of tokens between the compound's words (0 for a contiguous match)."""
    exact: bool
    """True when the matched tokens equal the compound's words, with no fillers (case-insensitive)."""


class _Token(NamedTuple):
    text: str
    start: int
    end: int


def _tokens(text: str) -> list[_Token]:
    return [
        _Token(m.group().lower().replace("’", "'"), m.start(), m.end()) for m in TOKEN_PATTERN.finditer(text)
    ]


@lru_cache(maxsize=4096)
def word_forms(word: str) -> frozenset[str]:
    """The accepted spellings of one compound word (lower case), per rule 2 of the module docstring.

    >>> sorted(f for f in word_forms("cat") if "'" not in f)
    ['cat', 'cated', 'cates', 'cating', 'cats', 'catted', 'catting']
    >>> {"cutting", "making", "baked", "dogs'", "dog's"} <= word_forms("cut") | word_forms("make") | word_forms("bake") | word_forms("dog")
    True
    >>> "carries" in word_forms("carry"), "broke" in word_forms("break")
    (True, False)
    """
    w = word.lower().replace("’", "'")
    forms = {w, w + "s", w + "es", w + "ed", w + "ing"}
    if w.endswith("e") and len(w) > 2:
        forms.update({w + "d", w[:-1] + "ing"})
    if len(w) >= 2 and w[-1] == "y" and w[-2] not in _VOWELS:
        forms.update({w[:-1] + "ies", w[:-1] + "ied"})
    if len(w) >= 3 and w[-1] not in _VOWELS | {"w", "x", "y"} and w[-2] in _VOWELS and w[-3] not in _VOWELS:
        forms.update({w + w[-1] + "ed", w + w[-1] + "ing"})
    possessives = {f + "'s" for f in forms} | {f + "'" for f in forms if f.endswith("s")}
    return frozenset(forms | possessives)


def _continue(
    tokens: Sequence[_Token], words: Sequence[str], k: int, pos: int, budget: int
) -> tuple[int, int] | None:
    """Index of the token matching the last word and the fillers used, or None."""
    if k == len(words):
        return pos - 1, MAX_FILLERS - budget
    forms = word_forms(words[k])
    for j in range(pos, min(pos + budget + 1, len(tokens))):
        if tokens[j].text in forms:
            found = _continue(tokens, words, k + 1, j + 1, budget - (j - pos))
            if found is not None:
                return found
    return None


def find_compound(compound: str, sentence: str) -> CompoundMatch | None:
    """Locate ``compound`` in ``sentence`` per the module docstring's rule, or return None.

    >>> find_compound("spill the beans", "He spilled all the beans at dinner.")
    CompoundMatch(start=3, end=24, fillers=1, exact=False)
    >>> find_compound("hot potato", "It was a Hot Potato.").exact
    True
    >>> find_compound("hot dog", "A shot dog.") is None
    True
    """
    words = [t.text for t in _tokens(compound)]
    tokens = _tokens(sentence)
    if not words:
        return None
    first = word_forms(words[0])
    for i, token in enumerate(tokens):
        if token.text not in first:
            continue
        found = _continue(tokens, words, 1, i + 1, MAX_FILLERS)
        if found is None:
            continue
        last, fillers = found
        exact = fillers == 0 and [t.text for t in tokens[i : last + 1]] == words
        return CompoundMatch(token.start, tokens[last].end, fillers, exact)
    return None


def mark_compound(sentence: str, match: CompoundMatch) -> str:
    """Wrap the matched span in ``**``.

    >>> s = "She spilled the beans."
    >>> mark_compound(s, find_compound("spill the beans", s))
    'She **spilled the beans**.'
    """
    return f"{sentence[: match.start]}**{sentence[match.start : match.end]}**{sentence[match.end :]}"
