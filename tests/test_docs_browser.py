"""The docs site in Chromium: the home page, a benchmark page and the coverage page, built with
``mkdocs build --strict``, render at 1400 px and at 390 px with no raw Markdown visible and no table sticking
out of the viewport (Material wraps each table in a box that scrolls sideways). The measuring and the
screenshots in ``benchmarks/screenshots/docs-*.png`` come from ``benchmarks/screenshot_docs.py``."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from browser_helpers import chromium

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]


def _shots() -> ModuleType:
    spec = importlib.util.spec_from_file_location("screenshot_docs", REPO / "benchmarks" / "screenshot_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["screenshot_docs"] = module
    spec.loader.exec_module(module)
    return module


shots = _shots()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    built = shots.build_site(tmp_path_factory.mktemp("docs") / "site")
    with shots.serve(built) as base:
        yield base


@pytest.mark.parametrize("width", shots.WIDTHS)
@pytest.mark.parametrize("name", list(shots.PAGES))
def test_the_page_renders(browser: Any, site: str, name: str, width: int, tmp_path: Path) -> None:
    measured = shots.render(browser, site + shots.PAGES[name], width, tmp_path / f"{name}-{width}.png")
    assert shots.problems(measured) == []
    assert (tmp_path / f"{name}-{width}.png").stat().st_size > 10_000
    if name != "home":
        assert len(measured["tables"]) >= 2, "the page's tables did not render"
        assert measured["pageWidth"] <= width
    assert "mmjudge" in measured["text"]


def test_a_broken_page_is_caught(browser: Any, tmp_path: Path) -> None:
    """The checks can fail: raw Markdown and a wide table without a scroll box are both reported at 390 px."""
    cells = "".join(f"<td>column{i}_with_long_text</td>" for i in range(12))
    (tmp_path / "index.html").write_text(
        f"<html><body><article><p>| --- | --- |</p><table><tr>{cells}</tr></table></article></body></html>"
    )
    with shots.serve(tmp_path) as base:
        found = shots.problems(shots.render(browser, base, 390))
    assert any("raw Markdown '| ---'" in f for f in found), found
    assert any(f.startswith("table 0 spans") for f in found), found
    assert any(f.startswith("the page is") for f in found), found
