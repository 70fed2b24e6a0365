"""The store on both backends (SQLite and PostgreSQL): schema and migrations, atomic inserts, duplicates,
daily limit, hiding, concurrency; and SQLite's own WAL mode and old-schema migration."""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mmjudge import BENCHMARK_IDS
from mmjudge.leaderboard import NewSubmission, Store, SubmissionMeta, SubmissionRejected
from mmjudge.leaderboard.store import MIGRATIONS, POSTGRES_MIGRATIONS

from ..conftest import prediction_bytes


@pytest.fixture
def store_location(both_backends: str) -> str:
    """Every test of this module runs on SQLite and on PostgreSQL."""
    return both_backends


def _row(model: str = "m", sha: str | None = "s1", **kw) -> NewSubmission:
    return NewSubmission(
        "isovrbench", "verified", "j", model, kw.pop("submitter", "u"), {"average": 1.0}, sha256=sha, **kw
    )


def test_new_store_is_at_latest_schema(store_location: str) -> None:
    store = Store(store_location)
    assert store.schema_version() == len(MIGRATIONS) == len(POSTGRES_MIGRATIONS)
    Store(store_location)  # reopening does not migrate twice
    assert store.schema_version() == len(MIGRATIONS)


def test_new_sqlite_store_is_wal(tmp_path: Path) -> None:
    store = Store(tmp_path / "a" / "lb.sqlite")
    assert store.schema_version() == len(MIGRATIONS)
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    Store(store.path)  # reopening does not migrate twice
    assert store.schema_version() == len(MIGRATIONS)


def test_duplicate_sha_and_model_revision_point_to_existing_row(store_location: str) -> None:
    store = Store(store_location)
    first = store.insert_submission(_row())
    with pytest.raises(SubmissionRejected, match=rf"row #{first}"):
        store.insert_submission(_row(model="other"))
    with pytest.raises(SubmissionRejected, match=rf"#{first}"):
        store.insert_submission(_row(sha="s2"))
    store.insert_submission(_row(sha="s3", revision="v2"))  # a new revision is a new row
    assert len(store.submissions()) == 2


def test_daily_limit_counts_the_last_24_hours(store_location: str) -> None:
    store = Store(store_location)
    store.insert_submission(_row(sha="a", revision="1"), daily_limit=2, now=1000.0)
    store.insert_submission(_row(sha="b", revision="2"), daily_limit=2, now=1001.0)
    with pytest.raises(SubmissionRejected, match="limit 2"):
        store.insert_submission(_row(sha="c", revision="3"), daily_limit=2, now=1002.0)
    store.insert_submission(_row(sha="c", revision="3"), daily_limit=2, now=1000.0 + 86401.0)
    store.insert_submission(_row(sha="d", revision="4", submitter="someone-else"), daily_limit=2, now=1002.0)


def test_the_configured_daily_limit_applies_unless_the_server_stores_its_own_row(board_factory, reference) -> None:
    """``submit`` applies ``Settings.daily_limit`` by default; ``limited=False`` (the worker, the demo loader)
    stores past it. There is no ``daily_limit=-1`` sentinel to spell the configured limit."""
    board = board_factory(daily_limit=1)
    files = [prediction_bytes("isovrbench", reference["isovrbench"], seed=i) for i in range(3)]
    board.submit(files[0], SubmissionMeta(judge="j0", model="org/m0", revision="r"), "u")
    with pytest.raises(SubmissionRejected, match="limit 1"):
        board.submit(files[1], SubmissionMeta(judge="j1", model="org/m1", revision="r"), "u")
    board.submit(files[2], SubmissionMeta(judge="j2", model="org/m2", revision="r"), "u", limited=False)
    assert len(board.store.submissions("isovrbench")) == 2


def test_hidden_rows_stay_in_the_store(store_location: str) -> None:
    store = Store(store_location)
    row_id = store.insert_submission(_row())
    assert store.set_hidden(row_id)
    assert store.submissions() == []
    assert [s.id for s in store.submissions(include_hidden=True)] == [row_id]
    assert not store.set_hidden(999)


def test_a_failing_transaction_leaves_nothing(store_location: str) -> None:
    store = Store(store_location)
    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute(
            "INSERT INTO submissions (benchmark, kind, judge, model, submitter, results, created_at) "
            "VALUES ('isovrbench', 'verified', 'j', 'm', 'u', '{}', 0)"
        )
        raise RuntimeError("crash inside the transaction")
    assert store.submissions(include_hidden=True) == []
    assert store.integrity_check() == "ok"


def test_twenty_simultaneous_submissions_give_twenty_rows(board_factory, reference) -> None:
    board = board_factory(daily_limit=100)
    files = [prediction_bytes("isovrbench", reference["isovrbench"], seed=i) for i in range(20)]
    barrier = threading.Barrier(20)

    def submit(i: int) -> int:
        barrier.wait()
        meta = SubmissionMeta(judge=f"j{i}", model=f"org/m{i}", revision="r")
        return board.submit(files[i], meta, "u").id

    with ThreadPoolExecutor(max_workers=20) as pool:
        ids = list(pool.map(submit, range(20)))
    assert sorted(ids) == sorted(set(ids))
    assert len(board.store.submissions("isovrbench")) == 20
    assert board.store.integrity_check() == "ok"


def test_simultaneous_copies_of_one_file_store_exactly_one(board_factory, reference) -> None:
    board = board_factory(daily_limit=100)
    data = prediction_bytes("isovrbench", reference["isovrbench"], seed=99)
    barrier = threading.Barrier(8)

    def submit(i: int) -> str:
        barrier.wait()
        try:
            board.submit(data, SubmissionMeta(judge="j", model=f"org/m{i}"), "u")
        except SubmissionRejected:
            return "rejected"
        return "stored"

    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(submit, range(8)))
    assert outcomes.count("stored") == 1
    assert len(board.store.submissions()) == 1


def test_reported_rows_are_seeded_once(store_location: str) -> None:
    from mmjudge.leaderboard.app.startup import open_leaderboard
    from mmjudge.leaderboard.core.reported import reported_rows

    shipped = [(r.benchmark, r.judge) for b in BENCHMARK_IDS for r in reported_rows(b)]
    for _ in range(2):
        board = open_leaderboard(store_location, require_login=False)
    assert [(s.benchmark, s.judge) for s in board.store.submissions(include_hidden=True)] == shipped
    assert {s.kind for s in board.store.submissions()} == {"reported"}


def test_stores_opened_at_once_seed_the_reported_rows_once(store_location: str) -> None:
    """The Space and workers opening a new shared store at the same time add each reported row once."""
    from mmjudge.leaderboard.core.reported import reported_rows, seed_reported

    Store(store_location)
    barrier = threading.Barrier(4)

    def seed(_: int) -> int:
        store = Store(store_location)
        barrier.wait()
        return seed_reported(store)

    with ThreadPoolExecutor(max_workers=4) as pool:
        added = list(pool.map(seed, range(4)))
    shipped = sum(len(reported_rows(b)) for b in BENCHMARK_IDS)
    assert sorted(added) == [0, 0, 0, shipped]
    assert len(Store(store_location).submissions(include_hidden=True)) == shipped


def test_reported_rows_no_longer_shipped_are_hidden(store_location: str) -> None:
    """A store seeded by an earlier version (here: the old human row of IsoVRBench) shows the current rows."""
    from mmjudge.leaderboard.core.reported import seed_reported

    store = Store(store_location)
    old = NewSubmission("isovrbench", "reported", "Human", "human annotators", "paper", {"average": 96.375},
                        source="Li et al. 2026, IsoVRBench, Table 2 (human row)")  # fmt: skip
    store.insert_submission(old)
    seed_reported(store)
    assert "Human" not in [s.judge for s in store.submissions("isovrbench")]
    assert "Human" in [s.judge for s in store.submissions("isovrbench", include_hidden=True)]


def test_mirror_pushes_the_public_tables_without_private_request_fields(store_location: str, tmp_path: Path,
                                                                       monkeypatch) -> None:  # fmt: skip
    """Offline: a fake CommitScheduler records what each push would upload."""
    import json

    import huggingface_hub

    from mmjudge.leaderboard.app.mirror import PUBLIC_REQUEST_FIELDS, start_mirror
    from mmjudge.leaderboard.core import queue as q

    pushed: list[dict[str, list[dict]]] = []

    class FakeScheduler:
        def __init__(self, *, repo_id, repo_type, folder_path, every):
            assert (repo_id, repo_type) == ("org/lb-mirror", "dataset")
            self.folder, self.lock = Path(folder_path), threading.Lock()

        def push_to_hub(self):
            pushed.append({p.name: [json.loads(line) for line in p.read_text().splitlines()]
                           for p in sorted(self.folder.iterdir())})  # fmt: skip

    monkeypatch.setattr(huggingface_hub, "CommitScheduler", FakeScheduler)
    store = Store(store_location)
    store.insert_submission(_row(model="first"))
    hidden = store.insert_submission(_row(model="hidden", sha="h"))
    store.set_hidden(hidden)
    spec = q.validate_request("org/m", "main", "video_reward", "batch_size: 7", ["isovrbench"],
                              known_backends=["video_reward"])  # fmt: skip
    q.enqueue(store, spec, "alice")
    scheduler = start_mirror(store, "org/lb-mirror", folder=tmp_path / "mirror")
    scheduler.push_to_hub()
    store.insert_submission(_row(model="second", sha="s2"))
    scheduler.push_to_hub()
    assert [[r["model"] for r in push["submissions.jsonl"]] for push in pushed] == [["first"], ["first", "second"]]
    assert set(pushed[0]) == {"submissions.jsonl", "requests.jsonl"}
    (request,) = pushed[1]["requests.jsonl"]
    assert tuple(request) == PUBLIC_REQUEST_FIELDS and request["status"] == "PENDING"
    assert "config" not in request and "lease_expires" not in request and "batch_size" not in json.dumps(request)
    assert "hidden" not in pushed[1]["submissions.jsonl"][0]


def test_a_version_1_store_is_migrated_with_its_rows(tmp_path: Path) -> None:
    """Migration 2 drops the requests' UNIQUE (duplicates now include the benchmarks; FAILED ones may be
    asked for again) and adds request_id, coverage and side_results to submissions, keeping every row."""
    import json

    from mmjudge.leaderboard.core import queue as q

    spec = q.validate_request("org/m", "", "video_reward", "", ["isovrbench"], known_backends=["video_reward"])
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
        conn.execute(
            "INSERT INTO submissions (benchmark, kind, judge, model, submitter, results, created_at) "
            "VALUES ('isovrbench', 'verified', 'j', 'm', 'u', '{\"average\": 1.0}', 0)"
        )
        conn.execute(
            "INSERT INTO requests (model, backend, config, benchmarks, submitter, created_at, status, updated_at) "
            "VALUES ('org/m', 'video_reward', ?, '[\"isovrbench\"]', 'u', 0, 'FAILED', 0)",
            (json.dumps(dict(spec.config), sort_keys=True),),
        )
    store = Store(path)
    assert store.schema_version() == len(MIGRATIONS) == 7
    (row,) = store.submissions()
    assert (row.model, row.results, row.request_id, row.coverage) == ("m", {"average": 1.0}, None, None)
    assert row.paired == ""
    assert (row.tier, row.reference_line, row.scored_on, row.ladder) == ("submitted", False, None, None)
    assert q.enqueue(store, spec, "u") == 2  # the FAILED twin (same model, config) no longer blocks it
    assert [r.status for r in q.list_requests(store)] == ["FAILED", "PENDING"]
    assert store.integrity_check() == "ok"
