"""Gradio handlers and the Blocks of the leaderboard (imports gradio; the Space's ``app.py`` calls this).

Handlers take ``profile: gr.OAuthProfile | None``: on a Space (``require_login``) a call without a
logged-in profile is refused, which is how API callers without a session arrive; in the local no-auth
mode the submitter is ``local``. Handlers that change the store are ``api_visibility="private"``;
the tables and exports are public read-only endpoints. Text is escaped once, where it is rendered:
Markdown messages escape submitter text (:func:`_md`); table cells are ``str``/``number`` datatypes,
which ``gr.Dataframe`` shows as text, so they hold the text as submitted. Each export is written to a
folder of its own, so concurrent exports never share a file.
"""

from __future__ import annotations

import html
import math
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import gradio as gr

from mmjudge.errors import MmjudgeError
from mmjudge.leaderboard import plots, queue
from mmjudge.leaderboard.export import write_results_file, write_table
from mmjudge.leaderboard.reference import missing_reference
from mmjudge.leaderboard.store import SubmissionRejected
from mmjudge.leaderboard.submit import Leaderboard
from mmjudge.leaderboard.tables import VIEWS, Table, build_table
from mmjudge.leaderboard.validation import WEIGHTS, SubmissionMeta
from mmjudge.leaderboard.worker import public_log

__all__ = ["Handlers", "build_blocks"]

TITLES = {"isovrbench": "IsoVRBench", "mist": "MIST", "emoprefer": "EmoPrefer", "emorealm": "EmoReAlM"}
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
]


def _username(profile: gr.OAuthProfile | None) -> str | None:
    return None if profile is None else str(profile.username)


_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|>~])")


def _md(text: str) -> str:
    """Submitter text for a Markdown message: HTML-escaped, then Markdown punctuation backslash-escaped
    (so a model name can neither inject tags nor render as a link, emphasis or code).

    >>> _md("[x](javascript:alert(1)) <b>")
    '\\\\[x\\\\]\\\\(javascript:alert\\\\(1\\\\)\\\\) &lt;b&gt;'
    """
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", html.escape(text, quote=False))  # quotes: no attribute here


def _error(exc: Exception) -> str:
    return f"**Rejected.** {_md(str(exc))}"


_MAX_ROW_ID = 2**63 - 1
EXPORT_TTL_S = 3600.0
"""Exports older than this are removed (gradio has copied them to its own cache by then)."""


def row_id(value: Any) -> int:
    """A row number from a ``gr.Number`` or an API call: a whole number from 1 up.

    >>> row_id(7.0)
    7
    >>> row_id(float("nan"))
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: row # must be a whole number from 1 to 9223372036854775807, got nan
    """
    number = _whole_number(value)
    if number is None or not 1 <= number <= _MAX_ROW_ID:
        raise SubmissionRejected(
            f"row # must be a whole number from 1 to {_MAX_ROW_ID}, got {str(value)[:40]}"
        )
    return number


def _whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


class Handlers:
    """Event handlers bound to a :class:`Leaderboard` (directly callable in tests)."""

    def __init__(self, board: Leaderboard) -> None:
        self.board = board
        self._export_dir = Path(tempfile.mkdtemp(prefix="mmjudge-leaderboard-"))

    def table(self, benchmark: str, view: str = "ties_wrong") -> Table:
        """The current table of ``benchmark``."""
        return build_table(benchmark, self.board.store.submissions(benchmark), view)

    def table_value(self, benchmark: str, view: str = "ties_wrong") -> dict[str, Any]:
        """The table as a ``gr.Dataframe`` value."""
        return self.table(benchmark, view).gradio_value()

    def plot(self, benchmark: str) -> Any:
        """The tab's figure."""
        return plots.figure(benchmark, self.board.store.submissions(benchmark))

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
            return _error(exc)
        table = build_table(stored.benchmark, [stored])
        first, score = table.headers[table.headline], table.display[0][table.headline].split("\n")[0]
        return (
            f"**Stored** as verified row #{stored.id} on the {TITLES[stored.benchmark]} tab: "
            f"{_md(stored.model)} ({_md(stored.judge)}), {first} = {score}."
        )

    def request_model(self, model: str, revision: str, backend: str, config: str, benchmarks: list[str],
                      profile: gr.OAuthProfile | None) -> str:  # fmt: skip
        """Queue a model request as PENDING; returns a Markdown message."""
        try:
            username = _username(profile)
            submitter = self.board.submitter(username)
            admin = self.board.is_admin(submitter)
            local = not self.board.settings.require_login  # a local admin may name a model folder here
            spec = queue.validate_request(
                model, revision, backend, config, benchmarks or [], allow_local_paths=local and admin,
                admin=admin, rules=self.board.settings.request_rules,
            )  # fmt: skip
            request_id = queue.enqueue(
                self.board.store, spec, submitter, daily_limit=self.board.settings.daily_limit
            )
        except MmjudgeError as exc:
            return _error(exc)
        return f"**Queued** request #{request_id} ({_md(spec.model)}) as PENDING."

    def queue_value(self) -> list[list[Any]]:
        """Rows of the queue table: status, attempts and the log tail (text as stored, no server paths)."""
        return [
            [r.id, r.status, r.model, r.revision, r.backend, ", ".join(r.benchmarks), r.submitter, r.attempts,
             public_log(r.log_tail)[-300:]]
            for r in queue.list_requests(self.board.store)
        ]  # fmt: skip

    def hide(self, submission_id: float | None, profile: gr.OAuthProfile | None) -> str:
        """Admin: hide a submission (it stays in the store)."""
        try:
            number = row_id(submission_id)
            self.board.hide(number, _username(profile))
        except MmjudgeError as exc:
            return _error(exc)
        return f"Row #{number} hidden."

    def export(self, benchmark: str, view: str, suffix: str) -> str:
        """Write the table as CSV or JSON into a folder of its own; returns the file path for ``gr.File``."""
        path = self._fresh_folder() / f"{benchmark}_{view}.{suffix}"
        return str(write_table(self.table(benchmark, view), path))

    def results_file(self, submission_id: float | None) -> str | None:
        """Write the results file of a visible verified submission; ``None`` when there is none.

        Raises:
            gr.Error: ``submission_id`` is not a row number (the message says what is expected).
        """
        try:
            number = row_id(submission_id)
        except SubmissionRejected as exc:
            raise gr.Error(str(exc)) from None
        sub = self.board.store.get_submission(number)
        if sub is None or sub.hidden or sub.kind != "verified":
            return None
        return str(write_results_file(sub, self._fresh_folder() / f"results_{sub.id}.json"))

    def _fresh_folder(self) -> Path:
        now = time.time()
        for old in self._export_dir.iterdir():
            try:
                if now - old.stat().st_mtime > EXPORT_TTL_S:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:  # removed by a concurrent export
                continue
        return Path(tempfile.mkdtemp(dir=self._export_dir))


def _benchmark_tab(handlers: Handlers, benchmark: str) -> tuple[Any, Any, Any]:
    table = handlers.table(benchmark)
    view = gr.Radio(list(VIEWS), value="ties_wrong", label="view (ties counted wrong, or accuracy over decided pairs)",
                    visible=benchmark == "isovrbench")  # fmt: skip
    frame = gr.Dataframe(value=table.gradio_value(), headers=table.headers, datatype=cast(Any, table.datatypes), interactive=False,
                         show_search="filter", wrap=True, pinned_columns=3, elem_id=f"table-{benchmark}",
                         label=f"{TITLES[benchmark]} (each number followed by its 95% CI)")  # fmt: skip
    plot = gr.Plot(value=handlers.plot(benchmark), label="figure", format="png")
    note = missing_reference(benchmark)
    if note:
        gr.Markdown(f"_Published rows not shipped:_ {html.escape(note)}")
    with gr.Row():
        csv = gr.Button("Export CSV", size="sm", elem_id=f"export-csv-{benchmark}")
        jsn = gr.Button("Export JSON", size="sm", elem_id=f"export-json-{benchmark}")
        out = gr.File(label="export", interactive=False, elem_id=f"export-{benchmark}")
    name = gr.State(benchmark)
    csv.click(
        lambda b, v: handlers.export(b, v, "csv"), [name, view], out, api_name=f"export_csv_{benchmark}"
    )
    jsn.click(
        lambda b, v: handlers.export(b, v, "json"), [name, view], out, api_name=f"export_json_{benchmark}"
    )
    view.change(handlers.table_value, [name, view], frame, api_visibility="private")
    return frame, plot, view


def build_blocks(board: Leaderboard, *, about: str = "") -> gr.Blocks:
    """The leaderboard app: one tab per benchmark, submit, model request, queue, about, admin."""
    from mmjudge import BENCHMARK_IDS

    handlers = Handlers(board)
    with gr.Blocks(title="mmjudge leaderboard") as demo:
        gr.Markdown("# mmjudge leaderboard\nMultimodal judges on IsoVRBench, MIST, EmoPrefer-Data and EmoReAlM. "
                    "`verified`: scored here from submitted predictions; `reported`: published numbers with their source.")  # fmt: skip
        if board.settings.require_login:
            gr.LoginButton()
        tabs: dict[str, tuple[Any, Any, Any]] = {}
        with gr.Tabs():
            for benchmark in BENCHMARK_IDS:
                with gr.Tab(TITLES[benchmark], id=benchmark):
                    tabs[benchmark] = _benchmark_tab(handlers, benchmark)
            with gr.Tab("Submit", id="submit"):
                _submit_tab(handlers, tabs)
            with gr.Tab("Request a model", id="request"):
                _request_tab(handlers)
            with gr.Tab("Queue", id="queue"):
                refresh = gr.Button("Refresh", size="sm")
                queue_frame = gr.Dataframe(
                    value=handlers.queue_value(), headers=QUEUE_HEADERS, interactive=False, wrap=True
                )
                refresh.click(handlers.queue_value, None, queue_frame, api_name="queue")
            with gr.Tab("About", id="about"):
                gr.Markdown(about or "See the README of the Space.")
            with gr.Tab("Admin", id="admin"):
                _admin_tab(handlers)
        for benchmark, (frame, plot, view) in tabs.items():
            name = gr.State(benchmark)
            demo.load(handlers.table_value, [name, view], frame, api_name=f"table_{benchmark}")
            demo.load(handlers.plot, name, plot, api_visibility="private")
    return demo


def _refresh_all(handlers: Handlers, tabs: dict[str, tuple[Any, Any, Any]], event: Any) -> None:
    for benchmark, (frame, plot, view) in tabs.items():
        name = gr.State(benchmark)
        event.then(handlers.table_value, [name, view], frame, api_visibility="private")
        event.then(handlers.plot, name, plot, api_visibility="private")


def _submit_tab(handlers: Handlers, tabs: dict[str, tuple[Any, Any, Any]]) -> None:
    gr.Markdown("Upload the `predictions.jsonl` written by `mmjudge eval` (format on the About tab). "
                "It is validated, scored here against the labels this server holds, and stored as a verified row.")  # fmt: skip
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
    from mmjudge import BENCHMARK_IDS

    gr.Markdown("Ask for a model to be run by the leaderboard's worker (`mmjudge leaderboard worker`). The config "
                "may set only what the backend allows (frames, batch size and a few bounded settings); URLs, "
                "secrets, environment variable names and local paths are refused. API judges: admins only.")  # fmt: skip
    with gr.Row():
        model = gr.Textbox(label="model repo id")
        revision = gr.Textbox(label="revision", value="main")
        backend = gr.Textbox(label="judge backend (registered name)")
    config = gr.Code(
        label="judge config (YAML: frames, fps, max_pixels, dtype, batch_size, options, ...)", language="yaml"
    )
    benchmarks = gr.CheckboxGroup(list(BENCHMARK_IDS), label="benchmarks")
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
                "Anyone can download the results file of a verified row.")  # fmt: skip
    row_id = gr.Number(label="row #", precision=0)
    with gr.Row():
        hide = gr.Button("Hide row")
        download = gr.Button("Results file")
    message = gr.Markdown()
    out = gr.File(label="results file", interactive=False)
    hide.click(handlers.hide, [row_id], message, api_visibility="private")
    download.click(handlers.results_file, [row_id], out, api_name="results_file")
