"""Leaderboard trust, round three: what a non-admin chooses shows only the Ladder score with private labels,
Ladder rows are ranked on every benchmark, a weight-free judge is never a model run here, an API model is
requested without the Hub, request revisions are git ref names, and duplicate JSON keys are refused.

Each test fails on the leaderboard before these fixes (the login, route and session-key cases are in
``test_auth.py``; recorded data locations in ``tests/test_run_data.py``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from mmjudge.benchmarks import benchmark_ids
from mmjudge.errors import SchemaError
from mmjudge.leaderboard import SubmissionMeta
from mmjudge.leaderboard.app.mirror import export_public_tables
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.board.table import build_table
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.core.columns import ranking_key
from mmjudge.leaderboard.store import RequestSpec, StoredSubmission
from mmjudge.leaderboard.worker.jobs import EvalJob, process_one

from .conftest import prediction_bytes, shown

ADMIN = "root"
SCORES_PRINTED = "overall (strict) = 61.3 [40.0, 80.0]"
"""A line as ``mmjudge eval`` prints its scores at the end of a run (the fake runner writes it to the log)."""


def _profile(username: str) -> gr.OAuthProfile:
    return gr.OAuthProfile({"name": username, "preferred_username": username, "profile": "", "picture": ""})


def _fake_eval(reference: dict[str, Any], seeds: list[int]) -> Any:
    """A runner writing a valid file per job (the next seed of ``seeds``) and its scores into the run's log."""

    def run(job: EvalJob) -> Path:
        job.out_dir.mkdir(parents=True)
        path = job.out_dir / "predictions.jsonl"
        path.write_bytes(prediction_bytes(job.benchmark, reference[job.benchmark], seed=seeds.pop(0)))
        with job.log_path.open("a", encoding="utf-8") as log:
            log.write(f"{SCORES_PRINTED}\n")
        return path

    return run


def _score_cells(table: Any, row_id: int) -> dict[str, str]:
    """The shown score cells of one row, headline and significance aside (text columns too)."""
    index = table.column("id").index(row_id)
    skip = {table.headers[table.rank_column], "vs best (paired)"}
    return {h: d for h, d, g in zip(table.headers, table.display[index], table.groups, strict=True)
            if g not in ("", "details", "coverage") and h not in skip}  # fmt: skip


# --- item 1: with private labels, what a non-admin chooses shows the Ladder score only --------------------------


def test_private_label_requests_show_only_the_ladder_score(board_factory, reference) -> None:
    """The attack: a requester asked for ``random`` with seeds of their choosing under eight model names; the
    worker ran each and the ``run here`` rows showed every per-task score (96 cells for 8 requests), from which
    the EmoReAlM gold letters follow (``random`` answers depend on the seed and the item id only). Now the
    weight-free judges are an admin's only, and a non-admin's request of a model goes under the Ladder: its
    rows, results file, mirror record and public log show the Ladder score and nothing else."""
    board = board_factory(private_labels=True, admins=frozenset({ADMIN}), daily_limit=100)
    handlers = Handlers(board)
    for seed in range(8):
        for model in (f"eve/m{seed}", ""):
            refused = shown(handlers.request_model(model, "", "random", f"seed: {seed}", ["emorealm"], None))
            assert refused.startswith("**Rejected.**") and "weight-free" in refused, refused
    assert q.list_requests(board.store) == []
    for seed in range(8):  # a judge that loads a model the requester chose (theirs, perhaps)
        queued = shown(handlers.request_model(f"eve/m{seed}", "main", "label_choice", f"seed: {seed}", ["emorealm"],
                                              None))  # fmt: skip
        assert "**Queued**" in queued and "Ladder" in queued, queued
    seeds = list(range(8))
    while process_one(board, worker="w", eval_fn=_fake_eval(reference, seeds), lease_s=30.0) is not None:
        pass
    rows = [s for s in board.store.submissions("emorealm") if s.tier == "run here"]
    assert len(rows) == 8 and all(r.laddered and r.ladder is not None for r in rows)
    table = handlers.table("emorealm")
    cells = {r.id: _score_cells(table, r.id) for r in rows}
    assert sum(len(c) for c in cells.values()) >= 96  # the cells the attack read...
    assert {d for c in cells.values() for d in c.values()} <= {"—", "strict"}  # ...show nothing now
    headline = table.headers[table.rank_column]
    for row in rows:
        assert dict(zip(table.headers, table.display[table.column("id").index(row.id)], strict=True))[headline] == (
            f"{row.ladder:.1f} (Ladder)")  # fmt: skip
        with pytest.raises(gr.Error, match="private"):
            handlers.results_file(row.id)
    for request in q.list_requests(board.store):
        assert request.status == "FINISHED" and SCORES_PRINTED not in request.log_tail, request.log_tail
        assert "stored as verified row" in request.log_tail
    mirrored = [json.loads(line) for line in export_public_tables(board.store, Path(board.store.path).parent / "m",
                                                                  private_labels=True)[0].read_text().splitlines()]  # fmt: skip
    for record in (m for m in mirrored if m["id"] in {r.id for r in rows}):
        assert set(record["results"]) <= {ranking_key("emorealm"), "mode"} and record["side_results"] is None


def test_an_admin_may_run_a_weight_free_judge_with_private_labels(board_factory, reference) -> None:
    board = board_factory(private_labels=True, admins=frozenset({ADMIN}))
    handlers = Handlers(board)
    queued = shown(handlers.request_model("", "", "random", "seed: 5", ["emorealm"], _profile(ADMIN)))
    assert "**Queued**" in queued and "Ladder" not in queued, queued
    assert process_one(board, worker="w", eval_fn=_fake_eval(reference, [5]), lease_s=30.0) is not None
    (row,) = [s for s in board.store.submissions("emorealm") if s.kind == "verified"]
    assert (row.model, row.reference_line, row.laddered) == ("random", True, False)  # the operator's baseline


def test_the_about_tab_states_the_leak_per_upload_and_per_request() -> None:
    from mmjudge.leaderboard.app.startup import about_text

    about = " ".join(about_text().split())
    private = about[about.index("**Private labels**") :].lower()
    for part in ("per upload", "per request", "weight-free", "admin", "ladder", "guarantees", "does not"):
        assert part in private, part


# --- item 2: a Ladder row is ranked on every benchmark ------------------------------------------------------------


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_a_ladder_row_is_ranked_on_every_benchmark(benchmark: str) -> None:
    """EmoReAlM's Ladder score landed in ``Average (official)``, its ranked ``Average (strict)`` stayed empty
    and the row was never ranked. On every benchmark the Ladder score is the headline, and ranks the row."""
    key = ranking_key(benchmark)
    results = {key: 70.0, f"{key}_ci_low": 60.0, f"{key}_ci_high": 80.0, "mode": "strict"}
    rows = [StoredSubmission(benchmark, "verified", f"j{i}", f"m{i}", f"u{i}", results, tier="submitted", ladder=value,
                             id=i, scored_on={"dataset": "d", "revision": "r", "units": 10})
            for i, value in ((1, 55.0), (2, 65.0))]  # fmt: skip
    table = build_table(benchmark, rows, private=True)
    headline = table.column(table.headers[table.rank_column])
    assert dict(zip(table.column("id"), headline, strict=True)) == {1: 55.0, 2: 65.0}
    direction = table.column("Rank")[table.column("id").index(2)]
    assert dict(zip(table.column("id"), table.column("Rank"), strict=True)) == {1: 3 - direction, 2: direction}
    for row in rows:
        numbers = {h: v for h, v, g, kind in zip(table.headers, table.values[table.column("id").index(row.id)],
                                                  table.groups, table.datatypes, strict=True)
                   if g not in ("", "details", "coverage") and kind == "number"}  # fmt: skip
        assert all(v is None for v in numbers.values()), numbers


# --- item 6: a weight-free judge is never a model run here; an API model is never asked of the Hub --------------


def test_a_weight_free_request_names_no_model_and_its_row_is_a_baseline(board_factory, reference) -> None:
    """The issue's case: ``random`` requested as ``KwaiVGI/VideoReward``, display name ``VideoReward``, became a
    ``run here`` row ranked #1 above submitted rows. Now the request is refused; one queued before is run as
    what it is: a baseline named ``random`` by its settings, shown and never ranked."""
    board = board_factory(daily_limit=100)
    handlers = Handlers(board)
    refused = shown(handlers.request_model("KwaiVGI/VideoReward", "main", "random", "name: VideoReward",
                                           ["isovrbench"], None))  # fmt: skip
    assert refused.startswith("**Rejected.**") and "weight-free" in refused, refused
    board.submit(prediction_bytes("isovrbench", reference["isovrbench"], seed=1), SubmissionMeta("j", "org/real"), "u")
    old = RequestSpec("KwaiVGI/VideoReward", "", "random", {"judge": "random", "name": "VideoReward", "seed": 4,
                                                            "model": "KwaiVGI/VideoReward"}, ("isovrbench",))  # fmt: skip
    q.enqueue(board.store, old, "mallory")
    assert process_one(board, worker="w", eval_fn=_fake_eval(reference, [4]), lease_s=30.0) is not None
    (row,) = [s for s in board.store.submissions("isovrbench") if s.request_id is not None]
    assert (row.judge, row.model, row.revision, row.reference_line) == ("random", "random", "seed=4", True)
    table = handlers.table("isovrbench")
    place = dict(zip(table.column("id"), (d[0] for d in table.display), strict=True))
    assert place[row.id] == "baseline" and dict(zip(table.column("id"), table.column("Tier"), strict=True))[row.id] == (
        "baseline")  # fmt: skip
    assert "VideoReward" not in json.dumps(table.values)


class _NoHub:
    """A resolver that must not be asked: an API model is no Hub repo."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, model: str, revision: str) -> str:
        import httpx
        from huggingface_hub.errors import RepositoryNotFoundError

        self.calls.append((model, revision))
        answer = httpx.Response(404, request=httpx.Request("GET", f"https://huggingface.co/api/models/{model}"))
        raise RepositoryNotFoundError(f"{model} not found", response=answer)


@pytest.mark.parametrize(("base_url", "endpoint"), [
    ("https://api.openai.com/v1", "api.openai.com"), ("http://10.1.2.3:8000/v1", "private endpoint "),
])  # fmt: skip
def test_an_api_model_is_requested_without_the_hub_and_pinned_by_endpoint_and_date(board_factory, reference,
                                                                                   base_url, endpoint) -> None:  # fmt: skip
    """``gpt-4o`` is an endpoint's model name: pinning asked the Hub about it and refused, so an admin could not
    request an API judge on a served board at all. It is queued at the date instead, and its row names the
    endpoint (a private one only by a digest) and the date of the run."""
    hub = _NoHub()
    board = board_factory(resolve_revision=hub, admins=frozenset({ADMIN}),
                          server_options={"openai_compatible": {"base_url": base_url, "api_key_env": "SERVER_KEY"}})  # fmt: skip
    handlers = Handlers(board)
    queued = shown(handlers.request_model("gpt-4o", "main", "openai_compatible", "frames: 8", ["emorealm"],
                                          _profile(ADMIN)))  # fmt: skip
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert "**Queued**" in queued and today in queued, queued
    assert hub.calls == []
    (request,) = q.list_requests(board.store)
    assert (request.model, request.revision) == ("gpt-4o", today)
    assert process_one(board, worker="w", eval_fn=_fake_eval(reference, [2]), lease_s=30.0) is not None
    (row,) = [s for s in board.store.submissions("emorealm") if s.kind == "verified"]
    assert row.model == "gpt-4o" and row.revision.startswith(endpoint) and row.revision.endswith(today)
    assert "10.1.2.3" not in row.revision and row.weights == "unknown" and row.tier == "run here"
    again = shown(handlers.request_model("gpt-4o", "", "openai_compatible", "frames: 8", ["emorealm"], _profile(ADMIN)))
    assert "already queued" in again  # one run per model, config and day


# --- item 8: request revisions are git ref names, with or without a resolver -------------------------------------


@pytest.mark.parametrize("revision", ["/etc/passwd", "./main", "main/", "a//b", "x.lock", "@", "v1@{0}", ".hidden"])
def test_request_revisions_are_git_ref_names_without_a_resolver(board_factory, revision) -> None:
    handlers = Handlers(board_factory())  # --no-auth: no resolver, the revision is queued as named
    refused = shown(handlers.request_model("org/m", revision, "vlm_digit", "", ["isovrbench"], None))
    assert refused.startswith("**Rejected.**") and "revision must be" in refused, refused
    assert q.list_requests(handlers.board.store) == []
    assert "**Queued**" in shown(handlers.request_model("org/m", "refs/pr/3", "vlm_digit", "", ["isovrbench"], None))


# --- item 9: a key given twice in a prediction line is refused ---------------------------------------------------


@pytest.mark.parametrize("where", ["record", "header"])
def test_a_prediction_line_with_a_duplicate_key_is_refused(board_factory, reference, where) -> None:
    """``json.loads`` keeps the last of two equal keys; another reader keeps the first. A line that reads two
    ways is refused, naming the line and the key."""
    lines = prediction_bytes("emorealm", reference["emorealm"], seed=2).decode().splitlines()
    index = 0 if where == "header" else 1
    key = "benchmark" if where == "header" else "prediction"
    value = "emorealm" if where == "header" else "A"
    lines[index] = lines[index][:-1] + f', "{key}": "{value}"}}'
    board = board_factory()
    with pytest.raises(SchemaError, match=rf"line {index + 1}: expected each key once in an object, got '{key}' twice"):
        board.submit(("\n".join(lines) + "\n").encode(), SubmissionMeta("j", "org/m"), "u")
    assert board.store.submissions("emorealm") == []
