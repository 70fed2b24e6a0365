"""VideoGen-RewardBench's scorer against VideoAlign's rules, written here from its ``calc_accuracy.py``.

The reference functions below restate the official code (``suff_stats``, ``calc_accuracy_without_ties``,
``calc_accuracy_with_ties``) as it runs, quirks included: a zero difference is discordant, the tie sweep walks the
pairs one by one in stable order of ``|m|``, removing with ``<`` and adding with ``<=``, and starts from the state
after the first pair, so "no tie" is never a candidate. Each quirk has its own adversarial case, then random draws
full of repeated differences compare every aspect.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mmjudge.benchmarks import videogen_rewardbench as vgrb
from mmjudge.benchmarks._pairwise.scoring import pair_table
from mmjudge.benchmarks.videogen_rewardbench.scoring import crossfit_thresholds, fit_threshold
from mmjudge.errors import SchemaError

LABEL = {1: "A", -1: "B", 0: "same"}


def suff_stats(h, m, epsilon):
    """VideoAlign's table of concordant, discordant and tie counts."""
    C = D = Th = Tm = Thm = 0
    for hi, mi in zip(h, m, strict=True):
        if hi == 0 and abs(mi) <= epsilon:
            Thm += 1
        elif hi == 0:
            Th += 1
        elif abs(mi) <= epsilon:
            Tm += 1
        elif hi * mi > 0:
            C += 1
        else:
            D += 1
    return C, D, Th, Tm, Thm


def official_without_ties(h, m):
    C, D, _, Tm, _ = suff_stats(h, m, -1)
    return C / (C + D + Tm)


def official_with_ties(h, m):
    return official_sweep(h, m)[0]


def official_sweep(h, m):
    """The incremental sweep of ``calc_accuracy_with_ties``, step for step: (acc_star, epsilon_star)."""
    stat = dict(zip(("C", "D", "Th", "Tm", "Thm"), suff_stats(h, m, -1), strict=True))
    best, eps_curr, eps_star = float("-inf"), -1, 0
    for hi, mi in sorted(zip(h, m, strict=True), key=lambda x: abs(x[1])):
        if hi == 0 and abs(mi) < eps_curr:
            stat["Thm"] -= 1
        elif hi == 0:
            stat["Th"] -= 1
        elif abs(mi) < eps_curr:
            stat["Tm"] -= 1
        elif hi * mi > 0:
            stat["C"] -= 1
        else:
            stat["D"] -= 1
        eps_curr = abs(mi)
        if hi == 0 and abs(mi) <= eps_curr:
            stat["Thm"] += 1
        elif hi == 0:
            stat["Th"] += 1
        elif abs(mi) <= eps_curr:
            stat["Tm"] += 1
        elif hi * mi > 0:
            stat["C"] += 1
        else:
            stat["D"] += 1
        acc = (stat["C"] + stat["Thm"]) / sum(stat.values())
        if acc > best:
            best, eps_star = acc, eps_curr
    return best, eps_star


def ours(h, m, **options):
    return vgrb.score([LABEL[x] for x in h], list(m), [0.0] * len(m), aspect=["Overall"] * len(h), **options)


def test_a_zero_difference_is_wrong_and_human_ties_are_left_out():
    h, m = [1, -1, 1, 0, 0], [0.0, -1.0, 0.5, 3.0, 0.0]
    result = ours(h, m)
    assert result["accuracy_without_ties/overall"] == pytest.approx(100 * official_without_ties(h, m)) == 200 / 3
    assert result["n_human_ties/overall"] == 2


def test_the_sweep_never_considers_no_tie():
    h, m = [1, -1], [1.0, -1.0]  # untied, every judgment right: 100 without ties, yet the sweep ties one pair
    assert ours(h, m)["accuracy_with_ties/overall"] == pytest.approx(100 * official_with_ties(h, m)) == 50.0


def test_equal_differences_are_split_by_file_order():
    forward, backward = ([0, 1], [-0.5, 0.5]), ([1, 0], [0.5, -0.5])
    assert ours(*forward)["accuracy_with_ties/overall"] == 100 * official_with_ties(*forward) == 100.0
    assert ours(*backward)["accuracy_with_ties/overall"] == 100 * official_with_ties(*backward) == 50.0


def test_the_epsilon_is_tuned_on_the_pairs_scored():
    h, m = [0, 0, 1, -1, 1], [0.3, 0.1, 0.2, -2.0, 1.0]
    result = ours(h, m)
    assert result["accuracy_with_ties/overall"] == pytest.approx(100 * official_with_ties(h, m)) == 80.0
    # the first best step ties only |m| = 0.1; a true threshold of 0.3 (three ties) scores the same 80
    assert result["epsilon/overall"] == official_sweep(h, m)[1] == 0.1


@pytest.mark.parametrize("seed", range(60))
def test_random_draws_with_repeated_differences_equal_the_official_code(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    h = rng.choice([1, -1, 0], size=n).tolist()
    m = (rng.integers(-3, 4, size=n) / 2).tolist()  # few distinct values: ties in |m| everywhere
    result = ours(h, m, pair_id=[f"p{k}" for k in range(n)])
    assert result["accuracy_with_ties/overall"] == pytest.approx(100 * official_with_ties(h, m))
    assert result["epsilon/overall"] == official_sweep(h, m)[1]
    if any(x != 0 for x in h):
        assert result["accuracy_without_ties/overall"] == pytest.approx(100 * official_without_ties(h, m))


def test_each_aspect_is_scored_on_its_own_pairs():
    rng = np.random.default_rng(7)
    n = 30
    labels, scores, aspects, ids = [], [], [], []
    per = {}
    for a in ("VQ", "MQ", "TA", "Overall"):
        h = rng.choice([1, -1, 0], size=n).tolist()
        m = rng.normal(size=n).round(1).tolist()
        per[a] = (h, m)
        labels += [LABEL[x] for x in h]
        scores += m
        aspects += [a] * n
        ids += [f"p{k}" for k in range(n)]
    result = vgrb.score(labels, scores, [0.0] * len(scores), aspect=aspects, pair_id=ids)
    slugs = {a.name: a.slug for a in vgrb.ASPECTS}
    for name, (h, m) in per.items():
        a = slugs[name]
        assert result[f"accuracy_with_ties/{a}"] == pytest.approx(100 * official_with_ties(h, m))
        assert result[f"accuracy_without_ties/{a}"] == pytest.approx(100 * official_without_ties(h, m))


def test_a_missing_judgment_is_wrong_and_does_not_move_epsilon():
    h, m = [1, 0, -1, 1], [1.0, 0.0, -2.0, 0.5]
    judged = ours(h, m)
    missing = vgrb.score(["A", "same", "B", "A", "A"], [1.0, 0.0, -2.0, 0.5, None], [0.0] * 4 + [None],
                         aspect=["Overall"] * 5, no_judgment=[False] * 4 + [True])  # fmt: skip
    assert missing["epsilon/overall"] == judged["epsilon/overall"]
    # VideoAlign's reward for a missing clip would be NaN: discordant without ties; never a right tie
    assert missing["accuracy_without_ties/overall"] == pytest.approx(100 * official_without_ties([*h, 1], [*m, float("nan")]))
    assert missing["accuracy_with_ties/overall"] == pytest.approx(100 * official_with_ties(h, m) * 4 / 5)
    assert missing["n_no_judgment/overall"] == 1


def test_the_crossfit_threshold_of_a_fold_ignores_that_fold():
    rng = np.random.default_rng(3)
    n = 80
    h = rng.choice([1, -1, 0], size=n)
    m = rng.normal(size=n)
    prompts = [f"prompt {k % 16}" for k in range(n)]
    table = pair_table([LABEL[x] for x in h], m, np.zeros(n), labels=vgrb.LABELS, aspects=vgrb.ASPECTS,
                       aspect=["Overall"] * n, cluster=prompts)  # fmt: skip
    before = crossfit_thresholds(table, 4)
    from mmjudge.queries import item_key

    fold0 = np.array([item_key(p) % 4 == 0 for p in prompts])
    changed = table._replace(diff=np.where(fold0, table.diff * 10 + 5, table.diff))
    after = crossfit_thresholds(changed, 4)
    assert np.array_equal(before[fold0], after[fold0])  # a fold's own pairs never choose its threshold
    train = ~fold0
    assert before[fold0][0] == fit_threshold(table.human[train], table.diff[train])


def test_fit_threshold_is_the_best_true_threshold():
    rng = np.random.default_rng(11)
    for _ in range(50):
        n = int(rng.integers(1, 25))
        h = rng.choice([1, -1, 0], size=n)
        m = rng.integers(-3, 4, size=n) / 2
        eps = fit_threshold(h, m)

        def acc(e, h=h, m=m):
            tie = np.abs(m) <= e
            return np.mean((tie & (h == 0)) | (~tie & (h * m > 0)))

        candidates = [-math.inf, *sorted(set(np.abs(m)))]
        best = max(acc(e) for e in candidates)
        assert acc(eps) == best and eps == min(e for e in candidates if acc(e) == best)


def test_bad_input_is_refused_with_what_to_do():
    with pytest.raises(SchemaError, match="no_judgment=True"):
        vgrb.score(["A"], [float("nan")], [0.0])
    with pytest.raises(SchemaError, match="`folds` must be an integer >= 2"):
        vgrb.score(["A"], [1.0], [0.0], folds=1)
    with pytest.raises(SchemaError, match="aspect"):
        vgrb.score(["A"], [1.0], [0.0], aspect=["Sharpness"])
