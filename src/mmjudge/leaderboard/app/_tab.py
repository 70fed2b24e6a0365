"""A benchmark's tab of the leaderboard app: the table with its controls, the legend, the figure, exports.

Controls: the view switch (when the benchmark has several), the column groups shown (``gr.Dataframe``
cannot hide columns itself, so the value is rebuilt with the chosen groups), and filters by tier and
judge type; every change redraws the table and the figure from the store (:func:`facets.select`). The
first three columns (rank, judge, headline) are pinned (:func:`pin_css`), so a phone shows them while
the rest scrolls.

A control's choice is not undone by an older answer: the controls start disabled and are enabled once
the page's first table and figure have arrived (:meth:`TabControls.enable`, chained after the page-load
events), and one event per tab answers every control with the table and the figure together,
``trigger_mode="always_last"`` (a change made while an answer is pending is answered after it, with the
controls' latest state). Without this, a filter chosen while the page was loading was undone by the
load's answer arriving later. (The refresh after a submission is a separate event; it reads the
controls as they are when it starts.) The tab's events share one queue slot (``concurrency_id``), so
their answers arrive in the order they were asked.

The table's own column sort and filter box run in the browser; the launch script (:data:`ONE_SORT_JS`)
hands them to the server through two hidden fields per tab (``order-<id>``, ``search-<id>``), so the sort
keeps rows without a rank (baselines, flagged rows) below the ranked ones and the figure draws the rows
the filter leaves, in the table's order (:mod:`mmjudge.leaderboard.board.arrange`).
"""

from __future__ import annotations

import functools
import html
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import gradio as gr

from mmjudge.benchmarks import get_benchmark
from mmjudge.leaderboard.board.facets import SHOWN_TIERS
from mmjudge.leaderboard.board.table import robustness_table
from mmjudge.leaderboard.core.columns import higher_is_better, ranked_column, views
from mmjudge.leaderboard.core.reported import reported_note

if TYPE_CHECKING:
    from mmjudge.leaderboard.app.ui import Handlers

__all__ = ["LEGEND", "ONE_SORT_JS", "PHONE", "TabControls", "benchmark_tab", "phone_head", "pin_css", "refresh"]

LEGEND = (
    "Rank: by the headline (third column; {direction} is better), only among rows scored on the same set "
    "(column `Scored on`; each set is ranked apart, the paper's published set first). In a set, `published` "
    "(a paper's table) and `run here` (this server's worker ran the model) rows are ranked above `submitted` "
    "ones (uploaded predictions: the labels are public, so a submitted row proves only that a file was "
    "scored). Equal headline values share a rank, marked `=` (1, 2=, 2=, 4); `baseline`: a "
    "weight-free baseline judge (shown, not ranked); `flagged`: the benchmark's companion check finds the headline "
    "degenerate (the note says why); `—`: no headline number. Rank stays with the row when you sort or "
    "filter, and rows without a rank stay below the ranked ones; the figure draws the rows the table shows, "
    "in its order. `62.5 [48.1, 75.0]`: a score scored here and its 95% CI. A number alone on a published row is "
    "as printed (the paper gives no interval); `± s (n rounds)` is the spread over rounds it prints. "
    "Coverage and no-judgment rates describe the submitted file (exact counts)."
)
"""The line under every table saying how to read it (``{direction}``: the headline's, higher or lower)."""
WIDE = 340
"""Narrowest width (px) of a control beside another; narrower screens stack the controls."""
PINNED = 3
"""Rank, judge and headline stay in view while the other columns scroll."""
WIDTHS = [84, 136, 150]
"""Widths in px of the pinned columns (the others size to their content): the rank column holds
``baseline``/``flagged`` and the judge column a name's longest word on one line (on a 390 px phone the
three fit side by side)."""
PHONE = 640
"""Widest screen (px) laid out as a phone: the figure fills the width."""


def pin_css() -> str:
    """CSS keeping the first :data:`PINNED` columns of every benchmark table in view while it scrolls.

    gradio 6.31's ``gr.Dataframe`` accepts ``pinned_columns`` but its frontend does not use it, so the
    cells are made sticky here (the app passes this to ``launch(css=...)``).

    >>> "left: 84px" in pin_css()
    True
    """
    rules = []
    for n in range(1, PINNED + 1):
        cells = f"[id^='table-'] th:nth-child({n}), [id^='table-'] td:nth-child({n})"
        left = sum(WIDTHS[: n - 1])
        rules.append(f"{cells} {{ position: sticky; left: {left}px; z-index: 2; "
                     "background: var(--table-odd-background-fill, var(--background-fill-primary)); }")  # fmt: skip
    # the other columns get room for a short header on two lines instead of one word a line
    rules.append(f"[id^='table-'] th:nth-child(n+{PINNED + 1}) {{ min-width: 8rem; }}")
    # gradio wraps cell text with `word-break: break-word`, which cuts a judge name mid-word: break between
    # words (and after a name's hyphens) only
    rules.append("[id^='table-'] td .wrap, [id^='table-'] [role=gridcell] .wrap { word-break: normal; "
                 "overflow-wrap: normal; hyphens: manual; }")  # fmt: skip
    # on a phone the figure fills the width (its text sizes are chosen for that width, _figures.BOARD_FONT)
    rules.append(f"@media (max-width: {PHONE}px) {{ [id^='plot-'] img {{ width: 100%; height: auto; }} }}")
    rules.append("[id^='plot-'] img { max-width: 100%; height: auto; }")
    return "\n".join(rules)


def phone_head() -> str:
    """A ``<style>`` for the page head: on a phone the page keeps an 8 px margin, not gradio's 32 px a side,
    so the table's pinned columns and the figure get the screen's width. (Passed as ``launch(head=...)``:
    gradio scopes ``css`` rules inside the app's content, and this margin is outside it.)

    >>> "padding-left: 8px" in phone_head()
    True
    """
    return (f"<style>@media (max-width: {PHONE}px) {{ .gradio-container .main.app {{ padding-left: 8px; "
            "padding-right: 8px; } }</style>")  # fmt: skip


ONE_SORT_JS = """() => {
    // A benchmark table's column sort and filter box run in the browser (gradio 6.31's gr.Dataframe); the
    // server needs both, to keep rows without a rank below the ranked ones and to draw the figure of the
    // rows shown. A sort chosen in a column menu is not applied here: the menu's "Clear sort" drops any
    // sort the table holds and closes the menu, and the choice goes to the tab's hidden order field, whose
    // change asks the server for the table in that order. The filter text goes to the hidden search field.
    const field = (prefix, benchmark) => {
        const box = document.getElementById(`${prefix}-${benchmark}`);
        return box && box.querySelector("textarea, input");
    };
    const tell = (prefix, benchmark, value) => {
        const input = field(prefix, benchmark);
        if (!input || input.value === value) return;
        input.value = value;
        input.dispatchEvent(new Event("input", {bubbles: true}));
    };
    const item = (menu, text) => [...menu.querySelectorAll("button")].find(b => b.innerText.trim() === text);
    let header = null, clearing = false;
    document.addEventListener("click", (event) => {
        const opener = event.target.closest("button[aria-label='Open cell menu']");
        if (opener) { header = opener.closest("th"); return; }
        const choice = event.target.closest(".cell-menu button");
        const table = header && header.closest("[id^='table-']");
        if (clearing || !choice || !table) return;
        const text = choice.innerText.trim(), benchmark = table.id.slice("table-".length);
        if (text === "Clear sort") { tell("order", benchmark, ""); return; }
        if (!text.startsWith("Sort ")) return;
        event.stopImmediatePropagation(); event.preventDefault();
        const clear = item(choice.closest(".cell-menu"), "Clear sort");
        if (clear) { clearing = true; clear.click(); clearing = false; }
        else document.body.dispatchEvent(new MouseEvent("mousedown", {bubbles: true}));
        const order = {column: header.getAttribute("title"), descending: text.includes("descending")};
        tell("order", benchmark, JSON.stringify(order));
    }, true);
    const pending = {};
    document.addEventListener("input", (event) => {
        const box = event.target, table = box.closest && box.closest("[id^='table-']");
        if (!table || box.tagName !== "INPUT" || box.closest("[role=grid] td, [role=gridcell]")) return;
        const benchmark = table.id.slice("table-".length);
        clearTimeout(pending[benchmark]);
        pending[benchmark] = setTimeout(() => tell("search", benchmark, box.value), 250);
    }, true);
}"""
"""Launch ``js``: a benchmark table's column sort and filter text go to the server (the tab's hidden fields);
a sort chosen replaces the previous one."""


class TabControls(NamedTuple):
    """The components of one benchmark's tab that events read or write."""

    frame: Any
    """The table (``gr.Dataframe``)."""
    plot: Any
    """The figure (``gr.Plot``)."""
    view: Any
    """The view switch (``gr.Radio``; hidden with one view)."""
    groups: Any
    """The column groups shown (``gr.CheckboxGroup``)."""
    tiers: Any
    """The tiers shown (``gr.CheckboxGroup``)."""
    types: Any
    """The judge types shown (``gr.Dropdown``, several; empty: every type)."""
    order: Any
    """The column sort chosen in the table (hidden ``gr.Textbox``, set by :data:`ONE_SORT_JS`; empty: rank order)."""
    search: Any
    """The text in the table's filter box (hidden ``gr.Textbox``, set by :data:`ONE_SORT_JS`)."""

    def controls(self) -> list[Any]:
        """The controls a reader sets (they start disabled, until the page has loaded)."""
        return [self.view, self.groups, self.tiers, self.types]

    def table_inputs(self) -> list[Any]:
        """The fields a table handler reads, after the benchmark name."""
        return [*self.controls(), self.order]

    def figure_inputs(self) -> list[Any]:
        """The fields a figure handler reads, after the benchmark name."""
        return [*self.table_inputs(), self.search]

    @staticmethod
    def enable() -> list[Any]:
        """Updates enabling the :meth:`controls`."""
        return [gr.update(interactive=True) for _ in range(4)]


def benchmark_tab(handlers: Handlers, benchmark: str) -> TabControls:
    """The tab's components and the events among them (call inside ``gr.Tab``)."""
    spec = get_benchmark(benchmark)
    table = handlers.table(benchmark)
    names = list(views(benchmark))
    groups = [g for g in dict.fromkeys(table.groups) if g]
    # side by side on a desktop; on a phone each control takes the full width, so its options lie in a row
    with gr.Row(equal_height=True):
        view = gr.Radio(names, value=names[0], label=spec.present.leaderboard.view_label, visible=len(names) > 1,
                        min_width=WIDE, interactive=False)  # fmt: skip
        shown = gr.CheckboxGroup(groups, value=groups, label="column groups shown", elem_id=f"groups-{benchmark}",
                                 min_width=WIDE, scale=2, interactive=False)  # fmt: skip
    with gr.Row(equal_height=True):
        tiers = gr.CheckboxGroup(list(SHOWN_TIERS), value=list(SHOWN_TIERS), label="tier", elem_id=f"tiers-{benchmark}",
                                 min_width=WIDE, interactive=False)  # fmt: skip
        types = gr.Dropdown(handlers.judge_types(benchmark), value=[], multiselect=True, elem_id=f"types-{benchmark}",
                            label="judge type (none chosen: every type)", min_width=WIDE, interactive=False)  # fmt: skip
    frame = gr.Dataframe(value=table.gradio_value(), headers=table.headers, datatype=cast(Any, table.datatypes),
                         interactive=False, show_search="filter", wrap=True, pinned_columns=PINNED,
                         column_widths=cast(Any, [f"{w}px" for w in WIDTHS]), elem_id=f"table-{benchmark}",
                         label=spec.tab_title)  # fmt: skip
    higher = higher_is_better(benchmark, ranked_column(benchmark))
    legend = LEGEND.format(direction="higher" if higher else "lower")  # the same in every view
    gr.Markdown(legend, elem_id=f"legend-{benchmark}")
    # what this table's marks mean (thin intervals, rank sets), redrawn with the table
    caption = gr.Markdown(table.caption, elem_id=f"caption-{benchmark}")
    # empty until the page-load chain draws it (a figure drawn here would be replaced before anyone saw it)
    plot = gr.Plot(value=None, label="figure", show_label=False, format="png", elem_id=f"plot-{benchmark}")
    note = reported_note(benchmark)
    if note:
        gr.Markdown(f"_Reported rows:_ {html.escape(note)}")
    _robustness_block(handlers, benchmark)
    # set by the launch script from the table's own sort menu and filter box (never shown)
    order = gr.Textbox(visible="hidden", elem_id=f"order-{benchmark}", container=False)
    search = gr.Textbox(visible="hidden", elem_id=f"search-{benchmark}", container=False)
    controls = TabControls(frame, plot, view, shown, tiers, types, order, search)
    _exports(handlers, benchmark, view)
    name = gr.State(benchmark)
    slot = f"tab-{benchmark}"  # one queue slot per tab: answers arrive in the order they were asked
    gr.on([control.change for control in controls.table_inputs()], handlers.shown, [name, *controls.figure_inputs()],
          [frame, plot], trigger_mode="always_last", api_visibility="private", concurrency_id=slot,
          concurrency_limit=1)  # fmt: skip
    search.change(handlers.plot, [name, *controls.figure_inputs()], plot, trigger_mode="always_last",
                  api_visibility="private", concurrency_id=slot, concurrency_limit=1)  # fmt: skip
    frame.change(handlers.caption, [name, view], caption, trigger_mode="always_last", api_visibility="private")
    return controls


def refresh(handlers: Handlers, benchmark: str, controls: TabControls, event: Any) -> None:
    """After ``event``: the tab's judge types, table and figure from the store, as the controls say."""
    name = gr.State(benchmark)
    event.then(
        lambda b: gr.update(choices=handlers.judge_types(b)), name, controls.types, api_visibility="private"
    )
    event.then(handlers.shown, [name, *controls.figure_inputs()], [controls.frame, controls.plot],
               api_visibility="private")


def _exports(handlers: Handlers, benchmark: str, view: Any) -> None:
    with gr.Row():
        csv = gr.Button("Export CSV", size="sm", elem_id=f"export-csv-{benchmark}")
        jsn = gr.Button("Export JSON", size="sm", elem_id=f"export-json-{benchmark}")
        # hidden until there is an export (an empty file box is a tall blank under every table)
        out = gr.File(label="export (the whole table)", interactive=False, elem_id=f"export-{benchmark}",
                      visible=False)  # fmt: skip
    name = gr.State(benchmark)
    # the public endpoints answer the file; the box is shown once it holds one
    for button, suffix in ((csv, "csv"), (jsn, "json")):
        exported = button.click(functools.partial(_export, handlers, suffix=suffix), [name, view], out,
                                api_name=f"export_{suffix}_{benchmark}")  # fmt: skip
        exported.then(lambda: gr.update(visible=True), None, out, api_visibility="private")


def _export(handlers: Handlers, benchmark: str, view: str, *, suffix: str) -> str:
    return handlers.export(benchmark, view, suffix)


def _robustness_block(handlers: Handlers, benchmark: str) -> None:
    """The robustness summaries of rows scored here that have one (``mmjudge robustness``), when any row does."""
    table = robustness_table(benchmark, handlers.board.store.submissions(benchmark))
    if not table.rows:
        return
    with gr.Accordion("Robustness (rows scored here with a robustness report)", open=False):
        gr.Markdown("Each probe's headline effect from `mmjudge robustness` (see its `robustness.md`), "
                    "with its 95% CI; effects have no common direction, so rows are not ranked.")  # fmt: skip
        gr.Dataframe(value=table.gradio_value(), headers=table.headers, datatype=cast(Any, table.datatypes),
                     interactive=False, wrap=True, pinned_columns=3, elem_id=f"robustness-{benchmark}")  # fmt: skip
