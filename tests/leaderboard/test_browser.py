"""The app in real headless Chromium (Playwright): a valid upload is stored and shown, a malformed one is
rejected with its line, the same predictions uploaded again are rejected as a duplicate.

Each test starts from a fresh store, a fresh app and a fresh browser page, and every step waits on state
the app itself shows (the file component's value, the message, a table row), never on something that
may legitimately stay unchanged. Needs Debian's ``chromium`` at ``/usr/bin/chromium`` (CI installs it);
run with ``-m browser``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mmjudge.leaderboard import SubmissionMeta
from mmjudge.leaderboard.reference import seed_reference

from .conftest import prediction_bytes, prediction_lines, served

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
STEP_MS = 60_000  # the CI machine may be busy
MODEL = "org/<b>browser</b>-judge"


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing on CI: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def session(browser, board_factory, monkeypatch):
    """A fresh store with the reported rows, its app served, and a fresh page on it: ``(board, page)``."""
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    board = board_factory()
    seed_reference(board.store)
    with served(board) as (_, url):
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(STEP_MS)
            # no internet here: refuse outside requests (web fonts) at once instead of waiting for them
            page.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
            page.goto(url, wait_until="domcontentloaded")
            page.get_by_role("tab", name="Submit").wait_for()
            yield board, page
        finally:
            context.close()  # no new events; `served` then waits for the handlers still running


def _submit(page, path: Path, model: str) -> str:
    """Upload ``path`` (a name this page has not uploaded before) and submit; returns the final message."""
    page.get_by_role("tab", name="Submit").click()
    page.locator("#submit-file input[type=file]").set_input_files(str(path))
    page.locator("#submit-file").get_by_text(path.name).first.wait_for()  # the upload has landed
    page.locator("#submit-judge textarea, #submit-judge input").first.fill("browser judge")
    page.locator("#submit-model textarea, #submit-model input").first.fill(model)
    page.locator("#submit-revision textarea, #submit-revision input").first.fill("r1")
    message = page.locator("#submit-message")
    page.locator("#submit-button").click()
    # the handler's answer, not the pending status (which shows a running timer such as "1.2s")
    page.wait_for_function(
        "el => /Stored|Rejected/.test(el.innerText) && !/\\d\\.\\ds/.test(el.innerText)",
        arg=message.element_handle(),
    )
    return message.inner_text()


def _verified(board) -> list:
    return [s for s in board.store.submissions("isovrbench") if s.kind == "verified"]


def test_valid_upload_is_stored_and_shown_with_the_name_escaped(session, reference, tmp_path) -> None:
    from playwright.sync_api import expect

    board, page = session
    valid = tmp_path / "valid.jsonl"
    valid.write_bytes(prediction_bytes("isovrbench", reference["isovrbench"], seed=11))

    stored = _submit(page, valid, MODEL)
    assert "Stored" in stored and MODEL in stored  # escaped text, shown literally
    [row] = _verified(board)
    expected = f"{row.results['average']:.1f}"
    assert f"Average = {expected}" in stored

    page.get_by_role("tab", name="IsoVRBench").click()
    table = page.locator("#table-isovrbench")
    expect(table).to_contain_text("browser judge", timeout=STEP_MS)
    text = table.inner_text()
    assert expected in text and "&lt;b&gt;browser&lt;/b&gt;" in text
    assert table.locator("b").count() == 0  # the model name's tags are not rendered


def test_malformed_upload_is_rejected_with_its_line(session, reference, tmp_path) -> None:
    board, page = session
    lines = prediction_lines("isovrbench", reference["isovrbench"], seed=12)
    lines[3] = '{"id": 42, "score_chosen": 1}'
    malformed = tmp_path / "malformed.jsonl"
    malformed.write_text("\n".join(lines) + "\n")

    rejected = _submit(page, malformed, "org/other")
    assert "Rejected" in rejected and "line 4" in rejected and "non-empty string `id`" in rejected
    assert _verified(board) == []


def test_the_same_predictions_again_are_rejected_as_a_duplicate(session, reference, tmp_path) -> None:
    board, page = session
    content = prediction_bytes("isovrbench", reference["isovrbench"], seed=11)
    first = board.submit(content, SubmissionMeta("browser judge", "org/first", "r1"), "local")
    again = tmp_path / "again.jsonl"  # the same bytes under a name this page has not seen
    again.write_bytes(content)

    message = _submit(page, again, "org/third")
    assert "Rejected" in message and "already submitted" in message and f"row #{first.id}" in message
    assert [s.id for s in _verified(board)] == [first.id]
