"""Model requests are checked against what the backend can judge and what the benchmark's queries carry
before they are queued: a backend that does not answer a benchmark's query kinds or does not read the media
they need, or frame options for a benchmark without video, are refused with nothing stored."""

from __future__ import annotations

import pytest

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.judges import JUDGES
from mmjudge.leaderboard import SubmissionRejected
from mmjudge.leaderboard.app.ui import Handlers, build_app
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.core.fit import accepting_backends, backend_benchmarks
from mmjudge.leaderboard.core.policy import DEFAULT_RULES, NO_MODEL, BackendRules, Rule
from mmjudge.queries import ChoiceQuery, ScoreQuery

PAIRWISE_VIDEO = ("videogen_rewardbench", "genai_bench_video", "mj_bench_video")
"""The published video preference benchmarks: clips to rate (or compare), like IsoVRBench."""


def _expected_accepting(benchmark: str) -> list[str]:
    """The rule written out: requestable, registered judges that answer one of the benchmark's query kinds
    (a base of it in ``answers``) and read the media it needs, or answer blind."""
    from mmjudge.judges import get_judge

    records = get_benchmark(benchmark).records

    def fits(judge: type) -> bool:
        answered = any(issubclass(kind, a) for kind in records.query_kinds for a in judge.answers)
        by_ear = (
            records.sound and "audio" in judge.reads and "video" not in judge.reads
        )  # an audio-language model
        return answered and (judge.blind or records.media <= judge.reads or by_ear)

    return sorted(name for name in DEFAULT_RULES if name in JUDGES.names() and fits(get_judge(name)))


def test_vlm_digit_for_mist_is_refused_naming_benchmark_backend_kinds_media_and_alternatives() -> None:
    with pytest.raises(SubmissionRejected) as caught:
        q.validate_request("org/m", "main", "vlm_digit", "", ["mist"])
    message = str(caught.value)
    assert "'vlm_digit' cannot judge mist" in message
    assert f"it answers [{ScoreQuery.kind!r}] and reads ['video']" in message
    assert f"mist asks [{ChoiceQuery.kind!r}] and needs ['image']" in message
    expected = _expected_accepting("mist")
    assert expected and "vlm_digit" not in expected
    assert f"that judge mist: {expected}" in message


@pytest.mark.parametrize("backend", sorted(set(DEFAULT_RULES) & set(JUDGES.names())))
@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_every_backend_and_benchmark_pair_is_accepted_exactly_when_the_judge_answers_and_reads_it(
    backend: str, benchmark: str
) -> None:
    fits = backend in _expected_accepting(benchmark)
    model = (
        "" if DEFAULT_RULES[backend].model_source == NO_MODEL else "gpt-4.1"
    )  # a weight-free judge names none
    call = lambda: q.validate_request(model, "", backend, "", [benchmark], admin=True)  # noqa: E731
    if fits:
        assert call().benchmarks == (benchmark,)
    else:
        with pytest.raises(SubmissionRejected, match=f"cannot judge {benchmark}"):
            call()
    assert (benchmark in backend_benchmarks(backend)) == fits


def test_a_judge_that_answers_the_kind_but_does_not_read_the_media_is_refused() -> None:
    """audio_visual answers choices from video and audio; MIST's choices need their image."""
    with pytest.raises(
        SubmissionRejected,
        match=r"'audio_visual' cannot judge mist: it answers .* and reads \['audio', 'video'\]",
    ):
        q.validate_request("org/m", "", "audio_visual", "", ["mist"])
    assert q.validate_request("org/m", "", "audio_visual", "", ["emorealm"]).benchmarks == ("emorealm",)


def test_one_benchmark_the_backend_cannot_judge_refuses_the_whole_request() -> None:
    with pytest.raises(SubmissionRejected, match="'clip_score' cannot judge emoprefer"):
        q.validate_request("org/m", "", "clip_score", "", ["isovrbench", "emoprefer"])


@pytest.mark.parametrize("key", ["frames: 8", "fps: 2.0"])
def test_frame_options_are_refused_for_benchmarks_whose_queries_carry_no_video(key: str) -> None:
    name = key.split(":")[0]

    def ask(benchmarks: list[str]) -> q.RequestSpec:
        return q.validate_request("gpt-4.1", "", "openai_compatible", key, benchmarks, admin=True)

    with pytest.raises(
        SubmissionRejected, match=rf"`{name}` chooses the frames of a clip, but mist's queries"
    ):
        ask(["mist"])
    with pytest.raises(SubmissionRejected, match="but mist's queries"):
        ask(["isovrbench", "mist"])
    with pytest.raises(SubmissionRejected, match="but mist's queries"):
        q.validate_request("org/m", "", "label_choice", key, ["emorealm", "mist"])
    with_video = [b for b in benchmark_ids() if "video" in get_benchmark(b).records.media]
    assert set(with_video) == {"isovrbench", "emoprefer", "emorealm", "temporalbench", "tempcompass", *PAIRWISE_VIDEO}
    assert ask(with_video).benchmarks == tuple(with_video)


def test_a_null_frame_count_is_the_backend_default_and_is_accepted_for_any_benchmark() -> None:
    assert q.validate_request("org/m", "", "label_choice", "frames: null", ["mist"]).benchmarks == ("mist",)


def test_the_media_each_benchmark_needs() -> None:
    media = {b: get_benchmark(b).records.media for b in benchmark_ids()}
    assert media == {
        "isovrbench": {"video"},
        "mist": {"image"},
        "emoprefer": {"video"},
        "emorealm": {"video"},
        "temporalbench": {"video"},
        "tempcompass": {"video"},
        **{b: {"video"} for b in PAIRWISE_VIDEO},
    }


def test_a_plugged_in_judge_is_checked_by_the_kinds_and_media_it_declares(monkeypatch) -> None:
    from mmjudge.judges import Judge

    class ImageChoices(Judge):
        answers = frozenset({ChoiceQuery})
        reads = frozenset({"image"})

        def judge_batch(self, inputs):  # pragma: no cover - never run
            return []

    monkeypatch.setitem(JUDGES._entries, "image_choices", ImageChoices)
    rules = {**DEFAULT_RULES, "image_choices": BackendRules({"name": Rule("text", high=100)})}
    assert (
        q.validate_request("org/m", "", "image_choices", "", ["mist"], rules=rules).backend == "image_choices"
    )
    with pytest.raises(SubmissionRejected, match=r"'image_choices' cannot judge isovrbench: it answers"):
        q.validate_request("org/m", "", "image_choices", "", ["isovrbench"], rules=rules)
    with pytest.raises(
        SubmissionRejected, match=r"'image_choices' cannot judge emorealm: .* needs \['video'\]"
    ):
        q.validate_request("org/m", "", "image_choices", "", ["emorealm"], rules=rules)
    assert "image_choices" in accepting_backends("mist", rules)


def test_handler_refuses_a_misfit_request_and_stores_nothing(board_factory) -> None:
    handlers = Handlers(board_factory())
    refused = handlers.request_model("org/m", "main", "vlm_digit", "", ["mist"], None)
    assert "Rejected" in refused and "cannot judge mist" in refused
    refused = handlers.request_model("org/m", "main", "label_choice", "frames: 8", ["mist"], None)
    assert "Rejected" in refused and "carry no video" in refused
    assert q.list_requests(handlers.board.store) == []
    queued = handlers.request_model("org/m", "main", "label_choice", "frames: 8", ["emorealm"], None)
    assert "Queued" in queued and len(q.list_requests(handlers.board.store)) == 1


def test_request_form_offers_the_benchmarks_the_chosen_backend_judges(board_factory) -> None:
    app = build_app(board_factory())
    fitting = [f for f in app.blocks.fns.values() if getattr(f.fn, "__name__", "") == "fitting"]
    assert len(fitting) == 1
    rated = ["isovrbench", "temporalbench", "tempcompass", *PAIRWISE_VIDEO]  # they ask a clip rated against a text
    assert fitting[0].fn("vlm_digit")["choices"] == rated
    assert fitting[0].fn("label_choice")["choices"] == [b for b in benchmark_ids() if b not in rated]
    assert fitting[0].fn("not_registered")["choices"] == list(benchmark_ids())


def test_a_config_its_judge_refuses_for_a_benchmark_is_refused_when_queued() -> None:
    """audio_visual answers EmoReAlM, but not with strategy S2 (a describe-then-compare of two texts)."""
    assert q.validate_request(
        "org/omni", "", "audio_visual", "options: {strategy: S2}", ["emoprefer"]
    ).benchmarks
    with pytest.raises(SubmissionRejected, match="S2"):
        q.validate_request(
            "org/omni", "", "audio_visual", "options: {strategy: S2}", ["emoprefer", "emorealm"]
        )


def test_the_papers_reward_models_and_audio_judges_are_requestable_where_they_fit() -> None:
    assert q.validate_request(
        "org/vs", "", "video_score", "options: {max_frames: 16}", ["isovrbench"]
    ).benchmarks
    assert q.validate_request("org/ur", "", "unified_reward_flex", "frames: 8", ["isovrbench"]).benchmarks
    accepted = q.validate_request("org/qa", "", "audio_language", "", ["emoprefer", "emorealm"])
    assert accepted.benchmarks == ("emoprefer", "emorealm")
    with pytest.raises(SubmissionRejected, match="its clips carry no sound to judge by ear"):
        q.validate_request("org/qa", "", "audio_language", "", ["isovrbench"])
    with pytest.raises(
        SubmissionRejected, match="request key `fps` is not something a requester may set for video_score"
    ):
        q.validate_request("org/vs", "", "video_score", "fps: 2.0", ["isovrbench"])
