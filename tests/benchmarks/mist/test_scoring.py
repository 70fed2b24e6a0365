"""MIST scoring against the paper's definitions: change rates, control, direction (pooled and judge mean),
the drift decomposition, trio majority, kappa, alt-test slices, intervals, bad input."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
from wilson_reference import repaired_wilson

from mmjudge.benchmarks import get_benchmark, mist
from mmjudge.errors import SchemaError
from mmjudge.stats import alt_test

FAST = {"n_resamples": 200, "seed": 0}
CONDS = [
    ("none", "none"),
    ("aligned", "explicit"),
    ("aligned", "silent"),
    ("misleading", "explicit"),
    ("misleading", "silent"),
]


def columns(labels: dict[tuple[str, str, str, str], str], judge: str | None = None) -> dict[str, list[str]]:
    """{(item, prompt, condition, arm): label} -> the flat columns score() takes."""
    cols: dict[str, list[str]] = {
        k: [] for k in ("item_ids", "prompt_strategies", "image_conditions", "arms", "predictions")
    }
    for (item, prompt, cond, arm), label in labels.items():
        for key, value in zip(cols, (item, prompt, cond, arm, label), strict=True):
            cols[key].append(value)
    if judge is not None:
        cols["judges"] = [judge] * len(labels)
    return cols


def grid(item: str, prompt: str, none: str, al_ex: str, al_si: str, mi_ex: str, mi_si: str) -> dict:
    return dict(
        zip([(item, prompt, c, a) for c, a in CONDS], [none, al_ex, al_si, mi_ex, mi_si], strict=True)
    )


TWO_ITEMS = {
    **grid("i1", "zs", "FF", "FF", "WF", "LL", "LL"),
    **grid("i2", "zs", "LL", "LL", "LL", "LL", "FF"),
}


def test_change_rates_and_control_by_hand():
    r = mist.score(**columns(TWO_ITEMS), **FAST)
    # i1: none FF -> aligned FF (explicit) / WF (silent); -> misleading LL / LL
    # i2: none LL -> aligned LL / LL; -> misleading LL / FF
    assert r["change_rate/none_to_aligned/explicit"] == 0.0
    assert r["change_rate/none_to_aligned/silent"] == 50.0
    assert r["change_rate/none_to_misleading/explicit"] == 50.0
    assert r["change_rate/none_to_misleading/silent"] == 100.0
    assert r["change_rate/none_to_aligned/explicit/n"] == 2
    # control: same image, explicit vs silent. aligned: i1 FF/WF differs; misleading: i2 LL/FF differs
    assert r["change_rate/control/aligned"] == 50.0
    assert r["change_rate/control/misleading"] == 50.0
    assert r["change_rate/control"] == 50.0 and r["change_rate/control/n"] == 4
    assert "direction/explicit" not in r and "agreement/none" not in r  # no metadata, no humans
    assert not [k for k in r if k.startswith("drift/")]  # the decomposition needs the sentence types


def test_rates_carry_wilson_intervals():
    two = mist.score(**columns(TWO_ITEMS), **FAST)
    assert "change_rate/control_ci_low" not in two  # two items: no interval, and the record says why
    assert two.intervals["change_rate/control"]["method"].startswith("none: no interval: 2 ")
    six = {(f"{item}_{copy}", *rest): label for (item, *rest), label in TWO_ITEMS.items() for copy in range(3)}
    r = mist.score(**columns(six), **FAST)
    # the control rate counts two comparisons per cell (aligned and misleading): not a rate of independent
    # 0/1 units, so it gets the jackknife interval over the cells
    control = r.intervals["change_rate/control"]
    assert control["method"].startswith("Wilson score interval on the effective sample size (jackknife over cells")
    assert r["change_rate/control_ci_low"] < r["change_rate/control"] < r["change_rate/control_ci_high"]
    for key, k, n in (("change_rate/none_to_misleading/explicit", 3, 6),
                      ("change_rate/none_to_aligned/explicit", 0, 6)):  # fmt: skip
        low, high = repaired_wilson(k, n)
        assert r[f"{key}_ci_low"] == pytest.approx(100 * low) and r[f"{key}_ci_high"] == pytest.approx(
            100 * high
        )
    assert r["change_rate/none_to_aligned/explicit_ci_high"] > 35  # 0 of 6 is not a certain zero


def paper_drift(labels, senses, prompt, arm):
    """Table 7's definition: per sentence type, the mean over its items of the signed shift of each input
    change (codes FF=0 ... LL=3); items need all three labels."""
    out = {}
    for kind in ("figurative", "literal"):
        shifts = {"text_to_aligned": [], "aligned_to_misleading": [], "text_to_misleading": []}
        for item, sense in senses.items():
            key = (item, prompt)
            text, aligned = labels.get((*key, "none", "none")), labels.get((*key, "aligned", arm))
            misleading = labels.get((*key, "misleading", arm))
            if sense != kind or None in (text, aligned, misleading):
                continue
            t, a, m = (mist.CODES[x] for x in (text, aligned, misleading))
            shifts["text_to_aligned"].append(a - t)
            shifts["aligned_to_misleading"].append(m - a)
            shifts["text_to_misleading"].append(m - t)
        out[kind] = {term: float(np.mean(v)) for term, v in shifts.items() if v}
    return out


def test_drift_is_decomposed_per_sentence_type_prompt_and_arm():
    rng = np.random.default_rng(4)
    cells = ["T1", "T2", "T3", "T4"] * 16  # 32 items of each sentence type: one judge's cells get intervals
    items = [f"i{k}" for k in range(64)]
    labels = {}
    for item in items:
        for prompt in ("zs", "cot"):
            labels.update(grid(item, prompt, *rng.choice(mist.LABELS, size=5)))
    del labels[("i0", "cot", "misleading", "silent")]  # an incomplete item is left out of that arm's terms
    senses = {
        i: ("figurative" if c in ("T1", "T2") else "literal") for i, c in zip(items, cells, strict=True)
    }
    r = mist.score(**columns(labels), meta_item_ids=items, meta_cells=cells, n_resamples=500)
    for prompt in ("zs", "cot"):
        for arm in ("explicit", "silent"):
            expected = paper_drift(labels, senses, prompt, arm)
            for kind in ("figurative", "literal"):
                prefix = f"drift/{kind}/{prompt}/{arm}"
                for term, value in expected[kind].items():
                    assert r[f"{prefix}/{term}"] == pytest.approx(value, abs=1e-12)
                    assert r[f"{prefix}/{term}_ci_low"] <= value <= r[f"{prefix}/{term}_ci_high"]
                total = r[f"{prefix}/text_to_aligned"] + r[f"{prefix}/aligned_to_misleading"]
                assert r[f"{prefix}/text_to_misleading"] == pytest.approx(total, abs=1e-12)
    assert r["drift/figurative/cot/silent/n_items"] == 31 and r["drift/figurative/cot/explicit/n_items"] == 32
    assert not [k for k in r if k.startswith("drift/none_to")]  # no drift pooled over sentence types


def _drift_run(per_sense: int, judges: int, seed: int = 7):
    """A run of ``per_sense`` items of each sentence type, each labelled at random by ``judges`` judges."""
    rng = np.random.default_rng(seed)
    items = [f"i{k}" for k in range(2 * per_sense)]
    cols: dict[str, list[str]] = {}
    for judge in range(judges):
        labels = {}
        for item in items:
            labels.update(grid(item, "zs", *rng.choice(mist.LABELS, size=5)))
        for k, v in columns(labels, judge=f"j{judge}").items():
            cols.setdefault(k, []).extend(v)
    return mist.score(**cols, meta_item_ids=items, meta_cells=["T1", "T3"] * per_sense, **FAST)


@pytest.mark.parametrize("per_sense,judges,shown", [(5, 1, False), (8, 1, False), (11, 1, False), (11, 2, False),
                                                    (12, 2, True), (16, 2, True)])  # fmt: skip
def test_a_drift_over_too_few_items_has_no_interval_and_says_why(per_sense, judges, shown):
    """Over 5 and 8 items the drift's t interval covered as little as 88% (benchmarks/_coverage_drift.py): below 12 items of
    its sentence type the record withholds it with the reason, as under 5 clusters."""
    from mmjudge.estimates import interval_caveat
    from mmjudge.results import estimates_of

    r = _drift_run(per_sense, judges)
    for kind in ("figurative", "literal"):
        key = f"drift/{kind}/zs/explicit/text_to_misleading"
        assert r[f"drift/{kind}/zs/explicit/n_items"] == per_sense
        assert (f"{key}_ci_low" in r) is shown
        caveat = interval_caveat(estimates_of("mist", r)[key])
        if shown:
            assert r[f"{key}_ci_low"] <= r[key] <= r[f"{key}_ci_high"] and caveat.startswith("thin")
        else:
            why = f"no interval: {per_sense} items (at least 12 needed for a drift: on fewer its t interval covered as little as 88%)"
            assert r.intervals[key]["method"] == f"none: {why}" and caveat == why


@pytest.mark.parametrize("per_sense,shown", [(12, False), (16, False), (29, False), (30, True), (32, True)])
def test_a_drift_over_items_of_one_cell_each_needs_30_of_them(per_sense, shown):
    """With one judge each item holds one cell, whose shift is a whole number of label steps: over 12 and 16 such items
    the drift's interval covered 90.7-99.8% (benchmarks/_coverage_drift.py, 1,000 replicates), so under 30 the record
    withholds it with that reason, as under 12 items; two judges' cells per item at 12 keep it (the test above)."""
    from mmjudge.estimates import interval_caveat
    from mmjudge.results import estimates_of

    r = _drift_run(per_sense, 1)
    estimates = estimates_of("mist", r)
    for kind in ("figurative", "literal"):
        for term in ("text_to_aligned", "aligned_to_misleading", "text_to_misleading"):
            key = f"drift/{kind}/zs/silent/{term}"
            assert (f"{key}_ci_low" in r) is shown
            if shown:
                assert interval_caveat(estimates[key]) == ""
            else:
                from mmjudge.benchmarks.mist._drift import SINGLE_CELL_NOTE

                why = f"no interval: {per_sense} items ({SINGLE_CELL_NOTE})"
                assert r.intervals[key]["method"] == f"none: {why}" and interval_caveat(estimates[key]) == why


def test_drift_weights_items_equally_over_judges():
    labels = {
        **grid("i1", "zs", "FF", "LL", "LL", "LL", "LL"),
        **grid("i2", "zs", "FF", "FF", "FF", "FF", "FF"),
    }
    other = {**grid("i1", "zs", "FF", "FF", "FF", "FF", "FF")}  # a second judge labels only i1
    cols, more = columns(labels, judge="j1"), columns(other, judge="j2")
    both = {k: cols[k] + more[k] for k in cols}
    r = mist.score(**both, meta_item_ids=["i1", "i2"], meta_cells=["T2", "T2"], **FAST)
    # item means: i1 (3 + 0) / 2 = 1.5, i2 0 -> 0.75 (the cell mean would be 1.0)
    assert r["drift/figurative/zs/explicit/text_to_aligned"] == 0.75


def test_direction_toward_the_misleading_image_sense():
    labels = {
        # T2 figurative sentence: misleading image literal -> toward means the code rises
        **grid("fig_up", "zs", "FF", "FF", "FF", "WF", "FF"),  # explicit FF -> WF: toward
        # T1 figurative sentence as well: explicit LL -> FF falls: away; silent FL -> LL rises: toward
        **grid("fig_down", "zs", "FF", "LL", "FL", "FF", "LL"),
        # T3 literal sentence: misleading image figurative -> toward means the code falls
        **grid("lit_down", "zs", "LL", "LL", "LL", "FL", "LL"),  # explicit LL -> FL: toward; silent unchanged
    }
    meta = {"meta_item_ids": ["fig_up", "fig_down", "lit_down"], "meta_cells": ["T2", "T1", "T3"]}
    r = mist.score(**columns(labels), **meta, **FAST)
    assert r["direction/explicit/n_changed"] == 3
    assert r["direction/explicit"] == pytest.approx(200 / 3)
    assert r["direction/silent/n_changed"] == 1 and r["direction/silent"] == 100.0
    assert "direction/explicit_ci_low" not in r  # three changed cells: no interval
    twice = {(f"{item}{copy}", *rest): label for (item, *rest), label in labels.items() for copy in "ab"}
    meta2 = {"meta_item_ids": [f"{i}{c}" for i in meta["meta_item_ids"] for c in "ab"],
             "meta_cells": [cell for cell in meta["meta_cells"] for _ in "ab"]}  # fmt: skip
    r = mist.score(**columns(twice), **meta2, **FAST)
    low, high = repaired_wilson(4, 6)
    assert (r["direction/explicit_ci_low"], r["direction/explicit_ci_high"]) == pytest.approx(
        (100 * low, 100 * high)
    )
    assert "direction/explicit/mean_over_judges" not in r  # one judge: the pooled rate is its rate


def test_direction_pooled_and_mean_over_judges():
    """Table 6 prints the mean of the judges' rates (34), its text the pooled rate (37): name both."""
    meta = {"meta_item_ids": [f"f{k}" for k in range(6)], "meta_cells": ["T2"] * 6}
    toward, away = ("FF", "FF", "FF", "WF", "WF"), ("FF", "WF", "WF", "FF", "FF")  # figurative: up is toward
    a = {
        **grid("f0", "zs", *toward),
        **grid("f1", "zs", *toward),
        **grid("f2", "zs", *toward),
        **grid("f3", "zs", *away),
    }
    b = {**grid("f0", "zs", *away), **grid("f1", "zs", *toward), **grid("f4", "zs", *toward),
         **grid("f5", "zs", *away)}  # 2 of 4 toward; six items in all  # fmt: skip
    cols_a, cols_b = columns(a, judge="a"), columns(b, judge="b")
    r = mist.score(**{k: cols_a[k] + cols_b[k] for k in cols_a}, **meta, n_resamples=500)
    assert r["direction/explicit"] == pytest.approx(100 * 5 / 8)  # pooled over the 8 changed cells
    assert r["direction/explicit/mean_over_judges"] == pytest.approx((75 + 50) / 2)
    assert r["direction/explicit/mean_over_judges/n_judges"] == 2
    assert (
        r["direction/explicit/mean_over_judges_ci_low"]
        <= 62.5
        <= r["direction/explicit/mean_over_judges_ci_high"]
    )


def test_direction_nan_when_nothing_changes():
    labels = grid("i", "zs", "FF", "FF", "FF", "FF", "FF")
    r = mist.score(**columns(labels), meta_item_ids=["i"], meta_cells=["T1"], **FAST)
    assert math.isnan(r["direction/explicit"]) and r["direction/explicit/n_changed"] == 0


@pytest.mark.parametrize(
    ("codes", "label"), [([0, 0, 1], 0), ([0, 1, 3], 1), ([3, 0, 2], 2), ([3, 3, 3], 3), ([0, 3], 0)]
)
def test_majority_label_tie_goes_to_lower_median(codes, label):
    assert mist.majority_label(np.array(codes)) == label


def test_agreement_with_trio_majority():
    humans = {
        "human_item_ids": ["i1"] * 3 + ["i2"] * 3,
        "human_annotators": ["h1", "h2", "h3"] * 2,
        "human_labels": ["FF", "FF", "WF", "FF", "WF", "LL"],  # i1 -> FF; i2 three-way split -> WF
    }
    labels = {
        **grid("i1", "zs", "FF", "FF", "WF", "LL", "FF"),
        **grid("i2", "zs", "WF", "LL", "WF", "WF", "WF"),
    }
    r = mist.score(**columns(labels), **humans, **FAST)
    assert r["agreement/none"] == 100.0 and r["agreement/none/n"] == 2
    assert r["agreement/aligned/explicit"] == 50.0
    assert r["agreement/aligned/silent"] == 50.0
    assert r["agreement/misleading/explicit"] == 50.0
    assert r["agreement/misleading/silent"] == 100.0
    assert "agreement/none_ci_low" not in r  # two items: no interval
    copies = range(3)
    labels = {(f"{item}_{c}", *rest): label for (item, *rest), label in labels.items() for c in copies}
    humans = {"human_item_ids": [f"{i}_{c}" for c in copies for i in humans["human_item_ids"]],
              "human_annotators": humans["human_annotators"] * 3, "human_labels": humans["human_labels"] * 3}  # fmt: skip
    r = mist.score(**columns(labels), **humans, **FAST)
    assert r["agreement/none"] == 100.0 and r["agreement/none/n"] == 6
    low, _ = repaired_wilson(6, 6)
    assert r["agreement/none_ci_low"] == pytest.approx(100 * low) and r["agreement/none_ci_high"] == 100.0


def _human_table(rng, items, annotators, p_agree=0.8):
    truth = {i: rng.integers(0, 4) for i in items}
    rows = []
    for i in items:
        for a in annotators:
            code = truth[i] if rng.random() < p_agree else rng.integers(0, 4)
            rows.append((i, a, mist.LABELS[code]))
    return truth, rows


@pytest.mark.filterwarnings("ignore:alt-test not run")
def test_kappa_per_trio_matches_statsmodels():
    rng = np.random.default_rng(1)
    informed = [f"a{k}" for k in range(30)]
    blind = [f"b{k}" for k in range(30)]
    _, rows_a = _human_table(rng, informed, ["h1", "h2", "h3"])
    _, rows_b = _human_table(rng, blind, ["h4", "h5", "h6"], p_agree=0.5)
    rows = rows_a + rows_b
    labels = {}
    for i in informed + blind:
        labels.update(grid(i, "zs", "FF", "FF", "FF", "FF", "FF"))
    r = mist.score(
        **columns(labels),
        meta_item_ids=informed + blind,
        meta_cells=["T2"] * 60,
        meta_trios=["informed"] * 30 + ["blind"] * 30,
        human_item_ids=[x[0] for x in rows],
        human_annotators=[x[1] for x in rows],
        human_labels=[x[2] for x in rows],
        min_instances_per_human=10,
        **FAST,
    )
    for trio, part in (("informed", rows_a), ("blind", rows_b)):
        ratings = np.array([mist.CODES[x[2]] for x in part]).reshape(30, 3)
        expected = fleiss_kappa(aggregate_raters(ratings)[0])
        assert r[f"kappa/{trio}"] == pytest.approx(expected)
        assert r[f"kappa/{trio}_ci_low"] <= r[f"kappa/{trio}"] <= r[f"kappa/{trio}_ci_high"]
        assert r[f"kappa/{trio}/n_items"] == 30


def test_alt_test_uses_the_condition_the_trio_saw():
    rng = np.random.default_rng(2)
    items = [f"i{k}" for k in range(40)]
    cells = ["T1", "T2", "T3", "T4"] * 10
    _, rows = _human_table(rng, items, ["h1", "h2", "h3"], p_agree=0.7)
    table = {}
    for i, _, label in rows:
        table.setdefault(i, []).append(mist.CODES[label])
    majority = {i: mist.majority_label(np.array(c)) for i, c in table.items()}
    labels = {}
    for i, cell in zip(items, cells, strict=True):
        good, bad = mist.LABELS[majority[i]], mist.LABELS[3 - majority[i]]
        seen = "misleading" if cell in ("T1", "T4") else "aligned"  # the image the humans saw
        for cond, arm in CONDS[1:]:
            labels[(i, "zs", cond, arm)] = good if cond == seen else bad
        labels[(i, "zs", "none", "none")] = bad
    humans = {
        "human_item_ids": [x[0] for x in rows],
        "human_annotators": [x[1] for x in rows],
        "human_labels": [x[2] for x in rows],
    }
    meta = {"meta_item_ids": items, "meta_cells": cells, "meta_trios": ["informed"] * 40}
    r = mist.score(**columns(labels), **meta, **humans, **FAST, min_instances_per_human=20)
    slices = {"all": ("T1", "T2", "T3", "T4"), "aligned": ("T2", "T3"), "misleading": ("T1", "T4")}
    for arm in ("explicit", "silent"):
        for slice_name, kept in slices.items():
            mine = {i for i, c in zip(items, cells, strict=True) if c in kept}
            for short, scoring in (("acc", "accuracy"), ("mae", "neg_mae")):
                key = f"alt_test/informed/{slice_name}/{short}/zs/{arm}"
                judge = {i: float(majority[i]) for i in mine}
                annotators = {h: {x[0]: float(mist.CODES[x[2]]) for x in rows if x[1] == h and x[0] in mine}
                              for h in ("h1", "h2", "h3")}  # fmt: skip
                ref = alt_test(judge, annotators, scoring=scoring, epsilon=0.2, min_instances_per_human=20)
                assert r[f"{key}/winning_rate"] == pytest.approx(100 * ref.winning_rate)
                assert r[f"{key}/advantage_probability"] == pytest.approx(100 * ref.advantage_probability)
                assert r[f"{key}/passed"] is bool(ref.passed)
        assert r[f"alt_test/informed/all/acc/zs/{arm}/passed"] is True
        assert r[f"alt_test/informed/{arm}/n_tests"] == 6
        assert r[f"alt_test/informed/{arm}/n_passed"] == sum(
            r[f"alt_test/informed/{s}/{m}/zs/{arm}/passed"] for s in slices for m in ("acc", "mae")
        )


@pytest.mark.filterwarnings("ignore:.*kappa undefined:RuntimeWarning")
def test_alt_test_needs_epsilon_for_unknown_trio_and_one_judge():
    labels = grid("i", "zs", "FF", "FF", "FF", "FF", "FF")
    kw = {
        "meta_item_ids": ["i"],
        "meta_cells": ["T2"],
        "human_item_ids": ["i", "i"],
        "human_annotators": ["a", "b"],
        "human_labels": ["FF", "FF"],
    }
    with pytest.raises(SchemaError, match="no alt-test epsilon for trio 'all'"):
        mist.score(**columns(labels), **kw, **FAST)
    two = {**columns(labels, judge="j1")}
    other = columns(labels, judge="j2")
    both = {k: two[k] + other[k] for k in two}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # kappa undefined on one category
        with pytest.warns(UserWarning, match="alt-test skipped"):
            r = mist.score(**both, **kw, **FAST)
    assert not any(k.startswith("alt_test") for k in r)


def test_registered_with_documented_keys():
    spec = get_benchmark("mist")
    assert spec.metrics.score is mist.score
    documented = {k.name for k in spec.metrics.result_keys}
    rng = np.random.default_rng(9)
    items = [f"i{k}" for k in range(8)]
    labels = {}
    for item in items:
        labels.update(grid(item, "zs", *rng.choice(mist.LABELS, size=5)))
    humans = [(i, h, str(rng.choice(mist.LABELS))) for i in items for h in ("h1", "h2", "h3")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = mist.score(
            **columns(labels), meta_item_ids=items, meta_cells=["T1", "T2", "T3", "T4"] * 2,
            meta_trios=["informed"] * 8, human_item_ids=[h[0] for h in humans],
            human_annotators=[h[1] for h in humans], human_labels=[h[2] for h in humans],
            min_instances_per_human=2, **FAST,
        )  # fmt: skip
    patterns = [(r"^alt_test/informed/(all|aligned|misleading)/(acc|mae)/zs/", "alt_test/<trio>/<slice>/<scoring>/<prompt>/"),
                (r"^(kappa|alt_test)/informed", r"\1/<trio>"), (r"^(drift/\w+)/zs/", r"\1/<prompt>/")]  # fmt: skip
    generic = set()
    for key in r:
        for pattern, repl in patterns:
            key = re.sub(pattern, repl, key)
        generic.add(key)
    assert generic <= documented, generic - documented
    assert any(k.startswith("alt_test/") for k in r) and any(k.startswith("drift/") for k in r)


BASE = columns(grid("i", "zs", "FF", "FF", "FF", "FF", "FF"))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"arms": BASE["arms"][:-1]}, "arms=4"),
        ({"predictions": ["FF", "XX", "FF", "FF", "FF"]}, r"`predictions` has 1 values outside.*'XX'"),
        ({"predictions": ["FF", 3, "FF", "FF", float("nan")]}, r"`predictions` has 2 missing.*\[1, 4\]"),
        (
            {"image_conditions": ["none", "aligned", "aligned", "blurred", "misleading"]},
            "`image_conditions` has 1 values",
        ),
        ({"arms": ["explicit", "explicit", "silent", "explicit", "silent"]}, "text-only rows"),
        (
            {"arms": ["none", "explicit", "explicit", "explicit", "silent"]},
            r"has 1 duplicated ids: \[\('i', 'judge', 'zs', 'explicit', 'aligned'\)\]",
        ),
        ({k: [] for k in BASE}, "`predictions` is empty"),
    ],
)
def test_bad_judge_input(change, match):
    with pytest.raises(SchemaError, match=match):
        mist.score(**{**BASE, **change}, **FAST)


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        ({"meta_item_ids": ["i", "i"], "meta_cells": ["T1", "T2"]}, "`meta_item_ids` has 1 duplicated"),
        ({"meta_item_ids": ["i"], "meta_cells": ["T5"]}, "`meta_cells` has 1 values outside"),
        (
            {"meta_item_ids": ["i"], "meta_cells": ["T1"], "meta_sentence_senses": ["literal"]},
            "disagrees with `meta_cells`",
        ),
        (
            {"human_item_ids": ["i"], "human_annotators": ["a", "b"], "human_labels": ["FF"]},
            "human_annotators=2",
        ),
        (
            {"human_item_ids": ["i", "i"], "human_annotators": ["a", "a"], "human_labels": ["FF", "LL"]},
            "duplicated ids",
        ),
        (
            {
                "human_item_ids": ["i", "i", "j", "j", "j"],
                "human_annotators": ["a", "b", "a", "b", "c"],
                "human_labels": ["FF"] * 5,
            },
            r"trio 'all': Fleiss' kappa needs the same number of labels per item, got counts \[2, 3\]",
        ),
        (
            {
                "meta_item_ids": ["i"],
                "meta_cells": ["T1"],
                "human_item_ids": ["j"],
                "human_annotators": ["a"],
                "human_labels": ["FF"],
            },
            r"absent from `meta_item_ids`: \['j'\]",
        ),
    ],
)
def test_bad_metadata_and_humans(extra, match):
    with pytest.raises(SchemaError, match=match):
        mist.score(**BASE, **extra, **FAST)


label_st = st.sampled_from(mist.LABELS)


@pytest.mark.filterwarnings("ignore:alt-test not run")
@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.tuples(*[label_st] * 8), min_size=2, max_size=6),
    st.lists(st.sampled_from(["T1", "T2", "T3", "T4"]), min_size=6, max_size=6),
    st.randoms(),
)
def test_scores_invariant_to_row_order(item_labels, cells, rnd):
    labels: dict = {}
    humans = []
    for k, eight in enumerate(item_labels):
        labels.update(grid(f"i{k}", "zs", *eight[:5]))
        humans += [(f"i{k}", h, lab) for h, lab in zip(("h1", "h2", "h3"), eight[5:], strict=True)]
    ids = [f"i{k}" for k in range(len(item_labels))]
    meta = {"meta_item_ids": ids, "meta_cells": cells[: len(ids)], "meta_trios": ["informed"] * len(ids)}

    def run(label_rows, human_rows, meta_order):
        hum = {
            "human_item_ids": [h[0] for h in human_rows],
            "human_annotators": [h[1] for h in human_rows],
            "human_labels": [h[2] for h in human_rows],
        }
        m = {k: [v[i] for i in meta_order] for k, v in meta.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # kappa undefined when one label fills a trio
            return mist.score(**columns(dict(label_rows)), **m, **hum, min_instances_per_human=2, **FAST)

    order = list(range(len(ids)))
    a = run(list(labels.items()), humans, order)
    rows, shuffled_humans = list(labels.items()), humans[:]
    rnd.shuffle(rows)
    rnd.shuffle(shuffled_humans)
    rnd.shuffle(order)
    b = run(rows, shuffled_humans, order)
    assert a.keys() == b.keys()
    assert any(k.startswith("alt_test/") for k in a) and "kappa/informed" in a
    for key in a:
        assert a[key] == pytest.approx(b[key], nan_ok=True), key


def test_a_cell_without_a_label_is_left_out_officially_and_counts_as_changed_in_strict_mode():
    """Issue 11: dropping (or marking no_judgment) the cells whose label moved must not lower the ranked
    change rate. ``None`` is a cell without a label: official mode scores the labelled cells only;
    strict mode counts it as a change (either side) and as a disagreement with the trio majority."""
    rows = columns({**grid("i1", "zs", "FF", "FF", "LL", "FF", "FF"), **grid("i2", "zs", "FF", "FF", "FF", "FF", "FF")})
    honest = mist.score(**rows, **FAST, mode="strict")
    gamed = {**rows, "predictions": [None if p == "LL" else p for p in rows["predictions"]]}
    official, strict = mist.score(**gamed, **FAST), mist.score(**gamed, **FAST, mode="strict")
    key = "change_rate/none_to_aligned/silent"
    assert honest[key] == 50.0 and strict[key] == 50.0 and official[key] == 0.0
    assert official[f"{key}/n"] == 1 and strict[f"{key}/n"] == 2
    assert (official["n_no_judgment"], strict["n_no_judgment"]) == (1, 1)
    assert (official["n_labels"], strict["n_labels"]) == (9, 9) and strict["mode"] == "strict"
    # a missing text-only label changes every image cell of its item in strict mode
    no_text = {**rows, "predictions": [None if k == 0 else p for k, p in enumerate(rows["predictions"])]}
    assert mist.score(**no_text, **FAST, mode="strict")["change_rate/none_to_aligned/explicit"] == 50.0
    with pytest.raises(SchemaError, match="`mode` must be one of"):
        mist.score(**rows, **FAST, mode="lenient")
