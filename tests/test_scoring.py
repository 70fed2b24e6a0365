"""Scoring prediction files against built folders: coverage rules and equality with the cores."""

from __future__ import annotations

import random
import warnings

import pytest

from mmjudge.benchmarks import emoprefer, emorealm, isovrbench, mist
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.predictions import PredictionFile, PredictionHeader
from mmjudge.scoring import load_reference_rows, rows_of_run, score_predictions

MEDIA = {"emoprefer": "raw/emoprefer/MER2025", "emorealm": "raw/emorealm/DFEW"}


def _file(benchmark: str, records: list[dict]) -> PredictionFile:
    for r in records:
        r.setdefault("no_judgment", False)
    return PredictionFile(PredictionHeader(benchmark, "test"), records)


def test_isovrbench_equals_core_and_refuses_gaps(sample_data):
    rows = load_reference_rows("isovrbench", sample_data / "isovrbench")
    rng = random.Random(0)
    records = [
        {"id": r["pair_id"], "score_chosen": rng.random(), "score_rejected": rng.random()} for r in rows
    ]
    records[0].update(score_chosen=None, score_rejected=None, no_judgment=True)
    got = score_predictions(_file("isovrbench", records), rows, n_resamples=200)
    want = isovrbench.score(
        [r["intervention"] for r in rows],
        [rec["score_chosen"] for rec in records],
        [rec["score_rejected"] for rec in records],
        no_judgment=[rec["no_judgment"] for rec in records],
        cluster=[r["prompt"] for r in rows],  # the pairs of one anchor prompt, as the records give them
        n_resamples=200,
    )
    assert got == want
    assert got["no_judgment_rate"] > 0
    with pytest.raises(SchemaError, match="1 pairs without a prediction"):
        score_predictions(_file("isovrbench", records[1:]), rows)
    extra = [*records, {"id": "nope", "score_chosen": 1.0, "score_rejected": 0.0}]
    with pytest.raises(SchemaError, match="1 unknown ids: \\['nope'\\]"):
        score_predictions(_file("isovrbench", extra), rows)


def test_emorealm_no_judgment_is_a_missing_output(sample_data):
    rows = load_reference_rows("emorealm", sample_data / "emorealm")
    records = [{"id": r["id"], "prediction": r["answer"]} for r in rows]
    records[0].update(prediction=None, no_judgment=True)
    official = score_predictions(_file("emorealm", records), rows, n_resamples=0)
    strict = score_predictions(_file("emorealm", records), rows, n_resamples=0, mode="strict")
    task = rows[0]["task"]
    assert official[f"accuracy/{task}"] == 100.0
    assert strict[f"accuracy/{task}"] < 100.0
    want = emorealm.score(
        [None] + [r["answer"] for r in rows[1:]],
        [r["answer"] for r in rows],
        [r["task"] for r in rows],
        choices=[r["choices"] for r in rows],
        clusters=[r["video"] for r in rows],
        n_resamples=0,
    )
    assert official == want


def test_emoprefer_forward_and_reversed(sample_data):
    rows = load_reference_rows("emoprefer", sample_data / "emoprefer")
    fwd = [
        {"id": r["name"], "name": r["name"], "order": "forward", "prediction": r["preference"]} for r in rows
    ]
    flip = {"a1": "a2", "a2": "a1", "same": "same"}
    rev = [
        {
            "id": f"{r['name']}::reversed",
            "name": r["name"],
            "order": "reversed",
            "prediction": flip[r["preference"]],
        }
        for r in rows
    ]
    got = score_predictions(_file("emoprefer", fwd + rev), rows)
    assert got == emoprefer.score(
        [r["preference"] for r in rows],
        [r["preference"] for r in rows],
        [flip[r["preference"]] for r in rows],
    )
    assert got["swap_consistency"] == 100.0
    with pytest.raises(SchemaError, match="reversed pairs without a prediction"):
        score_predictions(_file("emoprefer", fwd + rev[1:]), rows)
    assert "swap_consistency" not in score_predictions(_file("emoprefer", fwd), rows)


def _mist_grid(rows, label_of) -> list[dict]:
    """The full grid `mmjudge eval` writes: every item x prompt strategy x (image condition, arm)."""
    from mmjudge.benchmarks.mist import CELLS as MIST_CELLS
    from mmjudge.benchmarks.mist import STRATEGIES as MIST_STRATEGIES

    return [
        {
            "id": f"{r['item_id']}::{strategy}::{arm}::{cond}",
            "item_id": r["item_id"],
            "prompt_strategy": strategy,
            "arm": arm,
            "image_condition": cond,
            "label": label_of(cond, arm),
        }
        for r in rows
        for strategy in MIST_STRATEGIES
        for cond, arm in MIST_CELLS
    ]


def test_mist_requires_the_full_grid(sample_data):
    rows = load_reference_rows("mist", sample_data / "mist")
    labels = {("none", "none"): "FF", ("aligned", "explicit"): "FF", ("aligned", "silent"): "FF",
              ("misleading", "explicit"): "FF", ("misleading", "silent"): "LL"}  # fmt: skip
    records = _mist_grid(rows, lambda cond, arm: labels[(cond, arm)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # small sample: alt-test trios may be skipped
        got = score_predictions(_file("mist", records), rows, n_resamples=50)
    assert got["change_rate/none_to_misleading/silent"] == 100.0
    assert got["change_rate/none_to_aligned/explicit"] == 0.0
    some = [r for r in records if r["item_id"] != rows[0]["item_id"]]
    with pytest.raises(SchemaError, match="20 grid cells without a prediction"):
        score_predictions(_file("mist", some), rows)
    # the attack of issue 11: drop the misleading-image cells whose label changed
    kept = [r for r in records if not (r["image_condition"] == "misleading" and r["arm"] == "silent")]
    with pytest.raises(SchemaError, match=rf"{4 * len(rows)} grid cells without a prediction"):
        score_predictions(_file("mist", kept), rows)
    assert mist.score  # the core the adapter calls


def test_ids_must_match_the_item_and_come_once(sample_data):
    rows = load_reference_rows("emoprefer", sample_data / "emoprefer")
    fwd = [{"id": r["name"], "name": r["name"], "order": "forward", "prediction": "a1"} for r in rows]
    renamed = [dict(fwd[0], id="elsewhere"), *fwd[1:]]
    with pytest.raises(SchemaError, match="record 1: id 'elsewhere' does not match the pair"):
        score_predictions(_file("emoprefer", renamed), rows)
    twice = [*fwd, dict(fwd[0])]
    with pytest.raises(SchemaError, match=f"record {len(fwd) + 1}: id .* already given on record 1"):
        score_predictions(_file("emoprefer", twice), rows)


def test_not_a_built_folder(tmp_path):
    with pytest.raises(SchemaError, match="is not a built emorealm folder"):
        load_reference_rows("emorealm", tmp_path)


def test_load_rows_never_returns_another_folders_cached_rows(tmp_path):
    """datasets 5 caches a local folder by name and config; load_rows must read each folder's own files."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mmjudge.scoring import load_rows

    card = "---\nconfigs:\n- config_name: clips\n  data_files:\n  - split: test\n    path: data/test.parquet\n---\n"
    for parent, value in (("a", "first"), ("b", "second")):
        folder = tmp_path / parent / "isovrbench"
        (folder / "data").mkdir(parents=True)
        pq.write_table(pa.table({"clip_id": [value]}), folder / "data" / "test.parquet")
        (folder / "README.md").write_text(card)
    assert load_rows(tmp_path / "a" / "isovrbench", "clips") == [{"clip_id": "first"}]
    assert load_rows(tmp_path / "b" / "isovrbench", "clips") == [{"clip_id": "second"}]


def test_the_rows_of_a_run_are_the_first_limit_rows(sample_data):
    """One rule for the runner, ``score``, ``compare`` and ``robustness``: ``None`` is every row, a positive
    ``limit`` the first ones (past the end: every row)."""
    rows = load_reference_rows("emorealm", sample_data / "emorealm")
    assert rows_of_run("emorealm", sample_data / "emorealm") == rows
    assert rows_of_run("emorealm", sample_data / "emorealm", 2) == rows[:2]
    assert rows_of_run("emorealm", sample_data / "emorealm", len(rows) + 5) == rows


@pytest.mark.parametrize("limit", [0, -1, True, "2", 2.0])
def test_a_limit_that_is_not_a_positive_integer_is_refused(sample_data, limit):
    """Before, the runner and ``robustness`` cut ``rows[:limit]`` whatever it was: 0 judged nothing, -1 every
    row but the last, ``True`` the first row."""
    with pytest.raises(ConfigError, match=r"limit must be a positive integer or None \(every row\), got"):
        rows_of_run("emorealm", sample_data / "emorealm", limit)
