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
