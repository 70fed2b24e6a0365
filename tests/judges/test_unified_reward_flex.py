"""unified_reward_flex: UnifiedReward-Flex pairwise, checked against the official rules it states.

The reference throughout is CodeGoat24/UnifiedReward@ff6f520: ``UnifiedReward-Flex/flex_pair_rank_video_generation.py``
(``extract_frames``: ``np.linspace(0, N - 1, 8).astype(int)`` with a seek per index; ``_encode_image``: one JPEG
q95; the ``problem`` f-string; the frames of video 1, then of video 2) and ``vllm_qwen/vllm_request.py`` (one user
turn, the images first, then the text; no system message). The repository ships no parser, so the parser tests
state the rule the judge reads: the JSON's ``winner``, ``"Video 1"`` or ``"Video 2"``, else no judgment.
Tiny random checkpoints prove the plumbing, not the scores.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge
from mmjudge.judges.unified_reward_flex import FLEX_FRAMES, FLEX_PROMPT, read_reply
from mmjudge.media.video import linspace_floor_indices, sample_indices
from mmjudge.queries import ClipPairQuery


def official_problem(prompt: str) -> str:
    """FLEX lines 51-100 transcribed by hand, as the f-string it is (doubled braces, ``{prompt}`` substituted)."""
    return f"""## Identity
You are a top-tier AI Video Evaluation Expert. Perform a hierarchical, multi-dimensional comparative analysis of Video 1 and Video 2 based on the provided Prompt.

## Evaluation Framework

### 1. Mandatory Categories
For each, independently define **3-5 specific sub-dimensions** based on the videos' actual content:
- **A. Semantic Alignment & Accuracy**: Accuracy of subjects, attributes, spatial relationships, and environment as defined by the prompt.
- **B. Video Quality & Dynamic Realism**: Technical fidelity, temporal stability (no flickering/warping), subject identity persistence, and physical plausibility of motion.
- **C. Narrative, Aesthetics & Cinematography**: Composition, color harmony, camera movement quality (smoothness/intent), and narrative flow.
*Note: If the prompt involves unique traits, you are encouraged to add a personalized Category D.*

### 2. Core Rules
- **Dynamic Selection**: Do NOT simply copy a fixed list. Choose sub-dimensions that most effectively differentiate the two videos.
- **Sum-of-10 Scoring**: For every sub-dimension, the total score (Video 1 + Video 2) MUST strictly equal 10 points (e.g., 6+4, 5+5).
- **Evidence-Based Reasoning**: Provide professional, critical analysis pointing to specific visual/temporal evidence.

## Input Data
**Prompt:** [{prompt}]

**Content to be Evaluated:**
[Video 1]{" "}
[Video 2]{" "}

## Output Format
Return a single, valid JSON object in English.

```json
{{
  "prompt": "[Original Prompt]",
  "categories": [
    {{
      "name": "[Category Name]",
      "dims": [
        {{
          "name": "[Custom Sub-dimension]",
          "reason_1": "[Specific evidence]",
          "reason_2": "[Specific evidence]",
          "score_1": 0-10,
          "score_2": 0-10
        }}
      ],
      "cat_reason": "[Category-level analysis]",
      "cat_winner": "Video 1/2"
    }}
  ],
  "reason": "[Overall analysis]",
  "winner": "Video 1/2"
}}
"""


OFFICIAL_SHA256 = "93a62c73f4d5422a206991e55e3e42e669fa3b39d22c92cce2b5217c86406460"
"""SHA-256 of the official ``problem`` (UTF-8, 1,925 characters) with ``prompt = "CAPTION"``, evaluated from the
file at ff6f520 (the trailing spaces after ``[Video 1]`` and ``[Video 2]`` included)."""


def official_extract_indices(total: int, num_frames: int = 8) -> list[int]:
    """The frame positions ``extract_frames`` reads: one seek per ``np.linspace`` index, truncated by ``astype``."""
    return [int(i) for i in np.linspace(0, total - 1, num_frames).astype(int)]


def reply(winner: Any = "Video 1", **extra: Any) -> str:
    """A reply in the official output format (one category, two sub-dimensions)."""
    answer = {
        "prompt": "a cat",
        "categories": [
            {
                "name": "Semantic Alignment & Accuracy",
                "dims": [
                    {"name": "Subject", "reason_1": "a", "reason_2": "b", "score_1": 7, "score_2": 3},
                    {"name": "Motion", "reason_1": "c", "reason_2": "d", "score_1": 4.5, "score_2": 5.5},
                ],
                "cat_reason": "x",
                "cat_winner": "Video 1",
            }
        ],
        "reason": "Video 1 is sharper {and} steadier.",
        "winner": winner,
        **extra,
    }
    return json.dumps(answer, indent=2)


# --- the prompt ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "caption", ["CAPTION", "a dog runs in the city", "braces {x} and [brackets] stay", ""]
)
def test_prompt_is_the_official_flex_text_with_literal_braces(caption: str) -> None:
    assert FLEX_PROMPT.replace("{prompt}", caption) == official_problem(caption)
    assert FLEX_PROMPT.count("{prompt}") == 1 and f"**Prompt:** [{caption}]\n" in official_problem(caption)
    text = FLEX_PROMPT.replace("{prompt}", caption)
    assert "{{" not in text and "}}" not in text and text.count('\n{\n  "prompt"') == 1  # braces single
    assert "[Video 1] \n[Video 2] \n\n## Output Format" in text and text.endswith('"Video 1/2"\n}\n')


def test_prompt_hash_equals_the_official_file() -> None:
    rendered = FLEX_PROMPT.replace("{prompt}", "CAPTION")
    assert len(rendered) == 1925
    assert hashlib.sha256(rendered.encode("utf-8")).hexdigest() == OFFICIAL_SHA256


# --- frames ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "expected"),
    [
        (81, [0, 11, 22, 34, 45, 57, 68, 80]),
        (5, [0, 0, 1, 1, 2, 2, 3, 4]),  # linspace(0, 4, 8) truncated: repeated frames are read again
        (1, [0] * 8),
        (8, list(range(8))),
        (121, [0, 17, 34, 51, 68, 85, 102, 120]),
    ],
)
def test_frame_indices_follow_the_official_linspace_rule(total: int, expected: list[int]) -> None:
    assert official_extract_indices(total) == expected
    assert linspace_floor_indices(total, FLEX_FRAMES) == expected == sample_indices(total, 16.0, num=8, policy="linspace_floor")


def test_frame_indices_equal_the_official_rule_everywhere() -> None:
    for total in range(1, 300):
        for k in (1, 2, 4, 8, 16):
            assert linspace_floor_indices(total, k) == official_extract_indices(total, k), (total, k)
    with pytest.raises(ConfigError):
        linspace_floor_indices(81, 0)


@pytest.mark.parametrize("total", [81, 5])
def test_the_runner_decodes_both_clips_at_the_official_frames(total: int, tmp_path: Path) -> None:
    from mmjudge.judges.unified_reward_flex import UnifiedRewardFlexJudge
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip
    from mmjudge.media.video import read_frames
    from mmjudge.runner.decode import decode_query

    one = write_video(tmp_path / "a.mp4", moving_texture_clip(total, 48, 80, seed=1), fps=16)
    two = write_video(tmp_path / "b.mp4", moving_texture_clip(81, 32, 64, seed=2), fps=16)
    judge = UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex"))
    query = ClipPairQuery("p", one, two, "a cat", ("a", "b"))
    x = decode_query(query, [judge.media_request(query)]).input(0)
    assert x.other is not None and x.frames is not None and x.other.frames is not None
    assert list(x.frame_indices) == official_extract_indices(total)
    assert list(x.other.frame_indices) == official_extract_indices(81)
    # full size, and a repeated index is its frame again (the script seeks once per index)
    assert np.array_equal(x.frames, read_frames(one, np.asarray(official_extract_indices(total))))
    assert x.frames.shape == (8, 48, 80, 3) and x.other.frames.shape == (8, 32, 64, 3)


def test_default_is_eight_frames_and_bad_configs_are_refused() -> None:
    from mmjudge.judges.unified_reward_flex import UnifiedRewardFlexJudge

    judge = UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex"))
    assert judge.media_request().num_frames == 8 and judge.options.max_new_tokens == 4096
    assert UnifiedRewardFlexJudge.query_kind("isovrbench") is ClipPairQuery
    with pytest.raises(ConfigError, match="fixed number of frames"):
        UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex", fps=2.0))
    with pytest.raises(ConfigError, match="must contain"):
        UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex", prompt_template="Which is better?"))
    with pytest.raises(ConfigError, match="jpeg_quality"):
        UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex", options={"jpeg_quality": 0}))


# --- the readout -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (reply("Video 1"), "first"),
        (reply("Video 2"), "second"),
        ("```json\n" + reply("Video 2") + "\n```", "second"),  # fenced, as the prompt shows
        ("```JSON\r\n" + reply("Video 1") + "\r\n```\n", "first"),
        ("Here is my analysis.\n```json\n" + reply("Video 2") + "\n```\nHope this helps {:}", "second"),
        ("Sure! " + reply("Video 1") + " That is all.", "first"),  # bare JSON with prose around it
        (reply("Video 2").replace('"a"', '"line one\nline two"'), "second"),  # a raw newline in a string
        ('{"winner": "Video 1"}', "first"),  # no categories: still the model's winner
    ],
)
def test_the_winner_is_read_from_the_json(text: str, answer: str) -> None:
    assert read_reply(text).answer == answer


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Video 1 is better.",  # no JSON
        reply("video 1"),  # case
        reply("VIDEO 2"),
        reply("Video 1/2"),  # the template echoed
        reply("Video1"),
        reply(" Video 1"),
        reply("Video 3"),
        reply("Tie"),  # the prompt offers no tie
        reply("Both"),
        reply(1),
        reply(None),
        reply(["Video 1"]),
        reply("Video 1")[:-40],  # cut short: broken JSON
        reply("Video 1").replace('"winner"', "'winner'"),  # not JSON
        reply("Video 1").replace('"winner": "Video 1"', '"overall_winner": "Video 1"'),  # no winner
        reply("Video 1").replace('"winner": "Video 1"', '"result": {"winner": "Video 1"}'),  # not top level
        reply("Video 1") + "\n" + reply("Video 2"),  # two answers
        "```json\n" + reply("Video 1") + "\n```\n```json\n" + reply("Video 2") + "\n```",
        "```json\n{broken}\n```\n" + reply("Video 1"),  # the one fenced block is not JSON
        '["Video 1"]',
    ],
)
def test_anything_else_is_no_answer(text: str) -> None:
    reading = read_reply(text)
    assert reading.answer is None and reading.problem


def test_per_dimension_scores_are_kept() -> None:
    reading = read_reply(reply("Video 1"))
    assert reading.totals == (11.5, 8.5) and reading.winner == "Video 1"
    [category] = reading.categories
    assert category["cat_winner"] == "Video 1" and [d["score_1"] for d in category["dims"]] == [7, 4.5]
    assert read_reply(reply("Video 1").replace('"score_2": 3', '"score_2": "3"')).totals is None


def test_an_unreadable_reply_is_a_no_judgment_verdict_not_an_error() -> None:
    from mmjudge.judges.unified_reward_flex import UnifiedRewardFlexJudge

    judge = UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex"))
    query = ClipPairQuery("p1", Path("a.mp4"), Path("b.mp4"), "a cat", ("a", "b"))
    frames = np.zeros((2, 4, 4, 3), np.uint8)
    x = JudgeInput(query, frames=frames, frame_indices=(0, 5), other=JudgeInput(query, frames, (0, 7)))
    encoded = {"input_ids": np.zeros((1, 12))}
    bad = judge.verdict(x, reply("video 2"), encoded)
    assert bad.no_judgment and not bad.errored and bad.value is None and "'video 2'" in (bad.error or "")
    assert bad.diagnostics.raw_text == reply("video 2") and bad.diagnostics.extra["totals"] == [11.5, 8.5]
    good = judge.verdict(x, "```json\n" + reply("Video 2") + "\n```", encoded)
    assert good.value == "second" and not good.no_judgment
    assert (
        good.diagnostics.extra["frame_indices"] == [[0, 5], [0, 7]] and good.diagnostics.extra["tokens"] == 12
    )
    assert judge.verdict(x, "garbage", encoded).error == "no JSON object in the reply: 'garbage'"


def test_a_pair_without_its_second_clip_fails_alone() -> None:
    from mmjudge.judges.unified_reward_flex import UnifiedRewardFlexJudge

    judge = UnifiedRewardFlexJudge(JudgeConfig(judge="unified_reward_flex"))
    query = ClipPairQuery("p1", Path("a.mp4"), None, "a cat", ("a", "b"))
    x = JudgeInput(query, frames=np.zeros((2, 4, 4, 3), np.uint8), other=JudgeInput(query))
    [verdict] = judge.judge_batch([x])  # no model needed: nothing is left to judge
    assert verdict.errored and "second clip" in (verdict.error or "")


# --- the model input, on a tiny random Qwen3.5 ------------------------------------------------------------

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from PIL import Image  # noqa: E402

IMAGE_PART = "<|vision_start|><|image_pad|><|vision_end|>"


@pytest.fixture(scope="module")
def tiny_qwen3_5(tiny_family: Callable[[str], Path]) -> Path:
    return tiny_family("qwen3_5")


def _pair(i: int, frames: int = 8, size: tuple[int, int] = (48, 80)) -> JudgeInput:
    # each frame a distinct flat level plus noise; video 2 inverted, so clip and frame order show in the pixels
    rng = np.random.default_rng(i)
    ramp = (np.arange(frames) * (200 // frames))[:, None, None, None]
    one = (rng.integers(0, 50, (frames, *size, 3)) + ramp).astype(np.uint8)
    two = (255 - rng.integers(0, 50, (frames, *size, 3)) - ramp).astype(np.uint8)
    query = ClipPairQuery(
        f"p{i}", Path(f"a{i}.mp4"), Path(f"b{i}.mp4"), "a dog runs" + " at night" * i, ("a", "b")
    )
    indices = tuple(range(frames))
    return JudgeInput(query, one, indices, 16.0, other=JudgeInput(query, two, indices, 16.0))


def _judge(model: Path, **options: Any) -> Any:
    config = JudgeConfig(judge="unified_reward_flex", model=str(model), local_files_only=True, dtype="float32",
                         options={"max_new_tokens": 12, **options})  # fmt: skip
    judge = make_judge(config)
    judge.check_model()
    judge.load("cpu")
    return judge


def _official_images(frames: np.ndarray) -> list[Any]:
    """``_encode_image``: PIL RGB -> JPEG quality 95 (base64, sent as is), decoded to RGB by the server."""
    images = []
    for frame in frames:
        buffer = io.BytesIO()
        Image.fromarray(frame).convert("RGB").save(buffer, format="JPEG", quality=95)
        images.append(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))
    return images


def test_images_are_the_frames_after_one_jpeg_q95(tiny_qwen3_5: Path) -> None:
    judge = _judge(tiny_qwen3_5)
    frames = _pair(0).frames
    assert frames is not None
    ours = judge.images(frames)
    assert all(
        np.array_equal(np.asarray(a), np.asarray(b))
        for a, b in zip(ours, _official_images(frames), strict=True)
    )
    assert not np.array_equal(np.asarray(ours[0]), frames[0])  # JPEG changes the pixels
    raw = _judge(tiny_qwen3_5, jpeg_quality=None).images(frames)
    assert all(np.array_equal(np.asarray(r), f) for r, f in zip(raw, frames, strict=True))


def test_rendering_has_16_images_before_the_text_and_no_thinking(tiny_qwen3_5: Path) -> None:
    judge = _judge(tiny_qwen3_5)
    rendered = judge.prompt_text("a red cat", 16)
    user = "<|im_start|>user\n"
    assert rendered.startswith(user)  # the first turn is the user's: no system turn
    assert "system" not in rendered and rendered.count("<|im_start|>") == 2
    body = rendered[len(user) :]
    assert body.startswith(IMAGE_PART * 16 + official_problem("a red cat") + "<|im_end|>\n")
    assert rendered.count("<|image_pad|>") == 16 and "<|video_pad|>" not in rendered
    # enable_thinking=False, as the Flex Qwen3.5 server sets: the think block is closed and empty
    assert (
        rendered.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n") and rendered.count("<think>") == 1
    )


def test_video_1_frames_go_first_sized_by_the_image_processor(tiny_qwen3_5: Path) -> None:
    judge = _judge(tiny_qwen3_5)
    x = _pair(1, frames=3)
    assert x.frames is not None and x.other is not None and x.other.frames is not None
    batch = judge.encode(x)
    images = _official_images(x.frames) + _official_images(x.other.frames)
    alone = [judge.processor.image_processor(images=[image], return_tensors="pt") for image in images]
    assert torch.equal(batch["pixel_values"], torch.cat([a["pixel_values"] for a in alone]))
    assert torch.equal(batch["image_grid_thw"], torch.cat([a["image_grid_thw"] for a in alone]))
    swapped = judge.encode(JudgeInput(x.query, x.other.frames, other=JudgeInput(x.query, x.frames)))
    assert not torch.equal(batch["pixel_values"], swapped["pixel_values"])  # the order matters
    assert (
        int((batch["input_ids"] == judge.processor.tokenizer.convert_tokens_to_ids("<|vision_start|>")).sum())
        == 6
    )


def _plain_generate(judge: Any, x: JudgeInput, max_new_tokens: int) -> tuple[str, dict[str, Any]]:
    """The reference: transformers' multimodal chat template on the official message (video 1's JPEG'd frames,
    then video 2's, as images, then the FLEX text; ``enable_thinking=False``), then a plain greedy generate."""
    assert x.frames is not None and x.other is not None and x.other.frames is not None
    images = _official_images(x.frames) + _official_images(x.other.frames)
    content: list[dict[str, Any]] = [{"type": "image", "image": image} for image in images]
    content.append({"type": "text", "text": official_problem(x.query.prompt)})  # type: ignore[attr-defined]
    inputs = judge.processor.apply_chat_template(
        [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=True, return_dict=True,
        return_tensors="pt", enable_thinking=False,
    )  # fmt: skip
    with torch.no_grad():
        out = judge.model.generate(**inputs, max_new_tokens=max_new_tokens, do_sample=False)
    new = out[0, inputs["input_ids"].shape[1] :]
    return judge.processor.tokenizer.decode(new, skip_special_tokens=True), dict(inputs)


def test_reply_equals_a_plain_greedy_generate_on_the_official_message(tiny_qwen3_5: Path) -> None:
    judge = _judge(tiny_qwen3_5)
    inputs = [_pair(0), _pair(2, size=(64, 40)), _pair(3)]
    batched = judge.judge_batch(inputs)
    for x, verdict in zip(inputs, batched, strict=True):
        text, reference = _plain_generate(judge, x, 12)
        ours = judge.encode(x)
        assert set(ours) == set(reference)
        for key, value in reference.items():
            assert torch.equal(ours[key], value), key
        assert verdict.diagnostics.raw_text == text, (x.query.item_id, verdict.diagnostics.raw_text, text)
        assert verdict.diagnostics.extra["tokens"] == reference["input_ids"].shape[1]
        assert verdict.no_judgment and not verdict.errored  # random weights write no JSON


def test_other_families_and_max_pixels_are_refused_before_the_run(
    tiny_qwen3_5: Path, tiny_qwen2_vl: Path
) -> None:
    from mmjudge.runner import prepare_judge

    with pytest.raises(ConfigError, match=r"UnifiedReward-Flex checkpoints are .*Qwen2-VL"):
        prepare_judge("isovrbench", JudgeConfig(judge="unified_reward_flex", model=str(tiny_qwen2_vl),
                                                local_files_only=True))  # fmt: skip
    with pytest.raises(ConfigError, match="remove max_pixels"):
        prepare_judge("isovrbench", JudgeConfig(judge="unified_reward_flex", model=str(tiny_qwen3_5),
                                                local_files_only=True, max_pixels=200_704))  # fmt: skip


# --- whole runs --------------------------------------------------------------------------------------------


def _run(sample_data: Path, model: Path, out: Path, **settings: Any) -> Any:
    from mmjudge.runner import RunOptions, run_judge

    config = JudgeConfig(judge="unified_reward_flex", model=str(model), local_files_only=True, dtype="float32",
                         batch_size=4, **{"frames": 4, **settings})  # fmt: skip
    return run_judge("isovrbench", config, sample_data / "isovrbench", out, RunOptions(progress=False))


def test_runner_on_the_sample_data_has_no_errored_pair(
    sample_data: Path, tiny_qwen3_5: Path, tmp_path: Path
) -> None:
    result = _run(sample_data, tiny_qwen3_5, tmp_path / "run", options={"max_new_tokens": 8})
    [verdicts] = result.verdicts.values()
    assert [v.item_id for v in verdicts] == [str(r["pair_id"]) for r in result.rows]  # one query per pair
    assert all(isinstance(q, ClipPairQuery) for q in result.queries)
    assert result.stats.errored == 0 and not any(v.errored for v in verdicts)
    # random weights write no JSON: every pair is a no-judgment answer, counted as such, never an error
    assert all(v.no_judgment and v.value is None for v in verdicts) and result.stats.failed == len(verdicts)
    assert all([len(i) for i in v.diagnostics.extra["frame_indices"]] == [4, 4] for v in verdicts)


def test_answers_reach_isovrbench_through_the_shown_order(
    sample_data: Path, tiny_qwen3_5: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With generation replaced by Flex replies naming Video 1 or Video 2, each pair's record prefers the clip
    that was shown in that position (IsoVRBench picks the order per pair)."""
    import mmjudge.judges.unified_reward as chat  # where the judges look generate_texts up
    from mmjudge.benchmarks.isovrbench.queries import chosen_shown_first, records_from_verdicts

    def fake_generate(
        model: Any, tokenizer: Any, encodings: Any, max_new_tokens: int, pad_id: int
    ) -> list[str]:
        return ["```json\n" + reply("Video 1") + "\n```" for _ in encodings]

    monkeypatch.setattr(chat, "generate_texts", fake_generate)
    result = _run(sample_data, tiny_qwen3_5, tmp_path / "run", frames=2)
    [verdicts] = result.verdicts.values()
    assert all(v.value == "first" and not v.no_judgment for v in verdicts)
    records = records_from_verdicts(result.queries, verdicts, result.rows)
    for row, record in zip(result.rows, records, strict=True):
        shown_first = chosen_shown_first(str(row["pair_id"]))
        assert (record["score_chosen"], record["score_rejected"]) == (
            (1.0, 0.0) if shown_first else (0.0, 1.0)
        )


def test_tiny_recipe_writes_a_config_that_passes_the_checks(tmp_path: Path) -> None:
    from mmjudge.judges import load_config
    from mmjudge.judges.tiny import RECIPES, write_tiny_judge

    assert RECIPES["unified_reward_flex"].checkpoints[0] == "qwen3_5"
    written = write_tiny_judge("unified_reward_flex", tmp_path)
    config = load_config(written.config)
    assert (
        config.judge == "unified_reward_flex"
        and type(make_judge(config)).__name__ == "UnifiedRewardFlexJudge"
    )


def test_robustness_refuses_a_pairwise_judge_before_judging(tmp_path: Path, sample_data: Path) -> None:
    """IsoVRBench's probes derive clip queries (controls, other prompts, frame counts): none applies to pairs."""
    from mmjudge.errors import ConfigError
    from mmjudge.judges.tiny import write_tiny_judge
    from mmjudge.robustness import run_robustness

    written = write_tiny_judge("unified_reward_flex", tmp_path / "tiny")
    out = tmp_path / "robustness"
    with pytest.raises(
        ConfigError, match=r"answers 'two clips of one prompt to compare' there, so no probe applies"
    ):
        run_robustness("isovrbench", written.config, sample_data / "isovrbench", out)
    assert not (out / "cache").exists()


