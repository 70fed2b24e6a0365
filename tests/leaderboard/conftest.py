"""Fixtures of the leaderboard tests: one sample data root per session, prediction-file writers."""

from __future__ import annotations

import json
import random
import socket
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mmjudge.leaderboard import Leaderboard, Settings, Store

BENCHMARKS = ("isovrbench", "emoprefer", "emorealm")


@pytest.fixture(scope="session")
def data_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mmjudge.benchmarks import write_sample_data

    root = tmp_path_factory.mktemp("lb_data")
    write_sample_data(root, benchmarks=list(BENCHMARKS))
    return root


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


@pytest.fixture
def board_factory(tmp_path: Path, data_root: Path, reference: dict[str, list[dict[str, Any]]]):
    """Make a Leaderboard on a fresh store over the session's labels (rows loaded once per session)."""

    def make(**settings: Any) -> Leaderboard:
        settings.setdefault("data_root", data_root)
        settings.setdefault("require_login", False)
        store = Store(tmp_path / "lb.sqlite")
        return Leaderboard(store, Settings(**settings), rows_fn=lambda b, folder: reference[b])

    return make


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
    from mmjudge.leaderboard.startup import about_text
    from mmjudge.leaderboard.ui import build_app

    app = build_app(board, about=about_text())
    port = free_port()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield app, f"http://127.0.0.1:{port}/"
    finally:
        drained = app.close(timeout=120)
        assert drained, f"{app.handlers.in_flight.running} handler(s) still running 120 s after closing"
