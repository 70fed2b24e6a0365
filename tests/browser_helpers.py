"""Headless Chromium for the browser tests (Debian's ``/usr/bin/chromium`` driven by Playwright).

``playwright install`` cannot download here, so the tests launch the system browser. On CI (``CI`` set) a
missing browser fails the test: ``.ci/run`` must install it; elsewhere the test is skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
STEP_MS = 60_000
"""How long one step on a page may take (the CI machine may be busy)."""


@contextmanager
def chromium() -> Iterator[Any]:
    """A launched headless Chromium, closed on exit (skip or fail when it is not installed, as above)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing on CI: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


COLUMN = """([table, title]) => {
    const at = [...table.querySelectorAll('th')].map(th => th.getAttribute('title')).indexOf(title);
    return [...table.querySelectorAll('[role=row]')].map(row => row.querySelectorAll('td, [role=gridcell]')[at])
        .filter(cell => cell).map(cell => cell.innerText.trim()).filter(text => text);
}"""
"""Page script: the non-empty cell texts of the column titled ``title`` of ``table`` (``[table, title]``)."""


def sort_column(page: Any, table: Any, title: str, how: str) -> None:
    """Choose ``how`` (``Sort ascending``/``Sort descending``) in the menu of the column titled ``title``."""
    header = table.locator(f"th[title='{title}']")
    header.hover()
    header.locator("button[aria-label='Open cell menu']").click()
    page.locator(".cell-menu").get_by_text(how, exact=True).click()


def choose_file(page: Any, component: str, path: Path) -> None:
    """Give the file component ``component`` (a selector) ``path`` as a user's file chooser does, and wait
    until the upload has finished and the component shows the file.

    The finished upload is the file preview's row, which names the file in its ``aria-label``: its visible
    text splits the name into stem and extension, and the name shown whole while the upload runs goes away
    when it ends, so a wait on the whole name shown as text passes only if it catches the upload in flight.
    gradio 6.31's upload widget also replaces its hidden ``<input type=file>`` each time its settings update
    (its drag action's ``update`` removes the input and makes another), and its change listener then reads
    the files of the new, empty input: a file set on the replaced one is dropped without a sign, and the
    widget goes on offering an empty input. Only then is the file chosen again (a user would do the same);
    a file that is taken (the input gone while it uploads) is waited for a whole step, and one that never
    shows fails with what the component holds.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    box = page.locator(component)
    chooser = box.locator("input[type=file]")
    shown = box.locator(f'td.filename[aria-label="{path.name}"]')
    for _ in range(3):
        chooser.set_input_files(str(path))
        try:
            shown.wait_for(timeout=STEP_MS / 3)
            return
        except PlaywrightTimeout:
            if chooser.count():  # dropped: the widget offers an empty input again
                continue
        try:
            shown.wait_for(timeout=STEP_MS)
            return
        except PlaywrightTimeout:
            break
    raise AssertionError(f"{path.name} never showed in {component}: {box.inner_html()[:2000]}")
