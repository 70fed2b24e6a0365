"""Gradio handlers and the Blocks of the leaderboard (imports gradio; the Space's ``app.py`` calls this).

Handlers take ``profile: gr.OAuthProfile | None``: on a Space (``require_login``) a call without a
logged-in profile is refused, which is how API callers without a session arrive; in the local no-auth
mode the submitter is ``local``. Handlers that change the store are ``api_visibility="private"``;
the tables and exports are public read-only endpoints. Text is escaped once, where it is rendered:
Markdown messages escape submitter text (:func:`_md`); table cells are ``str``/``number`` datatypes,
which ``gr.Dataframe`` shows as text, so they hold the text as submitted. Each export is written to a
folder of its own, so concurrent exports never share a file.

Shutdown is orderly: gradio runs handlers in daemon worker threads and closing its server does not wait
for them. A thread still inside C++ code (matplotlib's Agg renderer, pyarrow) when the interpreter exits
aborts the whole process ("terminate called without an active exception"), so :meth:`LeaderboardApp.close`
refuses new handler calls and waits for the ones in flight.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import MmjudgeError
from mmjudge.judges import JUDGES
from mmjudge.leaderboard.app._calls import (
    EXPORT_TTL_S,
    AppClosingError,
    InFlight,
    error_message,
    md,
    row_id,
    tracked,
)
from mmjudge.leaderboard.app._gate import FileRule, RouteGate, private_gradio_dir
from mmjudge.leaderboard.app._tab import ONE_SORT_JS, TabControls, benchmark_tab, phone_head, pin_css, refresh
from mmjudge.leaderboard.app.auth import LoginSetupError, gated, guard_login, reserve_login
from mmjudge.leaderboard.board import facets, plots
from mmjudge.leaderboard.board.arrange import arrange, parse_order
from mmjudge.leaderboard.board.export import rank_entry, write_results_file, write_table
from mmjudge.leaderboard.board.grid import Role, Table
from mmjudge.leaderboard.board.ranks import RankKeeper, keeper_of, read_table
from mmjudge.leaderboard.board.table import build_table, is_laddered
from mmjudge.leaderboard.core import queue
from mmjudge.leaderboard.core.columns import views
from mmjudge.leaderboard.core.fit import backend_benchmarks
from mmjudge.leaderboard.core.heartbeats import list_workers
from mmjudge.leaderboard.core.policy import ENDPOINT_MODEL
from mmjudge.leaderboard.core.queue import canonical_revision
from mmjudge.leaderboard.core.redaction import public_log
from mmjudge.leaderboard.core.service import Leaderboard
from mmjudge.leaderboard.core.submit import quota_text
from mmjudge.leaderboard.core.validation import WEIGHTS, SubmissionMeta
from mmjudge.leaderboard.store import SubmissionRejected

__all__ = ["AppClosingError", "Handlers", "InFlight", "LeaderboardApp", "build_app"]

QUEUE_HEADERS = [
    "#",
    "Status",
    "Model",
    "Revision",
    "Backend",
    "Benchmarks",
    "Submitter",
    "Attempts",
    "Log tail",
    "Worker",
]
WORKER_HEADERS = ["Worker", "State", "Request", "Heartbeat", "GPUs", "mmjudge"]


def _username(profile: gr.OAuthProfile | None) -> str | None:
    return None if profile is None else str(profile.username)


GRADIO_ICONS = Path(gr.__file__).parent / "icons"
"""gradio's own icons (the login button's logo), which its page fetches through ``file=``: files of the installed
package, served beside the app's own (:class:`~mmjudge.leaderboard.app._gate.FileRule`)."""
RANKS_WAIT_S = 120.0
"""How long a render waits for the background rank cells of a board that just changed."""


class Handlers:
    """Event handlers bound to a :class:`Leaderboard` (directly callable in tests).

    Every handler the Blocks wire runs inside :attr:`in_flight`, so that closing the app can wait for it.
    """

    def __init__(self, board: Leaderboard, files: Path | None = None, *, ranks: RankKeeper | None = None) -> None:
        self.board = board
        self.ranks = ranks or keeper_of(board)
        """Where the tables' rank cells come from (the board's keeper: :func:`~mmjudge.leaderboard.board.ranks.keeper_of`)."""
        self.in_flight = InFlight()
        # exports are made in a private folder (mkdtemp: 0700), inside the app's own files folder when given
        self._export_dir = Path(tempfile.mkdtemp(prefix="mmjudge-exports-", dir=files))

    def table(self, benchmark: str, view: str | None = None) -> Table:
        """The current table of ``benchmark`` (once the rank cells of a row just stored or hidden are stored,
        or :data:`RANKS_WAIT_S` passed). A table reads the cells the store holds; when some are missing,
        :attr:`ranks` is asked to store them (:meth:`~mmjudge.leaderboard.board.ranks.RankKeeper.request`) and the
        table is read again (:func:`~mmjudge.leaderboard.board.ranks.read_table`)."""
        self.board.settle(benchmark, timeout=RANKS_WAIT_S)
        return read_table(self.ranks, benchmark, view, private=self.board.settings.private_labels)

    @tracked
    def caption(self, benchmark: str, view: str | None = None) -> str:
        """What the marks in the table mean (:attr:`~mmjudge.leaderboard.board.grid.Table.caption`, Markdown)."""
        return self.table(benchmark, view).caption

    @tracked
    def table_value(self, benchmark: str, view: str | None = None, groups: list[str] | None = None,
                    tiers: list[str] | None = None, types: list[str] | None = None,
                    order: str | None = None) -> dict[str, Any]:  # fmt: skip
        """The table as a ``gr.Dataframe`` value: the column ``groups`` and the rows of ``tiers`` and ``types``
        chosen (``None``: all; see :func:`mmjudge.leaderboard.board.facets.select`), in the ``order`` a column sort
        on the page chose (the page's hidden order field; :func:`mmjudge.leaderboard.board.arrange.arrange`)."""
        chosen = facets.select(self.table(benchmark, view), groups, tiers, types)
        return arrange(chosen, parse_order(order)).gradio_value()

    @tracked
    def plot(self, benchmark: str, view: str | None = None, groups: list[str] | None = None,
             tiers: list[str] | None = None, types: list[str] | None = None, order: str | None = None,
             search: str | None = None) -> Any:  # fmt: skip
        """The tab's figure: the rows the table shows, in its order, less those the text in the table's
        filter box (``search``) leaves out."""
        return plots.figure(benchmark, self.board.store.submissions(benchmark), view, tiers, types, groups=groups,
                            order=parse_order(order), search=search, private=self.board.settings.private_labels,
                            ranks=self.ranks)  # fmt: skip

    def shown(self, benchmark: str, view: str | None = None, groups: list[str] | None = None,
              tiers: list[str] | None = None, types: list[str] | None = None, order: str | None = None,
              search: str | None = None) -> tuple[dict[str, Any], Any]:  # fmt: skip
        """``(table value, figure)`` for one state of the tab's controls: one answer for both, so that the
        table and the figure never show two different states (see :mod:`mmjudge.leaderboard.app._tab`)."""
        controls = (view, groups, tiers, types, order)
        return self.table_value(benchmark, *controls), self.plot(benchmark, *controls, search)

    def judge_types(self, benchmark: str) -> list[str]:
        """The judge types of ``benchmark``'s rows, in table order (the judge-type filter's choices)."""
        return list(dict.fromkeys(cell.value for cell in self.table(benchmark).cells(Role.TYPE)))

    @tracked
    def submit(self, file: str | None, judge: str, model: str, revision: str, link: str, license_: str,
               weights: str, profile: gr.OAuthProfile | None) -> str:  # fmt: skip
        """Validate, score and store an uploaded ``predictions.jsonl``; returns a Markdown message."""
        try:
            submitter = self.board.submitter(_username(profile))
            if not file:
                return "**Rejected.** Choose a `predictions.jsonl` file first."
            meta = SubmissionMeta(judge, model, revision, link, license_, weights or "unknown")
            stored = self.board.submit(Path(file).read_bytes(), meta, submitter, source=Path(file).name)
        except MmjudgeError as exc:
            return error_message(exc)
        private = self.board.settings.private_labels
        table = build_table(stored.benchmark, [stored], private=private)
        first, score = table.columns[table.rank_column].header, table.rows[0][table.rank_column].text
        ladder = (f" The labels are private: the score shown is your Ladder score, which moves only when a file "
                  f"beats your best shown score by more than {self.board.settings.ladder_margin:g} (rounded to it)."
                  if private else "")  # fmt: skip
        return (
            f"**Stored** as submitted row #{stored.id} on the {get_benchmark(stored.benchmark).tab_title} tab: "
            f"{md(stored.model)} ({md(stored.judge)}), {first} = {score}.{ladder}"
        )

    @tracked
    def request_model(self, model: str, revision: str, backend: str, config: str, benchmarks: list[str],
                      profile: gr.OAuthProfile | None) -> str:  # fmt: skip
        """Queue a model request as PENDING (:meth:`Leaderboard.request_model`); returns a Markdown message."""
        try:
            queued = self.board.request_model(model, revision, backend, config, benchmarks or [], _username(profile))
        except MmjudgeError as exc:
            return error_message(exc)
        spec = queued.spec
        if queued.model_source == ENDPOINT_MODEL:
            pinned = f" of the API endpoint, asked on {spec.revision}"
        elif spec.revision != queued.asked:
            pinned = f" at commit {spec.revision} ({md(canonical_revision(queued.asked))} now)"
        else:
            pinned = ""
        ladder = " With private labels its rows show only your Ladder score." if spec.ladder_margin is not None else ""
        return f"**Queued** request #{queued.id} ({md(spec.model)}{pinned}) as PENDING.{ladder}"

    @tracked
    def queue_value(self) -> list[list[Any]]:
        """Rows of the queue table: status, attempts, the log tail (text as stored, no server paths) and
        the worker holding (or last holding) the request."""
        return [
            [r.id, r.status, r.model, r.revision, r.backend, ", ".join(r.benchmarks), r.submitter, r.attempts,
             public_log(r.log_tail)[-300:], r.worker]
            for r in queue.list_requests(self.board.store)
        ]  # fmt: skip

    @tracked
    def workers_value(self) -> list[list[Any]]:
        """Rows of the workers table: each worker's state, request, time since its last heartbeat, GPUs."""

        now = time.time()
        return [
            [w.id, w.state, "" if w.request_id is None else f"#{w.request_id}", f"{w.age(now):.0f} s ago", w.gpus,
             w.version]
            for w in list_workers(self.board.store)
        ]  # fmt: skip

    @tracked
    def hide(self, submission_id: float | None, profile: gr.OAuthProfile | None) -> str:
        """Admin: hide a submission (it stays in the store)."""
        try:
            number = row_id(submission_id)
            self.board.hide(number, _username(profile))
        except MmjudgeError as exc:
            return error_message(exc)
        return f"Row #{number} hidden."

    @tracked
    def export(self, benchmark: str, view: str, suffix: str) -> str:
        """The table as CSV or JSON; returns the file path for ``gr.File``. One file per table version: the
        same table exported again is the same file (no new folder per call)."""
        table = self.table(benchmark, view)
        return str(self._cached(f"{benchmark}_{view}.{suffix}", lambda path: write_table(table, path)))

    @tracked
    def results_file(self, submission_id: float | None) -> str | None:
        """Write the results file of a visible verified submission; ``None`` when there is none. A submitted
        row's file leaves out its raw counts (:func:`mmjudge.leaderboard.board.export.results_record`); the file
        carries the row's rank set in each view of its board, as the table shows it
        (:func:`~mmjudge.leaderboard.board.export.rank_entry`).

        Raises:
            gr.Error: ``submission_id`` is not a row number (the message says what is expected), or the row
                shows only its Ladder score (labels private: a submitted row, or a non-admin's request's row).
        """
        try:
            number = row_id(submission_id)
        except SubmissionRejected as exc:
            raise gr.Error(str(exc)) from None
        sub = self.board.store.get_submission(number)
        if sub is None or sub.hidden or sub.kind != "verified":
            return None
        if is_laddered(sub, private=self.board.settings.private_labels):
            raise gr.Error(f"row #{sub.id} is a {sub.tier} row and this leaderboard's labels are private: its "
                           "results are withheld (the table shows its Ladder score)")  # fmt: skip
        ranks = [rank_entry(self.table(sub.benchmark, view), sub.id, view) for view in views(sub.benchmark)]
        found = [r for r in ranks if r is not None]
        return str(self._cached(f"results_{sub.id}.json", lambda path: write_results_file(sub, path, found)))

    def _cached(self, name: str, write: Callable[[Path], Any]) -> Path:
        """``write`` the export into a scratch folder, then keep it as ``<export dir>/<content hash>/<name>``:
        an export whose content was served before is that same file, and the scratch copy goes. Versions
        unused for :data:`EXPORT_TTL_S` are removed."""
        now = time.time()
        for old in self._export_dir.iterdir():
            try:
                if now - old.stat().st_mtime > EXPORT_TTL_S:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:  # removed by a concurrent export
                continue
        scratch = Path(tempfile.mkdtemp(dir=self._export_dir, prefix=".scratch-"))
        try:
            written = scratch / name
            write(written)
            digest = hashlib.sha256(written.read_bytes()).hexdigest()[:20]
            kept = self._export_dir / digest / name
            if not kept.is_file():
                kept.parent.mkdir(exist_ok=True)
                written.replace(kept)  # atomic: a concurrent export of the same content finds a whole file
            os.utime(kept.parent)  # in use: not old
            return kept
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


@dataclass
class LeaderboardApp:
    """The Blocks of the leaderboard and the handlers they call; :meth:`close` shuts both down in order."""

    blocks: gr.Blocks
    handlers: Handlers
    files: Path
    """The app's own files folder (gradio's uploads and cache, the exports): the only place ``file=`` serves
    from (:func:`~mmjudge.leaderboard.app._gate.private_gradio_dir`)."""

    def launch(self, **kwargs: Any) -> None:
        """Serve with the queue (4 concurrent calls per event); keyword arguments go to ``Blocks.launch``.

        Blocking unless ``prevent_thread_lock=True``; when a blocking launch returns (Ctrl-C), the app is
        closed with :meth:`close`. With login required, :func:`mmjudge.leaderboard.app.auth.guard_login` sets up
        a real OAuth login first (never gradio's local mock) and refuses anonymous uploads; it raises
        :class:`~mmjudge.errors.ConfigError` naming what to set when no login is configured here.
        """
        from starlette.middleware import Middleware

        kwargs.setdefault("css", pin_css())
        kwargs.setdefault("js", ONE_SORT_JS)
        kwargs.setdefault("head", phone_head())
        guard = None
        files = FileRule.under(self.files, GRADIO_ICONS)
        if self.handlers.board.settings.require_login:
            guard = guard_login(self.blocks, self.handlers.board.store)
            kwargs = guard.launch_kwargs(kwargs, files)
        else:
            kwargs = gated(kwargs, Middleware(RouteGate, login=False, files=files))
        blocking = not kwargs.pop("prevent_thread_lock", False)
        # launched without blocking, so that the login and the gate are verified before this call blocks
        self.blocks.queue(default_concurrency_limit=4).launch(prevent_thread_lock=True, **kwargs)
        try:
            if guard is not None:
                guard.verify(self.blocks)
            elif not any(getattr(m, "cls", None) is RouteGate for m in self.blocks.server_app.user_middleware):
                raise LoginSetupError("gradio did not pass app_kwargs['middleware'] to the app it served (no route "
                                      "gate): install the gradio version pinned in constraints.txt")  # fmt: skip
        except LoginSetupError:
            self.close()
            raise
        if blocking:
            self.blocks.block_thread()
            self.close()

    def close(self, timeout: float = 60.0) -> bool:
        """Stop the server, refuse new handler calls and wait up to ``timeout`` s for the running ones.

        Returns ``True`` when no handler is left running.
        """
        self.blocks.close(verbose=False)
        return self.handlers.in_flight.close(timeout)


def build_app(board: Leaderboard, *, about: str = "") -> LeaderboardApp:
    """The leaderboard app: one tab per registered benchmark, submit, model request, queue, about, admin."""

    files = private_gradio_dir()  # before the Blocks: gradio reads its folder from GRADIO_TEMP_DIR
    handlers = Handlers(board, files)
    titles = [get_benchmark(b).title for b in benchmark_ids()]
    with gr.Blocks(title="mmjudge leaderboard") as demo:
        gr.Markdown(f"# mmjudge leaderboard\nMultimodal judges on {_listing(titles)}. "
                    "Tiers: `published` (a paper's numbers, with their source), `run here` (this server's worker ran the "
                    "model), `submitted` (uploaded predictions, scored here), `baseline` (a weight-free "
                    "judge, shown, not ranked); rows are ranked only against rows scored on the same set (About tab).")  # fmt: skip
        if board.settings.require_login:
            gr.LoginButton()
            reserve_login(demo)  # never gradio's mocked login, not even in the apps gradio makes while building
        tabs: dict[str, TabControls] = {}
        with gr.Tabs():
            for benchmark in benchmark_ids():
                with gr.Tab(get_benchmark(benchmark).tab_title, id=benchmark):
                    tabs[benchmark] = benchmark_tab(handlers, benchmark)
            with gr.Tab("Submit", id="submit"):
                _submit_tab(handlers, tabs)
            with gr.Tab("Request a model", id="request"):
                _request_tab(handlers)
            with gr.Tab("Queue", id="queue"):
                refresh = gr.Button("Refresh", size="sm")
                queue_frame = gr.Dataframe(
                    value=handlers.queue_value(), headers=QUEUE_HEADERS, interactive=False, wrap=True
                )
                workers_frame = gr.Dataframe(value=handlers.workers_value(), headers=WORKER_HEADERS, interactive=False,
                                             label="workers (mmjudge leaderboard worker), latest heartbeat first",
                                             elem_id="workers")  # fmt: skip
                refresh.click(handlers.queue_value, None, queue_frame, api_name="queue")
                refresh.click(handlers.workers_value, None, workers_frame, api_name="workers")
            with gr.Tab("About", id="about"):
                gr.Markdown(about or "See the README of the Space.")
            with gr.Tab("Admin", id="admin"):
                _admin_tab(handlers)
        for benchmark, tab in tabs.items():
            name = gr.State(benchmark)
            # the public endpoint is the whole table of a view (what the disabled controls show at first); the
            # controls are enabled once the table and the figure are in, so no later answer undoes a choice
            loaded = demo.load(handlers.table_value, [name, tab.view], tab.frame, api_name=f"table_{benchmark}")
            loaded = loaded.then(handlers.plot, [name, *tab.figure_inputs()], tab.plot, api_visibility="private")
            loaded.then(tab.enable, None, tab.controls(), api_visibility="private")
    return LeaderboardApp(demo, handlers, files)


def _listing(titles: list[str]) -> str:
    """``"A, B and C"``.

    >>> _listing(["A", "B", "C"])
    'A, B and C'
    """
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"


def _refresh_all(handlers: Handlers, tabs: dict[str, TabControls], event: Any) -> None:
    for benchmark, controls in tabs.items():
        refresh(handlers, benchmark, controls, event)


def _submit_tab(handlers: Handlers, tabs: dict[str, TabControls]) -> None:
    gr.Markdown("Upload the `predictions.jsonl` written by `mmjudge eval` (format on the About tab). "
                "It is validated, scored here against the labels this server holds, and stored as a `submitted` row "
                "(ranked below `published` and `run here` rows on the same set). "
                + quota_text(handlers.board.settings.daily_limit), elem_id="submit-policy")  # fmt: skip
    file = gr.File(label="predictions.jsonl", file_types=[".jsonl"], type="filepath", elem_id="submit-file")
    with gr.Row():
        judge = gr.Textbox(label="judge name", elem_id="submit-judge")
        model = gr.Textbox(
            label="model repo id (or judge name for weight-free judges)", elem_id="submit-model"
        )
        revision = gr.Textbox(label="revision", elem_id="submit-revision")
    with gr.Row():
        link = gr.Textbox(label="link (http/https)")
        license_ = gr.Textbox(label="license")
        weights = gr.Radio(list(WEIGHTS), value="unknown", label="weights")
    button = gr.Button("Submit", variant="primary", elem_id="submit-button")
    message = gr.Markdown(elem_id="submit-message")
    event = button.click(handlers.submit, [file, judge, model, revision, link, license_, weights], message,
                         api_visibility="private")  # fmt: skip
    event.then(lambda: None, None, file, api_visibility="private")  # ready for the next upload
    _refresh_all(handlers, tabs, event)


def _request_tab(handlers: Handlers) -> None:
    gr.Markdown("Ask for a model to be run by the leaderboard's worker (`mmjudge leaderboard worker`). The config "
                "may set only what the backend allows (frames, batch size and a few bounded settings); URLs, "
                "secrets, environment variable names and local paths are refused. API judges: admins only (the model is "
                "the endpoint's model name). Weight-free judges name no model: leave it empty.")  # fmt: skip

    requestable = sorted(set(handlers.board.settings.request_rules) & set(JUDGES.names()))
    first = requestable[0] if requestable else None  # what the dropdown shows before any choice

    def choices(name: str | None) -> list[str]:
        # only a pre-filter: the request is checked again when it is queued (validate_request)
        return backend_benchmarks(name) if name in requestable else list(benchmark_ids())

    with gr.Row():
        model = gr.Textbox(label="model repo id")
        revision = gr.Textbox(label="revision", value="main")
        backend = gr.Dropdown(requestable, value=first, label="judge backend (registered name)",
                              allow_custom_value=True, elem_id="request-backend")  # fmt: skip
    config = gr.Code(
        label="judge config (YAML: frames, fps, max_pixels, dtype, batch_size, options, ...; frames and fps "
        "only for benchmarks with video)",
        language="yaml",
    )
    benchmarks = gr.CheckboxGroup(choices(first), label="benchmarks", elem_id="request-benchmarks")

    def fitting(name: str | None) -> Any:
        return gr.update(choices=choices(name), value=[])

    backend.change(fitting, backend, benchmarks, api_visibility="private")
    button = gr.Button("Request", variant="primary")
    message = gr.Markdown()
    button.click(
        handlers.request_model,
        [model, revision, backend, config, benchmarks],
        message,
        api_visibility="private",
    )


def _admin_tab(handlers: Handlers) -> None:
    gr.Markdown("Admins (configured usernames) can hide a row; hidden rows stay in the store. "
                "Anyone can download the results file of a row scored here (a submitted row's without its raw counts; "
                "none with private labels).")  # fmt: skip
    row_id = gr.Number(label="row #", precision=0)
    with gr.Row():
        hide = gr.Button("Hide row")
        download = gr.Button("Results file")
    message = gr.Markdown()
    out = gr.File(label="results file", interactive=False)
    hide.click(handlers.hide, [row_id], message, api_visibility="private")
    download.click(handlers.results_file, [row_id], out, api_name="results_file")
