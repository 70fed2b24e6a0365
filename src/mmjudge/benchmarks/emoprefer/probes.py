"""EmoPrefer robustness probes: order (swap) and the longer-description shortcut.

* ``swap``: every pair is judged in both orders (the ``_reverse`` twin: a1/a2 swapped, gold flipped).
  Swap consistency is the scorer's ``swap_consistency``; position bias is the share of *first*
  answers (a1 in either order) among the judge's a1/a2 answers minus the same share of the gold labels
  in both orders (50 when both orders are there); the JudgeBench-style accuracy takes the forward
  answer when the reversed one, mapped back, agrees, and a tie (``same``) when the verdict flips.
* ``longer_description``: among forward answers picking a1 or a2 where the two descriptions differ in
  length (words), the share picking the longer one, against the same share of the gold labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks._probes import (
    Effect,
    Probe,
    ProbeData,
    ProbeOutcome,
    clustered_rate_effect,
    rate_effect,
    scored_effect,
)
from mmjudge.benchmarks.emoprefer.scoring import flip_labels, parse_response
from mmjudge.queries import Verdict

__all__ = ["PROBES", "judgebench_verdicts"]


def _answer(verdict: Verdict) -> str:
    """The official parser's reading; a missing judgment reads as the empty response (``same``), as scored."""
    return parse_response("" if verdict.no_judgment or verdict.value is None else str(verdict.value))


def judgebench_verdicts(forward: Sequence[str], reversed_: Sequence[str]) -> list[str]:
    """Forward answer when the reversed answer, mapped back a1<->a2, agrees; else ``same`` (a tie).

    >>> judgebench_verdicts(["a1", "a1", "same"], ["a2", "a1", "same"])
    ['a1', 'same', 'same']
    """
    back = flip_labels(reversed_)
    return [f if f == b else "same" for f, b in zip(forward, back, strict=True)]


def _measure_swap(data: ProbeData) -> ProbeOutcome:
    names = [str(r["name"]) for r in data.rows]
    gold = [str(r["preference"]) for r in data.rows]
    forward = [_answer(data.verdicts[n]) for n in names]
    reversed_ = [_answer(data.verdicts[f"{n}::reversed"]) for n in names]
    s = data.scores
    consistency = scored_effect(
        s, "swap_consistency", len(names),
        "pairs answered the same way in both orders (the scorer's swap_consistency; 100 = order-proof)",
    )  # fmt: skip
    both = [(a, n) for a, n in zip(forward + reversed_, names + names, strict=True) if a in ("a1", "a2")]
    golds = [g for g in gold + flip_labels(gold) if g in ("a1", "a2")]
    # an item answered in both orders gives two answers of one judge on one clip: clustered by item
    first = clustered_rate_effect("first_rate", [a == "a1" for a, _ in both], [n for _, n in both],
                                  "the judge's a1/a2 answers (both orders) naming the first description",
                                  cluster="item")  # fmt: skip
    gold_first = 100.0 * golds.count("a1") / len(golds) if golds else None
    bias = _shifted(first, gold_first)
    combined = judgebench_verdicts(forward, reversed_)
    accuracy = rate_effect("judgebench_accuracy", sum(c == g for c, g in zip(combined, gold, strict=True)), len(gold),
                           "3-class accuracy when a verdict that flips under swap counts as a tie (same)")  # fmt: skip
    details = {
        "gold_first_rate": gold_first,
        "flipped": sum(c == "same" and f != "same" for c, f in zip(combined, forward, strict=True)),
    }
    return ProbeOutcome((consistency, bias, first, accuracy), details)


def _shifted(first: Effect, gold: float | None) -> Effect:
    description = (
        "first-position answer rate minus the gold labels' first-position rate (points; 0 = no bias)"
    )
    if first.value is None or gold is None:
        return Effect(
            "position_bias", None, "points", first.n, description, note="no a1/a2 answer or gold label"
        )
    low = None if first.ci_low is None else first.ci_low - gold
    high = None if first.ci_high is None else first.ci_high - gold
    note = "; ".join(text for text in ("the first rate's interval, shifted by the fixed gold rate", first.note) if text)
    return Effect("position_bias", first.value - gold, "points", first.n, description, low, high, first.interval,
                  note=note)  # fmt: skip


def _words(text: Any) -> int:
    return len(str(text).split())


def _measure_longer(data: ProbeData) -> ProbeOutcome:
    picked, gold_picked = [], []
    for row in data.rows:
        a1, a2 = _words(row["a1"]), _words(row["a2"])
        if a1 == a2:
            continue
        longer = "a1" if a1 > a2 else "a2"
        answer = _answer(data.verdicts[str(row["name"])])
        if answer in ("a1", "a2"):
            picked.append(answer == longer)
        if row["preference"] in ("a1", "a2"):
            gold_picked.append(row["preference"] == longer)
    rate = rate_effect("longer_rate", sum(picked), len(picked),
                       "forward a1/a2 answers picking the longer description (words; equal lengths left out)")  # fmt: skip
    gold = 100.0 * sum(gold_picked) / len(gold_picked) if gold_picked else None
    gold_effect = rate_effect("gold_longer_rate", sum(gold_picked), len(gold_picked),
                              "gold a1/a2 labels naming the longer description")  # fmt: skip
    excess = None if rate.value is None or gold is None else rate.value - gold
    return ProbeOutcome((rate, gold_effect), {"longer_minus_gold": excess})


PROBES: tuple[Probe, ...] = (
    Probe(
        "swap", "Order (swap)",
        "Every pair judged in both orders: swap consistency, position bias (first-position answers beyond the "
        "gold rate) and the JudgeBench-style accuracy where a verdict that flips under swap is a tie.",
        _measure_swap, swap=True,
    ),
    Probe(
        "longer_description", "Longer description",
        "How often the judge picks the longer description, beside how often the gold label does.",
        _measure_longer,
    ),
)  # fmt: skip
"""EmoPrefer's probes, in report order."""
