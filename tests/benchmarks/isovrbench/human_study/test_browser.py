"""The annotation app in headless Chromium (Playwright): one pair at a time, three questions, resume.

Needs Debian's ``chromium`` at ``/usr/bin/chromium`` (CI installs it); marked ``browser``. Every step
waits on what the app shows (the progress line, the status message), and the app is closed in order
(server, then running handlers) before the test ends.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_helpers import STEP_MS, chromium

from mmjudge.benchmarks.isovrbench.human_study import AnswerStore, Study

pytestmark = pytest.mark.browser

@pytest.fixture(scope="module")
def browser():
    pytest.importorskip("gradio")
    with chromium() as launched:
        yield launched


@contextmanager
def served(study: Study) -> Iterator[str]:
    from mmjudge.benchmarks.isovrbench.human_study.app import build_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    app = build_app(study)
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        assert app.close(timeout=120), "a handler was still running 120 s after closing"


@contextmanager
def page_on(browser, url: str) -> Iterator:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())  # no internet here
        page.goto(url, wait_until="domcontentloaded")
        page.get_by_role("button", name="Start or resume").wait_for()
        yield page
    finally:
        context.close()


def _start(page, annotator: str) -> None:
    page.get_by_label("Annotator id").fill(annotator)
    page.get_by_role("button", name="Start or resume").click()


def _answer(page, visual: str, motion: str, text: str) -> None:
    for key, label in (("visual", visual), ("motion", motion), ("text", text)):
        page.locator(f"#q-{key}").get_by_label(label, exact=True).check()
    page.get_by_role("button", name="Submit and next").click()


def test_an_annotator_answers_pairs_and_resumes_after_a_reload(
    browser, small_study: Study
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    first, second, third = small_study.items[:3]
    with served(small_study) as url:
        with page_on(browser, url) as page:
            _start(page, "ann-7")
            page.locator("#progress").get_by_text(f"Item 1 of 16 ({first.item_id})").wait_for()
            videos = page.locator("video")
            # the two players mount with the item (their component may load after the progress line)
            expect(videos).to_have_count(2)
            for i in range(2):
                expect(videos.nth(i)).to_have_attribute("src", re.compile(r"."))
            names = [videos.nth(i).get_attribute("src") or "" for i in range(2)]
            assert [n.rsplit("/", 1)[-1] for n in names] == [Path(first.left).name, Path(first.right).name]
            page.locator("#q-visual").get_by_label("Left", exact=True).check()
            page.get_by_role("button", name="Submit and next").click()
            page.locator("#status").get_by_text("Answer all three questions").wait_for()
            _answer(page, "Left", "Same", "Right")
            page.locator("#progress").get_by_text(f"Item 2 of 16 ({second.item_id})").wait_for()
            _answer(page, "Same", "Same", "Same")
            page.locator("#progress").get_by_text(f"Item 3 of 16 ({third.item_id})").wait_for()
        with page_on(browser, url) as page:  # a new page: the annotator resumes at item 3
            _start(page, "ann-7")
            page.locator("#progress").get_by_text(f"Item 3 of 16 ({third.item_id})").wait_for()
    stored = [
        (a.annotator, a.item_id, a.visual, a.motion, a.text)
        for a in AnswerStore(small_study.answers_path).answers()
    ]
    assert stored == [
        ("ann-7", first.item_id, "left", "same", "right"),
        ("ann-7", second.item_id, "same", "same", "same"),
    ]
