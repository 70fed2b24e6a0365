"""IsoVRBench robustness probes: ties and degenerate scores, frame count, irrelevant prompt, generator shortcut.

* ``ties``: the pair tie rate (the scorer's ``tie_rate``), the share of pairs of *different* clips with
  exactly equal scores, identical-clip control pairs (the same anchor judged twice as two queries, up to
  :data:`CONTROLS_PER_INTERVENTION` per intervention as the paper's human study; a tie is the right
  answer) and the spread of clip scores.
* ``frames``: the headline (:data:`HEADLINE`, the mean of the per-intervention accuracies, ties and missing
  judgments wrong) at each count of :data:`SWEEP` (the paper's 4, 8, 16, 32, 48), each clip decoded once,
  scored by the benchmark's scorer with its interval and method as ``mmjudge eval`` reports them at that
  count; the slope of pair correctness on log2(frame count) in points
  per doubling, least squares with standard errors clustered by pair (statsmodels). A judge sampling at
  its own rate (``fps`` in its config) is also judged at each rate of :data:`FPS_SWEEP`.
* ``irrelevant_prompt``: each anchor clip scored again under another pair's prompt (the next pair, in
  reference order, with a different prompt); the drop own - other shows the judge reads the prompt.
* ``generator_shortcut``: on the generator-substitution pairs, how well the two generators' identities
  alone predict the judge's preferred side (the paper's Appendix I predictor, 5-fold), beside the
  judge's accuracy on the same pairs.
"""

from __future__ import annotations

import warnings
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from mmjudge.benchmarks._probes import (
    Effect,
    JudgeTraits,
    Probe,
    ProbeData,
    ProbeOutcome,
    Variant,
    clustered_mean_effect,
    clustered_rate_effect,
    scored_effect,
)
from mmjudge.benchmarks.isovrbench.queries import DIMENSION_HEADS, clip_score, records_from_verdicts
from mmjudge.benchmarks.isovrbench.records import cluster_of, score_inputs
from mmjudge.benchmarks.isovrbench.scoring import choices_from_scores, score
from mmjudge.queries import Query, ScoreQuery, Verdict
from mmjudge.stats import bootstrap_ci

__all__ = [
    "CONTROLS_PER_INTERVENTION",
    "FPS_SWEEP",
    "PROBES",
    "SWEEP",
    "frame_slope",
    "generator_predictions",
]

Row = Mapping[str, Any]

CONTROLS_PER_INTERVENTION = 8
"""Identical-clip control pairs per intervention (the paper's human study shows 8)."""
SWEEP: tuple[int, ...] = (4, 8, 16, 32, 48)
"""The paper's frame-count sweep."""
FPS_SWEEP: tuple[float, ...] = (1.0, 2.0, 4.0)
"""Sampling rates judged too for a judge that samples at its own rate (VideoReward's default is 2 fps)."""
HEADLINE = "average"
"""The headline key (``BENCHMARK.metrics.headline``) the frame-count probe reads at each setting."""


def _head(row: Row) -> str:
    return DIMENSION_HEADS.get(str(row.get("dimension") or "overall"), "overall")


def _pair_choices(rows: Sequence[Row], verdicts: Mapping[str, Verdict]) -> list[str]:
    """The scorer's verdict per pair (chosen / rejected / tie / none) from the clip verdicts."""
    chosen, rejected, missing = [], [], []
    for row in rows:
        a, b = verdicts[str(row["clip_id_chosen"])], verdicts[str(row["clip_id_rejected"])]
        failed = a.no_judgment or b.no_judgment
        missing.append(failed)
        chosen.append(None if failed else clip_score(a.value, _head(row)))
        rejected.append(None if failed else clip_score(b.value, _head(row)))
    return choices_from_scores(chosen, rejected, no_judgment=missing)


# ---------------------------------------------------------------- ties and degenerate scores


def _clip_clusters(rows: Sequence[Row]) -> dict[str, str]:
    """Each clip's top cluster (:func:`~mmjudge.benchmarks.isovrbench.records.cluster_of` of a pair it is in):
    the clips of one anchor prompt are not independent draws, so the probes' intervals are clustered by it (a clip
    in no row is its own cluster)."""
    return {str(r[side]): cluster_of(r) for r in rows for side in ("clip_id_chosen", "clip_id_rejected")}


def _control_variants(rows: Sequence[Row], queries: Sequence[Query]) -> list[Variant]:
    by_id = {i.item_id: i for i in queries}
    taken: Counter[str] = Counter()
    out: dict[str, Variant] = {}
    for row in rows:
        iv, clip = str(row["intervention"]), str(row["clip_id_chosen"])
        if taken[iv] >= CONTROLS_PER_INTERVENTION or clip in out or clip not in by_id:
            continue
        taken[iv] += 1
        item = by_id[clip]
        assert isinstance(item, ScoreQuery)
        change = {
            "control": "the same clip on both sides",
            "intervention": iv,
            "pair_id": str(row["pair_id"]),
        }
        out[clip] = Variant(replace(item, item_id=f"{clip}::control"), clip, change)
    return list(out.values())


def _measure_ties(data: ProbeData) -> ProbeOutcome:
    scores = data.scores
    n_pairs = int(scores.get("n_pairs", 0))
    tie = scored_effect(scores, "tie_rate", n_pairs, "pairs whose two clips got equal scores (the scorer's tie_rate)")
    controls = [
        (v, data.verdicts[v.source], data.variant_verdicts[v.query.item_id])
        for v in data.variants
        if not (data.verdicts[v.source].no_judgment or data.variant_verdicts[v.query.item_id].no_judgment)
    ]
    tied = [clip_score(a.value, "overall") == clip_score(b.value, "overall") for _, a, b in controls]
    left = len(data.variants) - len(controls)
    clusters = _clip_clusters(data.rows)
    control = clustered_rate_effect(
        "control_tie_rate", tied, [clusters.get(v.source, v.source) for v, _, _ in controls],
        "identical-clip control pairs judged a tie (should be 100)", cluster="prompt",
        note=f"{left} control(s) without a judgment left out" if left else "",
    )  # fmt: skip
    values = [clip_score(v.value, "overall") for v in data.verdicts.values() if not v.no_judgment]
    return ProbeOutcome((tie, control, _equal_rate(values), _spread(values, data.seed)), {
        "controls": [
            {"clip_id": v.source, **v.change, "score": clip_score(a.value, "overall"),
             "control_score": clip_score(b.value, "overall")}
            for v, a, b in controls
        ],
        "distinct_scores": len(set(values)),
        "clips": len(values),
    })  # fmt: skip


def _equal_rate(values: Sequence[float]) -> Effect:
    n = len(values)
    description = "pairs of different clips with exactly equal scores"
    if n < 2:
        return Effect("equal_score_rate", None, "%", n, description, note="fewer than two judged clips")
    same = sum(c * (c - 1) // 2 for c in Counter(values).values())
    return Effect(
        "equal_score_rate", 100.0 * same / (n * (n - 1) // 2), "%", n, description,
        note="n counts clips; the clip pairs share clips, so no interval is given",
    )  # fmt: skip


def _spread(values: Sequence[float], seed: int) -> Effect:
    description = "standard deviation of the clip scores (the judge's own scale)"
    if len(values) < 2:
        return Effect(
            "score_spread", None, "score", len(values), description, note="fewer than two judged clips"
        )

    ci = bootstrap_ci(values, lambda x, axis: np.std(x, axis=axis), n_resamples=10_000, seed=seed)
    return Effect("score_spread", float(ci.estimate), "score", len(values), description, float(ci.low),
                  float(ci.high), "bootstrap")  # fmt: skip


# ---------------------------------------------------------------- frame count


def frame_slope(
    frames: Sequence[float], correct: Sequence[float], groups: Sequence[Any], *, name: str = "frame_slope",
    what: str = "frame count",
) -> Effect:
    """Slope of correctness (percent) on log2(frame count), points per doubling, SEs clustered by pair.

    Ordinary least squares (statsmodels ``OLS``, ``cov_type="cluster"``): the point estimate equals
    ``scipy.stats.linregress``'s slope on the same points. When every pair is seen at every count and
    none changes its correctness, the clustered standard error is exactly 0 (the slope is then 0 too):
    it is reported without a p-value.

    >>> e = frame_slope([4, 8, 4, 8], [100, 100, 0, 0], ["p1", "p1", "p2", "p2"])
    >>> abs(e.value) < 1e-9, e.p_value
    (True, None)
    """
    description = f"change of pair accuracy per doubling of the {what} (points)"
    x, y = np.log2(np.asarray(frames, dtype=float)), np.asarray(correct, dtype=float)
    if len(set(x.tolist())) < 2:
        return Effect(
            name, None, "points", len(set(groups)), description, note=f"fewer than two values of the {what}"
        )
    import statsmodels.api as sm

    codes = np.unique(np.asarray([str(g) for g in groups]), return_inverse=True)[1]
    n = int(codes.max()) + 1
    seen = {tuple(sorted(x[codes == g].tolist())) for g in range(n)}
    fixed = len(seen) == 1 and all(np.ptp(y[codes == g]) == 0 for g in range(n))
    fit = sm.OLS(y, sm.add_constant(x)).fit(cov_type="cluster", cov_kwds={"groups": codes})
    slope = float(fit.params[1])
    if fixed:  # every pair at every count, its residual constant: each cluster's score is 0, and so is the SE
        return Effect(name, slope, "points", n, description, slope, slope, "cluster-robust OLS",
                      note=f"no pair's correctness changes with the {what}: the clustered SE is 0")  # fmt: skip
    low, high = (float(v) for v in fit.conf_int(0.05)[1])
    return Effect(name, slope, "points", n, description, low, high, "cluster-robust OLS",
                  p_value=float(fit.pvalues[1]))  # fmt: skip


def _frames_apply(judge: JudgeTraits) -> str:
    if not judge.decodes_frames:
        return f"judge {judge.name!r} reads no video frames, so the frame count cannot change its input"
    return ""


def _scored(rows: Sequence[Row], verdicts: Mapping[str, Verdict]) -> Mapping[str, Any]:
    """The benchmark's own scores of one setting's verdicts, as ``mmjudge eval`` computes them at that setting
    (its warnings concern the scores, which ``mmjudge eval`` reports)."""
    records = records_from_verdicts((), list(verdicts.values()), rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return score(**score_inputs(records, rows))


def _sweep(
    rows: Sequence[Row], sweep: Mapping[Any, Mapping[str, Verdict]], unit: str, name: str, what: str
) -> tuple[list[Effect], dict[str, Any]]:
    """The scorer's headline at each setting of a sweep (value, interval and its method, as ``mmjudge eval``
    reports them at that setting), and the slope of pair correctness on log2(setting)."""
    table: dict[str, Any] = {}
    xs: list[float] = []
    ys: list[float] = []
    groups: list[str] = []
    effects: list[Effect] = []
    for setting in sorted(sweep):
        right = [c == "chosen" for c in _pair_choices(rows, sweep[setting])]
        label = f"{setting:g}"
        description = f"the headline `{HEADLINE}` (mean of the per-intervention accuracies) at {label} {what}"
        accuracy = replace(scored_effect(_scored(rows, sweep[setting]), HEADLINE, len(right), description),
                           name=f"accuracy@{label}{unit}")  # fmt: skip
        effects.append(accuracy)
        table[label] = {"accuracy": accuracy.value, "ci_low": accuracy.ci_low, "ci_high": accuracy.ci_high}
        xs += [float(setting)] * len(right)
        ys += [100.0 * r for r in right]
        groups += [str(r["pair_id"]) for r in rows]
    slope = frame_slope(xs, ys, groups, name=name, what=what)
    return [slope, *effects], table


def _measure_frames(data: ProbeData) -> ProbeOutcome:
    effects, per_count = _sweep(data.rows, data.sweep, "", "frame_slope", "frame count")
    details: dict[str, Any] = {"accuracy_per_frame_count": per_count}
    details["significant"] = effects[0].p_value is not None and effects[0].p_value < 0.05
    if data.fps_sweep:
        fps_effects, per_rate = _sweep(data.rows, data.fps_sweep, "fps", "fps_slope", "sampling rate (fps)")
        effects += fps_effects
        details["accuracy_per_fps"] = per_rate
        details["fps_significant"] = fps_effects[0].p_value is not None and fps_effects[0].p_value < 0.05
    return ProbeOutcome(tuple(effects), details)


# ---------------------------------------------------------------- irrelevant prompt


def _prompt_variants(rows: Sequence[Row], queries: Sequence[Query]) -> list[Variant]:
    by_id = {i.item_id: i for i in queries}
    out: dict[str, Variant] = {}
    for k, row in enumerate(rows):
        clip = str(row["clip_id_chosen"])
        item = by_id.get(clip)
        if clip in out or not isinstance(item, ScoreQuery):
            continue
        other = next(
            (
                rows[(k + j) % len(rows)]
                for j in range(1, len(rows))
                if rows[(k + j) % len(rows)]["prompt"] != item.prompt
            ),
            None,
        )
        if other is None:
            continue
        change = {"prompt_from": str(other["pair_id"]), "prompt": str(other["prompt"])}
        out[clip] = Variant(
            replace(item, item_id=f"{clip}::prompt-of::{other['pair_id']}", prompt=str(other["prompt"])),
            clip,
            change,
        )
    return list(out.values())


def _measure_prompt(data: ProbeData) -> ProbeOutcome:
    drops, groups = [], []
    clusters = _clip_clusters(data.rows)
    for v in data.variants:
        own, other = data.verdicts[v.source], data.variant_verdicts[v.query.item_id]
        if not (own.no_judgment or other.no_judgment):
            drops.append(clip_score(own.value, "TA") - clip_score(other.value, "TA"))
            groups.append(clusters.get(v.source, v.source))
    left = len(data.variants) - len(drops)
    note = f"{left} clip(s) without a judgment left out" if left else ""
    drop = clustered_mean_effect("prompt_drop", drops, groups,
                                 "mean score under the clip's own prompt minus under another pair's prompt",
                                 unit="score", cluster="prompt", seed=data.seed, note=note)  # fmt: skip
    prefer = clustered_rate_effect("own_prompt_preferred", [d > 0 for d in drops], groups,
                                   "clips scored higher under their own prompt than under another pair's",
                                   cluster="prompt", note=note)  # fmt: skip
    return ProbeOutcome((drop, prefer), {"variants": len(data.variants)})


# ---------------------------------------------------------------- generator shortcut


def generator_predictions(
    keys: Sequence[tuple[str, str]], labels: Sequence[str], *, folds: int = 5, seed: int = 0
) -> list[str]:
    """Cross-validated predictions of ``labels`` from generator identities alone.

    Each pair is keyed by its two generators (the anchor's, the other clip's). The pairs are split into
    ``folds`` shuffled folds stratified by that key (scikit-learn ``StratifiedKFold``: a key seen twice or
    more is in some training fold of each of its pairs), fewer when no key has that many pairs; a
    held-out pair is predicted as the most frequent label of the training pairs with its key, else the
    most frequent training label (ties: the label seen first in training order).

    >>> generator_predictions([("a", "b")] * 3 + [("a", "c")] * 3, ["chosen"] * 3 + ["rejected"] * 3, folds=3)
    ['chosen', 'chosen', 'chosen', 'rejected', 'rejected', 'rejected']
    """
    from sklearn.model_selection import KFold, StratifiedKFold

    n = len(labels)
    groups = [f"{a}\x00{b}" for a, b in keys]
    largest = max(Counter(groups).values())
    splitter: Any = (
        StratifiedKFold(n_splits=min(folds, largest), shuffle=True, random_state=seed)
        if largest >= 2
        else KFold(n_splits=min(folds, n), shuffle=True, random_state=seed)
    )
    out = [""] * n
    with warnings.catch_warnings():  # a key with fewer pairs than folds is expected, not a problem
        warnings.simplefilter("ignore", UserWarning)
        splits = list(splitter.split(np.zeros((n, 1)), groups))
    for train, test in splits:
        per_key: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for i in train:
            per_key[keys[i]][labels[i]] += 1
        overall = Counter(labels[i] for i in train)
        for i in test:
            out[i] = (per_key.get(keys[i]) or overall).most_common(1)[0][0]
    return out


def _measure_generators(data: ProbeData) -> ProbeOutcome:
    rows = [r for r in data.rows if r.get("generator_chosen") and r.get("generator_rejected")
            and r["generator_chosen"] != r["generator_rejected"]]  # fmt: skip
    choices = _pair_choices(rows, data.verdicts)
    decided = [(r, c) for r, c in zip(rows, choices, strict=True) if c in ("chosen", "rejected")]
    description = "judge's preferred side predicted from the two generators' identities alone (5-fold)"
    if len(decided) < 2:
        note = f"{len(decided)} decided generator-substitution pair(s): at least 2 are needed"
        return ProbeOutcome(
            (Effect("generator_predictor_agreement", None, "%", len(decided), description, note=note),)
        )
    keys = [(str(r["generator_chosen"]), str(r["generator_rejected"])) for r, _ in decided]
    labels = [c for _, c in decided]
    predicted = generator_predictions(keys, labels, seed=data.seed)
    groups = [cluster_of(r) for r, _ in decided]
    agree = clustered_rate_effect("generator_predictor_agreement",
                                  [p == c for p, c in zip(predicted, labels, strict=True)], groups, description,
                                  cluster="prompt")  # fmt: skip
    accuracy = clustered_rate_effect("judge_accuracy", [c == "chosen" for c in labels], groups,
                                     "judge's accuracy on the same decided generator-substitution pairs",
                                     cluster="prompt")  # fmt: skip
    return ProbeOutcome((agree, accuracy), {"generator_pairs": sorted({f"{a} vs {b}" for a, b in keys})})


PROBES: tuple[Probe, ...] = (
    Probe(
        "ties", "Ties and degenerate scores",
        "Pair tie rate; share of different clips with equal scores; identical-clip control pairs (up to "
        f"{CONTROLS_PER_INTERVENTION} anchors per intervention, each judged a second time as its own item: a "
        "deterministic judge must tie them); spread of the clip scores.",
        _measure_ties, _control_variants,
    ),
    Probe(
        "frames", "Frame count",
        f"The headline ({HEADLINE}, with the scorer's interval) at each frame count (each clip decoded once), "
        "and the slope of pair correctness on log2(frame count) with standard errors clustered by pair; for a "
        "judge sampling at its own rate "
        f"(fps in its config), the same at {', '.join(f'{r:g}' for r in FPS_SWEEP)} fps.",
        _measure_frames, applies=_frames_apply, frames=SWEEP, fps=FPS_SWEEP,
    ),
    Probe(
        "irrelevant_prompt", "Irrelevant prompt",
        "Each anchor clip is scored again under another pair's prompt; the mean drop (own - other) and the "
        "share of clips preferred under their own prompt show whether the judge reads the prompt.",
        _measure_prompt, _prompt_variants,
    ),
    Probe(
        "generator_shortcut", "Generator shortcut",
        "On the generator-substitution pairs, the judge's preferred side predicted from the two generators' "
        "identities alone (IsoVRBench Appendix I, 5-fold, folds stratified by generator pair), beside the "
        "judge's accuracy on those pairs.",
        _measure_generators,
    ),
)  # fmt: skip
"""IsoVRBench's probes, in report order."""
