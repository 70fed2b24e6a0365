"""MIST scoring: change rates, control, direction, drift, trio majority, kappa, alt-test, bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from mmjudge.benchmarks import mist
from mmjudge.errors import SchemaError
from mmjudge.registry import get_benchmark
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
    assert r["change_rate/none_to_aligned/silent"] == 0.5
    assert r["change_rate/none_to_misleading/explicit"] == 0.5
    assert r["change_rate/none_to_misleading/silent"] == 1.0
    assert r["change_rate/none_to_aligned/explicit/n"] == 2
    # control: same image, explicit vs silent. aligned: i1 FF/WF differs; misleading: i2 LL/FF differs
    assert r["change_rate/control/aligned"] == 0.5
    assert r["change_rate/control/misleading"] == 0.5
    assert r["change_rate/control"] == 0.5 and r["change_rate/control/n"] == 4
    assert "direction/explicit" not in r and "agreement/none" not in r  # no metadata, no humans


def test_drift_is_item_mean_ordinal_shift():
    r = mist.score(**columns(TWO_ITEMS), **FAST)
    # FF=0 WF=1 FL=2 LL=3. none->misleading explicit: i1 +3, i2 0 -> mean over items 1.5
    assert r["drift/none_to_misleading/explicit"] == 1.5
    assert r["drift/none_to_misleading/silent"] == 0.0  # +3 and -3
    assert r["drift/none_to_aligned/silent"] == 0.5  # +1 and 0
    assert (
        r["drift/none_to_misleading/explicit/ci_low"] <= 1.5 <= r["drift/none_to_misleading/explicit/ci_high"]
    )


def test_drift_weights_items_equally():
    labels = {
        **grid("i1", "zs", "FF", "LL", "LL", "LL", "LL"),
        **grid("i1", "cot", "FF", "FF", "FF", "FF", "FF"),
    }
    labels.update(grid("i2", "zs", "FF", "FF", "FF", "FF", "FF"))
    r = mist.score(**columns(labels), **FAST)
    # item means: i1 (3 + 0) / 2 = 1.5, i2 0 -> 0.75 (the cell mean would be 1.0)
    assert r["drift/none_to_aligned/explicit"] == 0.75


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
    assert r["direction/explicit"] == pytest.approx(2 / 3)
    assert r["direction/silent/n_changed"] == 1 and r["direction/silent"] == 1.0


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
    assert r["agreement/none"] == 1.0
    assert r["agreement/aligned/explicit"] == 0.5
    assert r["agreement/aligned/silent"] == 0.5
    assert r["agreement/misleading/explicit"] == 0.5
    assert r["agreement/misleading/silent"] == 1.0


def _human_table(rng, items, annotators, p_agree=0.8):
    truth = {i: rng.integers(0, 4) for i in items}
    rows = []
    for i in items:
        for a in annotators:
            code = truth[i] if rng.random() < p_agree else rng.integers(0, 4)
            rows.append((i, a, mist.LABELS[code]))
    return truth, rows


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
        assert r[f"kappa/{trio}/ci_low"] <= r[f"kappa/{trio}"] <= r[f"kappa/{trio}/ci_high"]
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
    r = mist.score(**columns(labels), **meta, **humans, **FAST)
    for arm in ("explicit", "silent"):
        for short, scoring in (("acc", "accuracy"), ("mae", "neg_mae")):
            key = f"alt_test/informed/{short}/zs/{arm}"
            judge = {i: float(majority[i]) for i in items}
            ref = alt_test(
                judge,
                {h: {x[0]: float(mist.CODES[x[2]]) for x in rows if x[1] == h} for h in ("h1", "h2", "h3")},
                scoring=scoring,
                epsilon=0.2,
            )
            assert r[f"{key}/winning_rate"] == pytest.approx(ref.winning_rate)
            assert r[f"{key}/advantage_probability"] == pytest.approx(ref.advantage_probability)
            assert r[f"{key}/passed"] is bool(ref.passed)
        assert r[f"alt_test/informed/acc/zs/{arm}/passed"] is True


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
    assert spec.score is mist.score
    r = mist.score(**columns(TWO_ITEMS), meta_item_ids=["i1", "i2"], meta_cells=["T2", "T3"], **FAST)
    documented = {k.name for k in spec.result_keys}
    main = {k for k in r if k.count("/") <= 2 and not k.endswith(("/n", "/n_changed"))}
    assert main - {"n_labels"} <= documented


BASE = columns(grid("i", "zs", "FF", "FF", "FF", "FF", "FF"))


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"arms": BASE["arms"][:-1]}, "arms=4"),
        ({"predictions": ["FF", "XX", "FF", "FF", "FF"]}, r"`predictions` has 1 values outside.*'XX'"),
        ({"predictions": ["FF", None, "FF", "FF", float("nan")]}, r"`predictions` has 2 missing.*\[1, 4\]"),
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
