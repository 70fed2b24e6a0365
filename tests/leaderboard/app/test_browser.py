"""The app in real headless Chromium (Playwright): a valid upload is stored and shown, a malformed one is
rejected with its line, the same predictions uploaded again are rejected as a duplicate, markup in
names is shown literally, once, and exported as submitted; rank, judge and headline are in view at
1400 px and at 390 px (also scrolled right: they are pinned), a column-group toggle hides and shows its
headers, the tier filter leaves only rows of that tier, and a column sort replaces the previous one
while each row keeps its rank (and a baseline stays below the ranked rows); rows on the same items show
their rank sets, with the caption saying what the marks mean.

Each test starts from a fresh store, a fresh app and a fresh browser page, and every step waits on state
the app itself shows (the file component's value, the message, a table row), never on something that
may legitimately stay unchanged. Needs Debian's ``chromium`` at ``/usr/bin/chromium`` (CI installs it);
run with ``-m browser``.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_helpers import COLUMN, STEP_MS, choose_file, sort_column

from mmjudge.leaderboard import SubmissionMeta
from mmjudge.leaderboard.core.reported import seed_reported

from ..conftest import prediction_bytes, prediction_lines, served

pytestmark = pytest.mark.browser

MODEL = "org/<b>browser</b>-judge"
LOAD_S = 4.0  # how late the slowed page-load answer of a table comes


@contextmanager
def _page_on(browser, board) -> Iterator:
    """``board``'s app served, and a fresh browser page on it (with a record of any dialog it opens)."""
    with served(board) as (_, url), page_at(browser, url) as page:
        yield page


@contextmanager
def page_at(browser, url: str, viewport: dict | None = None) -> Iterator:
    """A fresh browser page on the app at ``url``, which records any dialog it opens.

    Ready when the Submit tab shows or, with a ``viewport`` (a phone hides it in the tab menu), when the
    first tab's table shows its rank header.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.dialogs = []
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        # no internet here: refuse outside requests (web fonts) at once instead of waiting for them
        page.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
        page.goto(url, wait_until="domcontentloaded")
        ready = page.locator("#table-isovrbench th[title='Rank']") if viewport else page.get_by_role("tab", name="Submit")
        try:
            ready.wait_for()
        except PlaywrightTimeout:
            # say what the page showed instead, so a slow or broken load can be told apart on CI
            shown = page.evaluate("() => document.body ? document.body.innerText.slice(0, 1500) : '(no body)'")
            pytest.fail(f"the app at {url} was not ready after {STEP_MS / 1000:.0f} s; the page showed: {shown!r}")
        yield page
    finally:
        context.close()  # no new events; `served` then waits for the handlers still running


@pytest.fixture
def session(browser, board_factory):
    """A fresh store with the reported rows, its app served, and a fresh page on it: ``(board, page)``."""
    board = board_factory()
    seed_reported(board.store)
    with _page_on(browser, board) as page:
        yield board, page


def _submit(page, path: Path, model: str, judge: str = "browser judge") -> str:
    """Upload ``path`` (a name this page has not uploaded before) and submit; returns the final message."""
    page.get_by_role("tab", name="Submit").click()
    choose_file(page, "#submit-file", path)
    page.locator("#submit-judge textarea, #submit-judge input").first.fill(judge)
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
    assert expected in text and MODEL in text  # escaped once: shown literally
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


def test_markup_in_names_is_shown_literally_once_and_exported_as_submitted(
    browser, board_factory, reference
) -> None:
    """A name like ``AT&T <b>x</b>`` is shown once as text (no ``&amp;``, no rendered tag, no script run)
    in the table, and the CSV export and the store carry it as submitted."""
    from playwright.sync_api import expect

    name, judge = "AT&T <b>x</b>", "<img src=x onerror=window.__pwned=1>"
    board = board_factory()
    data = prediction_bytes("emoprefer", reference["emoprefer"], seed=21)
    board.submit(data, SubmissionMeta(judge, name, "r1"), "local")
    with _page_on(browser, board) as page:
        page.get_by_role("tab", name="EmoPrefer").click()
        table = page.locator("#table-emoprefer")
        # the table renders the rows in view only: a store with the papers' rows ranks this one below them
        table.get_by_placeholder("Filter...").fill("AT&T")
        expect(table).to_contain_text(name, timeout=STEP_MS)  # the app announced the stored row
        text = table.inner_text()
        assert text.count(name) == 1 and "&amp;" not in text and "&lt;" not in text
        assert judge in text  # the judge name's tag is text too
        assert table.locator("b").count() == 0 and table.locator("img").count() == 0
        assert page.evaluate("() => window.__pwned === undefined") and page.dialogs == []

        page.locator("#export-csv-emoprefer").click()
        link = page.locator("#export-emoprefer a[href]").first
        link.wait_for()
        exported = page.request.get(link.get_attribute("href") or "").text()
    [sub] = [s for s in board.store.submissions("emoprefer") if s.kind == "verified"]
    assert name in exported and judge in exported and "&amp;" not in exported
    assert sub.model == name and sub.judge == judge  # stored as submitted


HOSTILE = "a&amp;b <img src=x onerror=window.__pwned=1> **bold** [l](http://x.example) `code` _em_"


def test_a_name_with_markdown_is_shown_literally_in_the_message_and_the_table(session, reference, tmp_path) -> None:
    """Markdown in a judge name is text: no bold, no link to an outside host, no code span, in the success
    message and in the table; the store and the CSV export keep the name as submitted."""
    from playwright.sync_api import expect

    board, page = session
    upload = tmp_path / "hostile.jsonl"
    upload.write_bytes(prediction_bytes("isovrbench", reference["isovrbench"], seed=41))
    _submit(page, upload, "org/plain-model", judge=HOSTILE)
    message = page.locator("#submit-message")
    assert "Stored" in message.inner_text()
    for where in (message, page.locator("#table-isovrbench")):
        if where is not message:
            page.get_by_role("tab", name="IsoVRBench").click()
            where.get_by_placeholder("Filter...").fill("org/plain-model")
            expect(where).to_contain_text("org/plain-model", timeout=STEP_MS)
        text = where.inner_text()
        assert text.count(HOSTILE) == 1, text  # every character shown as typed, once
        assert where.locator("a").count() == 0, where.inner_html()[:3000]  # no live link at all
        for tag in ("b", "em", "code", "img"):
            assert where.locator(tag).count() == 0, (tag, where.inner_html()[:3000])
        # the message's own emphasis is the word Stored, nothing of the name
        assert [t.strip() for t in where.locator("strong").all_inner_texts()] == (["Stored"] if where is message else [])
    assert page.evaluate("() => window.__pwned === undefined")
    [row] = _verified(board)
    assert row.judge == HOSTILE


def _with_header(content: bytes, backend: str, model: str | None) -> bytes:
    """``content`` with the header's provenance naming the judge backend and its model (``None``: weight-free)."""
    lines = content.decode().splitlines()
    header = json.loads(lines[0]) | {"provenance": {"judge_config": {"judge": backend, "model": model}}}
    return ("\n".join([json.dumps(header), *lines[1:]]) + "\n").encode()


def _ranked(board, reference):
    """``board`` with the published rows, one submitted row and one baseline on IsoVRBench."""
    seed_reported(board.store)
    rows = reference["isovrbench"]
    board.submit(_with_header(prediction_bytes("isovrbench", rows, seed=31), "vlm_digit", "org/vlm"),
                 SubmissionMeta("vlm judge", "org/vlm", "r1"), "local")  # fmt: skip
    board.submit(_with_header(prediction_bytes("isovrbench", rows, seed=32), "random", None),
                 SubmissionMeta("random floor", "random", "r1"), "baseline", reference_line=True)  # fmt: skip
    return board


@pytest.fixture
def ranked_board(board_factory, reference):
    """A fresh store as :func:`_ranked` fills it (for a test that changes the store or the app)."""
    return _ranked(board_factory(), reference)


@pytest.fixture(scope="module")
def ranked_url(tmp_path_factory, data_root, reference):
    """The app of one :func:`_ranked` store, served once for the tests that only read it (each opens its own
    page: a new browser context, so nothing a page chose carries over)."""
    from mmjudge.leaderboard import Leaderboard, Settings, Store

    store = Store(str(tmp_path_factory.mktemp("ranked") / "lb.sqlite"))
    board = Leaderboard(store, Settings(data_root=data_root, require_login=False),
                        rows_fn=lambda b, folder: reference[b])  # fmt: skip
    with served(_ranked(board, reference)) as (_, url):
        yield url


_IN_VIEW = """([table, heads, cells, right]) => {
    // scroll the table to the top of the page (and, with `right`, to its last column), then measure in
    // the same frame: a layout change between polls is retried, never measured half-way
    table.scrollIntoView({block: 'start'});
    let box = table.querySelector('table');
    while (box && !(box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== 'visible')) box = box.parentElement;
    if (right && box) box.scrollLeft = box.scrollWidth;
    const inside = el => {
        const r = el && el.getBoundingClientRect();
        return !!r && r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight;
    };
    const rows = [...table.querySelectorAll('[role=row]')];  // the shown rows (not the header's sizing row)
    const shown = text => rows.some(row => [...row.querySelectorAll('td, [role=gridcell]')].some(td => td.innerText.trim() === text && inside(td)));
    const header = title => [...table.querySelectorAll(`th[title='${title}']`)].some(inside);
    return heads.every(header) && cells.every(shown) && (!right || (box && box.scrollLeft > 0 && header('id')));
}"""
HEADS = ["Rank", "Judge", "Average"]


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)])
def test_rank_judge_and_headline_are_in_view(browser, ranked_url, width, height) -> None:
    """At a desktop and a phone width the rank, judge and headline columns (headers and the first row)
    show without horizontal scrolling, and stay in view (pinned) with the table scrolled to its last
    column."""
    from playwright.sync_api import expect

    with page_at(browser, ranked_url, {"width": width, "height": height}) as page:
        table = page.locator("#table-isovrbench")
        expect(table).to_contain_text("vlm judge", timeout=STEP_MS)  # the stored rows have arrived
        handle = table.element_handle()
        page.wait_for_function(_IN_VIEW, arg=[handle, HEADS, ["1", "VideoReward", "73.3"], False])
        page.wait_for_function(_IN_VIEW, arg=[handle, HEADS, [], True])


def test_a_column_group_toggle_hides_and_shows_its_headers(browser, ranked_url) -> None:
    from playwright.sync_api import expect

    with page_at(browser, ranked_url) as page:
        table, groups = page.locator("#table-isovrbench"), page.locator("#groups-isovrbench")
        motion = table.locator("th[title^='motion: ']")
        expect(motion).to_have_count(3)
        groups.get_by_label("motion").uncheck()
        expect(motion).to_have_count(0)
        expect(table.locator("th[title='text: attribute_edit']")).to_have_count(1)  # other groups stay
        expect(table.locator("th[title='Average']")).to_have_count(1)
        groups.get_by_label("motion").check()
        expect(motion).to_have_count(3)


def test_a_filter_chosen_while_the_page_loads_is_not_undone_by_the_load(
    browser, ranked_board, reference, monkeypatch
) -> None:
    """The page-load answer of the table comes late (slowed here by ``LOAD_S``, and the first answer to
    hold a row stored meanwhile); a column group unchecked as soon as the page shows stays hidden once
    that answer is in. The controls are enabled only after the load's table and figure have arrived, so
    the uncheck waits for them; before that, the late load answer brought the hidden columns back."""
    from playwright.sync_api import expect

    from mmjudge.leaderboard.app.ui import Handlers

    table_value = Handlers.table_value
    late = _with_header(prediction_bytes("isovrbench", reference["isovrbench"], seed=33), "random", None)

    @functools.wraps(table_value)
    def slow_load(self, benchmark, view=None, groups=None, tiers=None, types=None, order=None):  # type: ignore[no-untyped-def]
        if benchmark == "isovrbench" and groups is None:  # the page-load call passes the view alone
            time.sleep(LOAD_S)
            self.board.submit(late, SubmissionMeta("late judge", "late", "r1"), "local")
        return table_value(self, benchmark, view, groups, tiers, types, order)

    monkeypatch.setattr(Handlers, "table_value", slow_load)
    with served(ranked_board) as (_, url), page_at(browser, url) as page:
        table, groups = page.locator("#table-isovrbench"), page.locator("#groups-isovrbench")
        motion = table.locator("th[title^='motion: ']")
        expect(motion).to_have_count(3)
        groups.get_by_label("motion").uncheck()
        expect(table).to_contain_text("late judge")  # the load's answer (or a later one) is in
        expect(motion).to_have_count(0)
        expect(table.locator("th[title='Average']")).to_have_count(1)


_TIER_COLUMN = """table => {
    const heads = [...table.querySelectorAll('th')].map(th => th.getAttribute('title'));
    const at = heads.indexOf('Tier');
    return [...table.querySelectorAll('[role=row]')].map(row => row.querySelectorAll('td, [role=gridcell]')[at])
        .filter(cell => cell).map(cell => cell.innerText.trim()).filter(text => text);
}"""


@pytest.mark.parametrize("tier", ["submitted", "baseline"])
def test_the_tier_filter_leaves_only_rows_of_that_tier(browser, ranked_url, tier) -> None:
    from playwright.sync_api import expect

    judge = {"submitted": "vlm judge", "baseline": "random floor"}[tier]
    with page_at(browser, ranked_url) as page:
        table, tiers = page.locator("#table-isovrbench"), page.locator("#tiers-isovrbench")
        expect(table).to_contain_text("VideoReward", timeout=STEP_MS)
        for other in ("published", "run here", "submitted", "baseline"):
            if other != tier:
                tiers.get_by_label(other).uncheck()
        expect(table).not_to_contain_text("VideoReward")  # the published rows are gone
        expect(table).to_contain_text(judge)
        page.wait_for_function(f"t => ({_TIER_COLUMN})(t).length === 1", arg=table.element_handle())
        assert table.evaluate(_TIER_COLUMN) == [tier]


def _column(page, table, title: str) -> list[str]:
    """The shown cells of the column titled ``title``, top to bottom."""
    return page.evaluate(COLUMN, [table.element_handle(), title])


def _first_is(page, table, title: str, value: str) -> None:
    page.wait_for_function(
        f"args => ({COLUMN})(args)[0] === {json.dumps(value)}", arg=[table.element_handle(), title]
    )


def test_a_sort_replaces_the_previous_one_and_ranks_stay_with_their_rows(browser, ranked_url) -> None:
    from playwright.sync_api import expect

    with page_at(browser, ranked_url) as page:
        table = page.locator("#table-isovrbench")
        expect(table).to_contain_text("vlm judge", timeout=STEP_MS)
        shuffle = "motion: temporal_shuffle"
        sort_column(page, table, shuffle, "Sort ascending")
        _first_is(page, table, shuffle, "11.9")  # LiFT, Table 2's lowest
        sort_column(page, table, "Average", "Sort descending")
        _first_is(page, table, "Judge", "VideoReward")  # ranked by Average alone, not shuffle first
        averages = [float(v.split()[0]) for v in _column(page, table, "Average")]
        assert averages[:-1] == sorted(averages[:-1], reverse=True)  # the ranked rows
        assert _column(page, table, "Judge")[-1] == "random floor"  # the baseline below them
        sort_column(page, table, "Judge", "Sort ascending")
        _first_is(page, table, "Judge", "GPT-4.1")
        judges = _column(page, table, "Judge")
        ranks = dict(zip(judges, _column(page, table, "Rank"), strict=True))
        assert judges[-1] == "random floor" and ranks["random floor"] == "baseline"  # below the ranked rows
        assert (
            judges[:-1] == sorted(judges[:-1], key=str.lower)
            and ranks["VideoReward"] == "1"
            and ranks["GPT-4.1"] == "2"
        )


def _answers(rows, answer) -> bytes:
    header = {"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j"}
    lines = [json.dumps(header)] + [json.dumps({"id": r["id"], "prediction": answer(k, r)}) for k, r in enumerate(rows)]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.usefixtures("ranks_at_five_clips")
def test_the_rank_set_column_and_the_caption_show_and_sort(browser, board_factory, reference) -> None:
    """Rows scored on the same clips get rank sets: the column shows the cells the table holds, its group's
    toggle hides it, the caption under the table says what the marks mean, and a sort by the rank set orders
    the rows by the set's first rank."""
    from playwright.sync_api import expect

    from mmjudge.leaderboard.board.significance import ComputedRanks
    from mmjudge.leaderboard.board.table import RANK_SET_HEADER, SIGNIFICANCE, build_table

    board, rows = board_factory(), reference["emorealm"]
    for name, answer in (("perfect", lambda k, r: r["answer"]), ("never", lambda k, r: "Z"),
                         ("some", lambda k, r: r["answer"] if k % 3 else "Z")):  # fmt: skip
        board.submit(_answers(rows, answer), SubmissionMeta(name, f"org/{name}", "r1"), "local")
    built = build_table("emorealm", board.store.submissions("emorealm"), significance=True, ranks=ComputedRanks())
    at, judge = built.headers.index(RANK_SET_HEADER), built.headers.index("Judge")
    expected = {row[judge]: row[at] for row in built.display}
    assert expected["perfect"].startswith("1") and expected["never"].endswith("3 †")
    with _page_on(browser, board) as page:
        page.get_by_role("tab", name="EmoReAlM", exact=True).click()
        table, header = page.locator("#table-emorealm"), page.locator(f"#table-emorealm th[title='{RANK_SET_HEADER}']")
        expect(table).to_contain_text("never", timeout=STEP_MS)
        expect(header).to_have_count(1)
        shown = dict(zip(_column(page, table, "Judge"), _column(page, table, RANK_SET_HEADER), strict=True))
        assert shown == expected
        expect(page.locator("#caption-emorealm")).to_contain_text(f"{RANK_SET_HEADER}: the ranks a row may hold")
        sort_column(page, table, RANK_SET_HEADER, "Sort descending")
        _first_is(page, table, "Judge", "never")
        page.locator("#tiers-emorealm input").first.wait_for(state="visible")
        page.wait_for_function("() => !document.querySelector('#tiers-emorealm input').disabled")
        page.locator("#groups-emorealm").get_by_label(SIGNIFICANCE).uncheck()
        expect(header).to_have_count(0)
