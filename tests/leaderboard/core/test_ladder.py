"""The Ladder's parameter-free variant (Blum & Hardt 2015, Section 4) beside the fixed margin: the rule against the
paper's code, the rule on a private-label board, and both Ladders against the boosting attack."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from mmjudge.benchmarks import get_benchmark
from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.core.columns import ranking_key
from mmjudge.leaderboard.core.ladder import difference_se, paired_margin
from mmjudge.leaderboard.core.pairing import pack_paired, unpack_paired
from mmjudge.leaderboard.core.validation import SubmissionMeta
from mmjudge.leaderboard.store import LadderRule
from mmjudge.stats import KeyOutcomes, Outcomes, Ratio, paired_jackknife

from ..conftest import prediction_bytes

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))


def free_ladder_reference(losses: np.ndarray) -> list[float]:
    """``FreeLadder``'s ``score!`` of Ladder.jl (the paper's code), written out: a submission's mean loss is shown
    when it is below the current one by more than the sample standard deviation (n - 1) of its per-example loss
    differences with the current leader over sqrt(n) (its own losses' for the first); else the current one."""
    current, leader, shown = math.inf, None, []
    n = losses.shape[1]
    for loss_vector in losses:
        loss = float(loss_vector.mean())
        diff = loss_vector if leader is None else loss_vector - leader
        if loss < current - float(np.std(diff, ddof=1)) / math.sqrt(n):
            current, leader = loss, loss_vector
        shown.append(current)
    return shown


def accuracy(hits: np.ndarray) -> KeyOutcomes:
    units = tuple(f"u{i}" for i in range(hits.size))
    return KeyOutcomes("acc", Outcomes(units, units, {"hit": hits.astype(float), "one": np.ones(hits.size)}),
                       Ratio("hit", "one"))  # fmt: skip


def test_the_parameter_free_ladder_is_the_papers_free_ladder() -> None:
    """On independent units the margin is the paper's s / sqrt(n) (in points) and the shown scores are its code's,
    accepted and refused alike; a fixed 1-point Ladder shows other scores on the same submissions."""
    rng = np.random.default_rng(3)
    n, k = 60, 80
    truth = rng.integers(0, 2, n)
    skill = np.linspace(0.45, 0.8, k)  # submissions that improve, slowly and noisily
    hits = np.array([np.where(rng.random(n) < p, truth, 1 - truth) == truth for p in skill])
    expected = [100.0 * (1.0 - c) for c in free_ladder_reference(1.0 - hits.astype(float))]
    rule = LadderRule("acc", True, 1.0)
    best, leader, shown = None, None, []
    for row in hits:
        se = 0.0 if leader is None else difference_se(accuracy(row), accuracy(leader))
        now = rule.shown(100.0 * float(row.mean()), best, se)
        if now != best:
            leader = row
        best = now
        shown.append(best)
    assert shown == pytest.approx(expected, abs=1e-9)
    accepted = len(set(expected))
    assert 3 <= accepted < k  # some accepted after the first, some refused
    fixed, kept = [], None
    for row in hits:
        kept = rule.shown(100.0 * float(row.mean()), kept)
        fixed.append(kept)
    assert fixed != shown


def test_the_margin_is_the_jackknife_standard_error_and_unpaired_rows_fall_back(reference) -> None:
    """On the board the margin is the delete-one-cluster jackknife of the key's paired difference (the standard
    error ``compare`` reads); rows that cannot be paired give none (the fixed margin applies)."""
    spec = get_benchmark("emoprefer")
    rows, key = reference["emoprefer"], ranking_key("emoprefer")
    packs = []
    for seed in (1, 2):
        records = [json.loads(line) for line in prediction_bytes("emoprefer", rows, seed=seed).splitlines()[1:]]
        scores = spec.metrics.score(**spec.records.score_inputs(records, rows))
        packs.append(pack_paired("emoprefer", records, rows, scores, "h"))
    a, b = (unpack_paired(p)[1][key] for p in packs)
    expected = math.sqrt(paired_jackknife(a.outcomes, b.outcomes, a.metric).variance)
    assert paired_margin(key, packs[0], packs[1]) == pytest.approx(expected) and expected > 0
    assert paired_margin(key, packs[0], "") is None and paired_margin("no such key", packs[0], packs[1]) is None


def test_a_private_board_runs_the_parameter_free_ladder(tmp_path, data_root, reference) -> None:
    """``ladder: free``: each submitted row keeps the score the parameter-free rule shows its submitter, from the
    standard error of its paired difference with the row that set the best shown score."""
    board = Leaderboard(Store(tmp_path / "lb.sqlite"), Settings(data_root=data_root, require_login=False,
                                                                private_labels=True, ladder="free", daily_limit=20),
                        rows_fn=lambda b, folder: reference[b])  # fmt: skip
    rule = board.ladder_rule("emoprefer")
    assert rule is not None and rule.paired_margin is not None
    stored = [board.submit(prediction_bytes("emoprefer", reference["emoprefer"], seed=seed),
                           SubmissionMeta("j", f"org/m{seed}"), "eve") for seed in range(6)]  # fmt: skip
    best, leader = None, None
    for row in stored:
        se = 0.0 if leader is None else paired_margin(rule.key, row.paired, leader.paired)
        now = rule.shown(row.results[rule.key], best, se)
        assert row.ladder == now
        if now != best:
            leader = row
        best = now
    assert any(r.ladder != r.results[rule.key] for r in stored)  # a refused row shows the best so far
    with pytest.raises(Exception, match="ladder must be one of fixed, free"):
        Settings(ladder="loose")


@pytest.mark.simulation
def test_both_ladders_hold_the_boosting_attack_that_exact_scores_let_through() -> None:
    """The paper's boosting attack (random labels, random submissions, the majority vote of those the feedback
    called good): exact scores let the vote reach about 56.7% on labels it knows nothing of; the fixed and the
    parameter-free Ladder keep it near 50% (measured 52.0 and 51.7 at 30 replicates)."""
    from _ladder_attack import replicates

    found = {f: np.mean([r.accuracy for r in replicates(2000, 200, f, 12, seed=5)]) for f in ("exact", "fixed", "free")}
    assert found["exact"] > 55.0, found
    assert found["fixed"] < 53.0 and found["free"] < 53.0, found
