"""The annotation app's handlers (no browser): start, answer, resume, finish, shut down in order."""

from __future__ import annotations

import threading

import pytest

from mmjudge.benchmarks.isovrbench.human_study import AnswerStore, Study

gr = pytest.importorskip("gradio")

from mmjudge.benchmarks.isovrbench.human_study.app import Handlers, build_app  # noqa: E402

ALL = ("left", "same", "right")


def _state(view: tuple) -> tuple[str, str, str]:
    """(annotator, item id, status message) of a handler's output."""
    return view[0], view[1], view[4]


def test_an_annotator_answers_in_order_and_resumes_where_they_stopped(small_study: Study) -> None:
    handlers = Handlers(small_study)
    first = small_study.items[0]
    assert _state(handlers.start("  ann-1 "))[:2] == ("ann-1", first.item_id)
    view = handlers.submit("ann-1", first.item_id, 0.0, "left", None, "right")
    assert _state(view)[1] == first.item_id and "missing: motion" in _state(view)[2]  # nothing stored yet
    assert AnswerStore(small_study.answers_path).answers() == []
    view = handlers.submit("ann-1", first.item_id, 0.0, *ALL)
    assert _state(view)[1:] == (small_study.items[1].item_id, f"Saved {first.item_id}.")
    assert "Item 2 of 16" in view[5] and view[7].endswith(small_study.items[1].left)

    again = Handlers(small_study)  # a new page, or a restarted server
    assert _state(again.start("ann-1"))[1] == small_study.items[1].item_id
    assert _state(again.start("ann-2"))[1] == first.item_id  # answers are per annotator
    (stored,) = AnswerStore(small_study.answers_path).answers()
    assert (stored.annotator, stored.visual, stored.motion, stored.text) == ("ann-1", *ALL)


def test_the_last_answer_ends_the_study(small_study: Study) -> None:
    handlers = Handlers(small_study)
    for item in small_study.items:
        view = handlers.submit("ann", item.item_id, 0.0, "same", "same", "same")
    assert view[1] == "" and "All 16 items are answered" in view[4]
    assert len(AnswerStore(small_study.answers_path).answers()) == 16


def test_bad_ids_and_submissions_before_start_are_refused(small_study: Study) -> None:
    handlers = Handlers(small_study)
    assert "annotator id is 1-64" in _state(handlers.start("   "))[2]
    assert "Start first" in _state(handlers.submit("", "q0001", 0.0, *ALL))[2]
    assert AnswerStore(small_study.answers_path).answers() == []


def test_close_waits_for_a_running_handler(small_study: Study) -> None:
    app = build_app(small_study)
    started, release = threading.Event(), threading.Event()

    def slow() -> None:
        with app.handlers.in_flight():
            started.set()
            release.wait(10)

    worker = threading.Thread(target=slow)
    worker.start()
    started.wait(10)
    assert app.handlers.in_flight.close(timeout=0.1) is False  # still running
    release.set()
    worker.join(10)
    assert app.close(timeout=10) is True
    with pytest.raises(Exception, match="shutting down"):
        app.handlers.start("ann")
