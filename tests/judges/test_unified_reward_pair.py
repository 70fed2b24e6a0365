"""unified_reward_pair: UnifiedReward-2.0 pairwise, checked against the official rules it states.

The reference is CodeGoat24/UnifiedReward@ff6f520: ``pair_score_video_generation.py`` (the prompt, its
``read_video_frames``, 8 frames per video, video 1's frames before video 2's, the example reply) and
``vllm_qwen/vllm_request.py`` (one user turn, the images first as JPEG q95, then the text; no system message).
The repository ships no parser: the reference readout is the per-block rule the protocol notes state
(``Video 1:\\s*([0-9.]+)`` / ``Video 2:\\s*([0-9.]+)`` in each dimension's block). Tiny random checkpoints prove
the plumbing, not the scores.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge
from mmjudge.judges.unified_reward_pair import PAIR_PROMPT, parse_pair_scores
from mmjudge.media.video import int_scaled_indices
from mmjudge.queries import ClipPairQuery

OFFICIAL_PAIR_TEXT = """You are presented with two generated videos (Video 1 and Video 2) along with a shared text caption. Your task is to comparatively evaluate the two videos across three specific dimensions:

- Alignment Score: How well each video matches the caption in terms of content.
- Coherence Score: How logically consistent and visually coherent each video is (absence of visual glitches, distorted objects, etc.).
- Style Score: How aesthetically appealing each video is, regardless of caption accuracy.

For each dimension, you must assign a relative score to Video 1 and Video 2, such that:
- Each score is a float between 0 and 1 (inclusive).
- The scores for Video 1 and Video 2 must sum to exactly 1.0 for each dimension.
- The higher the score, the better that video is in the corresponding dimension *relative to the other*.

This format emphasizes comparative quality rather than absolute evaluation.

Please provide your evaluation in the format below:

Alignment Score:
 Video 1: X
 Video 2: Y

Coherence Score:
 Video 1: X
 Video 2: Y

Style Score:
 Video 1: X
 Video 2: Y

Your task is provided as follows:
Text Caption: [CAPTION]"""
"""PAIR lines 64-87 transcribed by hand (the f-string's ``{prompt}`` written as ``CAPTION``)."""

EXAMPLE_REPLY = """Alignment Score:
 Video 1: 0.4736
 Video 2: 0.5264

Coherence Score:
 Video 1: 0.5981
 Video 2: 0.4019

Style Score:
 Video 1: 0.3484
 Video 2: 0.6516

"""
"""The example output at the end of the PAIR script (lines 100-113)."""


def official_read_video_frames(total: int, num_frames: int) -> list[int]:
    """The PAIR script's ``read_video_frames`` on frame positions: read sequentially, keep a position that is
    among ``int(i * total / num_frames)``, stop after ``num_frames`` kept."""
    selected = [int(i * total / num_frames) for i in range(num_frames)]
    kept: list[int] = []
    for current in range(total):
        if current in selected:
            kept.append(current)
        if len(kept) >= num_frames:
            break
    return kept


def reference_readout(text: str) -> dict[str, tuple[float, float]] | None:
    """The protocol notes' rule: in each dimension's block (its header to the next), ``Video 1:\\s*([0-9.]+)``
    and ``Video 2:\\s*([0-9.]+)``; ``None`` when a block or number is missing."""
    headers = ["Alignment Score:", "Coherence Score:", "Style Score:"]
    out = {}
    for i, header in enumerate(headers):
        start = text.find(header)
        if start < 0:
            return None
        end = text.find(headers[i + 1]) if i + 1 < len(headers) else len(text)
        block = text[start:end]
        one, two = re.search(r"Video 1:\s*([0-9.]+)", block), re.search(r"Video 2:\s*([0-9.]+)", block)
        if one is None or two is None:
            return None
        out[header.split()[0].lower()] = (float(one.group(1)), float(two.group(1)))
    return out


# --- prompt, frames, readout --------------------------------------------------------------------------------


@pytest.mark.parametrize("caption", ["a dog runs in the city", "braces {x} and [brackets] stay", ""])
def test_prompt_is_the_official_pair_text_byte_for_byte(caption: str) -> None:
    ours = PAIR_PROMPT.replace("{prompt}", caption)
    assert ours.encode() == OFFICIAL_PAIR_TEXT.replace("CAPTION", caption).encode()


@pytest.mark.parametrize(("total", "k"), [(81, 8), (7, 8), (1, 8), (45, 16)])
def test_frame_indices_follow_the_official_sequential_reader(total: int, k: int) -> None:
    assert int_scaled_indices(total, k) == official_read_video_frames(total, k)


def test_the_example_reply_reads_as_the_reference_rule() -> None:
    scores = parse_pair_scores(EXAMPLE_REPLY)
    assert scores is not None and scores._asdict() == reference_readout(EXAMPLE_REPLY)
    assert scores.alignment == (0.4736, 0.5264) and scores.totals() == (1.4201, 1.5799)
    assert scores.answer() == "second"


@pytest.mark.parametrize(
    "reply",
    [
        EXAMPLE_REPLY,
        EXAMPLE_REPLY.replace(" Video", "Video"),  # no indent
        EXAMPLE_REPLY.replace("\n\n", "\n"),  # no blank lines
        "  " + EXAMPLE_REPLY.replace("0.4736", "1").replace("0.5264", "0") + "\n\n",
        EXAMPLE_REPLY.replace("0.3484", "0.5").replace("0.6516", "0.5"),
    ],
)
def test_well_formed_replies_equal_the_reference_rule(reply: str) -> None:
    scores = parse_pair_scores(reply)
    assert scores is not None and scores._asdict() == reference_readout(reply)


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "Video 1 is better.",
        EXAMPLE_REPLY.split("Style Score:")[0],  # a block missing
        EXAMPLE_REPLY.replace("Coherence", "Physics"),  # the pointwise dimension name
        EXAMPLE_REPLY.replace("0.4736", "1.4736"),  # outside [0, 1]
        "Sure! " + EXAMPLE_REPLY,  # text around the format
        EXAMPLE_REPLY.replace("Video 2: 0.5264", "Video 2:"),
    ],
)
def test_anything_but_the_format_is_no_scores(reply: str) -> None:
    assert parse_pair_scores(reply) is None


def test_equal_totals_are_a_tie_and_an_unreadable_reply_is_no_judgment() -> None:
    from mmjudge.judges.unified_reward_pair import UnifiedRewardPairJudge

    judge = UnifiedRewardPairJudge(JudgeConfig(judge="unified_reward_pair"))
    query = ClipPairQuery("p", Path("a.mp4"), Path("b.mp4"), "a cat", ("a", "b"))
    x = JudgeInput(query, np.zeros((2, 8, 8, 3), np.uint8), (0, 1), other=JudgeInput(query, None, (0, 1)))
    tie = EXAMPLE_REPLY.replace("0.3484", "0.4283").replace("0.6516", "0.5717")  # totals 1.5 and 1.5
    verdict = judge.verdict(x, tie, {"input_ids": np.zeros((1, 3))})
    assert verdict.value == "same" and verdict.diagnostics.extra["totals"] == [1.5, 1.5]
    bad = judge.verdict(x, "Video 1", {"input_ids": np.zeros((1, 3))})
    assert bad.no_judgment and not bad.errored and bad.value is None and bad.diagnostics.raw_text == "Video 1"


def test_default_is_eight_frames_a_clip_and_bad_configs_are_refused() -> None:
    from mmjudge.judges.unified_reward_pair import UnifiedRewardPairJudge

    assert UnifiedRewardPairJudge(JudgeConfig(judge="unified_reward_pair")).media_request().num_frames == 8
    with pytest.raises(ConfigError, match="fixed number of frames"):
        UnifiedRewardPairJudge(JudgeConfig(judge="unified_reward_pair", fps=2.0))
    with pytest.raises(ConfigError, match="unified_reward_pair options: jpeg_passes"):
        UnifiedRewardPairJudge(JudgeConfig(judge="unified_reward_pair", options={"jpeg_passes": -1}))


# --- a tiny Qwen3-VL --------------------------------------------------------------------------------------

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from PIL import Image  # noqa: E402

IMAGE_PART = "<|vision_start|><|image_pad|><|vision_end|>"


def _pair(i: int, frames: int = 4, size: tuple[int, int] = (48, 80)) -> JudgeInput:
    rng = np.random.default_rng(i)
    ramp = (np.arange(frames) * (200 // frames))[:, None, None, None]
    one = (rng.integers(0, 50, (frames, *size, 3)) + ramp).astype(np.uint8)
    two = (255 - rng.integers(0, 50, (frames, *size, 3)) - ramp).astype(np.uint8)
    query = ClipPairQuery(f"p{i}", Path(f"a{i}.mp4"), Path(f"b{i}.mp4"), "a dog runs" + " at night" * i, ("a", "b"))
    indices = tuple(range(frames))
    return JudgeInput(query, one, indices, 16.0, other=JudgeInput(query, two, indices, 16.0))


def _judge(model: Path) -> Any:
    config = JudgeConfig(judge="unified_reward_pair", model=str(model), local_files_only=True, dtype="float32",
                         options={"max_new_tokens": 12})  # fmt: skip
    judge = make_judge(config)
    judge.check_model()
    judge.load("cpu")
    return judge


def _official_images(frames: np.ndarray) -> list[Any]:
    """cv2.imwrite (JPEG q95; emulated with Pillow), the client's PIL re-encode at q95, the server's RGB decode."""
    images = []
    for frame in frames:
        image = Image.fromarray(frame)
        for _ in range(2):
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, format="JPEG", quality=95)
            image = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
        images.append(image)
    return images


def test_reply_and_inputs_equal_a_plain_generate_on_the_official_message(tiny_qwen3_vl: Path) -> None:
    """One user turn: video 1's 8 JPEG'd frames, video 2's, then the PAIR text; the judge's tensors and reply
    equal transformers' chat template + a plain greedy ``generate`` on that message."""
    judge = _judge(tiny_qwen3_vl)
    rendered = judge.prompt_text("a red cat", 8)
    user = rendered.index("<|im_start|>user\n") + len("<|im_start|>user\n")
    assert rendered[user:].startswith(IMAGE_PART * 8 + OFFICIAL_PAIR_TEXT.replace("CAPTION", "a red cat"))
    assert rendered.count("<|im_start|>user") == 1
    inputs = [_pair(0), _pair(2, size=(64, 40))]
    batched = judge.judge_batch(inputs)
    for x, verdict in zip(inputs, batched, strict=True):
        images = _official_images(x.frames) + _official_images(x.other.frames)
        content: list[dict[str, Any]] = [{"type": "image", "image": image} for image in images]
        content.append({"type": "text", "text": OFFICIAL_PAIR_TEXT.replace("CAPTION", x.query.prompt)})
        reference = judge.processor.apply_chat_template([{"role": "user", "content": content}],
                                                        add_generation_prompt=True, tokenize=True,
                                                        return_dict=True, return_tensors="pt")  # fmt: skip
        ours = judge.encode(x)
        assert set(ours) == set(reference)
        for key, value in reference.items():
            assert torch.equal(ours[key], value), key
        with torch.no_grad():
            out = judge.model.generate(**reference, max_new_tokens=12, do_sample=False)
        text = judge.processor.tokenizer.decode(out[0, reference["input_ids"].shape[1] :], skip_special_tokens=True)
        assert verdict.diagnostics.raw_text == text
        assert verdict.no_judgment and not verdict.errored  # random weights write no scores


def test_runner_on_the_sample_data_asks_one_query_per_pair_with_no_errored_item(
    sample_data: Path, tiny_qwen3_vl: Path, tmp_path: Path
) -> None:
    from mmjudge.runner import RunOptions, run_judge

    config = JudgeConfig(judge="unified_reward_pair", model=str(tiny_qwen3_vl), local_files_only=True,
                         dtype="float32", batch_size=4, frames=4, options={"max_new_tokens": 8})  # fmt: skip
    result = run_judge("isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False))
    [verdicts] = result.verdicts.values()
    assert [v.item_id for v in verdicts] == [str(r["pair_id"]) for r in result.rows]
    assert all(isinstance(q, ClipPairQuery) for q in result.queries)
    assert result.stats.errored == 0 and all(v.no_judgment for v in verdicts)
    assert all([len(i) for i in v.diagnostics.extra["frame_indices"]] == [4, 4] for v in verdicts)


