"""Choosing among label strings: trie-constrained greedy decoding and sequence log-likelihood.

Both rules read the same thing: the model's next-token log-probabilities at the *nodes* of a prefix
trie over the labels' token sequences (a node is the prompt followed by a proper prefix of some
label's tokens). They differ in how they pick:

* ``greedy_trie`` walks from the root, at each node taking the highest-scoring token among the
  allowed next tokens (all other logits masked), and stops at the first complete label. It needs
  the nodes on its path only (one model call per depth).
* ``loglik`` sums the token log-probs of every label's full continuation and takes the maximum. It
  needs every internal node (all in one model call).

They can disagree: greedy commits to the best first token, loglik weighs whole sequences (a1/a2 share
the token ``a``; greedy may enter ``a`` with 0.6 and end on a1 with 0.3, while ``same`` had 0.4).
Labels must be prefix-free under the tokenizer (no label's tokens a proper prefix of another's), so
"stop at a complete label" is unambiguous; ties go to the lower token id / the earlier label.

The pure functions here take a callable returning log-probs for ``(item index, prefix)`` rows, so they
are tested on hand-built logits; :mod:`mmjudge.judges.label_choice` supplies the model-backed one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from mmjudge.errors import SchemaError

__all__ = ["METHODS", "Choice", "LabelTrie", "choose", "decode_greedy", "decode_loglik", "log_softmax"]

Prefix = tuple[int, ...]
Row = tuple[int, Prefix]
LogProbsFn = Callable[[Sequence[Row]], np.ndarray]
"""``rows -> (len(rows), vocab)`` next-token log-probs after item ``i``'s prompt followed by ``prefix``."""
METHODS: tuple[str, ...] = ("greedy_trie", "loglik")


class LabelTrie:
    """Prefix trie over the token sequences of a set of labels.

    >>> trie = LabelTrie({"a1": (5, 1), "a2": (5, 2), "same": (9,)})
    >>> trie.allowed(()), trie.allowed((5,)), trie.label_at((5, 2)), trie.internal_nodes()
    ((5, 9), (1, 2), 'a2', [(), (5,)])
    """

    def __init__(self, sequences: Mapping[str, Sequence[int]]) -> None:
        if not sequences:
            raise SchemaError("a label trie needs at least one label, got none")
        self.sequences: dict[str, Prefix] = {
            label: tuple(int(t) for t in seq) for label, seq in sequences.items()
        }
        self._labels: dict[Prefix, str] = {}
        self._children: dict[Prefix, set[int]] = {}
        for label, seq in self.sequences.items():
            self._add(label, seq)

    def _add(self, label: str, seq: Prefix) -> None:
        if not seq:
            raise SchemaError(f"label {label!r} tokenises to no tokens; every label needs at least one token")
        same = [other for other, s in self.sequences.items() if other != label and s == seq]
        if same:
            raise SchemaError(f"labels {same[0]!r} and {label!r} tokenise to the same tokens {seq}")
        clash = [other for other, s in self.sequences.items() if len(s) > len(seq) and s[: len(seq)] == seq]
        if clash:
            raise SchemaError(
                f"label {label!r} (tokens {seq}) is a prefix of {clash[0]!r} (tokens {self.sequences[clash[0]]}); "
                "constrained choice needs prefix-free labels: rename the labels or add a terminator"
            )
        self._labels[seq] = label
        for depth in range(len(seq)):
            self._children.setdefault(seq[:depth], set()).add(seq[depth])

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels, in the order given."""
        return tuple(self.sequences)

    def allowed(self, prefix: Prefix) -> tuple[int, ...]:
        """Token ids that may follow ``prefix`` (sorted; empty at a complete label)."""
        return tuple(sorted(self._children.get(tuple(prefix), ())))

    def label_at(self, prefix: Prefix) -> str | None:
        """The label ``prefix`` completes, or ``None``."""
        return self._labels.get(tuple(prefix))

    def internal_nodes(self) -> list[Prefix]:
        """Every prefix whose next-token distribution a choice may need (root first, by depth)."""
        return sorted(self._children, key=lambda p: (len(p), p))


@dataclass(frozen=True)
class Choice:
    """The label a rule picked and what it saw."""

    label: str
    """The chosen label."""
    method: str
    """``greedy_trie`` or ``loglik``."""
    tokens: Prefix
    """The chosen label's token ids."""
    logprob: float
    """Sum of the chosen label's token log-probs."""
    valid_mass: float
    """Probability mass of the allowed first tokens at the answer position (before masking)."""
    logliks: dict[str, float] = field(default_factory=dict)
    """``loglik``: every label's summed log-prob; ``greedy_trie``: the chosen label's only."""


class _Node(NamedTuple):
    item: int
    prefix: Prefix


def log_softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax in float64.

    >>> np.round(np.exp(log_softmax(np.array([[0.0, np.log(3.0)]]))), 3)
    array([[0.25, 0.75]])
    """
    x = np.asarray(logits, dtype=np.float64)
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _mass(logprobs: np.ndarray, tokens: Sequence[int]) -> float:
    return float(np.exp(logprobs[list(tokens)]).sum())


def decode_greedy(tries: Sequence[LabelTrie], logprobs_fn: LogProbsFn) -> list[Choice]:
    """Trie-constrained greedy decoding of one label per item (one ``logprobs_fn`` call per depth).

    >>> trie = LabelTrie({"a1": (5, 1), "a2": (5, 2), "same": (9,)})
    >>> table = {(): {5: 0.6, 9: 0.4}, (5,): {1: 0.5, 2: 0.5}}
    >>> fn = lambda rows: np.log([[table[p].get(t, 1e-12) for t in range(10)] for _, p in rows])
    >>> decode_greedy([trie], fn)[0].label, decode_loglik([trie], fn)[0].label
    ('a1', 'same')
    """
    prefixes: list[Prefix] = [() for _ in tries]
    logprob = [0.0 for _ in tries]
    mass = [0.0 for _ in tries]
    while pending := [i for i, t in enumerate(tries) if t.label_at(prefixes[i]) is None]:
        rows = [(i, prefixes[i]) for i in pending]
        scores = np.asarray(logprobs_fn(rows), dtype=np.float64)
        for (i, prefix), row in zip(rows, scores, strict=True):
            allowed = tries[i].allowed(prefix)
            if not prefix:
                mass[i] = _mass(row, allowed)
            token = allowed[int(np.argmax(row[list(allowed)]))]
            logprob[i] += float(row[token])
            prefixes[i] = (*prefix, token)
    out = []
    for i, trie in enumerate(tries):
        label = trie.label_at(prefixes[i])
        assert label is not None
        out.append(Choice(label, "greedy_trie", prefixes[i], logprob[i], mass[i], {label: logprob[i]}))
    return out


def decode_loglik(tries: Sequence[LabelTrie], logprobs_fn: LogProbsFn) -> list[Choice]:
    """Pick each item's label with the highest summed token log-prob (all nodes in one call)."""
    rows = [(i, node) for i, trie in enumerate(tries) for node in trie.internal_nodes()]
    scores = np.asarray(logprobs_fn(rows), dtype=np.float64)
    at = {_Node(i, p): s for (i, p), s in zip(rows, scores, strict=True)}
    out = []
    for i, trie in enumerate(tries):
        logliks = {
            label: float(sum(at[_Node(i, seq[:d])][seq[d]] for d in range(len(seq))))
            for label, seq in trie.sequences.items()
        }
        best = max(logliks, key=lambda k: logliks[k])  # first maximum: the earlier label wins a tie
        mass = _mass(at[_Node(i, ())], trie.allowed(()))
        out.append(Choice(best, "loglik", trie.sequences[best], logliks[best], mass, logliks))
    return out


def choose(method: str, tries: Sequence[LabelTrie], logprobs_fn: LogProbsFn) -> list[Choice]:
    """Dispatch to :func:`decode_greedy` (``greedy_trie``) or :func:`decode_loglik` (``loglik``)."""
    if method == "greedy_trie":
        return decode_greedy(tries, logprobs_fn)
    if method == "loglik":
        return decode_loglik(tries, logprobs_fn)
    raise SchemaError(f"method must be one of {list(METHODS)}, got {method!r}")
