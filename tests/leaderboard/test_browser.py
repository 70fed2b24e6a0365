"""The app in real headless Chromium (Playwright): upload a valid file and see the new row with its score,
upload a malformed file and see the error, re-upload the same file and see it rejected.

Needs Debian's ``chromium`` at ``/usr/bin/chromium`` (CI installs it); run with ``-m browser``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mmjudge.leaderboard.bootstrap import about_text
from mmjudge.leaderboard.reference import seed_reference

from .conftest import prediction_bytes, prediction_lines
from .test_app import free_port

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
MODEL = "org/<b>browser</b>-judge"


@pytest.fixture
def served(board_factory, monkeypatch):
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    from mmjudge.leaderboard.ui import build_blocks

    board = board_factory()
    seed_reference(board.store)
    demo = build_blocks(board, about=about_text())
    port = free_port()
    demo.queue().launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield board, f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


def _submit(page, path: Path, model: str) -> str:
    page.get_by_role("tab", name="Submit").click()
    page.locator("#submit-file input[type=file]").set_input_files(str(path))
    page.locator("#submit-file").get_by_text(path.name).first.wait_for(timeout=60_000)
    page.locator("#submit-judge textarea, #submit-judge input").first.fill("browser judge")
    page.locator("#submit-model textarea, #submit-model input").first.fill(model)
    page.locator("#submit-revision textarea, #submit-revision input").first.fill("r1")
    message = page.locator("#submit-message")
    before = message.inner_text().strip()
    page.locator("#submit-button").click()
    page.wait_for_function(
        "([el, before]) => !el.innerText.includes(before || '\\u0000') && /Stored|Rejected/.test(el.innerText)"
        " && !/\\d\\.\\ds/.test(el.innerText)",
        arg=[message.element_handle(), before],
        timeout=60_000,
    )
    return message.inner_text()


def test_upload_valid_malformed_and_duplicate_files(served, reference, tmp_path) -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing on CI: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    board, url = served
    valid = tmp_path / "valid.jsonl"
    valid.write_bytes(prediction_bytes("isovrbench", reference["isovrbench"], seed=11))
    lines = prediction_lines("isovrbench", reference["isovrbench"], seed=12)
    lines[3] = '{"id": 42, "score_chosen": 1}'
    malformed = tmp_path / "malformed.jsonl"
    malformed.write_text("\n".join(lines) + "\n")

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.set_default_timeout(60_000)  # the CI machine may be busy
            # no internet here: refuse outside requests (web fonts) at once instead of waiting for them
            page.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
            page.goto(url, wait_until="domcontentloaded")
            page.get_by_role("tab", name="Submit").wait_for(timeout=60_000)
            stored = _submit(page, valid, MODEL)
            assert "Stored" in stored and MODEL in stored  # escaped text, shown literally
            row = next(s for s in board.store.submissions("isovrbench") if s.kind == "verified")
            expected = f"{row.results['average']:.1f}"
            assert f"Average = {expected}" in stored

            page.get_by_role("tab", name="IsoVRBench").click()
            table = page.locator("#table-isovrbench")
            expect(table).to_contain_text("browser judge", timeout=60_000)
            text = table.inner_text()
            assert expected in text and MODEL in text  # escaped once: shown literally
            assert table.locator("b").count() == 0  # the model name's tags are not rendered

            rejected = _submit(page, malformed, "org/other")
            assert (
                "Rejected" in rejected
                and re.search(r"line 4", rejected)
                and "non-empty string `id`" in rejected
            )

            again = _submit(page, valid, "org/third")
            assert "Rejected" in again and "already submitted" in again and f"row #{row.id}" in again
            assert len([s for s in board.store.submissions("isovrbench") if s.kind == "verified"]) == 1
        finally:
            browser.close()
