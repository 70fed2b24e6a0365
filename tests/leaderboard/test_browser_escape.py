"""Escaped once, in real headless Chromium: a name like ``AT&T <b>x</b>`` is shown literally, once, in
the table (no ``&amp;``, no rendered tag, no script run) and the CSV export carries it as submitted.

Needs Debian's ``chromium`` at ``/usr/bin/chromium``; run with ``-m browser``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mmjudge.leaderboard import SubmissionMeta

from .conftest import prediction_bytes
from .test_app import free_port

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
NAME = "AT&T <b>x</b>"
JUDGE = "<img src=x onerror=window.__pwned=1>"


@pytest.fixture
def served_with_names(board_factory, reference, monkeypatch):
    """A fresh store holding one EmoPrefer row whose model and judge names carry markup, served locally."""
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    from mmjudge.leaderboard.ui import build_blocks

    board = board_factory()
    data = prediction_bytes("emoprefer", reference["emoprefer"], seed=21)
    board.submit(data, SubmissionMeta(JUDGE, NAME, "r1"), "local")
    demo = build_blocks(board)
    port = free_port()
    demo.queue().launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield board, f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


def test_markup_in_names_is_shown_literally_once_and_exported_as_submitted(served_with_names) -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing on CI: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    board, url = served_with_names
    dialogs: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.set_default_timeout(60_000)  # the CI machine may be busy
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
            page.goto(url, wait_until="domcontentloaded")
            page.get_by_role("tab", name="EmoPrefer").click()
            table = page.locator("#table-emoprefer")
            expect(table).to_contain_text(NAME, timeout=60_000)  # the app announced the stored row
            text = table.inner_text()
            assert text.count(NAME) == 1 and "&amp;" not in text and "&lt;" not in text
            assert JUDGE in text  # the judge name's tag is text too
            assert table.locator("b").count() == 0 and table.locator("img").count() == 0
            assert page.evaluate("() => window.__pwned === undefined") and dialogs == []

            page.locator("#export-csv-emoprefer").click()
            link = page.locator("#export-emoprefer a[href]").first
            link.wait_for(timeout=60_000)
            exported = page.request.get(link.get_attribute("href") or "").text()
            sub = board.store.submissions("emoprefer")[0]
            assert NAME in exported and JUDGE in exported and "&amp;" not in exported
            assert sub.model == NAME and sub.judge == JUDGE  # stored as submitted
        finally:
            browser.close()
