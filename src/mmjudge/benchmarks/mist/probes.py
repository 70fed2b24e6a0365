"""MIST robustness probe: the image-condition change rates the benchmark already defines.

MIST's grid *is* an irrelevant-context probe: every item is labelled with no image, an aligned image
and a misleading one, in an arm that tells the judge to ignore the image and one that does not. The
probe reads the scorer's change rates (text only -> aligned / misleading image, per arm, and the
prompt-edit control), with their Wilson intervals and counts; it judges nothing new.
"""

from __future__ import annotations

from mmjudge.benchmarks._probes import Probe, ProbeData, ProbeOutcome, scored_effect
from mmjudge.benchmarks.mist._inputs import ARMS, IMAGE_CONDITIONS

__all__ = ["PROBES"]


def _keys() -> list[tuple[str, str, str]]:
    out = [
        (f"change_rate/none_to_{cond}/{arm}", f"change_rate/none_to_{cond}/{arm}/n",
         f"cells whose label changes from text only to the {cond} image ({arm} arm)")
        for cond in reversed(IMAGE_CONDITIONS) for arm in ARMS
    ]  # fmt: skip
    out.append(
        (
            "change_rate/control",
            "change_rate/control/n",
            "cells whose label changes when only the ignore-the-image paragraph is removed",
        )
    )
    return out


def _measure(data: ProbeData) -> ProbeOutcome:
    s = data.scores
    effects = tuple(
        scored_effect(s, key, int(s.get(n_key, 0)), description, note="" if key in s else "not scored (cells missing)")
        for key, n_key, description in _keys()
    )  # fmt: skip
    return ProbeOutcome(effects)


PROBES: tuple[Probe, ...] = (
    Probe(
        "image_condition", "Irrelevant image",
        "The scorer's change rates between text-only and image conditions (the image must not matter), per arm, "
        "and the prompt-edit control.",
        _measure,
    ),
)  # fmt: skip
"""MIST's probes."""
