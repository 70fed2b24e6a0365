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
controls as they are when it starts.)
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import gradio as gr

from mmjudge.benchmarks import get_benchmark
from mmjudge.leaderboard.facets import SHOWN_TIERS
from mmjudge.leaderboard.reported import reported_note
from mmjudge.leaderboard.tables import columns, robustness_table, views

if TYPE_CHECKING:
    from mmjudge.leaderboard.ui import Handlers

__all__ = ["LEGEND", "ONE_SORT_JS", "TabControls", "benchmark_tab", "pin_css", "refresh"]

LEGEND = (
    "Rank: by the headline (third column; {direction} is better), only among rows scored on the same set "
    "(column `Scored on`; each set is ranked apart, the paper's published set first). In a set, `published` "
    "(a paper's table) and `run here` (this server's worker ran the model) rows are ranked above `submitted` "
    "ones (uploaded predictions: the labels are public, so a submitted row proves only that a file was "
    "scored). Equal headline values share a rank, marked `=` (1, 2=, 2=, 4); `ref`: a reference line (a "
    "weight-free baseline, shown, not ranked); `flagged`: the benchmark's companion check finds the headline "
    "degenerate (the note says why); `—`: no headline number. Rank stays with the row when you sort or "
    "filter. `62.5 [48.1, 75.0]`: a score scored here and its 95% CI. A number alone on a published row is "
    "as printed (the paper gives no interval); `± s (n rounds)` is the spread over rounds it prints. "
    "Coverage and no-judgment rates describe the submitted file (exact counts)."
)
"""The line under every table saying how to read it (``{direction}``: the headline's, higher or lower)."""
WIDE = 340
"""Narrowest width (px) of a control beside another; narrower screens stack the controls."""
PINNED = 3
"""Rank, judge and headline stay in view while the other columns scroll."""
WIDTHS = [52, 118, 160]
"""Widths in px of the pinned columns (the others size to their content)."""


def pin_css() -> str:
    """CSS keeping the first :data:`PINNED` columns of every benchmark table in view while it scrolls.

    gradio 6.31's ``gr.Dataframe`` accepts ``pinned_columns`` but its frontend does not use it, so the
    cells are made sticky here (the app passes this to ``launch(css=...)``).

    >>> "left: 52px" in pin_css()
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
    return "\n".join(rules)


ONE_SORT_JS = """() => {
    // gradio 6.31 adds a column's sort after the ones already set (up to three); a leaderboard reader
    // expects the new sort to replace them: clear the sorts, then apply the one chosen
    let header = null, replaying = false;
    const item = (menu, text) => [...menu.querySelectorAll("button")].find(b => b.innerText.trim() === text);
    const later = (f) => setTimeout(f, 60);
    document.addEventListener("click", (event) => {
        const opener = event.target.closest("button[aria-label='Open cell menu']");
        if (opener) { header = opener.closest("th"); return; }
        const choice = event.target.closest(".cell-menu button");
        const text = choice ? choice.innerText.trim() : "";
        if (replaying || !header || !header.closest("[id^='table-']") || !text.startsWith("Sort ")) return;
        const clear = item(choice.closest(".cell-menu"), "Clear sort");
        if (!clear) return;
        event.stopImmediatePropagation(); event.preventDefault();
        const target = header;
        clear.click();
        later(() => {
            target.querySelector("button[aria-label='Open cell menu']").click();
            later(() => {
                const menu = document.querySelector(".cell-menu");
                const again = menu && item(menu, text);
                if (again) { replaying = true; again.click(); replaying = false; }
            });
        });
    }, true);
}"""
"""Launch ``js``: choosing a sort in a benchmark table's column menu replaces the previous sort."""


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

    def table_inputs(self) -> list[Any]:
        """The controls a table or figure handler reads, after the benchmark name."""
        return [self.view, self.groups, self.tiers, self.types]

    @staticmethod
    def enable() -> list[Any]:
        """Updates enabling the :meth:`table_inputs` (they start disabled, until the page has loaded)."""
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
    headline = table.headers[table.rank_column]
    higher = next(c.higher_is_better for c in columns(benchmark) if c.header == headline)
    legend = LEGEND.format(direction="higher" if higher else "lower")  # the same in every view
    gr.Markdown(legend, elem_id=f"legend-{benchmark}")
    # empty until the page-load chain draws it (a figure drawn here would be replaced before anyone saw it)
    plot = gr.Plot(value=None, label="figure", show_label=False, format="png")
    note = reported_note(benchmark)
    if note:
        gr.Markdown(f"_Reported rows:_ {html.escape(note)}")
    _robustness_block(handlers, benchmark)
    controls = TabControls(frame, plot, view, shown, tiers, types)
    _exports(handlers, benchmark, view)
    name = gr.State(benchmark)
    gr.on([control.change for control in controls.table_inputs()], handlers.shown, [name, *controls.table_inputs()],
          [frame, plot], trigger_mode="always_last", api_visibility="private")  # fmt: skip
    return controls


def refresh(handlers: Handlers, benchmark: str, controls: TabControls, event: Any) -> None:
    """After ``event``: the tab's judge types, table and figure from the store, as the controls say."""
    name = gr.State(benchmark)
    inputs = [name, *controls.table_inputs()]
    event.then(
        lambda b: gr.update(choices=handlers.judge_types(b)), name, controls.types, api_visibility="private"
    )
    event.then(handlers.shown, inputs, [controls.frame, controls.plot], api_visibility="private")


def _exports(handlers: Handlers, benchmark: str, view: Any) -> None:
    with gr.Row():
        csv = gr.Button("Export CSV", size="sm", elem_id=f"export-csv-{benchmark}")
        jsn = gr.Button("Export JSON", size="sm", elem_id=f"export-json-{benchmark}")
        out = gr.File(label="export (the whole table)", interactive=False, elem_id=f"export-{benchmark}")
    name = gr.State(benchmark)
    csv.click(
        lambda b, v: handlers.export(b, v, "csv"), [name, view], out, api_name=f"export_csv_{benchmark}"
    )
    jsn.click(
        lambda b, v: handlers.export(b, v, "json"), [name, view], out, api_name=f"export_json_{benchmark}"
    )


def _robustness_block(handlers: Handlers, benchmark: str) -> None:
    """The robustness summaries of verified rows that have one (``mmjudge robustness``), when any row does."""
    table = robustness_table(benchmark, handlers.board.store.submissions(benchmark))
    if not table.values:
        return
    with gr.Accordion("Robustness (verified rows with a robustness report)", open=False):
        gr.Markdown("Each probe's headline effect from `mmjudge robustness` (see its `robustness.md`), "
                    "with its 95% CI; effects have no common direction, so rows are not ranked.")  # fmt: skip
        gr.Dataframe(value=table.gradio_value(), headers=table.headers, datatype=cast(Any, table.datatypes),
                     interactive=False, wrap=True, pinned_columns=3, elem_id=f"robustness-{benchmark}")  # fmt: skip
