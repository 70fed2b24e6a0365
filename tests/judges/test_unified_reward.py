"""unified_reward: UnifiedReward-2.0 pointwise, checked against the official rules it states.

The reference throughout is CodeGoat24/UnifiedReward@ff6f520: ``point_score_APS_video_generation.py`` (the
prompt, ``read_video_frames``, the example reply) and ``vllm_qwen/vllm_request.py`` (one user turn, the images
as JPEG q95 first, then the text; no system message). The repository ships no parser, so the parser tests
state the strict format the judge reads. Tiny random checkpoints prove the plumbing, not the scores.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery, make_judge
from mmjudge.judges.unified_reward import APS_PROMPT, parse_scores
from mmjudge.media.video import int_scaled_indices, sample_indices

OFFICIAL_APS_TEXT = """You are presented with a generated video and its associated text caption. Your task is to analyze the video across multiple dimensions in relation to the caption. Specifically:
Provide overall assessments for the video along the following axes (each rated from 1 to 5):
- Alignment Score: How well the video matches the caption in terms of content.
- Physics Score: How well the gravity, movements, collisions, and interactions make physical sense.
- Style Score: How visually appealing the video looks, regardless of caption accuracy.

Output your evaluation using the format below:

Alignment Score (1-5): X
Physics Score (1-5): Y
Style Score (1-5): Z

Your task is provided as follows:
Text Caption: [CAPTION]"""
"""APS lines 60-73 transcribed by hand (the f-string's ``{prompt}`` written as ``CAPTION``)."""

EXAMPLE_REPLY = "Alignment Score (1-5): 2.4036\nPhysics Score (1-5): 3.0987\nStyle Score (1-5): 3.3889"
"""The example output at the end of the APS script."""


def official_read_video_frames(total: int, num_frames: int) -> list[int]:
    """The APS script's ``read_video_frames`` rule, on frame positions instead of a capture: read the clip
    sequentially, keep a frame whose position is among the selected ones, stop after ``num_frames``."""
    selected = [int(i * total / num_frames) for i in range(num_frames)]
    kept: list[int] = []
    for current in range(total):
        if current in selected:
            kept.append(current)
        if len(kept) >= num_frames:
            break
    return kept


# --- the prompt ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("caption", ["a dog runs in the city", "braces {x} and [brackets] stay", ""])
def test_prompt_is_the_official_aps_text_with_the_caption_in_square_brackets(caption: str) -> None:
    assert APS_PROMPT.replace("{prompt}", caption) == OFFICIAL_APS_TEXT.replace("CAPTION", caption)
    assert APS_PROMPT.count("{prompt}") == 1 and APS_PROMPT.endswith("Text Caption: [{prompt}]")


# --- frames ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "k", "expected"),
    [
        (81, 8, list(range(0, 80, 10))),
        (81, 16, list(range(0, 80, 5))),
        (7, 8, list(range(7))),  # int(i*7/8) repeats 0: the sequential reader keeps 7 frames
        (1, 8, [0]),
        (45, 16, [0, 2, 5, 8, 11, 14, 16, 19, 22, 25, 28, 30, 33, 36, 39, 42]),
    ],
)
def test_frame_indices_follow_the_official_sequential_reader(total: int, k: int, expected: list[int]) -> None:
    assert official_read_video_frames(total, k) == expected
    assert int_scaled_indices(total, k) == expected == sample_indices(total, 16.0, num=k, policy="int_scaled")


def test_frame_indices_equal_the_official_rule_everywhere() -> None:
    for total in range(1, 200):
        for k in (1, 2, 3, 4, 8, 16, 32):
            assert int_scaled_indices(total, k) == official_read_video_frames(total, k), (total, k)


@pytest.mark.parametrize(("total", "k"), [(81, 8), (81, 16), (7, 8)])
def test_the_runner_decodes_the_official_frames_at_full_size(total: int, k: int, tmp_path: Path) -> None:
    from mmjudge.judges.unified_reward import UnifiedRewardJudge
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip
    from mmjudge.runner.decode import decode_query

    clip = write_video(tmp_path / "c.mp4", moving_texture_clip(total, 48, 80, seed=1), fps=16)
    judge = UnifiedRewardJudge(JudgeConfig(judge="unified_reward", frames=k))
    query = ScoreQuery("c", clip, "a cat")
    x = decode_query(query, [judge.media_request(query)]).input(0)
    assert list(x.frame_indices) == official_read_video_frames(total, k)
    assert x.frames is not None and x.frames.shape == (len(x.frame_indices), 48, 80, 3)


def test_default_is_eight_frames_and_a_rate_is_refused() -> None:
    from mmjudge.judges.unified_reward import UnifiedRewardJudge

    assert UnifiedRewardJudge(JudgeConfig(judge="unified_reward")).media_request().num_frames == 8
    with pytest.raises(ConfigError, match="fixed number of frames"):
        UnifiedRewardJudge(JudgeConfig(judge="unified_reward", fps=2.0))
    with pytest.raises(ConfigError, match="must contain"):
        UnifiedRewardJudge(JudgeConfig(judge="unified_reward", prompt_template="Rate it."))
    with pytest.raises(ConfigError, match="jpeg_quality"):
        UnifiedRewardJudge(JudgeConfig(judge="unified_reward", options={"jpeg_quality": 0}))


# --- the readout -----------------------------------------------------------------------------------------


def test_parser_reads_the_official_example_reply() -> None:
    assert parse_scores(EXAMPLE_REPLY) == (2.4036, 3.0987, 3.3889)
    assert parse_scores("\n" + EXAMPLE_REPLY + "\n\n") == (2.4036, 3.0987, 3.3889)
    assert parse_scores(EXAMPLE_REPLY.replace("\n", "\r\n")) == (2.4036, 3.0987, 3.3889)
    assert parse_scores("Alignment Score (1-5): 1\nPhysics Score (1-5): 5\nStyle Score (1-5): 3.5") == (
        1,
        5,
        3.5,
    )


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "garbage",
        "Alignment Score (1-5): 2.4036\nStyle Score (1-5): 3.3889",  # physics missing
        "Alignment Score (1-5): 2.4036\nPhysics Score (1-5): 3.0987",  # style missing
        "Sure! " + EXAMPLE_REPLY,  # text before
        EXAMPLE_REPLY + "\nThe video is good.",  # text after
        EXAMPLE_REPLY.lower(),  # case
        EXAMPLE_REPLY.replace("Physics", "PHYSICS"),
        EXAMPLE_REPLY.replace("(1-5)", "(1-10)"),
        "Physics Score (1-5): 3.0987\nAlignment Score (1-5): 2.4036\nStyle Score (1-5): 3.3889",  # order
        EXAMPLE_REPLY.replace("\n", "\n\n"),  # blank lines between
        EXAMPLE_REPLY.replace("2.4036", "X"),  # the placeholder echoed
        EXAMPLE_REPLY.replace("2.4036", "-2.4"),
        EXAMPLE_REPLY.replace("2.4036", "2.4.1"),
        EXAMPLE_REPLY.replace("2.4036", "7.5"),  # out of range
        EXAMPLE_REPLY.replace("2.4036", "0"),
        EXAMPLE_REPLY.replace("2.4036", "2.4036 / 5"),
        EXAMPLE_REPLY + "\n" + EXAMPLE_REPLY,  # twice
    ],
)
def test_anything_but_the_format_is_no_scores(reply: str) -> None:
    assert parse_scores(reply) is None


def test_an_unreadable_reply_is_a_no_judgment_verdict_not_an_error_and_never_zero() -> None:
    from mmjudge.judges.unified_reward import UnifiedRewardJudge

    judge = UnifiedRewardJudge(JudgeConfig(judge="unified_reward"))
    x = JudgeInput(
        ScoreQuery("c1", Path("c1.mp4"), "p"), frames=np.zeros((2, 4, 4, 3), np.uint8), frame_indices=(0, 5)
    )
    encoded = {"input_ids": np.zeros((1, 12))}
    bad = judge.verdict(x, "Alignment Score (1-5): 2", encoded)
    assert bad.no_judgment and not bad.errored and bad.value is None and "Alignment" in (bad.error or "")
    assert bad.diagnostics.raw_text == "Alignment Score (1-5): 2" and bad.diagnostics.extra["scores"] is None
    good = judge.verdict(x, EXAMPLE_REPLY, encoded)
    assert not good.no_judgment
    assert good.value == pytest.approx({"TA": 2.4036, "MQ": 3.0987, "VQ": 3.3889, "overall": 8.8912 / 3})
    assert good.diagnostics.extra["scores"] == {"alignment": 2.4036, "physics": 3.0987, "style": 3.3889}
    assert good.diagnostics.extra["frame_indices"] == [0, 5] and good.diagnostics.extra["tokens"] == 12


# --- the model input, on tiny random checkpoints ----------------------------------------------------------

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from PIL import Image  # noqa: E402

IMAGE_PART = "<|vision_start|><|image_pad|><|vision_end|>"


def _clip(i: int, frames: int = 4, size: tuple[int, int] = (48, 80)) -> JudgeInput:
    # each frame a distinct flat colour plus noise, so frame order shows in the pixels
    rng = np.random.default_rng(i)
    pixels = (
        rng.integers(0, 60, (frames, *size, 3), dtype=np.uint8)
        + (np.arange(frames) * 45)[:, None, None, None]
    )
    item = ScoreQuery(f"c{i}", Path(f"c{i}.mp4"), "a dog runs in the city" + " at night" * i)
    return JudgeInput(
        query=item, frames=pixels.astype(np.uint8), frame_indices=tuple(range(frames)), fps=16.0
    )


def _judge(model: Path, **options: Any) -> Any:
    config = JudgeConfig(judge="unified_reward", model=str(model), local_files_only=True, dtype="float32",
                         options={"max_new_tokens": 12, **options})  # fmt: skip
    judge = make_judge(config)
    judge.check_model()
    judge.load("cpu")
    return judge


def _official_images(frames: np.ndarray) -> list[Any]:
    """cv2.imwrite (JPEG, OpenCV's default quality 95; emulated with Pillow), then the client's PIL re-encode at
    quality 95, then the server's decode to RGB."""
    images = []
    for frame in frames:
        image = Image.fromarray(frame)
        for _ in range(2):
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, format="JPEG", quality=95)
            image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
        images.append(image)
    return images


def test_images_are_the_frames_after_two_jpeg_q95_round_trips(tiny_qwen3_vl: Path) -> None:
    judge = _judge(tiny_qwen3_vl)
    frames = _clip(0).frames
    assert frames is not None
    ours = judge.images(frames)
    for got, expected in zip(ours, _official_images(frames), strict=True):
        assert np.array_equal(np.asarray(got), np.asarray(expected))
    raw = _judge(tiny_qwen3_vl, jpeg_quality=None).images(frames)
    assert all(np.array_equal(np.asarray(r), f) for r, f in zip(raw, frames, strict=True))
    assert not np.array_equal(np.asarray(ours[0]), frames[0])  # JPEG changes the pixels


@pytest.mark.parametrize("family", ["qwen3_vl", "qwen3_5"])
def test_rendering_has_k_images_before_the_text_in_one_user_turn(
    family: str, tiny_qwen3_vl: Path, tiny_family: Callable[[str], Path]
) -> None:
    model = tiny_qwen3_vl if family == "qwen3_vl" else tiny_family("qwen3_5")
    judge = _judge(model)
    k = 5
    messages = judge.messages("a red cat", k)
    assert [m["role"] for m in messages] == ["user"]
    assert messages[0]["content"] == [{"type": "image"}] * k + [
        {"type": "text", "text": OFFICIAL_APS_TEXT.replace("CAPTION", "a red cat")}
    ]
    rendered = judge.prompt_text("a red cat", k)
    user = rendered.index("<|im_start|>user\n") + len("<|im_start|>user\n")
    assert rendered[user:].startswith(
        IMAGE_PART * k + OFFICIAL_APS_TEXT.replace("CAPTION", "a red cat") + "<|im_end|>"
    )
    assert rendered.count("<|image_pad|>") == k and rendered.count("<|im_start|>user") == 1
    # no system turn but the template's own default (the tiny Qwen3-VL template keeps Qwen2-VL's)
    bare = judge.processor.apply_chat_template(
        [{"role": "user", "content": [{"type": "text", "text": "x"}]}],
        tokenize=False,
        add_generation_prompt=True,
    )
    assert rendered.count("<|im_start|>system") == bare.count("<|im_start|>system")
    if family == "qwen3_5":  # enable_thinking=False, as the Qwen3.5 vLLM server sets
        assert "system" not in rendered and rendered.endswith(
            "<|im_start|>assistant\n<think>\n\n</think>\n\n"
        )


def test_pixels_go_in_frame_order_sized_by_the_image_processor(tiny_qwen3_vl: Path) -> None:
    judge = _judge(tiny_qwen3_vl)
    x = _clip(1, frames=3)
    assert x.frames is not None
    batch = judge.encode(x)
    images = _official_images(x.frames)
    alone = [judge.processor.image_processor(images=[image], return_tensors="pt") for image in images]
    assert torch.equal(batch["pixel_values"], torch.cat([a["pixel_values"] for a in alone]))
    assert torch.equal(batch["image_grid_thw"], torch.cat([a["image_grid_thw"] for a in alone]))
    grid = batch["image_grid_thw"][0].tolist()  # the processor's own resize: 48x80 up to its 65,536-px floor
    assert grid[1] * grid[2] * 16 * 16 >= 65_536


def _plain_generate(judge: Any, x: JudgeInput, max_new_tokens: int) -> tuple[str, dict[str, Any]]:
    """The reference: transformers' multimodal chat template on the official message (the JPEG'd frames as
    images first, then the APS text), then a plain greedy ``model.generate``."""
    assert x.frames is not None
    caption = x.query.prompt  # type: ignore[attr-defined]
    content = [{"type": "image", "image": image} for image in _official_images(x.frames)]
    content.append({"type": "text", "text": OFFICIAL_APS_TEXT.replace("CAPTION", caption)})
    extra = {"enable_thinking": False} if judge.family.name == "qwen3_5" else {}
    inputs = judge.processor.apply_chat_template(
        [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=True, return_dict=True,
        return_tensors="pt", **extra,
    )  # fmt: skip
    with torch.no_grad():
        out = judge.model.generate(**inputs, max_new_tokens=max_new_tokens, do_sample=False)
    new = out[0, inputs["input_ids"].shape[1] :]
    return judge.processor.tokenizer.decode(new, skip_special_tokens=True), dict(inputs)


@pytest.mark.parametrize("family", ["qwen3_vl", "qwen3_5"])
def test_reply_equals_a_plain_greedy_generate_on_the_official_message(
    family: str, tiny_qwen3_vl: Path, tiny_family: Callable[[str], Path]
) -> None:
    judge = _judge(tiny_qwen3_vl if family == "qwen3_vl" else tiny_family("qwen3_5"))
    inputs = [_clip(0), _clip(1, frames=3), _clip(2, size=(64, 40))]
    batched = judge.judge_batch(inputs)
    for x, verdict in zip(inputs, batched, strict=True):
        text, reference = _plain_generate(judge, x, 12)
        ours = judge.encode(x)  # the model inputs themselves: random weights reply alike to any input
        assert set(ours) == set(reference)
        for key, value in reference.items():
            assert torch.equal(ours[key], value), key
        (alone,) = judge.judge_batch([x])
        assert alone.diagnostics.raw_text == text, (x.query.item_id, alone.diagnostics.raw_text, text)
        assert verdict.diagnostics.raw_text == text  # batched (left padded) gives the same reply
        assert alone.diagnostics.extra["tokens"] == reference["input_ids"].shape[1]
        assert verdict.no_judgment and not verdict.errored  # random weights: no APS reply


def test_other_families_and_max_pixels_are_refused_before_the_run(
    tiny_qwen2_vl: Path, tiny_qwen3_vl: Path
) -> None:
    from mmjudge.runner import prepare_judge

    with pytest.raises(ConfigError, match=r"UnifiedReward-2.0 checkpoints are .*Qwen2-VL"):
        prepare_judge(
            "isovrbench", JudgeConfig(judge="unified_reward", model=str(tiny_qwen2_vl), local_files_only=True)
        )
    with pytest.raises(ConfigError, match="remove max_pixels"):
        prepare_judge("isovrbench", JudgeConfig(judge="unified_reward", model=str(tiny_qwen3_vl), local_files_only=True,
                                                max_pixels=200_704))  # fmt: skip


# --- whole runs --------------------------------------------------------------------------------------------


def test_runner_on_the_sample_data_has_no_errored_item(
    sample_data: Path, tiny_qwen3_vl: Path, tmp_path: Path
) -> None:
    from mmjudge.runner import RunOptions, run_judge

    config = JudgeConfig(judge="unified_reward", model=str(tiny_qwen3_vl), local_files_only=True, dtype="float32",
                         batch_size=4, frames=4, options={"max_new_tokens": 8})  # fmt: skip
    result = run_judge(
        "isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False)
    )
    [verdicts] = result.verdicts.values()
    assert verdicts and result.stats.errored == 0 and not any(v.errored for v in verdicts)
    # random weights never write the APS format: every clip is a no-judgment answer, counted as such
    assert all(v.no_judgment and v.value is None for v in verdicts)
    assert result.stats.failed == len(verdicts)
    assert all(v.diagnostics.extra["frames"] == 4 for v in verdicts)


def test_scores_reach_isovrbench_at_the_pairs_dimension_head(
    sample_data: Path, tiny_qwen3_vl: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the generation replaced by APS replies (different per clip), each pair is scored at its head."""
    import mmjudge.judges.unified_reward as chat  # where the judges look generate_texts up
    from mmjudge.benchmarks.isovrbench.queries import DIMENSION_HEADS, records_from_verdicts
    from mmjudge.runner import RunOptions, run_judge

    calls: list[int] = []

    def fake_generate(
        model: Any, tokenizer: Any, encodings: Any, max_new_tokens: int, pad_id: int
    ) -> list[str]:
        texts = []
        for _ in encodings:
            n = len(calls)
            calls.append(n)
            scores = (1 + n % 4, 2 + n % 3 / 2, 1.5 + n % 5 / 2)
            texts.append(
                "Alignment Score (1-5): {}\nPhysics Score (1-5): {}\nStyle Score (1-5): {}".format(*scores)
            )
        return texts

    monkeypatch.setattr(chat, "generate_texts", fake_generate)
    config = JudgeConfig(judge="unified_reward", model=str(tiny_qwen3_vl), local_files_only=True, dtype="float32",
                         batch_size=4, frames=2)  # fmt: skip
    result = run_judge(
        "isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False)
    )
    [verdicts] = result.verdicts.values()
    assert len(calls) == len(verdicts) and not any(v.no_judgment for v in verdicts)
    by_id = {v.item_id: v for v in verdicts}
    for v in verdicts:
        a, p, s = parse_scores(v.diagnostics.raw_text or "")  # type: ignore[misc]
        assert v.value == {"TA": a, "MQ": p, "VQ": s, "overall": pytest.approx((a + p + s) / 3)}
    records = records_from_verdicts(result.queries, verdicts, result.rows)
    heads = set()
    for row, record in zip(result.rows, records, strict=True):
        head = DIMENSION_HEADS[str(row.get("dimension") or "overall")]
        heads.add(head)
        assert record["score_chosen"] == by_id[str(row["clip_id_chosen"])].value[head]  # type: ignore[index]
        assert record["score_rejected"] == by_id[str(row["clip_id_rejected"])].value[head]  # type: ignore[index]
    assert heads >= {"MQ", "TA", "VQ"}  # the sample data holds pairs of each dimension


