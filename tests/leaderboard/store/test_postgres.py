"""The PostgreSQL store as several machines use it: separate processes submitting at once, two workers
sharing a queue (one of them killed), and a schema identical to SQLite's.

Each test gets a fresh database on the session's PostgreSQL server (``postgres_url``); without the
server binaries or psycopg they skip locally and fail on CI.
"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from mmjudge.leaderboard import Leaderboard, Settings, Store, SubmissionMeta, SubmissionRejected
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.core.heartbeats import list_workers

from ..conftest import prediction_bytes

KNOWN = ["random"]


def _sqlite_schema(path: Path) -> dict[str, object]:
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name NOT LIKE 'sqlite_%' ORDER BY name")]  # fmt: skip
        columns = {t: sorted((r[1], bool(r[3]) or bool(r[5])) for r in conn.execute(f"PRAGMA table_info({t})"))
                   for t in tables}  # fmt: skip
        indexes = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                                                    "AND sql IS NOT NULL"))  # fmt: skip
    return {"columns": columns, "indexes": indexes}


def _postgres_schema(url: str) -> dict[str, object]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name, is_nullable = 'NO' FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name != 'mmjudge_schema'"
        ).fetchall()
        indexes = sorted(r[0] for r in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' "
            "AND indexname NOT LIKE '%_key'"
        ))  # fmt: skip
    columns: dict[str, list] = {}
    for table, column, required in rows:
        columns.setdefault(table, []).append((column, required))
    return {"columns": {t: sorted(c) for t, c in sorted(columns.items())}, "indexes": indexes}


def test_both_backends_migrate_to_the_same_schema(postgres_url: str, tmp_path: Path) -> None:
    """Same tables, columns, NOT NULL-ness and named indexes after every migration step."""
    Store(postgres_url)
    Store(tmp_path / "lb.sqlite")
    assert _postgres_schema(postgres_url) == _sqlite_schema(tmp_path / "lb.sqlite")


# --- 20 submissions from 20 processes ----------------------------------------------------------------


def _submit_in_child(url, data, model, revision, barrier, rows, results) -> None:
    try:
        board = Leaderboard(Store(url), Settings(data_root=Path(rows[0]), require_login=False, daily_limit=100),
                            rows_fn=lambda benchmark, folder: rows[1])  # fmt: skip
        barrier.wait(timeout=120)  # every process opened the store; now all submit at once
        results.put(f"stored #{board.submit(data, SubmissionMeta('j', model, revision), 'u').id}")
    except SubmissionRejected as exc:
        results.put(f"rejected: {exc}")
    except BaseException as exc:  # the parent waits for one answer per child
        results.put(f"error: {exc!r}")
        raise


def _start_children(url: str, jobs: list[tuple[bytes, str, str]], rows) -> tuple[list, object]:
    """One forked process per job (they start at once, the reference rows already loaded), released
    together by a barrier once each has opened the store."""
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(len(jobs)), context.Queue()
    children = [context.Process(target=_submit_in_child, args=(url, *job, barrier, rows, results)) for job in jobs]
    for child in children:
        child.start()
    return children, results


def _outcomes(children: list, results) -> list[str]:
    outcomes = [results.get(timeout=300) for _ in children]
    for child in children:
        child.join(60)
        assert child.exitcode == 0, outcomes
    return outcomes


def _run_children(url: str, jobs: list[tuple[bytes, str, str]], rows) -> list[str]:
    return _outcomes(*_start_children(url, jobs, rows))


def test_twenty_processes_submitting_at_once_store_twenty_rows(postgres_url, reference, data_root) -> None:
    rows = (data_root, reference["isovrbench"])
    Store(postgres_url)  # migrated once; the children open it as the Space and workers would
    files = [prediction_bytes("isovrbench", rows[1], seed=100 + i) for i in range(20)]
    started = time.perf_counter()
    outcomes = _run_children(postgres_url, [(files[i], f"org/m{i}", "r") for i in range(20)], rows)
    elapsed = time.perf_counter() - started
    assert all(o.startswith("stored #") for o in outcomes), outcomes
    store = Store(postgres_url)
    subs = store.submissions("isovrbench")
    assert len(subs) == 20 and len({s.id for s in subs}) == 20 and len({s.sha256 for s in subs}) == 20
    assert sorted(s.model for s in subs) == sorted(f"org/m{i}" for i in range(20))
    print(f"20 concurrent submissions from 20 processes: {elapsed:.2f} s")


def test_a_writer_in_progress_holds_back_the_duplicate_checks_of_other_processes(
    postgres_url, reference, data_root
) -> None:
    """The (model, revision) duplicate check compares names case-insensitively, which no unique index
    enforces: only the serialized write transaction keeps another process from passing the check while a
    twin is being stored. Here the twin's transaction is held open while six processes submit names
    differing only in case; none may store before it commits, and all are then refused."""
    from mmjudge.leaderboard import NewSubmission
    from mmjudge.leaderboard.store import insert_row

    rows = (data_root, reference["isovrbench"])
    store = Store(postgres_url)
    names = ["org/Twin", "ORG/twin", "Org/TWIN", "org/twin ", "oRg/tWiN", "ORG/TWIN"]
    jobs = [(prediction_bytes("isovrbench", rows[1], seed=200 + i), name, "v1") for i, name in enumerate(names)]
    with store.transaction() as conn:
        insert_row(conn, NewSubmission("isovrbench", "verified", "j", "org/twin", "u", {"average": 1.0},
                                       revision="V1", sha256="first"))  # fmt: skip
        children, results = _start_children(postgres_url, jobs, rows)
        time.sleep(3.0)  # the children validate, score and reach their transaction, then wait
        assert results.empty(), "a submission got past the duplicate check while the twin was uncommitted"
    outcomes = _outcomes(children, results)
    assert all("already has a submitted isovrbench row" in o for o in outcomes), outcomes
    assert [s.model for s in store.submissions("isovrbench")] == ["org/twin"]


# --- two workers, ten requests, one worker killed -----------------------------------------------------

_WORKER = """
import json, os, sys, time
from pathlib import Path
from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.worker.jobs import process_one
from mmjudge.leaderboard.core.heartbeats import beat
from mmjudge.scoring import load_reference_rows

url, root, runs, name, die_on = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], int(sys.argv[5])
sys.path.insert(0, sys.argv[6])
from conftest import prediction_bytes

board = Leaderboard(Store(url), Settings(data_root=root, require_login=False))
rows = load_reference_rows("isovrbench", root / "isovrbench")
started = []

def fake_eval(job):
    request = job.out_dir.parent.name  # request<id>-attempt<k>
    started.append(request)
    with runs.open("a") as log:
        log.write(json.dumps({"worker": name, "run": request}) + "\\n")
    if len(started) == die_on:
        os._exit(9)  # killed in the middle of a run, holding the request
    time.sleep(0.2)
    job.out_dir.mkdir(parents=True)
    path = job.out_dir / "predictions.jsonl"
    path.write_bytes(prediction_bytes("isovrbench", rows, seed=int(request[7:].split("-")[0])))
    return path

Path(sys.argv[7]).touch()
while not Path(sys.argv[8]).exists():  # start together
    time.sleep(0.01)
deadline = time.time() + 240
while time.time() < deadline:
    beat(board.store, name, state="idle", gpus=0)
    if process_one(board, worker=name, eval_fn=fake_eval, lease_s=5.0, work_dir=sys.argv[9]) is None:
        if all(r.status == "FINISHED" for r in q.list_requests(board.store)):
            break
        time.sleep(0.1)
beat(board.store, name, state="stopped", gpus=0)
"""


def test_two_worker_processes_share_ten_requests_and_finish_a_killed_ones_request(
    postgres_url, data_root, tmp_path
) -> None:
    store = Store(postgres_url)
    ids = [q.enqueue(store, q.validate_request("", "", "random", f"seed: {i}", ["isovrbench"],
                                               known_backends=KNOWN), "alice", now=1000.0 + i)
           for i in range(10)]  # fmt: skip
    runs, go = tmp_path / "runs.jsonl", tmp_path / "go"
    here = str(Path(__file__).parents[1])
    workers = {}
    for name, die_on in (("doomed", 2), ("survivor", 0)):
        ready = tmp_path / f"{name}.ready"
        workers[name] = (subprocess.Popen(
            [sys.executable, "-c", _WORKER, postgres_url, str(data_root), str(runs), name, str(die_on), here,
             str(ready), str(go), str(tmp_path / f"work-{name}")],
        ), ready)  # fmt: skip
    deadline = time.time() + 120
    while not all(ready.exists() for _, ready in workers.values()) and time.time() < deadline:
        time.sleep(0.05)
    started = time.perf_counter()
    go.touch()
    codes = {name: proc.wait(timeout=300) for name, (proc, _) in workers.items()}
    elapsed = time.perf_counter() - started
    assert codes == {"doomed": 9, "survivor": 0}

    requests = {r.id: r for r in q.list_requests(store)}
    assert all(r.status == "FINISHED" for r in requests.values()), {i: r.log_tail for i, r in requests.items()}
    subs = [s for s in store.submissions("isovrbench") if s.kind == "verified"]
    assert sorted(s.request_id for s in subs) == ids, "each request stored exactly one row"

    log = [json.loads(line) for line in runs.read_text().splitlines()]
    by_request: dict[int, list[str]] = {}
    for entry in log:
        by_request.setdefault(int(entry["run"][7:].split("-")[0]), []).append(entry["worker"])
    killed = [i for i, who in by_request.items() if len(who) > 1]
    assert len(killed) == 1, by_request  # only the killed run was run again...
    assert by_request[killed[0]] == ["doomed", "survivor"]  # ...by the other worker, after the lease
    assert requests[killed[0]].attempts == 2 and requests[killed[0]].worker == "survivor"
    assert all(len(who) == 1 and requests[i].attempts == 1 for i, who in by_request.items() if i != killed[0])
    assert sorted(by_request) == ids and {"doomed", "survivor"} == {w for who in by_request.values() for w in who}
    beats = {w.id: w for w in list_workers(store)}
    assert beats["survivor"].state == "stopped"
    assert beats["doomed"].state == "running" and beats["doomed"].request_id == killed[0]  # its last beat
    print(f"2 worker processes, 10 requests, one worker killed: {elapsed:.2f} s")
