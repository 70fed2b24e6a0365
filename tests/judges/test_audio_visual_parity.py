"""``audio_visual``'s inputs equal qwen-omni-utils 0.0.9's ``process_mm_info`` + the Qwen2.5-Omni processor.

The references are PyPI ``qwen-omni-utils`` (its vision rules, its audio loader ``librosa.load(sr=16000)``)
and ``librosa`` itself. Video frames reach qwen-omni-utils through :mod:`reference_media`'s reader, so both
sides see the same decoded frames. qwen-omni-utils reads a video's own soundtrack through ``audioread``
and an FFmpeg binary, which this machine does not have: the audio reference is the ``.wav`` beside the
clip (as EmoReAlM and EmoPrefer ship it), loaded by qwen-omni-utils' audio element path.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
librosa = pytest.importorskip("librosa")
soundfile = pytest.importorskip("soundfile")
pytest.importorskip("qwen_omni_utils")

from qwen_omni_utils import process_mm_info  # noqa: E402
from qwen_omni_utils.v2_5.audio_process import process_audio_info  # noqa: E402
from reference_media import clip_info, frames_at, reference_reader, synthetic_path  # noqa: E402

from mmjudge.benchmarks.emorealm import EmoRealmQuestion  # noqa: E402
from mmjudge.benchmarks.emorealm.prompts import question_prompt  # noqa: E402
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge  # noqa: E402
from mmjudge.judges.audio_visual import OMNI_SYSTEM_PROMPT  # noqa: E402
from mmjudge.media.audio import load_audio  # noqa: E402
from mmjudge.runner.decode import decode_query, frame_indices  # noqa: E402

TOLERANCE = 1e-4
logging.getLogger("qwen_omni_utils").setLevel(logging.ERROR)


def _wav(path: Path, seconds: float, rate: int, channels: int, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * rate)) / rate
    tone = 0.3 * np.sin(2 * np.pi * 440 * t) + 0.05 * rng.standard_normal(len(t))
    data = np.stack([tone * (0.5 + 0.5 * c) for c in range(channels)], axis=1) if channels > 1 else tone
    soundfile.write(path, data.astype(np.float32), rate, subtype="PCM_16")
    return path


@pytest.mark.parametrize("rate", [8000, 16000, 22050, 44100, 48000])
@pytest.mark.parametrize("channels", [1, 2])
def test_audio_equals_librosa_load(tmp_path: Path, rate: int, channels: int) -> None:
    path = _wav(tmp_path / "a.wav", 2.3, rate, channels)
    expected, _ = librosa.load(path, sr=16000)
    (theirs,) = process_audio_info(
        [{"role": "user", "content": [{"type": "audio", "audio": str(path)}]}], False
    )
    np.testing.assert_array_equal(theirs, expected)  # qwen-omni-utils' loader is librosa.load
    ours = load_audio(path, 16000, resampler="soxr_hq")
    assert ours.dtype == np.float32 and ours.shape == expected.shape
    assert float(np.abs(ours - expected).max()) <= TOLERANCE


@pytest.fixture(scope="module")
def judge(tiny_omni_thinker: Path) -> Any:
    config = JudgeConfig(
        judge="audio_visual", model=str(tiny_omni_thinker), local_files_only=True, dtype="float32",
        options={"max_new_tokens": 2},
    )  # fmt: skip
    loaded = make_judge(config)
    loaded.load("cpu")
    return loaded


def _item(video: str, audio: Path) -> EmoRealmQuestion:
    return EmoRealmQuestion(
        "q1",
        Path(video),
        audio,
        "What is the person feeling?",
        ("(A) happy", "(B) sad"),
        "reasoning_basic_audio",
    )


def _reference(judge: Any, item: EmoRealmQuestion, video: str, audio: Path, interleaved: bool) -> Any:
    """qwen-omni-utils + the processor, as Qwen2.5-Omni's model card calls them."""
    text = {"type": "text", "text": question_prompt(item.question, item.choices)}  # EmoReAlM's official prompt
    parts = [{"type": "video", "video": video}, text] if interleaved else [
        {"type": "audio", "audio": str(audio)}, {"type": "video", "video": video}, text
    ]  # fmt: skip
    conversation = [
        {"role": "system", "content": [{"type": "text", "text": OMNI_SYSTEM_PROMPT}]},
        {"role": "user", "content": parts},
    ]
    rendered = judge.processor.apply_chat_template(conversation, add_generation_prompt=True, tokenize=False)
    with reference_reader():
        audios, images, videos, kwargs = process_mm_info(
            conversation, use_audio_in_video=False, return_video_kwargs=True
        )
    if interleaved:  # its use_audio_in_video reads the mp4's own track through ffmpeg: the wav instead
        (audios,) = [
            process_audio_info([{"role": "user", "content": [{"type": "audio", "audio": str(audio)}]}], False)
        ]
    call: dict[str, Any] = {
        "text": [rendered], "audio": audios, "images": images, "videos": videos, "fps": kwargs["fps"][0],
        "return_tensors": "pt", "padding": True,
    }  # fmt: skip
    if interleaved:  # transformers 5's spelling of the model card's use_audio_in_video=True: video 0's audio
        call.update(load_audio_from_video=True, audio_from_video_indices=[0])
    return rendered, judge.processor(**call)


def _assert_same(ours: dict[str, Any], reference: Any) -> None:
    for key in reference:
        a, b = ours[key], reference[key]
        if not hasattr(b, "shape"):
            assert [float(x) for x in a] == pytest.approx([float(x) for x in b], abs=1e-9), key
            continue
        assert tuple(a.shape) == tuple(b.shape), key
        if b.dtype.is_floating_point:
            assert float((a.float() - b.float()).abs().max()) <= TOLERANCE, key
        else:
            assert torch.equal(a, b), key


CLIPS = [(48, 32, 25, 24.0), (480, 832, 81, 16.0), (608, 1080, 75, 25.0), (240, 320, 95, 30.0)]


@pytest.mark.parametrize("clip", CLIPS, ids=lambda c: "x".join(map(str, c)))
@pytest.mark.parametrize("interleaved", [True, False], ids=["audio-in-video", "separate-audio"])
def test_inputs_equal_process_mm_info_and_the_processor(
    judge: Any, tmp_path: Path, clip: tuple[int, int, int, float], interleaved: bool
) -> None:
    video = synthetic_path(*clip)
    total, fps, height, width = clip_info(video)
    audio = _wav(tmp_path / "a.wav", total / fps, 44100, 2)
    item = _item(video, audio)
    request = judge.media_request(item)
    indices = frame_indices(total, fps, request)
    judge_input = JudgeInput(
        item, frames_at(video, indices), tuple(indices), fps,
        load_audio(audio, 16000, resampler=request.audio_resampler), total_frames=total, frame_size=(height, width),
    )  # fmt: skip
    judge.options = type(judge.options)(**{**judge.options.__dict__, "use_audio_in_video": interleaved})
    ours, was_interleaved = judge.encode(judge_input)
    assert was_interleaved is interleaved
    _rendered, reference = _reference(judge, item, video, audio, interleaved)
    assert judge.processor.tokenizer.decode(ours["input_ids"][0]) == judge.processor.tokenizer.decode(
        reference["input_ids"][0]
    )
    _assert_same(ours, reference)


def test_a_real_clip_through_the_runner_decode(judge: Any, tmp_path: Path) -> None:
    """The runner's decode (PyAV frames, the librosa-equivalent audio) on an mp4 and its wav."""
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip

    clip = write_video(tmp_path / "c.mp4", moving_texture_clip(50, 64, 96, seed=4), fps=25)
    audio = _wav(tmp_path / "c.wav", 2.0, 48000, 1)
    item = _item(str(clip), audio)
    judge.options = type(judge.options)(**{**judge.options.__dict__, "use_audio_in_video": True})
    decoded = decode_query(item, [judge.media_request(item)])
    assert decoded.error is None, decoded.error
    ours, _ = judge.encode(decoded.input(0))
    _, reference = _reference(judge, item, str(clip), audio, True)
    _assert_same(ours, reference)


def test_s2_answer_equals_a_plain_two_step_reference(tiny_omni_thinker: Path, tmp_path: Path) -> None:
    """S2 = ``process_mm_info`` + ``processor(...)`` + greedy ``model.generate`` for the description (the
    model card's video-with-audio call), then ``generate`` on the chat-templated text-only compare prompt."""
    from mmjudge.benchmarks.emoprefer import EmoPreferPair

    config = JudgeConfig(
        judge="audio_visual", model=str(tiny_omni_thinker), local_files_only=True, dtype="float32",
        options={"strategy": "S2", "max_description_tokens": 12, "max_new_tokens": 6},
    )  # fmt: skip
    judge = make_judge(config)
    judge.load("cpu")
    video = synthetic_path(*CLIPS[0])
    total, fps, height, width = clip_info(video)
    audio = _wav(tmp_path / "a.wav", total / fps, 44100, 2)
    pair = EmoPreferPair("n1", "n1", Path(video), audio, "calm and content", "furious, shouting", "forward")
    request = judge.media_request(pair)
    indices = frame_indices(total, fps, request)
    judge_input = JudgeInput(
        pair, frames_at(video, indices), tuple(indices), fps,
        load_audio(audio, 16000, resampler=request.audio_resampler), total_frames=total, frame_size=(height, width),
    )  # fmt: skip
    [verdict] = judge.judge_batch([judge_input])

    model, processor = judge.model, judge.processor
    system = {"role": "system", "content": [{"type": "text", "text": OMNI_SYSTEM_PROMPT}]}

    def generate(inputs: Any, max_new_tokens: int, use_audio_in_video: bool) -> str:
        with torch.inference_mode():
            out = model.generate(**inputs, use_audio_in_video=use_audio_in_video, do_sample=False,
                                 max_new_tokens=max_new_tokens)  # fmt: skip
        return str(processor.batch_decode(out[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)[0])

    describe = [system, {"role": "user", "content": [
        {"type": "video", "video": video}, {"type": "text", "text": pair.describe_prompt()}
    ]}]  # fmt: skip
    with reference_reader():
        _, images, videos, kwargs = process_mm_info(describe, use_audio_in_video=False, return_video_kwargs=True)
    (audios,) = [process_audio_info([{"role": "user", "content": [{"type": "audio", "audio": str(audio)}]}], False)]
    inputs = processor(
        text=[processor.apply_chat_template(describe, add_generation_prompt=True, tokenize=False)], audio=audios,
        images=images, videos=videos, fps=kwargs["fps"][0], return_tensors="pt", padding=True,
        load_audio_from_video=True, audio_from_video_indices=[0],
    )  # fmt: skip
    description = generate(inputs, 12, use_audio_in_video=True)
    compare = [system, {"role": "user", "content": [{"type": "text", "text": pair.compare_prompt(description)}]}]
    text = processor.apply_chat_template(compare, add_generation_prompt=True, tokenize=False)
    answer = generate(processor(text=[text], return_tensors="pt", padding=True), 6, use_audio_in_video=False)
    assert verdict.diagnostics.extra["description"] == description and description
    assert verdict.value == answer and verdict.diagnostics.raw_text == answer
