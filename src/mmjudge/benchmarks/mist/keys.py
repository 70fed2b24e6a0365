"""The documented result keys of :func:`mmjudge.benchmarks.mist.score`, with directions."""

from __future__ import annotations

from mmjudge.benchmarks._base import ResultKey
from mmjudge.benchmarks.mist._drift import SENSES, TERMS
from mmjudge.benchmarks.mist._inputs import ARMS, IMAGE_CONDITIONS

__all__ = ["RESULT_KEYS"]


CELLS = (
    "Wilson score interval over the cells where every item holds one cell of the key, else Wilson score "
    "interval on the effective sample size of the jackknife over items (the cells of one item together)"
)
JUDGE_MEAN = "Wilson score interval on the effective sample size of the jackknife over items"
ITEMS = (
    "t interval of the jackknife over items (the Wilson bound rescaled to the key's range when every item "
    "gives the same value)"
)


def _with_ci(name: str, higher: bool, text: str, how: str) -> list[ResultKey]:
    return [
        ResultKey(name, higher, text),
        *ResultKey.interval_ends(name, higher, f": {how}; none under 5 items"),
    ]


def _result_keys() -> tuple[ResultKey, ...]:
    keys: list[ResultKey] = []
    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            keys += _with_ci(
                f"change_rate/none_to_{cond}/{arm}",
                False,
                f"percent of cells whose label changes from text only to the {cond} image ({arm} arm); Table 6 (explicit arm); 0-100",
                CELLS,
            )
            keys.append(
                ResultKey(
                    f"change_rate/none_to_{cond}/{arm}/n", True, "cells labelled under both inputs (a count)"
                )
            )
        keys += _with_ci(
            f"change_rate/control/{cond}",
            False,
            f"percent of {cond}-image cells whose label differs between the explicit and silent arms; 0-100",
            CELLS,
        )
    keys += _with_ci(
        "change_rate/control",
        False,
        "control change rate pooled over both images; Table 6 'prompt edited, image fixed'; 0-100",
        CELLS,
    )
    keys.append(ResultKey("change_rate/control/n", True, "cells in the control (a count)"))
    for arm in ARMS:
        keys += _with_ci(
            f"direction/{arm}",
            False,
            f"percent of aligned->misleading changes moving toward the misleading image's sense, pooled over every cell ({arm}); one judge: Table 6; 0-100, chance 50",
            CELLS,
        )
        keys.append(
            ResultKey(
                f"direction/{arm}/n_changed",
                True,
                "cells whose label differs between the two images (a count)",
            )
        )
        keys += _with_ci(
            f"direction/{arm}/mean_over_judges",
            False,
            f"mean over judges of each judge's direction ({arm}; several judges only); Table 6 mean row; 0-100",
            JUDGE_MEAN,
        )
        keys.append(
            ResultKey(f"direction/{arm}/mean_over_judges/n_judges", True, "judges averaged (a count)")
        )
    for sense in SENSES:
        for arm in ARMS:
            for term in TERMS:
                keys += _with_ci(
                    f"drift/{sense}/<prompt>/{arm}/{term}",
                    False,
                    f"mean ordinal shift {term.replace('_', ' ')} on {sense} sentences ({arm}); Table 7; label steps -3..3, + = toward LL",
                    ITEMS,
                )
            keys.append(
                ResultKey(
                    f"drift/{sense}/<prompt>/{arm}/n_items", True, "items with all three labels (a count)"
                )
            )
    for cond in IMAGE_CONDITIONS:
        for arm in ARMS:
            keys += _with_ci(
                f"agreement/{cond}/{arm}",
                True,
                f"percent of labels under the {cond} image ({arm}) equal to the trio majority; 0-100",
                CELLS,
            )
            keys.append(ResultKey(f"agreement/{cond}/{arm}/n", True, "labels compared (a count)"))
    keys += _with_ci(
        "agreement/none", True, "percent of text-only labels equal to the trio majority; 0-100", CELLS
    )
    keys.append(ResultKey("agreement/none/n", True, "labels compared (a count)"))
    keys += _with_ci(
        "kappa/<trio>",
        True,
        "Fleiss' kappa of the human trio (not a judge score); -1..1",
        ITEMS,
    )
    keys.append(ResultKey("kappa/<trio>/n_items", True, "items the trio labelled (a count)"))
    for arm in ARMS:
        prefix = f"alt_test/<trio>/<slice>/<scoring>/<prompt>/{arm}"
        keys += [
            ResultKey(
                f"{prefix}/winning_rate", True, "alt-test winning rate omega; Table 9; 0-100, passes at >= 50"
            ),
            ResultKey(f"{prefix}/advantage_probability", True, "alt-test advantage probability rho; 0-100"),
            ResultKey(f"{prefix}/passed", True, "alt-test verdict: winning rate >= 50 (bool)"),
            ResultKey(
                f"alt_test/<trio>/{arm}/n_passed",
                True,
                "alt-test configurations (slice x scoring x prompt) passed (a count)",
            ),
            ResultKey(f"alt_test/<trio>/{arm}/n_tests", True, "alt-test configurations run (a count)"),
        ]
    keys.append(ResultKey("n_labels", True, "judge labels scored (a count)"))
    keys.append(ResultKey("n_no_judgment", False, "cells without a label (a count; kept in strict mode)"))
    keys.append(
        ResultKey("mode", True, "scoring mode: official (labelled cells) or strict (missing = changed)")
    )
    return tuple(keys)  # fmt: skip


RESULT_KEYS: tuple[ResultKey, ...] = _result_keys()
"""Documented result keys; ``<trio>``, ``<prompt>`` stand for the values in the input, ``<slice>`` for
``all``/``aligned``/``misleading`` and ``<scoring>`` for ``acc``/``mae``."""
