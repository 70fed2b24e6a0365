"""Screenshots of the docs site in Chromium: the home page, a benchmark page and the coverage page, at
1400 px and at 390 px (a phone), into ``benchmarks/screenshots/docs-<page>-<width>.png``.

    .venv/bin/python benchmarks/screenshot_docs.py            # builds the site (mkdocs build --strict) first

Needs Debian's ``chromium`` (``/usr/bin/chromium``, driven through Playwright with ``--headless --no-sandbox
--disable-gpu``). ``tests/test_docs_browser.py`` renders the same pages with :func:`render` and checks what
it measures: no raw Markdown visible, and no table wider than the page at 390 px.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHOTS = REPO / "benchmarks" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
PAGES = {"home": "", "benchmark-mist": "benchmarks/mist/", "coverage": "judges/"}
"""Screenshot name -> the page's path in the built site."""
WIDTHS = (1400, 390)
SHOT_HEIGHT = 2000
"""A screenshot shows the top of the page, at most this many px (full pages run to 16,000 px on a phone)."""
RAW_MARKDOWN = ("| ---", "|---", "```")
"""Text that shows a Markdown table or code fence was not rendered."""

MEASURE = """() => {
    const article = document.querySelector('article') || document.body;
    const tables = [...article.querySelectorAll('table')].map(table => {
        let box = table;  // the nearest ancestor that scrolls sideways (Material's scroll wrap), else the table
        for (let el = table.parentElement; el && el !== article; el = el.parentElement) {
            if (['auto', 'scroll'].includes(getComputedStyle(el).overflowX)) { box = el; break; }
        }
        const rect = box.getBoundingClientRect();
        return {left: rect.left, right: rect.right, boxScrolls: ['auto', 'scroll'].includes(getComputedStyle(box).overflowX),
                tableWidth: table.getBoundingClientRect().width, boxWidth: box.clientWidth};
    });
    return {text: article.innerText, tables, viewport: window.innerWidth,
            pageWidth: document.documentElement.scrollWidth};
}"""
"""Page script: the article's visible text, each table's scroll box, the viewport and the page's widths."""


def build_site(out: Path) -> Path:
    """``mkdocs build --strict`` into ``out``; raises with mkdocs' output when the build fails."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    done = subprocess.run(
        [str(mkdocs), "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=REPO, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build --strict failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return out


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """The built site over HTTP on a free local port (its base URL), stopped on exit."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def render(browser: Any, url: str, width: int, screenshot: Path | None = None) -> dict[str, Any]:
    """Open ``url`` at ``width`` px, wait for the page to settle, measure it (:data:`MEASURE`) and, if asked,
    save a screenshot of its top :data:`SHOT_HEIGHT` px."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(url, wait_until="networkidle")
        measured: dict[str, Any] = page.evaluate(MEASURE)
        if screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            height = min(SHOT_HEIGHT, int(page.evaluate("() => document.documentElement.scrollHeight")))
            page.screenshot(path=str(screenshot), full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})
        return measured
    finally:
        page.close()


def problems(measured: dict[str, Any]) -> list[str]:
    """What is wrong with a rendered page: raw Markdown in its text, a table that sticks out of the viewport
    (or is wider than its box without a scrollbar), a page wider than the viewport."""
    found = [f"raw Markdown {raw!r} is visible" for raw in RAW_MARKDOWN if raw in measured["text"]]
    viewport = measured["viewport"]
    for i, table in enumerate(measured["tables"]):
        if table["left"] < -1 or table["right"] > viewport + 1:
            found.append(f"table {i} spans {table['left']:.0f}..{table['right']:.0f} px of a {viewport} px viewport")
        if table["tableWidth"] > table["boxWidth"] + 1 and not table["boxScrolls"]:
            found.append(f"table {i} is {table['tableWidth']} px wide in a {table['boxWidth']} px box that does not scroll")
    if measured["pageWidth"] > viewport + 1:
        found.append(f"the page is {measured['pageWidth']} px wide in a {viewport} px viewport")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", default=str(SHOTS), help="folder for the PNG files (default: %(default)s)")
    args = parser.parse_args(argv)
    import tempfile

    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        serve(build_site(Path(tmp) / "site")) as base,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            failed = False
            for name, path in PAGES.items():
                for width in WIDTHS:
                    shot = Path(args.out) / f"docs-{name}-{width}.png"
                    bad = problems(render(browser, base + path, width, shot))
                    print(f"{shot.relative_to(REPO) if shot.is_relative_to(REPO) else shot}: "
                          + ("; ".join(bad) if bad else "renders"))  # fmt: skip
                    failed |= bool(bad)
        finally:
            browser.close()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
