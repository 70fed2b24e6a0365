"""The annotation app (``mmjudge human-study serve``): one pair at a time, three questions, answers in SQLite.

An annotator types their id and presses *Start or resume*; the app shows the first item of the study's
order they have not answered: the prompt, the two clips (looping, no download button) and the three
questions (visual quality, motion, text alignment) with *Left*, *Same* and *Right*. *Submit* stores the
answers at once (:class:`~mmjudge.benchmarks.isovrbench.human_study.AnswerStore`) and shows the next item, so closing the page
loses nothing. Imports gradio.

Shutdown is orderly, as in the leaderboard's app: :meth:`StudyApp.close` stops the server, refuses new
handler calls and waits for the running ones, so no gradio worker thread is left inside SQLite or file
I/O when the interpreter exits.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass
from typing import Any

import gradio as gr

from mmjudge._inflight import InFlight
from mmjudge.benchmarks.isovrbench.human_study._answers import AnswerStore, check_annotator
from mmjudge.benchmarks.isovrbench.human_study._study import QUESTIONS, Study, StudyItem
from mmjudge.errors import MmjudgeError

__all__ = ["Handlers", "StudyApp", "build_app"]

CHOICES = [("Left", "left"), ("Same", "same"), ("Right", "right")]
INSTRUCTIONS = (
    "# Video comparison\n"
    "Each screen shows two short clips made from the same prompt. Watch both, then answer the three "
    "questions. Choose **Same** when you see no difference on that question. Your answers are saved when "
    "you press *Submit*; you can close the page and resume later with the same annotator id."
)


class Handlers:
    """What the Blocks call: start a session, submit an item. Each returns every output's new value."""

    def __init__(self, study: Study) -> None:
        self.study = study
        self.store = AnswerStore(study.answers_path)
        self.in_flight = InFlight("the study app")

    def next_item(self, annotator: str) -> StudyItem | None:
        """The first item in study order ``annotator`` has not answered (``None`` when done)."""
        done = self.store.answered(annotator)
        return next((item for item in self.study.items if item.item_id not in done), None)

    def start(self, name: str) -> tuple[Any, ...]:
        """Check the annotator id and show their first unanswered item."""
        with self.in_flight():
            try:
                annotator = check_annotator(name)
            except MmjudgeError as exc:
                return self._view("", None, f"**{html.escape(str(exc))}**")
            return self._view(annotator, self.next_item(annotator), "")

    def submit(
        self, annotator: str, item_id: str, shown_at: float, visual: Any, motion: Any, text: Any
    ) -> tuple[Any, ...]:
        """Store the answers to ``item_id`` and show the next item (or ask for the missing answers)."""
        with self.in_flight():
            item = self._find(item_id)
            if not annotator or item is None:
                return self._view(
                    annotator, self.next_item(annotator) if annotator else None, "**Start first.**"
                )
            answers = {"visual": visual, "motion": motion, "text": text}
            missing = [name for name, value in answers.items() if value not in ("left", "same", "right")]
            if missing:
                return self._view(
                    annotator,
                    item,
                    f"**Answer all three questions** (missing: {', '.join(missing)}).",
                    keep=True,
                )
            seconds = time.time() - shown_at if shown_at else None
            self.store.record(annotator, item.item_id, answers, seconds=seconds)
            return self._view(annotator, self.next_item(annotator), f"Saved {item.item_id}.")

    def _find(self, item_id: str) -> StudyItem | None:
        return next((item for item in self.study.items if item.item_id == item_id), None)

    def _view(
        self, annotator: str, item: StudyItem | None, message: str, *, keep: bool = False
    ) -> tuple[Any, ...]:
        """New values of: annotator state, item state, shown-at state, panel, status, progress, prompt,
        left video, right video and the three radios (cleared unless ``keep``)."""
        total = len(self.study.items)
        radios = [gr.update() if keep else gr.update(value=None) for _ in QUESTIONS]
        if not annotator:
            return ("", "", 0.0, gr.update(visible=False), message, "", "", None, None, *radios)
        if item is None:
            done = f"All {total} items are answered. Thank you, {html.escape(annotator)}!"
            return (
                annotator,
                "",
                0.0,
                gr.update(visible=False),
                f"{message} {done}".strip(),
                "",
                "",
                None,
                None,
                *radios,
            )
        answered = len(self.store.answered(annotator))
        progress = (
            f"**Item {answered + 1} of {total}** ({item.item_id}) · annotator `{html.escape(annotator)}`"
        )
        prompt = f"**Prompt:** {html.escape(item.prompt)}"
        left, right = str(self.study.folder / item.left), str(self.study.folder / item.right)
        return (
            annotator,
            item.item_id,
            time.time(),
            gr.update(visible=True),
            message,
            progress,
            prompt,
            left,
            right,
            *radios,
        )


@dataclass
class StudyApp:
    """The Blocks and their handlers; :meth:`close` shuts both down in order."""

    blocks: gr.Blocks
    handlers: Handlers

    def launch(self, **kwargs: Any) -> None:
        """Serve (one submission at a time per event, so answers are written in order)."""
        kwargs.setdefault("allowed_paths", [str(self.handlers.study.folder / "media")])
        self.blocks.queue(default_concurrency_limit=1).launch(**kwargs)
        if not kwargs.get("prevent_thread_lock"):
            self.close()

    def close(self, timeout: float = 60.0) -> bool:
        """Stop the server, refuse new handler calls, wait up to ``timeout`` s; ``True`` when none runs."""
        self.blocks.close(verbose=False)
        return self.handlers.in_flight.close(timeout)


def build_app(study: Study) -> StudyApp:
    """The annotation app of ``study``."""
    handlers = Handlers(study)
    with gr.Blocks(title=f"Human study: {study.name}") as demo:
        gr.Markdown(INSTRUCTIONS)
        with gr.Row():
            name = gr.Textbox(label="Annotator id", placeholder="your id, e.g. ann-01", scale=3)
            start = gr.Button("Start or resume", variant="secondary", scale=1)
        status = gr.Markdown(elem_id="status")
        annotator, item_id, shown_at = gr.State(""), gr.State(""), gr.State(0.0)
        with gr.Column(visible=False) as panel:
            progress = gr.Markdown(elem_id="progress")
            prompt = gr.Markdown(elem_id="prompt")
            with gr.Row():
                left = gr.Video(label="Left", interactive=False, loop=True, buttons=[], elem_id="left")
                right = gr.Video(label="Right", interactive=False, loop=True, buttons=[], elem_id="right")
            radios = [
                gr.Radio(CHOICES, label=question, elem_id=f"q-{key}") for key, question in QUESTIONS.items()
            ]
            submit = gr.Button("Submit and next", variant="primary")
        outputs = [annotator, item_id, shown_at, panel, status, progress, prompt, left, right, *radios]
        start.click(handlers.start, inputs=[name], outputs=outputs, api_visibility="private")
        name.submit(handlers.start, inputs=[name], outputs=outputs, api_visibility="private")
        submit.click(
            handlers.submit,
            inputs=[annotator, item_id, shown_at, *radios],
            outputs=outputs,
            api_visibility="private",
        )
    return StudyApp(demo, handlers)
