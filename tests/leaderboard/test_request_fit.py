"""Model requests are checked against what the backend can judge and what the benchmark's items carry
before they are queued: a backend that does not accept a benchmark's item kind, or frame options for a
benchmark without video, are refused with nothing stored."""

from __future__ import annotations

import pytest

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.items import ClipItem, DescriptionPairItem, QuestionItem, SentenceItem
from mmjudge.judges import JUDGES
from mmjudge.leaderboard import SubmissionRejected
from mmjudge.leaderboard import queue as q
from mmjudge.leaderboard.fit import accepting_backends, backend_benchmarks
from mmjudge.leaderboard.policy import DEFAULT_RULES, BackendRules, Rule
from mmjudge.leaderboard.ui import Handlers, build_app


def _expected_accepting(benchmark: str) -> list[str]:
    """The rule written out: requestable, registered judges whose ``accepts`` holds a base of the item kind."""
    kind = get_benchmark(benchmark).records.item_kind
    from mmjudge.judges import get_judge

    return sorted(
        name
        for name in DEFAULT_RULES
        if name in JUDGES.names() and any(issubclass(kind, accepted) for accepted in get_judge(name).accepts)
    )


def test_vlm_digit_for_mist_is_refused_naming_benchmark_backend_kinds_and_alternatives() -> None:
    with pytest.raises(SubmissionRejected) as caught:
        q.validate_request("org/m", "main", "vlm_digit", "", ["mist"])
    message = str(caught.value)
    assert "'vlm_digit' cannot judge mist" in message
    assert f"[{ClipItem.kind!r}]" in message and repr(SentenceItem.kind) in message
    expected = _expected_accepting("mist")
    assert expected and "vlm_digit" not in expected
    assert f"that judge mist: {expected}" in message


@pytest.mark.parametrize("backend", sorted(set(DEFAULT_RULES) & set(JUDGES.names())))
@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_every_backend_and_benchmark_pair_is_accepted_exactly_when_the_judge_accepts_the_kind(
    backend: str, benchmark: str
) -> None:
    fits = backend in _expected_accepting(benchmark)
    call = lambda: q.validate_request("gpt-4.1", "", backend, "", [benchmark], admin=True)  # noqa: E731
    if fits:
        assert call().benchmarks == (benchmark,)
    else:
        with pytest.raises(SubmissionRejected, match=f"cannot judge {benchmark}"):
            call()
    assert (benchmark in backend_benchmarks(backend)) == fits


def test_one_benchmark_the_backend_cannot_judge_refuses_the_whole_request() -> None:
    with pytest.raises(SubmissionRejected, match="'clip_score' cannot judge emoprefer"):
        q.validate_request("org/m", "", "clip_score", "", ["isovrbench", "emoprefer"])


@pytest.mark.parametrize("key", ["frames: 8", "fps: 2.0"])
def test_frame_options_are_refused_for_benchmarks_whose_items_carry_no_video(key: str) -> None:
    name = key.split(":")[0]

    def ask(benchmarks: list[str]) -> q.RequestSpec:
        return q.validate_request("gpt-4.1", "", "openai_compatible", key, benchmarks, admin=True)

    with pytest.raises(SubmissionRejected, match=rf"`{name}` chooses the frames of a clip, but mist's items"):
        ask(["mist"])
    with pytest.raises(SubmissionRejected, match="but mist's items"):
        ask(["isovrbench", "mist"])
    with pytest.raises(SubmissionRejected, match="but mist's items"):
        q.validate_request("org/m", "", "label_choice", key, ["emorealm", "mist"])
    with_video = [b for b in benchmark_ids() if "video" in get_benchmark(b).records.item_kind.media]
    assert set(with_video) == {"isovrbench", "emoprefer", "emorealm"}
    assert ask(with_video).benchmarks == tuple(with_video)


def test_a_null_frame_count_is_the_backend_default_and_is_accepted_for_any_benchmark() -> None:
    assert q.validate_request("org/m", "", "label_choice", "frames: null", ["mist"]).benchmarks == ("mist",)


def test_the_media_each_item_kind_declares() -> None:
    assert ClipItem.media == {"video"} and SentenceItem.media == {"image"}
    assert DescriptionPairItem.media == QuestionItem.media == {"video", "audio"}


def test_a_plugged_in_judge_is_checked_by_the_kinds_it_declares(monkeypatch) -> None:
    from mmjudge.judges import Judge

    class SentencesOnly(Judge):
        accepts = frozenset({SentenceItem})

        def judge_batch(self, inputs):  # pragma: no cover - never run
            return []

    monkeypatch.setitem(JUDGES._entries, "sentences_only", SentencesOnly)
    rules = {**DEFAULT_RULES, "sentences_only": BackendRules({"name": Rule("text", high=100)})}
    assert (
        q.validate_request("org/m", "", "sentences_only", "", ["mist"], rules=rules).backend
        == "sentences_only"
    )
    with pytest.raises(
        SubmissionRejected, match=r"'sentences_only' cannot judge isovrbench: it accepts items of kind"
    ):
        q.validate_request("org/m", "", "sentences_only", "", ["isovrbench"], rules=rules)
    assert "sentences_only" in accepting_backends("mist", rules)


def test_handler_refuses_a_misfit_request_and_stores_nothing(board_factory) -> None:
    handlers = Handlers(board_factory())
    refused = handlers.request_model("org/m", "main", "vlm_digit", "", ["mist"], None)
    assert "Rejected" in refused and "cannot judge mist" in refused
    refused = handlers.request_model("org/m", "main", "label_choice", "frames: 8", ["mist"], None)
    assert "Rejected" in refused and "carry no video" in refused
    assert q.list_requests(handlers.board.store) == []
    queued = handlers.request_model("org/m", "main", "label_choice", "frames: 8", ["emorealm"], None)
    assert "Queued" in queued and len(q.list_requests(handlers.board.store)) == 1


def test_request_form_offers_the_benchmarks_the_chosen_backend_judges(board_factory, monkeypatch) -> None:
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    app = build_app(board_factory())
    fitting = [f for f in app.blocks.fns.values() if getattr(f.fn, "__name__", "") == "fitting"]
    assert len(fitting) == 1
    assert fitting[0].fn("vlm_digit")["choices"] == ["isovrbench"]
    assert fitting[0].fn("label_choice")["choices"] == [b for b in benchmark_ids() if b != "isovrbench"]
    assert fitting[0].fn("not_registered")["choices"] == list(benchmark_ids())
