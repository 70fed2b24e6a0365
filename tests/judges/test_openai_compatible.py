"""``openai_compatible`` against a local in-process endpoint: payloads, error replies, digits, secrets."""

from __future__ import annotations

import base64
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from chat_server import Canned, ChatServer, prompt_text

from mmjudge.benchmarks.emoprefer import EmoPreferPair
from mmjudge.benchmarks.emorealm import EmoRealmQuestion
from mmjudge.benchmarks.mist import MistCell
from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery, make_judge
from mmjudge.judges._openai_http import ApiError, ChatClient
from mmjudge.judges._openai_payload import expected_digit_from_top_logprobs, jpeg_data_uri
from mmjudge.runner.cache import verdict_to_dict

KEY_ENV = "MMJUDGE_TEST_API_KEY"
SECRET = "sk-test-5f1c0ffee-do-not-leak"


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


@pytest.fixture
def secret(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, SECRET)
    return SECRET


def make(server: ChatServer, **options: object):
    opts = {"base_url": server.base_url, "api_key_env": KEY_ENV, "backoff_s": 0.0, "max_retries": 2}
    opts.update(options)
    judge = make_judge(JudgeConfig(judge="openai_compatible", model="test-model", options=opts))
    judge.load("cpu")
    return judge


def mist_input(item_id: str = "i1::zero_shot::explicit::aligned") -> JudgeInput:
    from PIL import Image

    cell = MistCell(item_id, "i1", "It was a **hot potato**.", "hot potato", Path("img.png"), "zero_shot",
                    "explicit", "aligned")  # fmt: skip
    return JudgeInput(cell, image=Image.new("RGB", (8, 8), (255, 0, 0)))


def clip_input(item_id: str = "c1", frames: int = 3) -> JudgeInput:
    rng = np.random.default_rng(0)
    video = rng.integers(0, 256, size=(frames, 24, 32, 3), dtype=np.uint8)
    item = ScoreQuery(item_id, Path("clip.mp4"), "a cat walks on the beach")
    return JudgeInput(item, video, tuple(range(frames)), 16.0)


def question_input(item_id: str = "q1") -> JudgeInput:
    item = EmoRealmQuestion(item_id, None, None, "Is she happy?", ("(A) Yes", "(B) No"), "modality_agreement")
    return JudgeInput(item, np.zeros((2, 16, 16, 3), dtype=np.uint8), (0, 5), 24.0)


def test_expected_digit_matches_a_hand_computation() -> None:
    # p(3) = 0.2, p(4) = 0.1 + 0.1 (" 4" also counts), p(9) = 0.3; "x" is not a digit.
    top = [
        {"token": "3", "logprob": math.log(0.2)},
        {"token": "4", "logprob": math.log(0.1)},
        {"token": "x", "logprob": math.log(0.25)},
        {"token": " 4", "logprob": math.log(0.1)},
        {"token": "9\n", "logprob": math.log(0.3)},
    ]
    out = expected_digit_from_top_logprobs(top)
    assert out is not None
    mass = 0.2 + 0.2 + 0.3
    expected = (3 * 0.2 + 4 * 0.2 + 9 * 0.3) / mass
    assert out.valid_mass == pytest.approx(mass)
    assert out.expected == pytest.approx(expected)
    assert out.score == pytest.approx(expected * 100 / 9)
    assert out.probs[4] == pytest.approx(0.2 / mass) and out.probs[0] == 0.0
    assert sum(out.probs) == pytest.approx(1.0)


def test_data_uri_is_a_jpeg_of_the_frame() -> None:
    from PIL import Image

    frame = np.zeros((20, 30, 3), dtype=np.uint8)
    frame[:, 15:] = (200, 50, 10)
    uri = jpeg_data_uri(frame, quality=95)
    prefix = "data:image/jpeg;base64,"
    assert uri.startswith(prefix)
    decoded = Image.open(io.BytesIO(base64.b64decode(uri[len(prefix) :])))
    assert decoded.format == "JPEG" and decoded.size == (30, 20)
    assert np.abs(np.asarray(decoded, dtype=float) - frame).mean() < 6.0


def test_isovrbench_request_and_score(server: ChatServer, secret: str) -> None:
    (verdict,) = make(server).judge_batch([clip_input(frames=3)])
    payload = server.requests[0]["json"]
    assert payload["model"] == "test-model" and payload["temperature"] == 0.0
    assert payload["logprobs"] is True and payload["top_logprobs"] == 20 and payload["max_tokens"] == 1
    parts = payload["messages"][0]["content"]
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == 3 and all(
        p["image_url"]["url"].startswith("data:image/jpeg;base64,") for p in images
    )
    assert "a cat walks on the beach" in prompt_text(payload)
    # default server top logprobs: 7: 0.5 + 0.05, 8: 0.2, 6: 0.1, 9: 0.05 (and "The": 0.1)
    mass = 0.55 + 0.2 + 0.1 + 0.05
    expected = (7 * 0.55 + 8 * 0.2 + 6 * 0.1 + 9 * 0.05) / mass
    assert not verdict.no_judgment
    assert verdict.value == pytest.approx(expected * 100 / 9)
    assert verdict.diagnostics.valid_mass == pytest.approx(mass)
    assert verdict.diagnostics.raw_text == "7"


def test_no_digit_among_the_alternatives_is_no_judgment(server: ChatServer, secret: str) -> None:
    server.top_logprobs = [("Sure", -0.1), ("The", -2.0)]
    (verdict,) = make(server).judge_batch([clip_input()])
    assert verdict.no_judgment and "no digit token" in str(verdict.error)


def test_text_answers_for_mist_emoprefer_emorealm(server: ChatServer, secret: str) -> None:
    from PIL import Image

    cell = MistCell(
        "i1::zero_shot::explicit::aligned",
        "i1",
        "It was a **hot potato**.",
        "hot potato",
        Path("img.png"),
        "zero_shot",
        "explicit",
        "aligned",
    )
    pair = EmoPreferPair("n1", "n1", None, None, "She is happy.", "She is sad.", "forward")
    inputs = [
        JudgeInput(cell, image=Image.new("RGB", (8, 8), (255, 0, 0))),
        JudgeInput(pair, np.zeros((2, 8, 8, 3), dtype=np.uint8), (0, 1), 8.0),
        question_input(),
    ]
    label, preference, answer = make(server).judge_batch(inputs)
    assert label.value == "WF" and not label.no_judgment
    assert preference.value == "a2" and preference.diagnostics.extra["parsed"] == "a2"
    assert answer.value == "(B)" and answer.diagnostics.extra["parsed"] == "B"
    by_text = {prompt_text(r["json"]): r["json"] for r in server.requests}
    mist = next(p for t, p in by_text.items() if "final_label" in t)
    assert sum(p["type"] == "image_url" for p in mist["messages"][0]["content"]) == 1
    assert "Is she happy? (A) Yes (B) No" in by_text
    assert all("logprobs" not in p for p in by_text.values())


def test_a_reply_without_a_label_is_no_judgment(server: ChatServer, secret: str) -> None:
    server.reply = lambda payload: "I cannot decide."
    cell = MistCell(
        "i1::zero_shot::none::none",
        "i1",
        "It was a **hot potato**.",
        "hot potato",
        None,
        "zero_shot",
        "none",
        "none",
    )
    (verdict,) = make(server).judge_batch([JudgeInput(cell)])
    assert verdict.no_judgment and verdict.diagnostics.raw_text == "I cannot decide."


def test_429_then_success_is_retried(server: ChatServer, secret: str) -> None:
    server.script(Canned(429, headers={"Retry-After": "0"}), Canned(503))
    (verdict,) = make(server, max_retries=2).judge_batch([question_input()])
    assert not verdict.no_judgment and verdict.value == "(B)"
    assert len(server.requests) == 3


def test_500_forever_gives_no_judgment_after_max_retries(server: ChatServer, secret: str) -> None:
    server.always = Canned(500)
    (verdict,) = make(server, max_retries=3).judge_batch([question_input()])
    assert verdict.no_judgment and verdict.value is None
    assert "HTTP 500" in str(verdict.error) and "4 attempts" in str(verdict.error)
    assert len(server.requests) == 4


def test_malformed_json_is_no_judgment_without_retry(server: ChatServer, secret: str) -> None:
    server.script(Canned(200, body=b'{"choices": [ not json'))
    (verdict,) = make(server).judge_batch([question_input()])
    assert verdict.no_judgment and "not JSON" in str(verdict.error)
    assert len(server.requests) == 1


def test_a_reply_missing_the_message_is_no_judgment(server: ChatServer, secret: str) -> None:
    server.script(Canned(200, body=b'{"choices": []}'))
    (verdict,) = make(server).judge_batch([question_input()])
    assert verdict.no_judgment and "choices" in str(verdict.error)


def test_timeout_is_no_judgment(server: ChatServer, secret: str) -> None:
    server.always = Canned(delay_s=1.0)
    (verdict,) = make(server, timeout_s=0.2, max_retries=1).judge_batch([question_input()])
    assert verdict.no_judgment and "timed out" in str(verdict.error)
    assert len(server.requests) == 2


def test_retry_after_and_backoff_waits(server: ChatServer) -> None:
    waits: list[float] = []
    server.script(Canned(429, headers={"Retry-After": "3"}), Canned(502), Canned(502), Canned(429))
    client = ChatClient(server.base_url, max_retries=4, backoff_s=0.5, max_backoff_s=2.5, sleep=waits.append)
    client.chat({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
    # Retry-After 3 capped at 2.5, then backoff 0.5 * 2**attempt for attempts 1, 2, 3
    assert waits == [2.5, 1.0, 2.0, 2.5]
    server.script(Canned(400))
    with pytest.raises(ApiError, match="HTTP 400"):
        client.chat({"model": "m", "messages": []})


def test_the_key_is_sent_but_never_stored(server: ChatServer, secret: str) -> None:
    judge = make(server, max_retries=0)
    server.script(Canned(401, body=json.dumps({"error": f"invalid key {secret}"}).encode()))
    verdicts = judge.judge_batch([question_input("q1"), clip_input("c1")])
    assert server.requests[0]["headers"]["Authorization"] == f"Bearer {secret}"
    assert verdicts[0].no_judgment or verdicts[1].no_judgment
    dumped = json.dumps([verdict_to_dict(v) for v in verdicts]) + repr(judge.config) + judge.fingerprint
    assert secret not in dumped and "HTTP 401" in dumped


def test_a_missing_key_variable_is_a_config_error(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    judge = make_judge(JudgeConfig(judge="openai_compatible", model="m", options={"api_key_env": KEY_ENV}))
    with pytest.raises(ConfigError, match=KEY_ENV):
        judge.load("cpu")
    keyless = make(server, api_key_env="")
    keyless.judge_batch([question_input()])
    assert "Authorization" not in server.requests[-1]["headers"]


def test_bad_options_are_refused() -> None:
    with pytest.raises(ConfigError, match="top_logprobs"):
        make_judge(JudgeConfig(judge="openai_compatible", model="m", options={"top_logprobs": 50}))
    with pytest.raises(ConfigError, match="model"):
        make_judge(JudgeConfig(judge="openai_compatible"))


def test_batch_of_many_equals_batch_of_one(server: ChatServer, secret: str) -> None:
    judge = make(server, concurrency=3)
    inputs = [clip_input(f"c{i}") for i in range(3)] + [question_input(f"q{i}") for i in range(3)]
    many = judge.judge_batch(inputs)
    ones = [judge.judge_batch([x])[0] for x in inputs]
    assert [v.item_id for v in many] == [x.query.item_id for x in inputs]
    assert [(v.value, v.no_judgment) for v in many] == [(v.value, v.no_judgment) for v in ones]


@pytest.mark.parametrize(
    ("benchmark", "media"),
    [
        ("isovrbench", None),
        ("emorealm", "raw/emorealm/DFEW"),
        ("emoprefer", "raw/emoprefer/MER2025"),
        ("mist", None),
    ],
)
def test_mmjudge_eval_end_to_end(
    benchmark: str, media: str | None, sample_data: Path, server: ChatServer, secret: str, tmp_path: Path
) -> None:
    import yaml

    from mmjudge.cli import main
    from mmjudge.predictions import read_predictions

    config = {
        "judge": "openai_compatible",
        "name": "local-endpoint",
        "model": "test-model",
        "frames": 4,
        "batch_size": 4,
        "options": {"base_url": server.base_url, "api_key_env": KEY_ENV, "max_retries": 0},
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    out = tmp_path / "out"
    argv = ["eval", "--benchmark", benchmark, "--judge", str(path), "--data", str(sample_data / benchmark)]
    argv += ["--out", str(out), "--decode-workers", "0", "--no-progress", "--limit", "3"]
    if media:
        argv += ["--media-root", str(sample_data / media)]
    assert main(argv) == 0
    predictions = read_predictions(out / "predictions.jsonl", benchmark=benchmark)
    assert predictions.records and not any(r.get("no_judgment") for r in predictions.records)
    assert json.loads((out / "results.json").read_text())
    text = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file())
    assert secret not in text
    assert server.requests and all(r["json"]["model"] == "test-model" for r in server.requests)
    images = [
        sum(p["type"] == "image_url" for p in r["json"]["messages"][0]["content"]) for r in server.requests
    ]
    assert max(images) == (1 if benchmark == "mist" else 4)  # MIST: the cell's image; else 4 frames


def test_a_down_endpoint_is_retried_on_resume_not_cached(
    sample_data: Path, server: ChatServer, secret: str, tmp_path: Path
) -> None:
    """Issue 11 item 5: with the endpoint down every item is no_judgment; rerunning into the same --out
    with the endpoint up judges them (transient failures are not cached as verdicts)."""
    import yaml

    from mmjudge.cli import main
    from mmjudge.predictions import read_predictions

    config = {"judge": "openai_compatible", "model": "test-model", "frames": 2,
              "options": {"base_url": server.base_url, "api_key_env": KEY_ENV, "max_retries": 1, "backoff_s": 0.0}}  # fmt: skip
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    out = tmp_path / "out"
    argv = ["eval", "--benchmark", "emorealm", "--judge", str(path), "--data", str(sample_data / "emorealm"),
            "--media-root", str(sample_data / "raw/emorealm/DFEW"), "--out", str(out), "--decode-workers", "0",
            "--no-progress", "--limit", "3"]  # fmt: skip
    server.always = Canned(503)
    assert main(argv) == 3  # every item failed with an error (exit status 3), none cached
    down = read_predictions(out / "predictions.jsonl").records
    assert all(r["no_judgment"] for r in down) and "HTTP 503" in down[0]["error"]
    assert json.loads((out / "results.json").read_text())["run"]["transient"] == 3
    server.always = None
    asked = len(server.requests)
    assert main(argv) == 0
    up = read_predictions(out / "predictions.jsonl").records
    assert not any(r["no_judgment"] for r in up) and len(server.requests) == asked + 3


# --- served by vLLM: images per request, reasoning replies cut off, guided choice -------------------------


def test_too_many_images_for_the_server_is_a_clear_error_not_retried_not_cached(
    server: ChatServer, secret: str
) -> None:
    server.max_images = 2  # vllm serve ... --limit-mm-per-prompt '{"image": 2}'
    (verdict,) = make(server, max_retries=3).judge_batch([clip_input(frames=3)])
    assert verdict.errored and verdict.value is None
    assert "refuses 3 images in one request" in str(verdict.error)
    assert "At most 2 image(s) may be provided in one request." in str(verdict.error)
    assert "--limit-mm-per-prompt" in str(verdict.error) and "max_images_per_request" in str(verdict.error)
    assert verdict.transient  # the server's flag or the config is at fault: a rerun asks again
    assert len(server.requests) == 1  # a 400 is not retried
    (mist,) = make(server).judge_batch([mist_input()])  # one image fits
    assert mist.value == "WF"


def test_a_config_asking_more_frames_than_the_server_takes_is_refused_before_the_run(
    server: ChatServer, secret: str
) -> None:
    def config(**fields: object) -> JudgeConfig:
        options = {"base_url": server.base_url, "api_key_env": KEY_ENV, "max_images_per_request": 4}
        return JudgeConfig(judge="openai_compatible", model="m", options=options, **fields)

    with pytest.raises(ConfigError, match=r"`frames: 8` sends 8 images per request.*--limit-mm-per-prompt"):
        make_judge(config(frames=8))
    with pytest.raises(ConfigError, match="--limit-mm-per-prompt"):
        make_judge(config())  # the default 8 frames
    assert make_judge(config(frames=4)).options.max_images_per_request == 4
    judge = make_judge(config(fps=2.0))  # the count follows each clip's length: checked per request
    judge.load("cpu")
    (verdict,) = judge.judge_batch([clip_input(frames=5)])
    assert verdict.errored and "5 images for one request" in str(verdict.error)
    assert "--limit-mm-per-prompt" in str(verdict.error) and not server.requests  # nothing was sent
    with pytest.raises(ConfigError, match="max_images_per_request"):
        make_judge(JudgeConfig(judge="openai_compatible", model="m", options={"max_images_per_request": 0}))


def test_a_reasoning_reply_cut_off_at_max_tokens_is_an_error_naming_the_limit(
    server: ChatServer, secret: str
) -> None:
    server.reasoning = " ".join(["hmm"] * 40)  # 40 tokens of reasoning before the answer
    verdicts = make(server, max_tokens=30).judge_batch([mist_input(), question_input()])
    for verdict in verdicts:
        # an error, not an answer; cached (not transient): greedy decoding repeats it
        assert verdict.errored and verdict.value is None and not verdict.transient
        assert "cut off at max_tokens=30 before an answer (finish_reason=length, content null" in str(
            verdict.error
        )
        assert "reasoning in `reasoning_content`" in str(verdict.error)
        assert "raise options.max_tokens" in str(verdict.error)
    reply = server.requests[0]["json"]
    assert reply["max_tokens"] == 30
    label, answer = make(server, max_tokens=100).judge_batch([mist_input(), question_input()])
    assert label.value == "WF" and answer.value == "(B)"  # with room for the reasoning, the answer arrives
    server.reasoning_field = "reasoning"  # newer vLLM versions
    (clip,) = make(server).judge_batch([clip_input()])
    assert clip.errored and "cut off at digit_max_tokens=1" in str(clip.error)
    assert "reads the first answer token" in str(clip.error)


def test_content_null_with_finish_reason_stop_is_an_error(server: ChatServer, secret: str) -> None:
    body = {"choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": None, "reasoning_content": "(B) it is"}}]}  # fmt: skip
    server.script(Canned(200, body=json.dumps(body).encode()))
    (verdict,) = make(server).judge_batch([question_input()])
    assert verdict.errored and "holds no answer (finish_reason=stop, content null" in str(verdict.error)
    assert "--reasoning-parser" in str(verdict.error)


def test_a_reply_cut_off_before_a_label_is_an_error_not_a_no_judgment_answer(
    server: ChatServer, secret: str
) -> None:
    server.reply = lambda payload: (
        "Let me look at the image first. " + "The idiom " * 30 + '{"final_label": "LL"}'
    )
    (verdict,) = make(server, max_tokens=20).judge_batch([mist_input()])
    assert verdict.errored and "cut off at max_tokens=20 before a label (finish_reason=length" in str(
        verdict.error
    )
    server.reply = lambda payload: '{"final_label": "FL"} and more words than the budget holds'
    (kept,) = make(server, max_tokens=4).judge_batch([mist_input()])
    assert kept.value == "FL" and kept.diagnostics.extra["finish_reason"] == "length"  # a label was written


def test_guided_choice_sends_the_labels_and_gets_exactly_one(server: ChatServer, secret: str) -> None:
    label, answer = make(server, guided_choice=True).judge_batch([mist_input(), question_input()])
    mist, emorealm = (r["json"] for r in server.requests)
    if "final_label" not in prompt_text(mist):
        mist, emorealm = emorealm, mist
    assert mist["structured_outputs"] == {"choice": ["FF", "WF", "FL", "LL"]}
    assert "structured_outputs" not in emorealm  # its official matcher reads the free reply
    assert label.value == "WF" and label.diagnostics.raw_text == "WF" and not label.no_judgment
    assert answer.value == "(B)"
    server.requests.clear()
    server.choice_field = "guided_choice"  # vLLM before 0.10.2
    (old,) = make(server, guided_choice=True, guided_choice_field="guided_choice").judge_batch([mist_input()])
    assert server.requests[0]["json"]["guided_choice"] == ["FF", "WF", "FL", "LL"] and old.value == "WF"
    (ignored,) = make(server, guided_choice=True).judge_batch([mist_input()])  # the server ignores the field
    assert ignored.errored and "the server ignored the guided choice" in str(ignored.error)
    with pytest.raises(ConfigError, match="guided_choice_field"):
        make_judge(
            JudgeConfig(judge="openai_compatible", model="m", options={"guided_choice_field": "regex"})
        )


def test_the_card_s_vllm_config_loads_and_fits_its_image_limit(tmp_path: Path) -> None:
    import re

    card = (Path(__file__).resolve().parents[2] / "judges" / "openai_compatible" / "README.md").read_text()
    section = card.split("## Serving with vLLM", 1)[1]
    limit = int(re.search(r"--limit-mm-per-prompt '\{\"image\": (\d+)\}'", section).group(1))
    block = re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1)
    (tmp_path / "vllm.yaml").write_text(block, encoding="utf-8")
    from mmjudge.judges import load_config

    judge = make_judge(load_config(tmp_path / "vllm.yaml"))
    assert judge.options.max_images_per_request == limit and judge.config.frames == limit
    assert judge.options.guided_choice and judge.options.api_key_env == ""
