"""Simulated benchmarks with their cluster structure, for the coverage of the scorers' intervals.

Each :class:`Design` draws one synthetic judge run with a benchmark's structure (units sharing an anchor
prompt, an item, a clip), scores it with the benchmark's own public scorer (the code a user runs) and
knows the population value of every key it checks, so a replicate says whether each nominal interval
covered the truth. The judge's per-unit success is ``logistic(mu + u)`` with one ``u ~ N(0, sd)`` per
cluster (``sd`` the *cluster sd*, on the logit scale; 0 makes the units independent); population values
integrate over ``u`` with Gauss-Hermite quadrature, exactly, not by a bigger simulation.

Used by ``benchmarks/bench_coverage.py`` (the full table in ``docs/performance.md``) and
``tests/stats/test_coverage.py`` (a few hundred replicates of one design per benchmark in ``make test``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "DESIGNS", "ICC_05", "ICC_09", "Design", "Replicates", "coverage", "iso_draw", "iso_small_draw", "iso_small_truth", "iso_small_wins",
    "iso_truth", "run_replicates",
]  # fmt: skip

_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(80)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def _logistic(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _expect(f: Callable[[np.ndarray], np.ndarray], sd: float) -> float:
    """``E[f(u)]`` for ``u ~ N(0, sd)``."""
    return float(np.sum(_WEIGHTS * f(sd * _NODES)))


def _p(mu: float, sd: float) -> float:
    """Population success rate ``E[logistic(mu + u)]`` in percent."""
    return 100.0 * _expect(lambda u: _logistic(mu + u), sd)


DrawFn = Callable[[np.random.Generator, float, int, int], Mapping[str, tuple[float, float]]]
"""``(rng, sd, n_resamples, seed) -> {key: (low, high)}``: one run scored by the benchmark's scorer."""


@dataclass(frozen=True)
class Design:
    """One benchmark structure: how a run is drawn and scored, and the population value of each key."""

    name: str
    """Row label in the table."""
    structure: str
    """The clusters and their sizes, in words."""
    draw: DrawFn
    """One run scored by the benchmark's scorer (:data:`DrawFn`)."""
    truth: Callable[[float], Mapping[str, float]]
    """``sd -> {key: population value}``."""
    sds: tuple[float, ...] = (0.0, 0.5, 1.0)
    """Cluster sds (logit scale) the table runs it at; 5.4 gives a latent intraclass correlation of 0.9."""
    fast: bool = False
    """Whether ``make test``'s slice runs it."""


# --- IsoVRBench -------------------------------------------------------------------------------------

_ISO_MU = np.linspace(0.2, 2.2, 8)  # eight interventions from near chance to ~90% before the anchor effect


def _iso_interventions() -> tuple[str, ...]:
    from mmjudge.benchmarks.isovrbench.scoring import INTERVENTIONS

    return INTERVENTIONS


def iso_truth(sd: float, shift: float = 0.0) -> dict[str, float]:
    ivs = _iso_interventions()
    rates = {iv: _p(mu + shift, sd) for iv, mu in zip(ivs, _ISO_MU, strict=True)}
    return {
        "average": float(np.mean(list(rates.values()))),
        **{f"accuracy/{iv}": r for iv, r in rates.items()},
    }


def _iso_layout(across: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intervention code, anchor id and logit offset index of each pair.

    across: 1,000 anchors, each in all eight interventions (8,000 pairs: one anchor's eight pairs).
    within: per intervention 200 anchors with 5 pairs each (1,000 pairs, 8,000 in all; anchors nested).
    """
    n_iv = len(_ISO_MU)
    if across:
        iv = np.tile(np.arange(n_iv), 1000)
        anchor = np.repeat(np.arange(1000), n_iv)
    else:
        iv = np.repeat(np.arange(n_iv), 1000)
        anchor = iv * 200 + np.tile(np.repeat(np.arange(200), 5), n_iv)
    return iv, anchor, _ISO_MU[iv]


def _iso_wins(
    rng: np.random.Generator, sd: float, across: bool, shift: float = 0.0, u: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    iv, anchor, mu = _iso_layout(across)
    if u is None:
        u = rng.normal(0.0, sd, anchor.max() + 1)
    win = rng.random(iv.size) < _logistic(mu + shift + u[anchor])
    return iv, anchor, win, u


def _iso_score(
    iv: np.ndarray, anchor: np.ndarray, win: np.ndarray, n_resamples: int, seed: int, clustered: bool = True
) -> dict[str, Any]:
    from mmjudge.benchmarks.isovrbench.scoring import score

    ivs = np.asarray(_iso_interventions())
    cluster = [f"p{a}" for a in anchor] if clustered else None  # None: every pair its own (the old intervals)
    return score(list(ivs[iv]), score_chosen=win.astype(float), score_rejected=(~win).astype(float),
                 pair_id=[str(k) for k in range(iv.size)], cluster=cluster,
                 n_resamples=n_resamples, seed=seed)  # fmt: skip


def iso_draw(across: bool, keys: tuple[str, ...], *, clustered: bool = True) -> DrawFn:
    """An IsoVRBench draw; ``clustered=False`` scores without the anchor ids (pairs taken as independent), the
    intervals the scorer gave before it knew the clusters."""

    def draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
        iv, anchor, win, _ = _iso_wins(rng, sd, across)
        return _intervals(_iso_score(iv, anchor, win, n_resamples, seed, clustered), keys)

    return draw


def _iso_compare_draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
    """Two judges on the same pairs (5 pairs per anchor within an intervention); the anchor effect is shared
    (a hard prompt is hard for both), the second judge is 0.25 logit weaker."""
    from mmjudge.benchmarks.isovrbench.scoring import INTERVENTIONS, metric_specs, outcomes
    from mmjudge.comparison import compare_units
    from mmjudge.stats import KeyOutcomes

    ivs = np.asarray(INTERVENTIONS)
    iv, anchor, win_a, u = _iso_wins(rng, sd, across=False)
    _, _, win_b, _ = _iso_wins(rng, sd, across=False, shift=-0.25, u=u)
    units = []
    for win in (win_a, win_b):
        table = outcomes(list(ivs[iv]), score_chosen=win.astype(float), score_rejected=(~win).astype(float),
                         pair_id=[str(k) for k in range(iv.size)], cluster=[f"p{a}" for a in anchor])  # fmt: skip
        units.append(KeyOutcomes.of("average", table, metric_specs(table)[0]["average"]))
    c = compare_units(units[0], units[1], n_resamples=n_resamples, seed=seed)
    return {"difference average": (c.ci_low, c.ci_high)}


def _iso_compare_truth(sd: float) -> dict[str, float]:
    return {"difference average": iso_truth(sd)["average"] - iso_truth(sd, shift=-0.25)["average"]}


def _heavy_sizes(rng: np.random.Generator, n: int, cap: int = 40) -> np.ndarray:
    """``n`` heavy-tailed cluster sizes: ``1 + floor(Pareto(1.2))``, at most ``cap`` (median 1, a few clusters
    tens of times larger than most, as when a benchmark holds many items of some clips)."""
    return np.minimum(1 + np.floor(rng.pareto(1.2, n)).astype(np.int64), cap)


def _solve_mu(target: float, sd: float) -> float:
    """The logit ``mu`` whose population rate ``E[logistic(mu + u)]`` is ``target`` percent."""
    from scipy.optimize import brentq

    return float(brentq(lambda m: _p(m, sd) - target, -60.0, 60.0, xtol=1e-12))


def _iso_rates(target: tuple[float, float] | None, sd: float) -> np.ndarray:
    """Each intervention's logit ``mu``: :data:`_ISO_MU`, or population rates spread evenly over ``target``."""
    if target is None:
        return _ISO_MU
    return np.array([_solve_mu(t, sd) for t in np.linspace(target[0], target[1], len(_ISO_MU))])


def iso_small_draw(
    n_prompts: int, heavy: bool, target: tuple[float, float] | None, keys: tuple[str, ...]
) -> DrawFn:
    """An IsoVRBench run of ``n_prompts`` anchor prompts, each in all eight interventions with one pair per
    intervention, or (``heavy``) with a heavy-tailed number of pairs (:func:`_heavy_sizes`, the same for its
    eight interventions); rates :data:`_ISO_MU` or spread over ``target``."""

    def draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
        iv, anchor, win = iso_small_wins(rng, sd, n_prompts, heavy, target)
        return _intervals(_iso_score(iv, anchor, win, n_resamples, seed), keys)

    return draw


def iso_small_wins(
    rng: np.random.Generator,
    sd: float,
    n_prompts: int,
    heavy: bool = False,
    target: tuple[float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One run of :func:`iso_small_draw`: each pair's intervention code, anchor prompt and whether it was won."""
    mu = _iso_rates(target, sd)
    sizes = _heavy_sizes(rng, n_prompts) if heavy else np.ones(n_prompts, dtype=np.int64)
    anchor = np.repeat(np.repeat(np.arange(n_prompts), sizes), len(mu))
    iv = np.tile(np.arange(len(mu)), int(sizes.sum()))
    u = rng.normal(0.0, sd, n_prompts)
    win = rng.random(iv.size) < _logistic(mu[iv] + u[anchor])
    return iv, anchor, win


def iso_layout_draw(
    sizes: Callable[[np.random.Generator, np.ndarray], np.ndarray], n_prompts: int, keys: tuple[str, ...]
) -> DrawFn:
    """An IsoVRBench run of ``n_prompts`` anchor prompts in all eight interventions, prompt ``p`` holding
    ``sizes(rng, u)[p]`` pairs per intervention (``u`` the prompts' effects: sizes may depend on them)."""

    def draw(rng: np.random.Generator, sd: float, n_resamples: int, seed: int) -> dict[str, tuple[float, float]]:
        u = rng.normal(0.0, sd, n_prompts)
        per = np.maximum(1, sizes(rng, u)).astype(np.int64)
        anchor = np.repeat(np.repeat(np.arange(n_prompts), per), len(_ISO_MU))
        iv = np.tile(np.arange(len(_ISO_MU)), int(per.sum()))
        win = rng.random(iv.size) < _logistic(_ISO_MU[iv] + u[anchor])
        return _intervals(_iso_score(iv, anchor, win, n_resamples, seed), keys)

    return draw


def informative_sizes(rng: np.random.Generator, u: np.ndarray) -> np.ndarray:
    """Harder prompts hold more pairs: ``round(exp(-0.9 z))`` pairs scaled to 1-40, ``z`` the prompt's standardised
    effect (the issue's design)."""
    z = u / (u.std() if u.std() > 0 else 1.0)
    raw = np.exp(-0.9 * z)
    return np.clip(np.round(40.0 * raw / raw.max()), 1, 40)


def dominant_sizes(rng: np.random.Generator, u: np.ndarray) -> np.ndarray:
    """Prompt 0 holds half the pairs, every other prompt one per intervention."""
    per = np.ones(u.size)
    per[0] = u.size - 1
    return per


def informative_truth(n_prompts: int, reps: int = 4000) -> Callable[[float], dict[str, float]]:
    """The pair-weighted population value under :func:`informative_sizes` (the key pools pairs, so the truth is
    the expected rate weighted by each prompt's pairs), by Monte Carlo over prompt draws (seeded; 4,000 draws of
    ``n_prompts`` prompts: se well under 0.1 points)."""

    def truth(sd: float) -> dict[str, float]:
        rng = np.random.default_rng(4848)
        u = rng.normal(0.0, sd, (reps, n_prompts))
        per = np.stack([informative_sizes(rng, row) for row in u])
        rates = {iv: float(np.sum(per * _logistic(mu + u)) / per.sum()) * 100.0
                 for iv, mu in zip(_iso_interventions(), _ISO_MU, strict=True)}  # fmt: skip
        return {"average": float(np.mean(list(rates.values()))), **{f"accuracy/{iv}": r for iv, r in rates.items()}}

    return truth


def iso_small_truth(target: tuple[float, float] | None) -> Callable[[float], dict[str, float]]:
    def truth(sd: float) -> dict[str, float]:
        ivs = _iso_interventions()
        rates = {iv: _p(mu, sd) for iv, mu in zip(ivs, _iso_rates(target, sd), strict=True)}
        return {
            "average": float(np.mean(list(rates.values()))),
            **{f"accuracy/{iv}": r for iv, r in rates.items()},
        }

    return truth


# --- MIST -------------------------------------------------------------------------------------------

_MIST_LABELS = np.array(["FF", "WF", "FL", "LL"])
_MIST_MU = {("aligned", "explicit"): -1.2, ("aligned", "silent"): -0.6,
            ("misleading", "explicit"): -0.9, ("misleading", "silent"): -0.2}  # fmt: skip
_MIST_PROMPTS = ("zero_shot", "few_shot", "cot", "few_shot_cot")


def _mist_draw(
    rng: np.random.Generator, sd: float, n_resamples: int, seed: int, n_items: int = 200
) -> dict[str, tuple[float, float]]:
    """``n_items`` (200) items x 4 prompt strategies, one judge; each cell is labelled text-only and under both images in
    both arms (20 labels per item). A labelled input changes the text-only label with probability
    ``logistic(mu + u_item)``, to one of the other three labels at random."""
    from mmjudge.benchmarks.mist.scoring import score

    u = rng.normal(0.0, sd, n_items)
    rows: dict[str, list[Any]] = {"item_ids": [], "image_conditions": [], "arms": [], "prompt_strategies": [],
                                  "predictions": []}  # fmt: skip
    for item in range(n_items):
        for prompt in _MIST_PROMPTS:
            base = int(rng.integers(4))
            slots = [("none", "none", base)]
            for (cond, arm), mu in _MIST_MU.items():
                changed = rng.random() < _logistic(mu + u[item])
                code = int((base + rng.integers(1, 4)) % 4) if changed else base
                slots.append((cond, arm, code))
            _add_mist_slots(rows, item, prompt, slots, _MIST_LABELS)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no human labels: the alt-test warns that it cannot run
        scores = score(item_ids=rows["item_ids"], image_conditions=rows["image_conditions"], arms=rows["arms"],
                       prompt_strategies=rows["prompt_strategies"], predictions=rows["predictions"],
                       n_resamples=n_resamples, seed=seed)  # fmt: skip
    return _intervals(scores, tuple(_mist_truth(0.0)))


def _add_mist_slots(rows: dict[str, list[Any]], item: int, prompt: str, slots: list[tuple[str, str, int]],
                    labels: Any, judge: int | None = None) -> None:
    """Append one cell's labels to the scorer's columns ``rows``: each ``(image condition, arm, label code)`` of
    ``slots`` as one row of item ``i<item>`` under ``prompt`` (``labels[code]`` its label; ``j<judge>`` its judge
    when ``rows`` has a judges column)."""
    for cond, arm, code in slots:
        rows["item_ids"].append(f"i{item}")
        rows["image_conditions"].append(cond)
        rows["arms"].append(arm)
        rows["prompt_strategies"].append(prompt)
        rows["predictions"].append(str(labels[code]))
        if judge is not None:
            rows["judges"].append(f"j{judge}")


def _mist_truth(sd: float) -> dict[str, float]:
    def q(cond: str, arm: str) -> Callable[[np.ndarray], np.ndarray]:
        return lambda u: _logistic(_MIST_MU[(cond, arm)] + u)

    def differ(cond: str) -> Callable[[np.ndarray], np.ndarray]:
        # explicit vs silent under the same image: one changed and not the other, or both to different labels
        def f(u: np.ndarray) -> np.ndarray:
            e, s = q(cond, "explicit")(u), q(cond, "silent")(u)
            return e * (1 - s) + s * (1 - e) + e * s * (2.0 / 3.0)

        return f

    out = {f"change_rate/none_to_{c}/{a}": 100.0 * _expect(q(c, a), sd) for c, a in _MIST_MU}
    controls = {c: 100.0 * _expect(differ(c), sd) for c in ("aligned", "misleading")}
    out.update({f"change_rate/control/{c}": v for c, v in controls.items()})
    out["change_rate/control"] = float(np.mean(list(controls.values())))  # equal cells under both images
    return out


# --- EmoPrefer --------------------------------------------------------------------------------------

_PREF_GOLD = (("a1", 0.45), ("a2", 0.45), ("same", 0.10))
_PREF_MU = 0.8


def _pref_answer(rng: np.random.Generator, gold: np.ndarray, p_right: np.ndarray) -> np.ndarray:
    """The gold label with probability ``p_right``, else one of the other two at random."""
    labels = np.array([g for g, _ in _PREF_GOLD])
    code = np.array([list(labels).index(g) for g in gold])
    wrong = (code + rng.integers(1, 3, code.size)) % 3
    return labels[np.where(rng.random(code.size) < p_right, code, wrong)]


def _pref_draw(
    rng: np.random.Generator, sd: float, n_resamples: int, seed: int, n_clips: int = 600, heavy: bool = False
) -> dict[str, tuple[float, float]]:
    """600 items, each on its own clip (the release names one item per clip), judged in the forward and the
    swapped order; the clip effect is shared by both orders of its item. ``heavy``: each clip has a
    heavy-tailed number of items (:func:`_heavy_sizes`)."""
    from mmjudge.benchmarks.emoprefer.scoring import score

    per = _heavy_sizes(rng, n_clips) if heavy else np.ones(n_clips, dtype=np.int64)
    clip = np.repeat(np.arange(n_clips), per)
    u = rng.normal(0.0, sd, n_clips)[clip]
    labels, shares = zip(*_PREF_GOLD, strict=True)
    gold = rng.choice(np.array(labels), size=clip.size, p=np.array(shares))
    p_right = _logistic(_PREF_MU + u)
    forward = _pref_answer(rng, gold, p_right)
    flip = {"a1": "a2", "a2": "a1", "same": "same"}
    swapped = _pref_answer(rng, np.array([flip[g] for g in gold]), p_right)  # in the reversed file's labels
    scores = score(list(forward), list(gold), list(swapped), ids=[f"n{k}" for k in range(clip.size)],
                   clusters=[f"clip{c}" for c in clip], n_resamples=n_resamples, seed=seed)  # fmt: skip
    return _intervals(scores, tuple(_pref_truth(0.0)))


def _pref_truth(sd: float) -> dict[str, float]:
    from mmjudge.stats._classification import weighted_f1_from_counts

    right = _expect(lambda u: _logistic(_PREF_MU + u), sd)
    share = dict(_PREF_GOLD)
    names = [g for g, _ in _PREF_GOLD]
    table = np.array([[share[g] * (right if p == g else (1 - right) / 2) for p in names] for g in names])
    two = table[:2, :2].copy()
    two[:, 0] += table[:2, 2]  # predicted "same" counts as a1; gold "same" items are dropped
    # swap consistency: the swapped answer, mapped back, equals the forward one
    both_right = _expect(lambda u: _logistic(_PREF_MU + u) ** 2, sd)
    both_wrong = _expect(lambda u: (1 - _logistic(_PREF_MU + u)) ** 2, sd)
    consistent = both_right + both_wrong / 2  # both wrong: the same wrong label with probability 1/2
    return {
        "waf_3class": 100.0 * float(weighted_f1_from_counts(table[None])[0]),
        "acc_3class": 100.0 * float(np.trace(table)),
        "waf_2class": 100.0 * float(weighted_f1_from_counts(two[None])[0]),
        "acc_2class": 100.0 * float(np.trace(two) / two.sum()),
        "swap_consistency": 100.0 * consistent,
    }


# --- EmoReAlM ---------------------------------------------------------------------------------------

_REALM_MU = {"reasoning_basic_audio": 0.9, "reasoning_basic_video": 1.3, "reasoning_stress_audio": 0.1,
             "reasoning_stress_video": 0.4, "modality_agreement": 0.6}  # fmt: skip
_REALM_YES_NO = ("reasoning_stress_audio", "reasoning_stress_video", "modality_agreement")
_REALM_NO_SHIFT = -0.7  # gold-No questions are harder (judges lean to Yes)


def _realm_layout() -> np.ndarray:
    """The video of each of 4,000 questions on 2,649 videos: 1,500 with one question, 947 with two, 202 with
    three (the release's counts; its per-video split is not published)."""
    sizes = np.repeat([1, 2, 3], [1500, 947, 202])
    return np.repeat(np.arange(sizes.size), sizes)


def _realm_draw(
    rng: np.random.Generator, sd: float, n_resamples: int, seed: int, n_videos: int | None = None
) -> dict[str, tuple[float, float]]:
    """The release's layout (:func:`_realm_layout`), or ``n_videos`` videos with heavy-tailed question counts."""
    from mmjudge.benchmarks.emorealm.scoring import score

    video = (
        _realm_layout() if n_videos is None else np.repeat(np.arange(n_videos), _heavy_sizes(rng, n_videos))
    )
    u = rng.normal(0.0, sd, video.max() + 1)[video]
    tasks = np.array(list(_REALM_MU))[rng.permutation(np.arange(video.size) % len(_REALM_MU))]
    yes_no = np.isin(tasks, _REALM_YES_NO)
    gold_yes = yes_no & (rng.random(video.size) < 0.5)
    mu = np.array([_REALM_MU[t] for t in tasks]) + np.where(yes_no & ~gold_yes, _REALM_NO_SHIFT, 0.0)
    right = rng.random(video.size) < _logistic(mu + u)
    letters = np.array(list("ABCD"))
    gold = np.where(yes_no, np.where(gold_yes, 0, 1), rng.integers(0, 4, video.size))
    n_choices = np.where(yes_no, 2, 4)
    offset = 1 + np.floor(rng.random(video.size) * (n_choices - 1)).astype(int)  # a wrong letter, uniformly
    answer = np.where(right, gold, (gold + offset) % n_choices)
    choices = [["(A) Yes", "(B) No"] if y else ["(A) a", "(B) b", "(C) c", "(D) d"] for y in yes_no]
    scores = score([str(letters[a]) for a in answer], [str(letters[g]) for g in gold], list(tasks), choices=choices,
                   ids=[f"q{k}" for k in range(video.size)], clusters=[f"v{v}" for v in video],
                   n_resamples=n_resamples, seed=seed)  # fmt: skip
    return _intervals(scores, tuple(_realm_truth(0.0)))


def _realm_truth(sd: float) -> dict[str, float]:
    out: dict[str, float] = {}
    for task, mu in _REALM_MU.items():
        if task in _REALM_YES_NO:
            yes, no = _p(mu, sd), _p(mu + _REALM_NO_SHIFT, sd)
            out[f"accuracy/{task}"] = (yes + no) / 2  # gold Yes and No equally likely
            if task == "modality_agreement":
                out[f"yes_accuracy/{task}"], out[f"no_accuracy/{task}"] = yes, no
                out[f"yes_no_f1/{task}"] = 2 * yes * no / (yes + no)
        else:
            out[f"accuracy/{task}"] = _p(mu, sd)
    out["overall"] = float(np.mean([out[f"accuracy/{t}"] for t in _REALM_MU]))
    return out


# --- the table --------------------------------------------------------------------------------------


def _intervals(scores: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """``(low, high)`` of each key (NaN when the scorer gave none)."""
    nan = float("nan")
    return {k: (float(scores.get(k + "_ci_low", nan)), float(scores.get(k + "_ci_high", nan))) for k in keys}


_ISO_KEYS = ("average", "accuracy/temporal_shuffle", "accuracy/t2v_1_3b")

DESIGNS: dict[str, Design] = {
    "isovrbench_across": Design(
        "IsoVRBench, anchors across interventions",
        "1,000 anchor prompts, each in all 8 interventions (8 pairs per prompt, 8,000 pairs)",
        iso_draw(True, _ISO_KEYS),
        iso_truth,
    ),
    "isovrbench_within": Design(
        "IsoVRBench, 5 pairs per anchor within an intervention",
        "per intervention 200 prompts x 5 pairs (1,600 prompts nested in 8 interventions, 8,000 pairs)",
        iso_draw(False, _ISO_KEYS),
        iso_truth,
    ),
    "isovrbench_compare": Design(
        "mmjudge compare, paired difference (IsoVRBench within)",
        "two judges on the pairs of isovrbench_within; anchor effect shared, second judge 0.25 logit weaker",
        _iso_compare_draw,
        _iso_compare_truth,
    ),
    "mist": Design(
        "MIST change rates",
        "200 items x 4 prompts x 5 inputs, one judge (20 labels per item); cluster = item",
        _mist_draw,
        _mist_truth,
    ),
    "emoprefer": Design(
        "EmoPrefer-Data",
        "600 items on 600 clips, each in forward and swapped order; cluster = clip",
        _pref_draw,
        _pref_truth,
    ),
    "emorealm": Design(
        "EmoReAlM",
        "4,000 questions on 2,649 videos (1-3 per video) across 5 tasks; cluster = video",
        _realm_draw,
        _realm_truth,
    ),
}


ICC_09 = 5.4
"""Cluster sd (logit scale) of a latent intraclass correlation of 0.9: ``sd^2 / (sd^2 + pi^2 / 3)``."""
ICC_05 = float(np.pi / np.sqrt(3.0))
"""Cluster sd (logit scale) of a latent intraclass correlation of 0.5."""
_SMALL_KEYS = ("average", "accuracy/temporal_shuffle")
_HIGH, _LOW = (97.0, 99.5), (0.5, 3.0)

for _g in (5, 10, 20, 30):
    DESIGNS[f"isovrbench_{_g}_prompts"] = Design(
        f"IsoVRBench, {_g} prompts", f"{_g} anchor prompts, each in all 8 interventions (one pair each)",
        iso_small_draw(_g, False, None, _SMALL_KEYS), iso_small_truth(None), (1.0, ICC_09), fast=_g in (5, 10),
    )  # fmt: skip
for _g in (5, 20, 100):
    DESIGNS[f"isovrbench_{_g}_prompts_high"] = Design(
        f"IsoVRBench, {_g} prompts, near-perfect judge",
        f"{_g} anchor prompts in all 8 interventions; rates 97-99.5% across interventions",
        iso_small_draw(_g, False, _HIGH, _SMALL_KEYS), iso_small_truth(_HIGH), (0.5, 1.0, ICC_09), fast=_g == 20,
    )  # fmt: skip
    DESIGNS[f"isovrbench_{_g}_prompts_rare"] = Design(
        f"IsoVRBench, {_g} prompts, rare outcome",
        f"{_g} anchor prompts in all 8 interventions; rates 0.5-3% across interventions (a rare tie rate)",
        iso_small_draw(_g, False, _LOW, _SMALL_KEYS), iso_small_truth(_LOW), (0.5, 1.0, ICC_09), fast=_g == 100,
    )  # fmt: skip
DESIGNS["isovrbench_30_prompts_informative"] = Design(
    "IsoVRBench, 30 prompts, harder prompts hold more pairs",
    "30 anchor prompts in all 8 interventions, 1-40 pairs each by exp(-0.9 z) of the prompt effect z (informative "
    "cluster sizes); the truth is the pair-weighted rate",
    iso_layout_draw(informative_sizes, 30, _SMALL_KEYS), informative_truth(30), (1.0, ICC_09),
)  # fmt: skip
for _g in (10, 40):
    DESIGNS[f"isovrbench_{_g}_prompts_dominant"] = Design(
        f"IsoVRBench, {_g} prompts, one holding half the pairs",
        f"{_g} anchor prompts in all 8 interventions; prompt 0 holds half the pairs ({_g - 1} per intervention), "
        "the others one each",
        iso_layout_draw(dominant_sizes, _g, _SMALL_KEYS), iso_small_truth(None), (1.0,),
    )  # fmt: skip
_NEAR_PERFECT = (99.5, 99.5)
DESIGNS["isovrbench_125_prompts_995"] = Design(
    "IsoVRBench, 125 prompts, 99.5% in every intervention",
    "125 anchor prompts in all 8 interventions (one pair each); every rate 99.5% (the boundary repair on a "
    "clustered effective sample size)",
    iso_small_draw(125, False, _NEAR_PERFECT, _SMALL_KEYS), iso_small_truth(_NEAR_PERFECT), (ICC_05, ICC_09),
)  # fmt: skip
for _g in (30, 60, 100):
    DESIGNS[f"isovrbench_{_g}_prompts_unequal"] = Design(
        f"IsoVRBench, {_g} prompts of unequal size",
        f"{_g} anchor prompts in all 8 interventions with 1-40 pairs each (heavy-tailed, median 1)",
        iso_small_draw(_g, True, None, _SMALL_KEYS), iso_small_truth(None), (1.0, ICC_09), fast=_g == 60,
    )  # fmt: skip
DESIGNS["mist_20_items"] = Design(
    "MIST change rates, 20 items", "20 items x 4 prompts x 5 inputs (20 labels per item); cluster = item",
    lambda rng, sd, n, seed: _mist_draw(rng, sd, n, seed, n_items=20), _mist_truth, (1.0, ICC_09), fast=True,
)  # fmt: skip
DESIGNS["emoprefer_20_clips"] = Design(
    "EmoPrefer-Data, 20 clips of unequal size", "20 clips with 1-40 items each (heavy-tailed); cluster = clip",
    lambda rng, sd, n, seed: _pref_draw(rng, sd, n, seed, n_clips=20, heavy=True), _pref_truth, (1.0, ICC_09),
    fast=True,
)  # fmt: skip
DESIGNS["emoprefer_100_clips_unequal"] = Design(
    "EmoPrefer-Data, 100 clips of unequal size", "100 clips with 1-40 items each (heavy-tailed); cluster = clip",
    lambda rng, sd, n, seed: _pref_draw(rng, sd, n, seed, n_clips=100, heavy=True), _pref_truth, (1.0, ICC_09),
)  # fmt: skip
DESIGNS["emorealm_30_videos"] = Design(
    "EmoReAlM, 30 videos of unequal size", "30 videos with 1-40 questions each (heavy-tailed) across 5 tasks",
    lambda rng, sd, n, seed: _realm_draw(rng, sd, n, seed, n_videos=30), _realm_truth, (1.0, ICC_09),
)  # fmt: skip


class Replicates(NamedTuple):
    """Per replicate of one key: whether its interval covered the population value, and its width."""

    hits: np.ndarray
    """``(replicates,)`` bool; a replicate without an interval counts as not covering."""
    widths: np.ndarray
    """``(replicates,)`` interval widths (NaN where none)."""


def run_replicates(
    design: str | Design,
    sd: float,
    replicates: int,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    first: int = 0,
) -> dict[str, Replicates]:
    """Replicates ``first .. first + replicates - 1`` of ``design`` (a name in :data:`DESIGNS`, or a design)
    at cluster sd ``sd`` (each replicate's random stream depends only on ``seed`` and its number, so blocks
    run in parallel add up to one run)."""
    d = DESIGNS[design] if isinstance(design, str) else design
    truth = d.truth(sd)
    hits: dict[str, list[bool]] = {}
    widths: dict[str, list[float]] = {}
    for r in range(first, first + replicates):
        rng = np.random.default_rng([seed, r])
        for key, (low, high) in d.draw(rng, sd, n_resamples, r).items():
            hits.setdefault(key, []).append(bool(low <= truth[key] <= high))
            widths.setdefault(key, []).append(high - low)
    return {k: Replicates(np.asarray(hits[k]), np.asarray(widths[k])) for k in hits}


def coverage(hits: np.ndarray) -> tuple[float, float]:
    """Coverage and its Monte Carlo standard error."""
    p = float(np.mean(hits))
    return p, float(np.sqrt(p * (1 - p) / max(1, hits.size)))


import _coverage_drift  # noqa: E402, F401  (registers MIST's drift designs in DESIGNS; it reads the helpers above)
import _coverage_strata  # noqa: E402, F401  (registers the unequal-intervention designs the same way)
