"""The launched app through gradio_client: public read endpoints answer, store-changing handlers are private."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from mmjudge.leaderboard import SubmissionMeta
from mmjudge.leaderboard.core.reported import reported_rows, seed_reported

from ..conftest import prediction_bytes, served

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def app(board_factory, reference):
    board = board_factory()
    seed_reported(board.store)
    board.submit(
        prediction_bytes("isovrbench", reference["isovrbench"], seed=4),
        SubmissionMeta("judge-a", XSS, "r1"),
        "local",
    )
    with served(board) as (_, url):
        yield board, url


def test_client_reads_tables_and_results_but_cannot_submit(app) -> None:
    from gradio_client import Client

    board, url = app
    client = Client(url, verbose=False)
    endpoints = set(client.view_api(print_info=False, return_format="dict")["named_endpoints"])
    assert {
        "/table_isovrbench",
        "/table_emoprefer",
        "/queue",
        "/results_file",
        "/export_csv_isovrbench",
    } <= endpoints
    assert not any("submit" in name or "request" in name or "hide" in name for name in endpoints)
    value = client.predict(api_name="/table_isovrbench")
    headers, data = value["headers"], value["data"]
    average = headers.index("Average")
    tier, judge, model = (headers.index(h) for h in ("Tier", "Judge", "Model"))
    assert headers[:3] == ["Rank", "Judge", "Average"]
    verified = next(row for row in data if row[tier] == "submitted")
    stored = next(s for s in board.store.submissions("isovrbench") if s.kind == "verified")
    assert verified[average] == pytest.approx(stored.results["average"], abs=1e-4)
    assert any(row[tier] == "published" and row[judge] == "VideoReward" for row in data)
    # escaped once, where rendered: the cells are text as submitted (gr.Dataframe shows str cells as text)
    assert verified[model] == XSS and not any("&lt;" in str(cell) for row in data for cell in row)
    shown = value["metadata"]["display_value"]
    assert any(XSS in str(cell) for row in shown for cell in row)
    results = json.loads(Path(client.predict(stored.id, api_name="/results_file")).read_text())
    assert results["scores"]["average"] == stored.results["average"]
    assert results["run"]["leaderboard"]["model"] == XSS
    csv_text = Path(client.predict(api_name="/export_csv_isovrbench")).read_text()
    assert "Average" in csv_text.splitlines()[0] and XSS in csv_text and "&lt;" not in csv_text


def test_cli_parses_serve_and_worker_options(tmp_path) -> None:
    from mmjudge.cli import build_parser, main

    args = build_parser().parse_args(
        ["leaderboard", "--db", "a.sqlite", "--port", "9000", "--no-auth", "--data-root", "d"]
    )
    assert (args.db, args.port, args.no_auth, args.data_root, args.leaderboard_action) == (
        "a.sqlite",
        9000,
        True,
        "d",
        None,
    )
    args = build_parser().parse_args(["leaderboard", "worker", "--db", "w.sqlite", "--once"])
    assert (args.db, args.once, args.leaderboard_action) == ("w.sqlite", True, "worker")
    assert main(["leaderboard", "worker", "--db", str(tmp_path / "w.sqlite"), "--once"]) == 0


def test_space_app_builds_from_environment(tmp_path, data_root, monkeypatch) -> None:
    import runpy

    import gradio as gr
    import gradio.oauth

    # pretend to be a Space with OAuth enabled (locally gradio mocks OAuth with the machine's HF login)
    monkeypatch.setattr(gradio.oauth, "get_space", lambda: "org/leaderboard")
    for name in ("OAUTH_CLIENT_ID", "OAUTH_CLIENT_SECRET", "OAUTH_SCOPES"):
        monkeypatch.setattr(gradio.oauth, name, "test")
    monkeypatch.setattr(gradio.oauth, "OPENID_PROVIDER_URL", "https://huggingface.co")
    monkeypatch.setenv("MMJUDGE_DB", str(tmp_path / "space.sqlite"))
    monkeypatch.setenv("MMJUDGE_DATA_ROOT", str(data_root))
    monkeypatch.setenv("MMJUDGE_ADMINS", "root, admin2")
    namespace = runpy.run_path(str(Path(__file__).resolve().parents[3] / "spaces" / "leaderboard" / "app.py"))
    assert isinstance(namespace["demo"], gr.Blocks)
    board = namespace["board"]
    assert board.settings.require_login and board.settings.admins == {"root", "admin2"}
    assert "isovrbench" in board.benchmarks_available()
    assert [s.judge for s in board.store.submissions("isovrbench")] == [
        r.judge for r in reported_rows("isovrbench")
    ]
    readme = (Path(__file__).resolve().parents[3] / "spaces" / "leaderboard" / "README.md").read_text()
    front = readme.split("---")[1]
    for line in ("sdk: gradio", "sdk_version: 6.31.0", "app_file: app.py", "hf_oauth: true"):
        assert line in front


def test_close_waits_for_a_running_handler_then_refuses_new_calls(board_factory, monkeypatch) -> None:
    """Closing stops the server but lets a handler in flight finish: gradio runs handlers in daemon threads,
    and one still inside matplotlib or pyarrow at interpreter exit aborts the process."""
    from gradio_client import Client

    from mmjudge.leaderboard.app import ui

    started, release, closed = threading.Event(), threading.Event(), []
    real = ui.read_table

    def slow_table(*args, **kwargs):
        started.set()
        release.wait(60)
        return real(*args, **kwargs)

    with served(board_factory()) as (app, url):
        monkeypatch.setattr(ui, "read_table", slow_table)
        Client(url, verbose=False).submit(api_name="/table_isovrbench")
        assert started.wait(60), "the table handler never started"
        closer = threading.Thread(target=lambda: closed.append(app.close(timeout=60)))
        closer.start()
        closer.join(0.5)
        assert closer.is_alive() and app.handlers.in_flight.running == 1  # waiting for the handler
        with pytest.raises(ui.AppClosingError, match="shutting down"):
            app.handlers.table_value("isovrbench")
        release.set()
        closer.join(60)
        assert closed == [True] and app.handlers.in_flight.running == 0


def test_in_flight_close_reports_a_handler_that_outlives_the_timeout() -> None:
    from mmjudge.leaderboard.app.ui import InFlight

    calls, entered, leave = InFlight(), threading.Event(), threading.Event()

    def handler() -> None:
        with calls():
            entered.set()
            leave.wait(10)

    worker = threading.Thread(target=handler)
    worker.start()
    assert entered.wait(10)
    assert calls.close(timeout=0.05) is False and calls.running == 1
    leave.set()
    worker.join(10)
    assert calls.close(timeout=1.0) is True and calls.running == 0
