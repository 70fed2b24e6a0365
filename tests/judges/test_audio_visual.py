"""``audio_visual`` with a tiny random Qwen2.5-Omni thinker loaded through the real loading path.

Random weights prove the plumbing (loading, media, prompt layout, batching, verdicts), not the scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mmjudge.benchmarks.emorealm import EmoRealmQuestion
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge
from mmjudge.judges.profiles import QWEN_OMNI_UTILS
from mmjudge.runner import RunOptions, load_queries
from mmjudge.runner.decode import decode_query, frame_indices

MEDIA = {"emorealm": "raw/emorealm/DFEW", "emoprefer": "raw/emoprefer/MER2025"}


def config(model: Path, **options: object) -> JudgeConfig:
    opts: dict[str, object] = {"max_new_tokens": 6}
    opts.update(options)
    return JudgeConfig(
        judge="audio_visual", model=str(model), local_files_only=True, dtype="float32", options=opts
    )


@pytest.fixture(scope="module")
def judge(tiny_omni_thinker: Path):
    loaded = make_judge(config(tiny_omni_thinker))
    loaded.load("cpu")
    return loaded


@pytest.fixture(scope="module")
def decoded(sample_data: Path, judge) -> dict[str, list[JudgeInput]]:
    out = {}
    for benchmark, media in MEDIA.items():
        items, _ = load_queries(benchmark, sample_data / benchmark, RunOptions(media_root=sample_data / media))
        out[benchmark] = [decode(item, judge.media_request(item)) for item in items[:4]]
    return out


def decode(item, request) -> JudgeInput:
    """What the runner decodes for ``request`` (its decode step itself)."""
    decoded = decode_query(item, [request])
    assert decoded.error is None, decoded.error
    return decoded.input(0)


def test_media_request_is_qwen_omni_utils_at_two_fps_with_librosa_16k_audio(judge) -> None:
    item = EmoRealmQuestion("q", Path("c.mp4"), Path("c.wav"), "Q?", ("(A) x",), "reasoning_basic_video")
    request = judge.media_request(item)
    assert (request.target_fps, request.min_frames, request.profile) == (2.0, 4, QWEN_OMNI_UTILS)
    assert request.max_pixels is None  # full-size frames: the judge resizes them for the model's factor
    assert request.audio_sample_rate == 16000 and request.num_frames is None
    assert request.audio_resampler == "soxr_hq"
    assert frame_indices(24, 24.0, request) == [0, 8, 15, 23]  # 1 s clip: 2 frames at 2 fps, raised to 4
    assert len(frame_indices(240, 24.0, request)) == 20  # 10 s at 2 fps


def test_runs_on_the_sample_data(judge, decoded: dict[str, list[JudgeInput]]) -> None:
    for benchmark, inputs in decoded.items():
        verdicts = judge.judge_batch(inputs)
        assert [v.item_id for v in verdicts] == [x.query.item_id for x in inputs]
        for verdict, judge_input in zip(verdicts, inputs, strict=True):
            assert not verdict.no_judgment, verdict.error
            assert isinstance(verdict.value, str) and verdict.diagnostics.raw_text == verdict.value
            extra = verdict.diagnostics.extra
            assert extra["audio_in_video"] is True and extra["frames"] == len(judge_input.frames) >= 4
            assert extra["audio_s"] > 0.5
            if benchmark == "emoprefer":
                assert extra["parsed"] in ("a1", "a2", "same")
            json.dumps(extra)  # cacheable


def test_batch_of_many_equals_batch_of_one(judge, decoded: dict[str, list[JudgeInput]]) -> None:
    inputs = decoded["emorealm"][:3] + decoded["emoprefer"][:2]
    many = judge.judge_batch(inputs)
    ones = [judge.judge_batch([x])[0] for x in inputs]
    assert [v.value for v in many] == [v.value for v in ones]


def test_prompt_is_the_official_layout_without_subtitles(judge, decoded: dict[str, list[JudgeInput]]) -> None:
    judge_input = decoded["emorealm"][0]
    item = judge_input.query
    chat = judge.messages(judge_input, video=True, audio_part=False)
    texts = [p["text"] for m in chat for p in m["content"] if p["type"] == "text"]
    assert texts[-1] == item.question + " " + " ".join(item.choices)
    assert len(texts) == 2 and "virtual human" in texts[0]  # the Omni system prompt, nothing else
    encoded, interleaved = judge.encode(judge_input)
    prompt = judge.processor.tokenizer.decode(encoded["input_ids"][0], skip_special_tokens=True)
    assert interleaved and f"{item.question} {' '.join(item.choices)}" in prompt
    assert "subtitle" not in prompt.lower()
    assert _runs(encoded, judge.processor.tokenizer) == ["VIDEO", "AUDIO"]  # a 1 s clip: one 2 s chunk


def _runs(encoded: dict, tokenizer) -> list[str]:
    """The sequence of <|VIDEO|> / <|AUDIO|> runs in the prompt (other tokens dropped)."""
    names = {tokenizer.convert_tokens_to_ids(f"<|{n}|>"): n for n in ("VIDEO", "AUDIO")}
    runs: list[str] = []
    for token in encoded["input_ids"][0].tolist():
        name = names.get(token)
        if name is not None and (not runs or runs[-1] != name):
            runs.append(name)
    return runs


def test_audio_is_interleaved_with_the_frames_in_two_second_chunks(judge, decoded) -> None:
    item = decoded["emorealm"][0].query
    rng = np.random.default_rng(1)
    frames = rng.integers(0, 256, size=(8, 56, 56, 3), dtype=np.uint8)  # 8 frames at 2 fps: 4 s
    audio = (0.1 * rng.standard_normal(4 * 16000)).astype(np.float32)
    judge_input = JudgeInput(item, frames, tuple(range(0, 96, 12)), 24.0, audio)
    encoded, interleaved = judge.encode(judge_input)
    assert interleaved and _runs(encoded, judge.processor.tokenizer) == ["VIDEO", "AUDIO", "VIDEO", "AUDIO"]


def test_video_time_follows_the_sampled_rate(judge, decoded: dict[str, list[JudgeInput]]) -> None:
    judge_input = decoded["emoprefer"][0]  # 8 fps clip, 2 s: 4 frames at 2 fps
    encoded, _ = judge.encode(judge_input)
    assert judge_input.frame_indices == (0, 5, 10, 15) and judge_input.total_frames == 16
    rate = 4 / 16 * 8.0  # qwen-omni-utils' sample_fps: n / total * clip fps
    temporal_patch = judge.processor.video_processor.temporal_patch_size
    assert float(encoded["video_second_per_grid"][0]) == pytest.approx(temporal_patch / rate)


def test_separate_audio_and_no_audio(tiny_omni_thinker: Path, decoded: dict[str, list[JudgeInput]]) -> None:
    judge_input = decoded["emorealm"][0]
    separate = make_judge(config(tiny_omni_thinker, use_audio_in_video=False))
    separate.load("cpu")
    encoded, interleaved = separate.encode(judge_input)
    assert not interleaved and "input_features" in encoded
    (verdict,) = separate.judge_batch([judge_input])
    assert not verdict.no_judgment and verdict.diagnostics.extra["audio_in_video"] is False
    silent = make_judge(config(tiny_omni_thinker, audio=False))
    assert silent.media_request(judge_input.query).audio_sample_rate is None
    silent.load("cpu")
    encoded, _ = silent.encode(judge_input)
    assert "input_features" not in encoded


def test_an_item_without_media_is_no_judgment(judge, decoded: dict[str, list[JudgeInput]]) -> None:
    good = decoded["emorealm"][0]
    empty = JudgeInput(EmoRealmQuestion("q-empty", None, None, "Q?", ("(A) Yes", "(B) No"), "modality_agreement"))
    verdicts = judge.judge_batch([empty, good])
    assert verdicts[0].no_judgment and "neither video frames nor audio" in str(verdicts[0].error)
    assert not verdicts[1].no_judgment


def test_a_whole_omni_model_loads_its_thinker(
    tiny_omni_thinker: Path, judge, decoded: dict[str, list[JudgeInput]], tmp_path: Path
) -> None:
    """A ``qwen2_5_omni`` folder (thinker + no talker, as Qwen/Qwen2.5-Omni-7B) gives the same answers."""
    import torch
    from transformers import AutoConfig, AutoProcessor, Qwen2_5OmniConfig, Qwen2_5OmniForConditionalGeneration

    thinker_config = AutoConfig.from_pretrained(tiny_omni_thinker, local_files_only=True)
    whole = Qwen2_5OmniForConditionalGeneration(
        Qwen2_5OmniConfig(thinker_config=thinker_config.to_dict(), enable_audio_output=False)
    )
    whole.thinker.load_state_dict(judge.model.state_dict())
    whole.save_pretrained(tmp_path)
    torch.save({}, tmp_path / "spk_dict.pt")  # from_pretrained reads the speaker table even without a talker
    AutoProcessor.from_pretrained(tiny_omni_thinker, local_files_only=True).save_pretrained(tmp_path)
    loaded = make_judge(config(tmp_path))
    loaded.load("cpu")
    assert type(loaded.model).__name__ == "Qwen2_5OmniThinkerForConditionalGeneration"
    inputs = decoded["emorealm"][:2]
    assert [v.value for v in loaded.judge_batch(inputs)] == [v.value for v in judge.judge_batch(inputs)]


def test_a_non_omni_model_is_refused(tiny_clip: Path) -> None:
    from mmjudge.errors import ConfigError

    with pytest.raises(ConfigError, match=r"Qwen2\.5-Omni"):
        make_judge(config(tiny_clip)).load("cpu")


@pytest.mark.parametrize("benchmark", ["emoprefer", "emorealm"])
def test_mmjudge_eval_end_to_end(
    benchmark: str, sample_data: Path, tiny_omni_thinker: Path, tmp_path: Path
) -> None:
    import yaml

    from mmjudge.cli import main
    from mmjudge.predictions import read_predictions

    path = tmp_path / "config.yaml"
    data = {
        "judge": "audio_visual",
        "model": str(tiny_omni_thinker),
        "local_files_only": True,
        "batch_size": 2,
    }
    data["options"] = {"max_new_tokens": 4}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = tmp_path / "out"
    argv = ["eval", "--benchmark", benchmark, "--judge", str(path), "--data", str(sample_data / benchmark)]
    argv += ["--media-root", str(sample_data / MEDIA[benchmark]), "--out", str(out), "--limit", "3"]
    argv += ["--decode-workers", "0", "--no-progress"]
    assert main(argv) == 0
    records = read_predictions(out / "predictions.jsonl", benchmark=benchmark).records
    assert len(records) == 3 and not any(r["no_judgment"] for r in records)
    assert all(isinstance(r["prediction"], str) for r in records)
    cached = [
        json.loads(line) for f in (out / "cache").glob("*.jsonl") for line in f.read_text().splitlines()
    ]
    extras = [c["verdict"]["diagnostics"]["extra"] for c in cached]
    assert extras and all(e["frames"] >= 4 and e["audio_in_video"] and e["audio_s"] > 0.5 for e in extras)
    assert np.isfinite(json.loads((out / "results.json").read_text()) is not None)


# Strategy S2 (EmoPrefer): describe the clip from frames + audio, then compare in text with the same thinker.


@pytest.fixture(scope="module")
def s2_judge(tiny_omni_thinker: Path):
    loaded = make_judge(config(tiny_omni_thinker, strategy="S2", max_description_tokens=8, max_new_tokens=5))
    loaded.load("cpu")
    return loaded


class _Calls:
    """Records the keyword arguments of every ``model.generate`` call (tensors copied), then generates."""

    def __init__(self, model) -> None:
        self.generate, self.calls = model.generate, []

    def __call__(self, **kwargs):
        self.calls.append({k: v.clone() if hasattr(v, "clone") else v for k, v in kwargs.items()})
        return self.generate(**kwargs)


def _generate_calls(judge, inputs, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list[dict]]:
    recorder = _Calls(judge.model)
    with monkeypatch.context() as patch:
        patch.setattr(judge.model, "generate", recorder)
        verdicts = judge.judge_batch(inputs)
    return verdicts, recorder.calls


MEDIA_KEYS = (
    "input_features",
    "feature_attention_mask",
    "pixel_values_videos",
    "video_grid_thw",
    "pixel_values",
)


def test_s2_describes_from_frames_and_audio_then_compares_in_text_only(
    s2_judge, judge, tiny_omni_thinker: Path, decoded, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    from mmjudge.benchmarks.emoprefer import parse_response, prompts

    x = decoded["emoprefer"][0]
    [verdict], calls = _generate_calls(s2_judge, [x], monkeypatch)
    assert len(calls) == 2 and not verdict.no_judgment
    describe, compare = calls
    # step one: the clip's frames and its audio, interleaved, with the description request
    assert describe["use_audio_in_video"] is True and describe["max_new_tokens"] == 8
    assert describe["do_sample"] is False and "pixel_values_videos" in describe
    tokenizer = s2_judge.processor.tokenizer
    assert prompts.DESCRIBE in tokenizer.decode(describe["input_ids"][0])
    _, s1_calls = _generate_calls(judge, [x], monkeypatch)  # S1 on the same clip: the same audio features
    assert torch.equal(describe["input_features"], s1_calls[0]["input_features"])
    assert torch.equal(describe["feature_attention_mask"], s1_calls[0]["feature_attention_mask"])
    silent = make_judge(config(tiny_omni_thinker, strategy="S2", audio=False, max_description_tokens=8))
    silent.model, silent.processor = s2_judge.model, s2_judge.processor
    _, silent_calls = _generate_calls(silent, [decode(x.query, silent.media_request(x.query))], monkeypatch)
    assert "input_features" not in silent_calls[0] and silent_calls[0]["use_audio_in_video"] is False
    # step two: text only, the compare prompt embedding step one's decoded description
    extra = verdict.diagnostics.extra
    assert not any(key in compare for key in MEDIA_KEYS)
    assert compare["use_audio_in_video"] is False and compare["max_new_tokens"] == 5
    expected = s2_judge.encode_text(prompts.compare(extra["description"], x.query.a1, x.query.a2))
    assert torch.equal(compare["input_ids"], expected["input_ids"])
    assert extra["description"] in tokenizer.decode(compare["input_ids"][0])
    assert "virtual human" in tokenizer.decode(compare["input_ids"][0])  # the same system prompt
    # the verdict: the raw answer, the official parser's label, the description, the strategy
    assert isinstance(verdict.value, str) and verdict.diagnostics.raw_text == verdict.value
    assert extra["parsed"] == parse_response(verdict.value) and extra["strategy"] == "S2"
    assert extra["audio_in_video"] is True and extra["audio_s"] > 0.5


def test_s2_description_is_what_step_one_generated(
    s2_judge, decoded, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The description in the diagnostics (and in step two's prompt) is step one's new tokens, decoded."""
    x = decoded["emoprefer"][1]
    outputs = []
    original = s2_judge.model.generate

    def generate(**kwargs):
        out = original(**kwargs)
        outputs.append(out[:, kwargs["input_ids"].shape[1] :])
        return out

    with monkeypatch.context() as patch:
        patch.setattr(s2_judge.model, "generate", generate)
        [verdict] = s2_judge.judge_batch([x])
    tokenizer = s2_judge.processor.tokenizer
    description, answer = (tokenizer.decode(o[0], skip_special_tokens=True) for o in outputs)
    assert verdict.diagnostics.extra["description"] == description and verdict.value == answer


def test_s2_batch_of_many_equals_batch_of_one(s2_judge, decoded) -> None:
    inputs = decoded["emoprefer"]
    many = s2_judge.judge_batch(inputs)
    for x, verdict in zip(inputs, many, strict=True):
        [one] = s2_judge.judge_batch([x])
        assert one.value == verdict.value
        assert one.diagnostics.extra["description"] == verdict.diagnostics.extra["description"]


def test_s2_is_refused_where_there_are_no_pairs(
    tiny_omni_thinker: Path, sample_data: Path, tmp_path: Path
) -> None:
    from mmjudge.errors import ConfigError
    from mmjudge.queries import PairQuery

    s2 = make_judge(config(tiny_omni_thinker, strategy="S2"))
    assert s2.check_benchmark("emoprefer") is PairQuery
    with pytest.raises(ConfigError, match=r"strategy S2 .*'emorealm'.*use strategy S1"):
        s2.check_benchmark("emorealm")
    assert make_judge(config(tiny_omni_thinker)).check_benchmark("emorealm") is not PairQuery
    from mmjudge.runner import evaluate_judge

    options = RunOptions(limit=1, media_root=sample_data / MEDIA["emorealm"], progress=False)
    with pytest.raises(ConfigError, match="strategy S2"):  # refused before anything is decoded or written
        evaluate_judge("emorealm", config(tiny_omni_thinker, strategy="S2"), sample_data / "emorealm",
                       tmp_path / "out", options)  # fmt: skip
    assert not (tmp_path / "out").exists()
    for bad in ({"strategy": "S3"}, {"max_description_tokens": 0}):
        with pytest.raises(ConfigError, match=next(iter(bad))):
            make_judge(config(tiny_omni_thinker, **bad))


def test_s2_end_to_end_on_the_emoprefer_sample(
    sample_data: Path, tiny_omni_thinker: Path, tmp_path: Path
) -> None:
    import yaml

    from mmjudge.cli import main
    from mmjudge.predictions import read_predictions

    path = tmp_path / "config.yaml"
    options = {"strategy": "S2", "max_description_tokens": 6, "max_new_tokens": 4}
    data = {"judge": "audio_visual", "model": str(tiny_omni_thinker), "local_files_only": True, "batch_size": 2,
            "options": options}  # fmt: skip
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = tmp_path / "out"
    argv = ["eval", "--benchmark", "emoprefer", "--judge", str(path), "--data", str(sample_data / "emoprefer"),
            "--media-root", str(sample_data / MEDIA["emoprefer"]), "--out", str(out), "--swap", "--limit", "2",
            "--decode-workers", "0", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    records = read_predictions(out / "predictions.jsonl", benchmark="emoprefer").records
    assert len(records) == 4 and not any(r["no_judgment"] for r in records)
    assert {r["order"] for r in records} == {"forward", "reversed"}
    cached = [
        json.loads(line) for f in (out / "cache").glob("*.jsonl") for line in f.read_text().splitlines()
    ]
    extras = [c["verdict"]["diagnostics"]["extra"] for c in cached]
    assert len(extras) == 4 and all(
        e["strategy"] == "S2" and isinstance(e["description"], str) for e in extras
    )
    assert all(e["audio_in_video"] and e["audio_s"] > 0.5 for e in extras)
    assert (out / "results.json").is_file()


def test_the_shipped_s2_config_refuses_emorealm() -> None:
    from mmjudge.errors import ConfigError
    from mmjudge.judges import load_config

    root = Path(__file__).resolve().parents[2]
    loaded = make_judge(load_config(root / "judges" / "audio_visual" / "omni-7b-s2.yaml"))
    with pytest.raises(ConfigError, match="strategy S2"):
        loaded.check_benchmark("emorealm")
    card = (root / "judges" / "audio_visual" / "README.md").read_text(encoding="utf-8")
    assert "omni-7b-s2.yaml" in card
