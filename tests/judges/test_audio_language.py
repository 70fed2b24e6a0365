"""``audio_language``: Qwen2-Audio judging EmoPrefer (S1-S4) and EmoReAlM by ear, with a tiny random Qwen2-Audio.

The reference is Qwen/Qwen2-Audio-7B-Instruct's model card: ``librosa.load(path, sr=processor.feature_extractor
.sampling_rate)``, ``processor.apply_chat_template`` of a conversation whose audio part carries ``audio_url``,
``processor(text=..., audio=[...], return_tensors="pt", padding=True)``, greedy ``model.generate``. The tiny
checkpoint (``mmjudge.judges.tiny._audio.build_qwen2_audio``) has the released feature extractor settings and the
released chat template. Then the acceptance rule (a judge that hears, on a benchmark whose clips carry sound),
the per-item failure of a clip without sound, and runner runs on the EmoPrefer and EmoReAlM samples.
Random weights prove the plumbing, not the scores.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
librosa = pytest.importorskip("librosa")
soundfile = pytest.importorskip("soundfile")

from mmjudge.benchmarks.emoprefer import EmoPreferPair  # noqa: E402
from mmjudge.benchmarks.emorealm import EmoRealmQuestion  # noqa: E402
from mmjudge.errors import ConfigError  # noqa: E402
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge  # noqa: E402
from mmjudge.judges.tiny._audio import build_qwen2_audio  # noqa: E402
from mmjudge.media.encode import write_video, write_wav  # noqa: E402
from mmjudge.media.synthetic import moving_texture_clip, tone  # noqa: E402
from mmjudge.predictions import read_predictions  # noqa: E402
from mmjudge.runner import RunOptions, evaluate_judge  # noqa: E402
from mmjudge.runner.decode import decode_query  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TOLERANCE = 1e-4
MEDIA = {"emorealm": "raw/emorealm/DFEW", "emoprefer": "raw/emoprefer/MER2025"}


@pytest.fixture(scope="module")
def tiny_audio(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_qwen2_audio(tmp_path_factory.mktemp("tiny-qwen2-audio"), seed=0)


@pytest.fixture(scope="module")
def tiny_text_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Qwen2 causal LM (the S3/S4 text model) with the tiny tokenizer and Qwen chat template."""
    from tiny_models import PAD_TOKEN, QWEN_CHAT_TEMPLATE, build_tokenizer
    from transformers import Qwen2Config, Qwen2ForCausalLM

    tokenizer = build_tokenizer()
    tokenizer.chat_template = QWEN_CHAT_TEMPLATE
    ids = tokenizer.convert_tokens_to_ids
    config = Qwen2Config(vocab_size=512, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=4096,
                         pad_token_id=ids(PAD_TOKEN), eos_token_id=ids("<|im_end|>"))  # fmt: skip
    torch.manual_seed(1)
    out = tmp_path_factory.mktemp("tiny-text-lm")
    Qwen2ForCausalLM(config).eval().save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def _config(model: Path, strategy: str = "S1", text_lm: Path | None = None, **extra: Any) -> JudgeConfig:
    options: dict[str, Any] = {"strategy": strategy, "max_answer_tokens": 5, "max_description_tokens": 6,
                               "max_reasoning_tokens": 7}  # fmt: skip
    if text_lm is not None:
        options["text_model"] = str(text_lm)
    return JudgeConfig(judge="audio_language", model=str(model), local_files_only=True, dtype="float32",
                       options=options, **extra)  # fmt: skip


@pytest.fixture(scope="module")
def judge(tiny_audio: Path) -> Any:
    loaded = make_judge(_config(tiny_audio))
    loaded.check_model()
    loaded.load("cpu")
    return loaded


@pytest.fixture(scope="module")
def reference(tiny_audio: Path) -> tuple[Any, Any]:
    """The model card's objects, loaded on their own: ``AutoProcessor`` and ``Qwen2AudioForConditionalGeneration``."""
    from transformers import AutoProcessor, Qwen2AudioForConditionalGeneration

    processor = AutoProcessor.from_pretrained(tiny_audio, local_files_only=True)
    model = Qwen2AudioForConditionalGeneration.from_pretrained(tiny_audio, local_files_only=True).eval()
    return processor, model


def _wav(path: Path, seconds: float, rate: int, channels: int, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * rate)) / rate
    sound = 0.3 * np.sin(2 * np.pi * 330 * t) + 0.05 * rng.standard_normal(len(t))
    data = np.stack([sound * (0.5 + 0.5 * c) for c in range(channels)], axis=1) if channels > 1 else sound
    soundfile.write(path, data.astype(np.float32), rate, subtype="PCM_16")
    return path


def _card_inputs(processor: Any, path: Path, text: str) -> dict[str, Any]:
    """Qwen2-Audio-7B-Instruct's model card, with the local file in place of the URL."""
    conversation = [
        {"role": "system", "content": "You are a helpful assistant."},
        {
            "role": "user",
            "content": [{"type": "audio", "audio_url": str(path)}, {"type": "text", "text": text}],
        },
    ]
    prompt = processor.apply_chat_template(conversation, add_generation_prompt=True, tokenize=False)
    audios = [librosa.load(path, sr=processor.feature_extractor.sampling_rate)[0]]
    return dict(processor(text=prompt, audio=audios, return_tensors="pt", padding=True))


def _question(path: Path) -> EmoRealmQuestion:
    return EmoRealmQuestion("q1", path.with_suffix(".mp4"), path, "Which emotion does the voice express?",
                            ("(A) happy", "(B) sad", "(C) angry"), "reasoning_basic_audio")  # fmt: skip


def _pair(item: str, audio: Path | None, video: Path | None = None) -> EmoPreferPair:
    return EmoPreferPair(item, item, video, audio, "calm and content", "furious", "forward")


def _decoded(judge: Any, query: Any) -> JudgeInput:
    decoded = decode_query(query, [judge.media_request(query)])
    assert decoded.error is None, decoded.error
    return decoded.input(0)


@pytest.mark.parametrize(("rate", "channels"), [(16000, 1), (44100, 2), (22050, 1), (48000, 2)])
def test_features_and_ids_equal_the_model_cards_processor_call(
    judge: Any, reference: tuple[Any, Any], tmp_path: Path, rate: int, channels: int
) -> None:
    processor, _ = reference
    path = _wav(tmp_path / "voice.wav", 3.7, rate, channels)
    query = _question(path)
    x = _decoded(judge, query)
    assert judge.media_request(query).audio_sample_rate == processor.feature_extractor.sampling_rate == 16000
    ours = judge._encode(x, judge._first_prompt(query))
    expected = _card_inputs(processor, path, query.free_prompt())
    assert (
        set(expected)
        == set(ours)
        == {"input_ids", "attention_mask", "input_features", "feature_attention_mask"}
    )
    assert torch.equal(ours["input_ids"], expected["input_ids"])
    assert torch.equal(ours["feature_attention_mask"], expected["feature_attention_mask"])
    difference = float((ours["input_features"] - expected["input_features"]).abs().max())
    print(f"max |input_features - card| at {rate} Hz x{channels}: {difference:.3g}")
    assert difference <= TOLERANCE, difference


def test_input_ids_are_the_released_chat_template_with_one_audio_part(judge: Any) -> None:
    processor = judge.vlm.encoder
    rendered = processor.apply_chat_template(
        [
            {
                "role": "user",
                "content": [{"type": "audio", "audio_url": "a.wav"}, {"type": "text", "text": "Hi?"}],
            }
        ],
        add_generation_prompt=True,
        tokenize=False,
    )
    assert rendered == (
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n"
        "Audio 1: <|audio_bos|><|AUDIO|><|audio_eos|>\nHi?<|im_end|>\n<|im_start|>assistant\n"
    )
    audio = np.zeros(16000 * 2, np.float32)
    encoded = judge._encode(JudgeInput(_question(Path("a.wav")), audio=audio), "Hi?")
    ids = encoded["input_ids"][0].tolist()
    audio_id = processor.tokenizer.convert_tokens_to_ids("<|AUDIO|>")
    # 2 s: 200 mel frames -> (200 - 1) // 2 + 1 = 100 -> (100 - 2) // 2 + 1 = 50 audio tokens
    assert ids.count(audio_id) == 50


@pytest.mark.parametrize("benchmark", ["emorealm", "emoprefer"])
def test_greedy_answer_equals_plain_generate_on_the_cards_inputs(
    judge: Any, reference: tuple[Any, Any], tmp_path: Path, benchmark: str
) -> None:
    processor, model = reference
    path = _wav(tmp_path / "voice.wav", 2.5, 44100, 2, seed=3)
    query = _question(path) if benchmark == "emorealm" else _pair("p1", path)
    [verdict] = judge.judge_batch([_decoded(judge, query)])
    inputs = _card_inputs(processor, path, query.free_prompt())
    with torch.inference_mode():
        out = model.generate(**inputs, max_new_tokens=5, do_sample=False)
    expected = processor.batch_decode(out[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)[0]
    assert not verdict.no_judgment and verdict.value == expected
    assert verdict.diagnostics.raw_text == expected
    assert verdict.diagnostics.extra["audio_s"] == pytest.approx(2.5, abs=1e-3)


def test_s4_describes_the_audio_then_the_text_llm_reasons_and_extracts(
    tiny_audio: Path, tiny_text_lm: Path, reference: tuple[Any, Any], tmp_path: Path
) -> None:
    from mmjudge.benchmarks.emoprefer import prompts

    processor, model = reference
    s4 = make_judge(_config(tiny_audio, "S4", tiny_text_lm))
    s4.load("cpu")
    path = _wav(tmp_path / "voice.wav", 2.0, 16000, 1, seed=5)
    query = _pair("p1", path)
    asked: list[tuple[list[str], int]] = []
    ask = s4.text_lm.ask
    s4.text_lm.ask = lambda texts, budget: asked.append((list(texts), budget)) or ask(texts, budget)
    [verdict] = s4.judge_batch([_decoded(s4, query)])
    extra = verdict.diagnostics.extra
    inputs = _card_inputs(processor, path, query.describe_prompt())
    with torch.inference_mode():
        out = model.generate(**inputs, max_new_tokens=6, do_sample=False)
    description = processor.batch_decode(out[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)[0]
    assert extra["strategy"] == "S4" and extra["description"] == description
    assert asked == [([prompts.compare(description, query.a1, query.a2, reason=True)], 7),
                     ([prompts.extract(extra["reasoning"])], 5)]  # fmt: skip
    assert isinstance(verdict.value, str) and not verdict.no_judgment


@pytest.mark.parametrize("strategy", ["S1", "S2"])
def test_batch_of_many_equals_batch_of_one(tiny_audio: Path, tmp_path: Path, strategy: str) -> None:
    judge = make_judge(_config(tiny_audio, strategy))
    judge.load("cpu")
    inputs = [_decoded(judge, _pair(f"p{k}", _wav(tmp_path / f"{k}.wav", 1.0 + k, 16000, 1, seed=k)))
              for k in range(3)]  # fmt: skip
    many = judge.judge_batch(inputs)
    for x, verdict in zip(inputs, many, strict=True):
        [one] = judge.judge_batch([x])
        assert one.value == verdict.value and one.diagnostics.extra == verdict.diagnostics.extra


def test_accepted_where_the_clips_carry_sound_and_refused_where_it_cannot_work(
    judge: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mmjudge import benchmarks
    from mmjudge.judges import ChoiceQuery, Judge

    assert sorted(judge.benchmarks) == ["emoprefer", "emorealm"]
    assert judge.check_benchmark("emoprefer").__name__ == "PairQuery"
    with pytest.raises(ConfigError, match=r"needs \['video'\] \(its clips carry no sound to judge by ear\)"):
        judge.check_benchmark("isovrbench")
    with pytest.raises(ConfigError, match=r"reads \['audio'\], and 'mist' .* needs \['image'\]"):
        judge.check_benchmark("mist")

    class Deaf(Judge):  # reads nothing and is not a blind floor: never accepted
        answers = frozenset({ChoiceQuery})

        def judge_batch(self, inputs: Any) -> list[Any]:
            raise AssertionError

    assert Deaf.query_kind("emoprefer") is None and Deaf.query_kind("emorealm") is None
    silent = benchmarks.get_benchmark("emorealm")
    silent = dataclasses.replace(silent, records=dataclasses.replace(silent.records, sound=False))
    import mmjudge.judges._base as judge_base

    monkeypatch.setattr(judge_base, "get_benchmark", lambda _: silent)  # where the judge base asks
    assert type(judge).query_kind("emorealm") is None  # the same benchmark without sound: refused
    with pytest.raises(ConfigError, match="its clips carry no sound"):
        judge.check_benchmark("emorealm")


def test_a_vision_model_is_refused_and_qwen2_audio_is_refused_by_the_vision_judges(
    tiny_audio: Path, tiny_qwen2_vl: Path
) -> None:
    with pytest.raises(ConfigError, match=r"audio-language model .* is Qwen2-VL"):
        make_judge(_config(tiny_qwen2_vl)).check_model()
    for name in ("pairwise_describe", "vlm_digit", "label_choice"):
        config = JudgeConfig(judge=name, model=str(tiny_audio), local_files_only=True)
        with pytest.raises(ConfigError, match="judge it with audio_language"):
            make_judge(config).check_model()
    with pytest.raises(ConfigError, match=r"decodes no frames .*\['frames'\]"):
        make_judge(_config(tiny_audio, frames=8)).check_model()
    with pytest.raises(ConfigError, match=r"audio_language strategy S4 .*text_model"):
        make_judge(_config(tiny_audio, "S4"))


def test_a_clip_without_sound_fails_alone_never_judged_blind(judge: Any, tmp_path: Path) -> None:
    voiced = _pair("voiced", _wav(tmp_path / "v.wav", 1.5, 16000, 1))
    frames = moving_texture_clip(8, 64, 64, seed=1)
    silent_clip = write_video(tmp_path / "silent.mp4", frames, fps=8.0)  # no audio track, no wav beside it
    decoded = decode_query(_pair("silent", None, silent_clip), [judge.media_request(voiced)])
    assert (
        decoded.error is not None and "no audio stream" in decoded.error
    )  # the runner records it as errored
    # decoded without audio (a query with neither an audio file nor a clip): no_judgment, its reason, no answer
    inputs = [_decoded(judge, voiced), JudgeInput(_pair("none", None), frames=frames)]
    ok, missing = judge.judge_batch(inputs)
    assert not ok.no_judgment and missing.no_judgment and missing.value is None
    assert "has no audio" in str(missing.error)
    assert judge.model_inputs(inputs[1]) is None


def test_the_runner_judges_the_emoprefer_and_emorealm_samples_with_no_failed_item(
    sample_data: Path, tiny_audio: Path, tiny_text_lm: Path, tmp_path: Path
) -> None:
    runs = {"emorealm": _config(tiny_audio, batch_size=4), "emoprefer": _config(tiny_audio, "S4", tiny_text_lm,
                                                                                  batch_size=4)}  # fmt: skip
    for benchmark, config in runs.items():
        options = RunOptions(limit=3, swap=benchmark == "emoprefer", media_root=sample_data / MEDIA[benchmark],
                             progress=False, decode_workers=0)  # fmt: skip
        [output] = evaluate_judge(benchmark, config, sample_data / benchmark, tmp_path / benchmark, options)
        records = read_predictions(output.predictions, benchmark=benchmark).records
        assert records and not any(r["no_judgment"] for r in records), benchmark
        assert not any(r.get("errored") for r in records), benchmark
        assert output.scores and output.results.is_file()


def test_a_sample_clip_whose_wav_is_gone_is_judged_from_the_clips_own_track(
    judge: Any, tmp_path: Path
) -> None:
    frames = moving_texture_clip(16, 64, 64, seed=2)
    clip = write_video(tmp_path / "c.mp4", frames, fps=8.0, audio=tone(2.0, 16000, seed=1))
    x = _decoded(judge, _pair("c", None, clip))
    assert x.audio is not None and abs(len(x.audio) / 16000 - 2.0) < 0.05 and x.frames is None
    [verdict] = judge.judge_batch([x])
    assert not verdict.no_judgment


def test_write_wav_helper_round_trips_for_the_sample_rate_the_judge_asks(judge: Any, tmp_path: Path) -> None:
    path = write_wav(tmp_path / "x.wav", np.full(8000, 0.25, np.float32), 8000)
    x = _decoded(judge, _pair("x", path))
    assert x.audio is not None and len(x.audio) == 16000  # resampled to the feature extractor's 16 kHz
