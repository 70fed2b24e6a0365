"""A benchmark tab in real headless Chromium (Playwright), as a reader on a phone or a desktop sees it: at
390 px the figure spans the screen and its legend's text is over 9 px tall; the figure follows the
table's filter box; no empty export box sits under the table until there is an export; judge names
break between words only; after a column sort the baseline stays below the ranked rows.

Needs Debian's ``chromium`` at ``/usr/bin/chromium``; run with ``-m browser``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import COLUMN, sort_column

from mmjudge.leaderboard.app.ui import Handlers

from ..conftest import served
from .test_browser import _ranked, page_at

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}
READABLE_PX = 9.0
"""Smallest legend text height (CSS px) taken as readable on a phone."""


@pytest.fixture(scope="module")
def ranked(tmp_path_factory, data_root, reference):
    """``(board, url)``: the published IsoVRBench rows, a submitted row and a baseline, served once."""
    from mmjudge.leaderboard import Leaderboard, Settings, Store

    store = Store(str(tmp_path_factory.mktemp("views") / "lb.sqlite"))
    board = Leaderboard(store, Settings(data_root=data_root, require_login=False),
                        rows_fn=lambda b, folder: reference[b])  # fmt: skip
    with served(_ranked(board, reference)) as (_, url):
        yield board, url


_FIGURE = """plot => {
    const img = plot.querySelector('img');
    return img && img.complete && img.naturalWidth ? [img.naturalWidth, img.getBoundingClientRect().width, img.src] : null;
}"""


def _plot(page, benchmark: str = "isovrbench") -> Any:
    """The tab's figure component (the one matplotlib plot in the tab of ``#table-<benchmark>``)."""
    tab = page.locator(f"#table-{benchmark}").locator("xpath=ancestor::div[contains(@class, 'tabitem')]")
    return tab.locator("[data-testid=matplotlib]").first


def _figure(page, benchmark: str = "isovrbench") -> tuple[int, float, str]:
    """``(natural width, shown width, src)`` of the tab's figure, once it is drawn."""
    handle = page.wait_for_function(_FIGURE, arg=_plot(page, benchmark).element_handle())
    natural, shown, src = handle.json_value()
    return int(natural), float(shown), str(src)


def _legend_points(board) -> list[float]:
    """The font sizes (points) of the IsoVRBench figure's legend texts, as the server draws it."""
    fig = Handlers(board).plot("isovrbench")
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    return [t.get_fontsize() for legend in legends if legend is not None for t in legend.get_texts()]


def test_at_390_px_the_figure_spans_the_screen_and_its_legend_is_readable(browser, ranked) -> None:
    board, url = ranked
    with page_at(browser, url, PHONE) as page:
        natural, shown, _ = _figure(page)
    dpi = Handlers(board).plot("isovrbench").dpi
    smallest = min(_legend_points(board)) * dpi / 72 * shown / natural  # legend text height on the screen
    assert shown >= 0.9 * PHONE["width"], shown
    assert smallest >= READABLE_PX, f"legend text {smallest:.1f} px tall in a {shown:.0f} px figure"


def test_the_figure_follows_the_table_filter(browser, ranked) -> None:
    """Text in the table's filter box leaves out of the figure the rows it leaves out of the table: the
    figure shown is, byte for byte, the server's figure of the rows the filter keeps."""
    from gradio.processing_utils import encode_plot_to_base64
    from playwright.sync_api import expect

    board, url = ranked
    with page_at(browser, url, DESKTOP) as page:
        table = page.locator("#table-isovrbench")
        expect(table).to_contain_text("vlm judge")
        _, _, before = _figure(page)
        table.get_by_placeholder("Filter...").fill("vlm judge")
        expect(table).not_to_contain_text("VideoReward")
        page.wait_for_function(f"p => ({_FIGURE})(p) && ({_FIGURE})(p)[2] !== {json.dumps(before)}",
                               arg=_plot(page).element_handle())  # fmt: skip
        _, _, after = _figure(page)
    expected = encode_plot_to_base64(Handlers(board).plot("isovrbench", None, None, None, None, "", "vlm judge"), "png")
    everything = encode_plot_to_base64(Handlers(board).plot("isovrbench"), "png")
    assert before == everything and after == expected != everything


def test_no_empty_export_box_until_there_is_an_export(browser, ranked) -> None:
    _, url = ranked
    with page_at(browser, url, PHONE) as page:
        page.locator("#table-isovrbench").scroll_into_view_if_needed()
        box = page.locator("#export-isovrbench")
        assert box.count() == 0 or box.bounding_box() is None or box.bounding_box()["height"] < 10
        page.locator("#export-csv-isovrbench").click()
        link = page.locator("#export-isovrbench a[href]").first
        link.wait_for()
        assert link.get_attribute("href")


_JUDGE_CELLS = """table => {
    const at = [...table.querySelectorAll('th')].map(th => th.getAttribute('title')).indexOf('Judge');
    return [...table.querySelectorAll('[role=row]')].map(row => row.querySelectorAll('td, [role=gridcell]')[at])
        .filter(cell => cell && cell.innerText.trim()).map(cell => {
            const text = cell.querySelector('.wrap') || cell, style = getComputedStyle(text);
            return [cell.innerText.trim(), style.wordBreak, style.overflowWrap, style.hyphens,
                    text.scrollWidth <= text.clientWidth + 1];
        });
}"""


def test_judge_names_break_between_words_only(browser, ranked) -> None:
    """At 390 px the judge cells wrap at spaces and hyphens, never inside a word (gradio's cells say
    ``word-break: break-word``), and every name's longest word fits its pinned column."""
    from playwright.sync_api import expect

    _, url = ranked
    with page_at(browser, url, PHONE) as page:
        table = page.locator("#table-isovrbench")
        expect(table).to_contain_text("UnifiedReward-Flex-9B")
        cells = table.evaluate(_JUDGE_CELLS)
    assert {"UnifiedReward-Flex-9B", "random floor"} <= {c[0] for c in cells}
    for name, word_break, overflow_wrap, hyphens, fits in cells:
        assert word_break in ("normal", "keep-all") and overflow_wrap == "normal" and hyphens != "auto", name
        assert fits, f"{name!r} overflows its column"


@pytest.mark.parametrize("how", ["Sort descending", "Sort ascending"])
def test_after_a_sort_the_baseline_stays_below_the_ranked_rows(browser, ranked, how) -> None:
    """The baseline ``random floor`` (Average 37.5, above published LiFT's 19.5) is not ranked: sorted by
    Average either way, the ranked rows are in that order and the baseline is the last row."""
    from playwright.sync_api import expect

    _, url = ranked
    with page_at(browser, url, DESKTOP) as page:
        table = page.locator("#table-isovrbench")
        expect(table).to_contain_text("random floor")
        sort_column(page, table, "Average", how)
        descending = how == "Sort descending"
        # the rank order already starts with VideoReward: wait for the sorted answer (vlm judge's 31.2 and
        # LiFT's 19.5 swap places), not for a first row that may be there before it
        swapped = "(j => j.indexOf('vlm judge') < j.indexOf('LiFT'))" if descending else "(j => j[0] === 'LiFT')"
        page.wait_for_function(f"args => {swapped}(({COLUMN})(args))", arg=[table.element_handle(), "Judge"])
        judges, ranks, averages = (page.evaluate(COLUMN, [table.element_handle(), t]) for t in ("Judge", "Rank", "Average"))
    assert judges[-1] == "random floor" and ranks[-1] == "baseline"
    ranked_averages = [float(a.split()[0]) for a in averages[:-1]]
    assert ranked_averages == sorted(ranked_averages, reverse=descending)
    assert float(averages[-1].split()[0]) > min(ranked_averages)  # it would not sit last on its value
