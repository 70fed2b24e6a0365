"""Fixtures of the leaderboard tests: one sample data root per session, prediction-file writers, stores.

``store_location`` is a fresh SQLite path; a test module that sets ``store_location`` to the
``both_backends`` fixture (the store and queue suites do) runs each of its tests on SQLite and on a
fresh database of a PostgreSQL server the session starts (:mod:`.postgres`).
"""

from __future__ import annotations

import html
import json
import random
import socket
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.board.ranks import InlineRanks
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.core.policy import DEFAULT_RULES, HUB_MODEL

BENCHMARKS = ("isovrbench", "emoprefer", "emorealm")

HUB_RANDOM_RULES = {**DEFAULT_RULES, "random": replace(DEFAULT_RULES["random"], model_source=HUB_MODEL)}
"""Request rules in which ``random`` stands in for a judge that loads a Hub model: the queue's and the worker's
mechanics do not depend on the backend (a real ``random`` request names no model: ``test_trust_round_three.py``)."""


def request_spec(known_backends: Sequence[str], **changes: Any) -> q.RequestSpec:
    """A validated request of ``random`` on IsoVRBench under :data:`HUB_RANDOM_RULES`, with ``changes`` applied."""
    args: dict[str, Any] = {"model": "org/tiny", "revision": "main", "backend": "random", "config": "seed: 1",
                            "benchmarks": ["isovrbench"], "known_backends": list(known_backends),
                            "rules": HUB_RANDOM_RULES}  # fmt: skip
    args.update(changes)
    return q.validate_request(**args)


@pytest.fixture(scope="session")
def data_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mmjudge.benchmarks import write_sample_data

    root = tmp_path_factory.mktemp("lb_data")
    write_sample_data(root, benchmarks=list(BENCHMARKS))
    return root


@pytest.fixture
def ranks_at_five_clips(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let the sample's 5-clip EmoReAlM family get rank sets, for tests of the rank cells' mechanics (storing,
    caching, exports, the page): on 5 clusters no test can reach p < 0.05, so the board itself gives no rank
    set there (``test_five_clips_get_no_star_as_compare_says`` holds that rule)."""
    from mmjudge.leaderboard.board import significance

    monkeypatch.setattr(significance, "no_test_reaches", lambda n_clusters, alpha: False)
    yield


@pytest.fixture(scope="session")
def reference(data_root: Path) -> dict[str, list[dict[str, Any]]]:
    from mmjudge.scoring import load_reference_rows

    return {b: load_reference_rows(b, data_root / b) for b in BENCHMARKS}


def prediction_lines(
    benchmark: str, rows: Sequence[Mapping[str, Any]], seed: int = 0, judge: str = "j"
) -> list[str]:
    """A valid prediction file for ``rows`` (random verdicts, some ties and no-judgments for IsoVRBench)."""
    rng = random.Random(seed)
    header = {"record": "header", "schema_version": 1, "benchmark": benchmark, "judge": judge}
    records: list[dict[str, Any]] = []
    if benchmark == "isovrbench":
        for i, r in enumerate(rows):
            if i % 7 == 3:
                records.append(
                    {"id": r["pair_id"], "score_chosen": None, "score_rejected": None, "no_judgment": True}
                )
            else:
                chosen = 0.5 if i % 5 == 1 else rng.random()
                rejected = 0.5 if i % 5 == 1 else rng.random()
                records.append({"id": r["pair_id"], "score_chosen": chosen, "score_rejected": rejected})
    elif benchmark == "emoprefer":
        for r in rows:
            for order in ("forward", "reversed"):
                item_id = r["name"] if order == "forward" else f"{r['name']}::reversed"
                choice = rng.choice(["a1", "a2", "same"])
                records.append({"id": item_id, "name": r["name"], "order": order, "prediction": choice})
    elif benchmark == "emorealm":
        for i, r in enumerate(rows):
            answer = rng.choice(["A", "(B)", "The answer is C.", "no idea", ""])
            records.append({"id": r["id"], "prediction": None if i == 2 else answer, "no_judgment": i == 2})
    else:
        raise ValueError(benchmark)
    rng.shuffle(records)
    return [json.dumps(header)] + [json.dumps(r) for r in records]


def prediction_bytes(benchmark: str, rows: Sequence[Mapping[str, Any]], seed: int = 0) -> bytes:
    return ("\n".join(prediction_lines(benchmark, rows, seed)) + "\n").encode()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A PostgreSQL server for this test session (skips locally, fails on CI, when it cannot start)."""
    # imported here: the subprocess scripts of test_requests import this file as a top-level module
    from .postgres import PostgresServer, find_bindir, unavailable

    bindir = find_bindir()
    if bindir is None:
        unavailable("PostgreSQL's initdb/pg_ctl are not installed (apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed (pip install 'mmjudge[postgres]')")
    server = PostgresServer(bindir).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: Any) -> str:
    """The URL of a fresh, empty database."""
    return postgres_server.create_database()


@pytest.fixture
def store_location(tmp_path: Path) -> str:
    """Where ``board_factory`` opens its store: an SQLite file unless a module overrides this fixture."""
    return str(tmp_path / "lb.sqlite")


@pytest.fixture(params=["sqlite", "postgresql"])
def both_backends(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store location on each backend (parametrized)."""
    if request.param == "sqlite":
        return str(tmp_path / "lb.sqlite")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def board_factory(store_location: str, data_root: Path, reference: dict[str, list[dict[str, Any]]]):
    """Make a Leaderboard on a fresh store over the session's labels (rows loaded once per session), storing
    the rank cells inline when a row is stored or hidden (as the worker does; the server's background
    refresher has its own tests)."""

    def make(**settings: Any) -> Leaderboard:
        settings.setdefault("data_root", data_root)
        settings.setdefault("require_login", False)
        store = Store(store_location)
        cells = InlineRanks(store, private=settings.get("private_labels", False))
        return Leaderboard(store, Settings(**settings), rows_fn=lambda b, folder: reference[b], on_change=cells)

    return make


def shown(message: str) -> str:
    """A handler's Markdown message as the page shows it: the character references that keep submitter text
    literal (``&#42;`` for ``*``) read as their characters."""
    return html.unescape(message)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(board: Leaderboard) -> Iterator[tuple[Any, str]]:
    """Serve ``board``'s app on a free loopback port; yields ``(app, url)``.

    On exit the app is closed in order: the server stops and every handler still running (a table or plot
    refresh started by the last event) finishes before the test goes on, so no gradio worker thread is
    left inside matplotlib or pyarrow when the interpreter exits.
    """
    from mmjudge.leaderboard.app.startup import about_text
    from mmjudge.leaderboard.app.ui import build_app

    app = build_app(board, about=about_text())
    port = free_port()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield app, f"http://127.0.0.1:{port}/"
    finally:
        drained = app.close(timeout=120)
        assert drained, f"{app.handlers.in_flight.running} handler(s) still running 120 s after closing"
