"""The probes' statistics against independent references (scipy, statsmodels, brute force) on edge cases."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from mmjudge.benchmarks import (
    ProbeData,
    Variant,
    clustered_mean_effect,
    clustered_rate_effect,
    mean_effect,
    rate_effect,
)
from mmjudge.benchmarks.emoprefer.probes import PROBES as EMOPREFER_PROBES
from mmjudge.benchmarks.emoprefer.probes import judgebench_verdicts
from mmjudge.benchmarks.emoprefer.scoring import score as emoprefer_score
from mmjudge.benchmarks.emoprefer.scoring import swap_consistency
from mmjudge.benchmarks.emorealm.probes import PROBES as EMOREALM_PROBES
from mmjudge.benchmarks.emorealm.probes import AblatedQuestion
from mmjudge.benchmarks.isovrbench.probes import PROBES as ISOVR_PROBES
from mmjudge.benchmarks.isovrbench.probes import frame_slope, generator_predictions
from mmjudge.queries import ScoreQuery, Verdict
from mmjudge.robustness import measure_repeats


def _probe(probes, name):  # type: ignore[no-untyped-def]
    (probe,) = [p for p in probes if p.name == name]
    return probe


def _effects(outcome):  # type: ignore[no-untyped-def]
    return {e.name: e for e in outcome.effects}


# ---------------------------------------------------------------- proportions


@pytest.mark.parametrize(("k", "n"), [(0, 5), (5, 5), (3, 7), (1, 1)])
def test_rate_effect_is_the_wilson_interval_of_statsmodels(k: int, n: int) -> None:
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    effect = rate_effect("r", k, n, "d")
    assert effect.value == pytest.approx(100 * k / n)
    assert (effect.ci_low, effect.ci_high) == (pytest.approx(100 * low), pytest.approx(100 * high))


def test_rate_effect_of_nothing_is_none_with_a_note() -> None:
    effect = rate_effect("r", 0, 0, "d")
    assert effect.value is None and effect.n == 0 and effect.note


def _textbook_jackknife(values: np.ndarray, groups: np.ndarray) -> tuple[float, float, int]:
    """The mean, its delete-one-cluster jackknife variance ``(G-1)/G sum (m_(g) - mean m_(.))^2`` and ``G - 1``,
    written out for clusters of equal size."""
    labels = np.unique(groups)
    left_out = np.array([values[groups != g].mean() for g in labels])
    g = len(labels)
    return float(values.mean()), float((g - 1) / g * np.sum((left_out - left_out.mean()) ** 2)), g - 1


def _clustered_hits(seed: int, prompts: int, per: int, mu: float = 0.5, sd: float = 1.5) -> tuple[list, list]:
    """0/1 outcomes of ``per`` units in each of ``prompts`` prompts sharing a logit effect ``N(0, sd)``."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(prompts), per)
    u = rng.normal(0.0, sd, prompts)
    hits = rng.random(groups.size) < 1.0 / (1.0 + np.exp(-(mu + u[groups])))
    return hits.tolist(), [f"p{g}" for g in groups]


def test_clustered_rate_effect_is_wilson_on_the_jackknife_effective_size() -> None:
    """Written out: n_eff = p (1 - p) / v from the textbook jackknife of the clusters, then statsmodels' Wilson
    interval at n_eff with the alpha whose z equals t on G - 1 degrees of freedom."""
    from scipy import stats
    from statsmodels.stats.proportion import proportion_confint

    hits, groups = _clustered_hits(1, 40, 5)
    effect = clustered_rate_effect("r", hits, groups, "d", cluster="prompt")
    mean, variance, df = _textbook_jackknife(np.asarray(hits, dtype=float), np.asarray(groups))
    p = mean
    n_eff = min(max(p * (1 - p) / variance, 1.0), len(hits))
    assert 40 < n_eff < 150 and min(p, 1 - p) * n_eff > 3  # clustered, and far from the Poisson repair's ends
    alpha = 2 * stats.norm.sf(stats.t.ppf(0.975, df))
    low, high = proportion_confint(p * n_eff, n_eff, alpha=alpha, method="wilson")
    assert effect.value == pytest.approx(100 * p) and effect.n == 200
    assert (effect.ci_low, effect.ci_high) == (pytest.approx(100 * low, abs=1e-9), pytest.approx(100 * high, abs=1e-9))
    assert effect.interval == "Wilson score interval on the effective sample size (jackknife over prompts; t quantile)"
    plain = rate_effect("r", sum(hits), len(hits), "d")
    assert effect.ci_high - effect.ci_low > 1.3 * (plain.ci_high - plain.ci_low)  # the prompts differ a lot


def test_clustered_effects_of_independent_units_are_the_plain_ones() -> None:
    hits = [True, False, True, True, False, True, True]
    assert clustered_rate_effect("r", hits, list("abcdefg"), "d", cluster="prompt") == rate_effect("r", 5, 7, "d")
    values = [0.5, -1.0, 2.0, 0.0, 1.5, 3.0]
    assert clustered_mean_effect("m", values, list("abcdef"), "d", unit="score", cluster="prompt") == mean_effect(
        "m", values, "d", unit="score"
    )
    assert clustered_rate_effect("r", [], [], "d", cluster="prompt") == rate_effect("r", 0, 0, "d")


def test_clustered_mean_effect_is_the_jackknife_t_interval() -> None:
    from scipy import stats

    rng = np.random.default_rng(2)
    groups = np.repeat(np.arange(15), 4)
    values = rng.normal(0.0, 1.0, 15)[groups] + rng.normal(0.3, 0.5, groups.size)
    effect = clustered_mean_effect("m", values.tolist(), groups.tolist(), "d", unit="score", cluster="prompt")
    mean, variance, df = _textbook_jackknife(values, groups)
    low, high = stats.t.interval(0.95, df, loc=mean, scale=math.sqrt(variance))
    assert effect.value == pytest.approx(mean)
    assert (effect.ci_low, effect.ci_high) == (pytest.approx(low), pytest.approx(high))
    assert effect.note == "thin: 15 prompts (under 30)" and effect.n == 60


def test_clustered_effects_need_enough_clusters_and_one_id_per_unit() -> None:
    few = clustered_rate_effect("r", [True, False] * 4, ["a", "a", "b", "b", "c", "c", "d", "d"], "d",
                                cluster="prompt", note="2 left out")  # fmt: skip
    assert few.value == 50.0 and few.ci_low is None and few.ci_high is None
    assert few.note == "2 left out; no interval: 4 prompts (at least 5 needed)"
    with pytest.raises(ValueError, match="3 hits but 2 cluster ids"):
        clustered_rate_effect("r", [True, False, True], ["a", "b"], "d", cluster="prompt")
    with pytest.raises(ValueError, match="2 values but 1 cluster ids"):
        clustered_mean_effect("m", [1.0, 2.0], ["a"], "d", unit="score", cluster="prompt")


@pytest.mark.simulation
@pytest.mark.parametrize(("prompts", "per"), [(40, 5), (12, 5), (200, 5)])
def test_clustered_rate_effect_covers_where_the_plain_wilson_does_not(prompts: int, per: int) -> None:
    """IsoVRBench's structure: clips of one anchor prompt share its difficulty (logit sd 1.5). Over 400 draws
    the plain Wilson interval over the clips covers the population rate 80-85% of the time (12, 40, 200
    prompts: 80.5%, 84.5%, 81.8%); the clustered one at least 93% (measured 95.0%, 96.5%, 96.0%)."""
    from scipy import integrate

    mu, sd, replicates = 0.5, 1.5, 400
    density = lambda u: np.exp(-u * u / (2 * sd * sd)) / (sd * math.sqrt(2 * math.pi))  # noqa: E731
    truth = 100 * integrate.quad(lambda u: density(u) / (1 + math.exp(-(mu + u))), -15 * sd, 15 * sd)[0]
    plain = clustered = 0
    for seed in range(replicates):
        hits, groups = _clustered_hits(1000 + seed, prompts, per, mu, sd)
        a = rate_effect("r", sum(hits), len(hits), "d")
        b = clustered_rate_effect("r", hits, groups, "d", cluster="prompt")
        plain += a.ci_low <= truth <= a.ci_high
        clustered += b.ci_low <= truth <= b.ci_high
    assert plain / replicates < 0.90
    assert 0.93 <= clustered / replicates <= 0.995


# ---------------------------------------------------------------- frame slope


def _cluster_se(x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """Slope and CR1 clustered SE written out: (X'X)^-1 sum_g X_g'e_g e_g'X_g (X'X)^-1, G/(G-1) (N-1)/(N-K)."""
    design = np.column_stack([np.ones_like(x), x])
    bread = np.linalg.inv(design.T @ design)
    beta = bread @ design.T @ y
    resid = y - design @ beta
    meat = sum(np.outer(design[groups == g].T @ resid[groups == g], design[groups == g].T @ resid[groups == g])
               for g in np.unique(groups))  # fmt: skip
    n, k, clusters = len(y), 2, len(np.unique(groups))
    cov = bread @ meat @ bread * clusters / (clusters - 1) * (n - 1) / (n - k)
    return float(beta[1]), float(math.sqrt(cov[1, 1]))


def test_frame_slope_matches_linregress_and_a_written_out_cluster_robust_se() -> None:
    from scipy.stats import linregress, norm

    rng = np.random.default_rng(3)
    counts = np.array([4, 8, 16, 32, 48])
    pairs = 40
    frames = np.tile(counts, pairs)
    groups = np.repeat(np.arange(pairs), len(counts))
    correct = 100.0 * (rng.random(len(frames)) < 0.3 + 0.1 * np.log2(frames) / 6)
    effect = frame_slope(frames.tolist(), correct.tolist(), groups.tolist())
    assert effect.value == pytest.approx(linregress(np.log2(frames), correct).slope)
    slope, se = _cluster_se(np.log2(frames), correct, groups)
    z = norm.ppf(0.975)
    assert (effect.ci_low, effect.ci_high) == (pytest.approx(slope - z * se), pytest.approx(slope + z * se))
    assert effect.p_value == pytest.approx(2 * norm.sf(abs(slope / se)))
    assert effect.n == pairs


def test_frame_slope_edge_cases() -> None:
    assert frame_slope([8, 8], [0, 100], ["a", "b"]).value is None  # one frame count
    blind = frame_slope([4, 8, 4, 8], [100, 100, 0, 0], ["a", "a", "b", "b"])
    assert blind.value == pytest.approx(0.0, abs=1e-12) and blind.p_value is None
    all_right = frame_slope([4, 8, 4, 8], [100] * 4, ["a", "a", "b", "b"])
    assert all_right.value == pytest.approx(0.0, abs=1e-12) and all_right.ci_low == all_right.ci_high


# ---------------------------------------------------------------- generator predictor


def test_generator_predictor_matches_a_generator_rule_and_falls_back_to_the_majority() -> None:
    keys = [("A", "B")] * 5 + [("A", "C")] * 5
    labels = ["rejected"] * 5 + ["chosen"] * 5
    assert generator_predictions(keys, labels) == labels
    # a key seen once has no training pair: the training majority answers for it
    keys2 = [*keys, ("A", "D")]
    labels2 = [*labels, "chosen"]
    predicted = generator_predictions(keys2, labels2, seed=1)
    assert predicted[:10] == labels
    assert predicted[10] in ("chosen", "rejected")
    assert generator_predictions(keys2, labels2, seed=1) == predicted  # seeded


def test_generator_predictor_equals_a_decision_tree_on_one_hot_generators() -> None:
    """A fully grown tree on the one-hot generator pair predicts the majority per pair, as the rule does."""
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(0)
    pool = [("A", "B"), ("A", "C"), ("B", "C")]
    keys = [pool[k] for k in rng.integers(0, 3, 60)]
    rule = {("A", "B"): 0.9, ("A", "C"): 0.2, ("B", "C"): 0.6}
    labels = ["chosen" if rng.random() < rule[k] else "rejected" for k in keys]
    ours = generator_predictions(keys, labels, seed=4)
    groups = [f"{a}\x00{b}" for a, b in keys]
    onehot = OneHotEncoder().fit_transform(np.array(keys)).toarray()
    folds = list(StratifiedKFold(5, shuffle=True, random_state=4).split(onehot, groups))
    tree = cross_val_predict(DecisionTreeClassifier(random_state=0), onehot, labels, cv=folds)
    tied = set()  # held-out pairs whose training cell is split exactly in half: tie-breaking may differ
    for train, test in folds:
        for i in test:
            same = [labels[j] for j in train if keys[j] == keys[i]]
            if same.count("chosen") * 2 == len(same):
                tied.add(i)
    checked = [i for i in range(len(keys)) if i not in tied]
    assert len(checked) >= 50
    assert [ours[i] for i in checked] == [tree[i] for i in checked]


# ---------------------------------------------------------------- ties probe


def _clip(i: str) -> ScoreQuery:
    return ScoreQuery(i, Path(f"{i}.mp4"), "p")


def test_ties_probe_counts_equal_scores_against_brute_force() -> None:
    scores = {"c1": 1.0, "c2": 1.0, "c3": 2.0, "c4": 1.0, "c5": 3.0}
    verdicts = {k: Verdict(k, v) for k, v in scores.items()}
    verdicts["c6"] = Verdict.failed("c6", "MediaError: unreadable")
    variants = [Variant(_clip("c1::control"), "c1", {}), Variant(_clip("c3::control"), "c3", {}),
                Variant(_clip("c6::control"), "c6", {})]  # fmt: skip
    variant_verdicts = {"c1::control": Verdict("c1::control", 1.0), "c3::control": Verdict("c3::control", 2.5),
                        "c6::control": Verdict("c6::control", 0.0)}  # fmt: skip
    scored = {"tie_rate": 50.0, "tie_rate_ci_low": 10.0, "tie_rate_ci_high": 90.0, "n_pairs": 2}
    data = ProbeData([], [], verdicts, variants, variant_verdicts, scores=scored)
    effects = _effects(_probe(ISOVR_PROBES, "ties").measure(data))
    pairs = list(itertools.combinations(scores.values(), 2))
    assert effects["equal_score_rate"].value == pytest.approx(100 * sum(a == b for a, b in pairs) / len(pairs))
    assert effects["control_tie_rate"].value == 50.0 and effects["control_tie_rate"].n == 2  # c6 left out
    assert "1 control(s) without a judgment" in effects["control_tie_rate"].note
    assert effects["tie_rate"].value == 50.0 and effects["tie_rate"].n == 2  # the scorer's, unchanged
    assert effects["score_spread"].value == pytest.approx(np.std(list(scores.values())))


# ---------------------------------------------------------------- EmoPrefer swap


def _pref_rows(gold: list[str]) -> list[dict[str, str]]:
    return [{"name": f"n{k}", "preference": g, "a1": "x y", "a2": "x"} for k, g in enumerate(gold)]


def test_swap_probe_matches_the_scorer_and_the_position_rule() -> None:
    gold = ["a1", "a2", "same", "a1"] * 2  # eight items: enough for an interval
    forward = ["a1", "a2", "same", "a2"] * 2
    reversed_ = ["a2", "a2", "same", "a1"] * 2
    verdicts = {f"n{k}": Verdict(f"n{k}", f) for k, f in enumerate(forward)}
    verdicts |= {f"n{k}::reversed": Verdict(f"n{k}::reversed", r) for k, r in enumerate(reversed_)}
    scores = emoprefer_score(forward, gold, reversed_, n_resamples=0)
    outcome = _probe(EMOPREFER_PROBES, "swap").measure(ProbeData(_pref_rows(gold), [], verdicts, scores=scores))
    effects = _effects(outcome)
    # back-mapped reversed answers a1, a1, same, a2 agree with the forward ones on n0, n2, n3
    assert effects["swap_consistency"].value == swap_consistency(forward, reversed_) == 75.0
    assert effects["swap_consistency"].ci_low == scores["swap_consistency_ci_low"] < 75.0
    answers = [a for a in forward + reversed_ if a != "same"]  # a1 answers are first-position answers
    assert effects["first_rate"].value == pytest.approx(100 * answers.count("a1") / len(answers))
    assert outcome.details["gold_first_rate"] == 50.0
    assert effects["position_bias"].value == pytest.approx(effects["first_rate"].value - 50.0)
    assert effects["first_rate"].value == pytest.approx(100 * 2 / 6)
    # two answers per item (both orders): the interval is clustered by item, and the bias carries it shifted
    jackknifed = "Wilson score interval on the effective sample size (jackknife over items; t quantile)"
    assert effects["first_rate"].interval == effects["position_bias"].interval == jackknifed
    assert effects["position_bias"].ci_low == pytest.approx(effects["first_rate"].ci_low - 50.0)
    assert judgebench_verdicts(forward, reversed_) == ["a1", "same", "same", "a2"] * 2
    assert effects["judgebench_accuracy"].value == pytest.approx(100 * 2 / 4)  # n0 right, n2 same==same


def test_irrelevant_prompt_probe_clusters_the_clips_of_one_prompt() -> None:
    """Three pairs per anchor prompt: own_prompt_preferred and prompt_drop are clustered by prompt (12 prompts,
    thin), while a design with one clip per prompt keeps the plain Wilson interval."""
    rows, verdicts, variants, variant_verdicts = [], {}, [], {}
    rng = np.random.default_rng(5)
    for k in range(36):
        prompt, clip = f"prompt {k // 3}", f"c{k}"
        rows.append({"pair_id": f"pair{k}", "prompt": prompt, "clip_id_chosen": clip, "clip_id_rejected": f"r{k}"})
        verdicts[clip] = Verdict(clip, float(rng.integers(0, 5)))
        variants.append(Variant(_clip(f"{clip}::prompt-of::x"), clip, {"prompt_from": "x"}))
        variant_verdicts[f"{clip}::prompt-of::x"] = Verdict(f"{clip}::prompt-of::x", float(rng.integers(0, 5)))
    probe = _probe(ISOVR_PROBES, "irrelevant_prompt")
    effects = _effects(probe.measure(ProbeData(rows, [], verdicts, variants, variant_verdicts)))
    drops = [verdicts[v.source].value - variant_verdicts[v.query.item_id].value for v in variants]
    groups = [r["prompt"] for r in rows]
    prefer = effects["own_prompt_preferred"]
    assert prefer == clustered_rate_effect("own_prompt_preferred", [d > 0 for d in drops], groups,
                                           prefer.description, cluster="prompt")  # fmt: skip
    assert prefer.interval.endswith("(jackknife over prompts; t quantile)") and prefer.note.startswith("thin: 12")
    assert effects["prompt_drop"].interval == "t interval (jackknife over prompts; t quantile)"
    assert effects["prompt_drop"].value == pytest.approx(np.mean(drops))
    single = [{**r, "prompt": f"own {k}"} for k, r in enumerate(rows)]
    alone = _effects(probe.measure(ProbeData(single, [], verdicts, variants, variant_verdicts)))
    assert alone["own_prompt_preferred"].interval == "wilson" and alone["prompt_drop"].interval == "bootstrap"


def test_swap_probe_reads_a_missing_judgment_as_same_like_the_scorer() -> None:
    verdicts = {"n0": Verdict.failed("n0", "x"), "n0::reversed": Verdict("n0::reversed", "same")}
    outcome = _probe(EMOPREFER_PROBES, "swap").measure(ProbeData(_pref_rows(["same"]), [], verdicts))
    effects = _effects(outcome)
    assert effects["judgebench_accuracy"].value == 100.0
    assert effects["first_rate"].value is None and effects["position_bias"].value is None


def test_longer_description_rate_counts_only_decided_answers_of_unequal_length() -> None:
    rows = [{"name": "a", "preference": "a1", "a1": "one two three", "a2": "one"},
            {"name": "b", "preference": "a1", "a1": "one", "a2": "one two"},
            {"name": "c", "preference": "same", "a1": "x", "a2": "y"}]  # fmt: skip
    verdicts = {"a": Verdict("a", "a1"), "b": Verdict("b", "a2"), "c": Verdict("c", "a1")}
    effects = _effects(_probe(EMOPREFER_PROBES, "longer_description").measure(ProbeData(rows, [], verdicts)))
    assert effects["longer_rate"].value == 100.0 and effects["longer_rate"].n == 2
    assert effects["gold_longer_rate"].value == 50.0 and effects["gold_longer_rate"].n == 2


# ---------------------------------------------------------------- EmoReAlM ablation


def test_modality_drop_is_the_difference_of_accuracies_with_a_paired_interval() -> None:
    from mmjudge.benchmarks.emorealm.queries import EmoRealmQuestion

    rows = [{"id": f"q{k}", "answer": "A", "task": "reasoning_basic_audio"} for k in range(6)]
    items = [EmoRealmQuestion(f"q{k}", Path("v.mp4"), Path("a.wav"), "q", ("(A) x", "(B) y"), "reasoning_basic_audio")
             for k in range(6)]  # fmt: skip
    probe = _probe(EMOREALM_PROBES, "modality_ablation")
    variants = probe.variants(rows, items)
    assert len(variants) == 12 and all(isinstance(v.query, AblatedQuestion) for v in variants)
    no_audio = [v for v in variants if v.change == {"removed": "audio"}]
    assert all(v.query.audio is None and not v.query.audio_from_video and v.query.video for v in no_audio)
    verdicts = {f"q{k}": Verdict(f"q{k}", "A") for k in range(6)}
    answers = {"audio": ["A", "B", "B", "B", "A", "A"], "video": ["A"] * 6}
    variant_verdicts = {v.query.item_id: Verdict(v.query.item_id, answers[v.change["removed"]][int(v.source[1:])])
                        for v in variants}  # fmt: skip
    outcome = probe.measure(ProbeData(rows, items, verdicts, variants, variant_verdicts))
    effects = _effects(outcome)
    assert [e.name for e in outcome.effects[:2]] == ["drop_without_audio", "drop_without_video"]
    assert effects["drop_without_audio"].value == pytest.approx(100.0 - 50.0)
    assert effects["drop_without_audio"].ci_low <= 50.0 <= effects["drop_without_audio"].ci_high
    assert effects["drop_without_video"].value == 0.0
    assert effects["drop_without_audio/reasoning_basic_audio"].value == effects["drop_without_audio"].value
    assert outcome.details["accuracy_per_task"]["reasoning_basic_audio"] == {
        "full": 100.0, "no_audio": 50.0, "no_video": 100.0
    }


def test_modality_drop_per_task_against_a_hand_count() -> None:
    from mmjudge.benchmarks.emorealm.queries import EmoRealmQuestion

    tasks = ["reasoning_basic_audio"] * 4 + ["modality_agreement"] * 2
    rows = [{"id": f"q{k}", "answer": "A", "task": t} for k, t in enumerate(tasks)]
    items = [EmoRealmQuestion(f"q{k}", Path("v.mp4"), Path("a.wav"), "q", ("(A) x", "(B) y"), t)
             for k, t in enumerate(tasks)]  # fmt: skip
    probe = _probe(EMOREALM_PROBES, "modality_ablation")
    variants = probe.variants(rows, items)
    full = ["A", "A", "B", "A", "A", None]  # q5 without a judgment: wrong
    verdicts = {f"q{k}": Verdict(f"q{k}", a) if a else Verdict.failed(f"q{k}", "x") for k, a in enumerate(full)}
    no_audio = ["B", "B", "B", "A", "A", "A"]
    variant_verdicts = {v.query.item_id: Verdict(v.query.item_id, no_audio[int(v.source[1:])] if v.change["removed"] == "audio"
                        else "A") for v in variants}  # fmt: skip
    effects = _effects(probe.measure(ProbeData(rows, items, verdicts, variants, variant_verdicts)))
    # reasoning_basic_audio: full 3/4, no audio 1/4 -> 50 points; modality_agreement: full 1/2, no audio 2/2 -> -50
    assert effects["drop_without_audio/reasoning_basic_audio"].value == pytest.approx(50.0)
    assert effects["drop_without_audio/modality_agreement"].value == pytest.approx(-50.0)
    assert effects["drop_without_audio"].value == pytest.approx(100 * (4 / 6 - 3 / 6))
    assert effects["drop_without_audio/modality_agreement"].n == 2


def test_an_audio_removed_question_gets_no_audio_from_its_video(monkeypatch: pytest.MonkeyPatch) -> None:
    from mmjudge.benchmarks.emorealm.queries import EmoRealmQuestion
    from mmjudge.judges import MediaRequest
    from mmjudge.runner import decode

    loaded: list[Path] = []
    monkeypatch.setattr(decode, "load_audio", lambda path, rate, **_: loaded.append(path) or np.zeros(4, np.float32))
    base = EmoRealmQuestion("q", Path("clip.mp4"), None, "q", ("(A) x",), "reasoning_basic_audio")
    ablated = AblatedQuestion("q::no_audio", Path("clip.mp4"), None, "q", ("(A) x",), "reasoning_basic_audio", removed="audio")
    request = [MediaRequest(audio_sample_rate=16000)]
    assert decode.decode_query(base, request).inputs[0].audio is not None and loaded == [Path("clip.mp4")]
    assert decode.decode_query(ablated, request).inputs[0].audio is None and len(loaded) == 1


# ---------------------------------------------------------------- repeats


def test_repeat_agreement_treats_two_missing_judgments_as_agreeing() -> None:
    runs = [{"a": Verdict.failed("a", "x"), "b": Verdict("b", "FF")},
            {"a": Verdict.failed("a", "y"), "b": Verdict("b", "WF")}]  # fmt: skip
    effects, details = measure_repeats(["a", "b"], runs, [40.0, 60.0], "agreement")
    assert effects[0].value == 50.0
    assert effects[1].value == pytest.approx(np.std([40.0, 60.0], ddof=1))
    assert details["headline_per_run"] == [40.0, 60.0]
