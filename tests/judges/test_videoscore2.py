"""videoscore2 against the official rules of ``TIGER-AI-Lab/VideoScore2`` ``vs2_inference.py`` (@ e6abe26).

Each rule is restated here as the reference: the user text (a ``string.Template`` with a leading newline,
4-space indents, en dashes and trailing spaces), qwen-vl-utils' frames at fps 2, the hard-score regex, the
string-prefix search for a score digit's step and ``ll_based_soft_score_normed``. On a tiny random
Qwen2.5-VL, the judge's greedy reply equals a plain ``model.generate`` on the inputs the official script
builds (qwen-vl-utils + ``processor(..., fps=2.0)``), and its soft scores equal the softmax of that call's
scores at the digits' steps. Random weights prove the plumbing, not the scores.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path
from string import Template
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("qwen_vl_utils")

from qwen_vl_utils import process_vision_info  # noqa: E402
from qwen_vl_utils.vision_process import smart_nframes  # noqa: E402
from qwen_vl_utils.vision_process import smart_resize as reference_smart_resize  # noqa: E402
from reference_media import clip_info, frames_at, reference_reader, synthetic_path  # noqa: E402

from mmjudge.errors import ConfigError  # noqa: E402
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery, make_judge  # noqa: E402
from mmjudge.judges._reward_text import normed_top_score, score_step, step_probs  # noqa: E402
from mmjudge.judges.profiles import QWEN_VL_UTILS  # noqa: E402
from mmjudge.judges.videoscore2 import VideoScore2Judge, hard_scores, user_text  # noqa: E402
from mmjudge.runner.decode import frame_indices  # noqa: E402

OFFICIAL_TEMPLATE = (
    "\n"
    "    You are an expert for evaluating AI-generated videos from three dimensions:\n"
    "    (1) visual quality \u2013 clarity, smoothness, artifacts;\n"
    "    (2) text-to-video alignment \u2013 fidelity to the prompt;\n"
    "    (3) physical/common-sense consistency \u2013 naturalness and physics plausibility.\n"
    "\n"
    "    Video prompt: $t2v_prompt\n"
    "\n"
    "    Please output in this format:\n"
    "    visual quality: <v_score>; \n"
    "    text-to-video alignment: <t_score>, \n"
    "    physical/common-sense consistency: <p_score>\n"
    "    "
)
"""vs2_inference.py lines 60-73, spelled out (the triple-quoted template inside an indented function)."""
OFFICIAL_PATTERN = (
    r"visual quality:\s*(\d+).*?text-to-video alignment:\s*(\d+).*?physical/common-sense consistency:\s*(\d+)"
)
LABELS = {
    "VQ": "visual quality:",
    "TA": "text-to-video alignment:",
    "MQ": "physical/common-sense consistency:",
}
PROMPT = "A red cat walks on a beach at sunset; $5 says it's 100% real"


def official_step(tokenizer: Any, gen_ids: list[int], label: str) -> int:
    """The official ``find_score_token_index_by_prompt``, restated."""
    gen_str = tokenizer.decode(gen_ids, skip_special_tokens=False)
    match = re.search(r"(?:\(\d+\)\s*|\n\s*)?" + re.escape(label), gen_str, flags=re.IGNORECASE)
    if not match:
        return -1
    num = re.search(r"\d", gen_str[match.end() :])
    if not num:
        return -1
    target = gen_str[: match.end() + num.start() + 1]
    for i in range(len(gen_ids)):
        if tokenizer.decode(gen_ids[: i + 1], skip_special_tokens=False) == target:
            return i
    return -1


def official_soft(step_logits: Any, tokenizer: Any) -> float:
    """The official ``ll_based_soft_score_normed`` on one step's (processed) scores, restated."""
    pairs = []
    for s in range(1, 6):
        ids = tokenizer.encode(str(s), add_special_tokens=False)
        if len(ids) == 1:
            pairs.append((s, float(np.exp(torch.log_softmax(step_logits.double(), dim=-1)[ids[0]].item()))))
    values, probs = zip(*pairs, strict=True)
    best = values[probs.index(max(probs))]
    return round(best * max(probs) / sum(probs), 4)


def _judge(model: Path, **overrides: Any) -> VideoScore2Judge:
    options = overrides.pop("options", {})
    config = JudgeConfig(judge="videoscore2", model=str(model), local_files_only=True, dtype="float32",
                         options=options, **overrides)  # fmt: skip
    judge = make_judge(config)
    assert isinstance(judge, VideoScore2Judge)
    judge.check_model()
    judge.load("cpu")
    return judge


def _input(judge: VideoScore2Judge, path: str, prompt: str = PROMPT, item: str = "c") -> JudgeInput:
    total, fps, height, width = clip_info(path)
    query = ScoreQuery(item, Path(f"{item}.mp4"), prompt)
    indices = frame_indices(total, fps, judge.media_request(query))
    return JudgeInput(query, frames_at(path, indices), tuple(indices), fps, total_frames=total,
                      frame_size=(height, width))  # fmt: skip


def _official_inputs(processor: Any, path: str, prompt: str = PROMPT) -> tuple[str, Any]:
    """vs2_inference.py lines 89-100: qwen-vl-utils with ``fps: 2.0`` and ``processor(..., fps=2.0)``."""
    text = Template(OFFICIAL_TEMPLATE).substitute(t2v_prompt=prompt)
    messages = [{"role": "user", "content": [{"type": "video", "video": path, "fps": 2.0},
                                             {"type": "text", "text": text}]}]  # fmt: skip
    rendered = processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    with reference_reader():
        image_inputs, video_inputs = process_vision_info(messages)
    inputs = processor(text=[rendered], images=image_inputs, videos=video_inputs, fps=2.0, padding=True,
                       return_tensors="pt")  # fmt: skip
    # transformers 4.53 (the official pin) turns fps=2.0 into temporal_patch_size / fps; transformers 5 ignores it
    inputs["second_per_grid_ts"] = torch.tensor([processor.video_processor.temporal_patch_size / 2.0])
    return rendered, inputs


# --- prompt, frames ---------------------------------------------------------------------------------------


def test_user_text_is_the_official_template_raw_and_in_the_chat(tiny_qwen2_5_vl: Path) -> None:
    assert user_text(PROMPT) == Template(OFFICIAL_TEMPLATE).substitute(t2v_prompt=PROMPT)
    judge = _judge(tiny_qwen2_5_vl)
    path = synthetic_path(56, 84, 81, 16.0)
    rendered, _ = _official_inputs(judge.processor, path)
    ours = judge.prompt_text(ScoreQuery("c", Path("c.mp4"), PROMPT))
    assert ours == rendered
    # no system message given: the chat template's default one
    assert ours.startswith("<|im_start|>system\nYou are a helpful assistant.<|im_end|>")
    assert ours.endswith("<|im_start|>assistant\n") and "<|vision_end|>\n    You are an expert" in ours


@pytest.mark.parametrize(
    ("total", "fps", "expected"),
    [
        (81, 16.0, [0, 9, 18, 27, 36, 44, 53, 62, 71, 80]),
        (33, 8.0, torch.linspace(0, 32, 8).round().long().tolist()),  # round2(33 / 8 * 2 = 8.25) = 8
        (10, 30.0, torch.linspace(0, 9, 4).round().long().tolist()),  # 0.67 frames, clamped to 4
    ],
)
def test_frames_are_qwen_vl_utils_at_two_fps(
    tiny_qwen2_5_vl: Path, total: int, fps: float, expected: list[int]
) -> None:
    judge = make_judge(JudgeConfig(judge="videoscore2", model=str(tiny_qwen2_5_vl), local_files_only=True))
    indices = frame_indices(total, fps, judge.media_request(ScoreQuery("c", Path("c.mp4"), "p")))
    assert indices == expected
    assert len(indices) == smart_nframes({"fps": 2.0}, total_frames=total, video_fps=fps)
    assert QWEN_VL_UTILS.video_size(480, 832, len(indices), 28) == tuple(
        reference_smart_resize(480, 832, 28, min_pixels=128 * 28 * 28, max_pixels=768 * 28 * 28)
    )


# --- readout rules ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            "visual quality: 4; \ntext-to-video alignment: 3, \nphysical/common-sense consistency: 2",
            (4, 3, 2),
        ),
        ("VISUAL QUALITY:5;TEXT-TO-VIDEO ALIGNMENT:\n\n1,Physical/Common-Sense Consistency:   3", (5, 1, 3)),
        (
            "Reasoning first.\n(1) visual quality: 10 (sharp)\nthen text-to-video alignment: 2 and more\n"
            "physical/common-sense consistency: 4. Done.",
            (10, 2, 4),
        ),
        ("visual quality: 4; text-to-video alignment: 3", None),  # a dimension missing
        ("physical/common-sense consistency: 2, text-to-video alignment: 3, visual quality: 4", None),
        ("visual quality: four; text-to-video alignment: 3, physical/common-sense consistency: 2", None),
        ("", None),
    ],
)
def test_hard_scores_are_the_official_regex(reply: str, expected: tuple[int, int, int] | None) -> None:
    match = re.search(OFFICIAL_PATTERN, reply, re.DOTALL | re.IGNORECASE)
    reference = None if match is None else tuple(int(g) for g in match.groups())
    assert reference == expected
    ours = hard_scores(reply)
    assert (None if ours is None else (ours["VQ"], ours["TA"], ours["MQ"])) == expected


def test_soft_score_is_the_top_value_times_its_renormalised_probability() -> None:
    step = torch.full((20,), float("-inf"))
    ids = {s: 10 + s for s in range(1, 6)}
    step[[10 + s for s in range(1, 6)]] = torch.tensor([0.0, 1.0, 3.0, 2.0, 0.0])
    expected = 3 * math.e**3 / (1 + math.e + math.e**3 + math.e**2 + 1)
    probs = step_probs(step, ids)
    assert 3 * probs[3] / sum(probs.values()) == pytest.approx(expected, abs=1e-6)
    assert normed_top_score(probs) == round(expected, 4) == 1.8717
    cooled = step_probs(step, ids, temperature=0.7)  # the greedy path divides by the official 0.7
    z = np.exp(np.array([0.0, 1.0, 3.0, 2.0, 0.0]) / 0.7)
    assert normed_top_score(cooled) == round(3 * z[2] / z.sum(), 4)
    assert normed_top_score({1: 0.25, 4: 0.25}) == 0.5  # a tie: the first value (1, not 4), as list.index


def test_the_verdict_reads_each_dimension_at_its_step(tiny_qwen2_5_vl: Path) -> None:
    judge = _judge(tiny_qwen2_5_vl, options={"do_sample": True})  # scores taken as processed (no division)
    tokenizer = judge.processor.tokenizer
    reply = "visual quality: 3; \ntext-to-video alignment: 4, \nphysical/common-sense consistency: 2"
    ids = [*tokenizer.encode(reply, add_special_tokens=False), tokenizer.convert_tokens_to_ids("<|im_end|>")]
    vocab = judge.model.config.text_config.vocab_size
    scores = [torch.zeros(vocab) for _ in ids]
    digit = {s: tokenizer.convert_tokens_to_ids(str(s)) for s in range(1, 6)}
    for label, logits in zip(
        LABELS.values(), ([0, 1, 3, 2, 0], [0, 0, 0, 5, 0], [1, 1, 1, 1, 1]), strict=True
    ):
        step = official_step(tokenizer, ids, label)
        scores[step][[digit[s] for s in range(1, 6)]] = torch.tensor(logits, dtype=torch.float32)
    one = JudgeInput(ScoreQuery("c", Path("c.mp4"), PROMPT), np.zeros((4, 28, 28, 3), np.uint8))
    verdict = judge.verdict(one, ids, [step_probs(step, judge.value_ids) for step in scores], tokens=100)
    soft = {
        d: official_soft(scores[official_step(tokenizer, ids, label)], tokenizer)
        for d, label in LABELS.items()
    }
    assert verdict.value == {**soft, "overall": pytest.approx(sum(soft.values()) / 3)}
    assert verdict.diagnostics.extra["hard"] == {"VQ": 3, "TA": 4, "MQ": 2}
    assert verdict.diagnostics.raw_text == reply and soft["MQ"] == 0.2  # five ties: the value 1, p 1/5


@pytest.mark.parametrize(
    "reply",
    [
        "visual quality: 4; \ntext-to-video alignment: 3, \nphysical/common-sense consistency: 2",
        "(1) Visual Quality:5\n  TEXT-to-video alignment: 1 physical/common-sense consistency:4<|im_end|>",
        "The video. visual quality is good.\nvisual quality: (score 2); text-to-video alignment: 45",
        "no scores at all",
    ],
)
def test_the_step_finder_is_the_official_prefix_search(tiny_qwen2_5_vl: Path, reply: str) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_qwen2_5_vl, local_files_only=True)
    ids = tokenizer.encode(reply, add_special_tokens=False)
    steps = {label: score_step(tokenizer, ids, label) for label in LABELS.values()}
    assert steps == {label: official_step(tokenizer, ids, label) for label in LABELS.values()}
    if reply.startswith("visual quality: 4"):
        assert [tokenizer.decode(ids[s]) for s in steps.values()] == ["4", "3", "2"]


def test_a_reply_without_the_scores_is_no_judgment_not_an_error(tiny_qwen2_5_vl: Path) -> None:
    judge = _judge(tiny_qwen2_5_vl, options={"readout": "hard"})
    tokenizer = judge.processor.tokenizer
    one = JudgeInput(ScoreQuery("c", Path("c.mp4"), PROMPT), np.zeros((4, 28, 28, 3), np.uint8))
    for reply in ("visual quality: 4; text-to-video alignment: 3", "I cannot rate this video."):
        ids = tokenizer.encode(reply, add_special_tokens=False)
        verdict = judge.verdict(one, ids, [step_probs(torch.zeros(512), judge.value_ids)] * len(ids), tokens=10)
        assert verdict.no_judgment and not verdict.errored and verdict.value is None
        assert verdict.diagnostics.raw_text == reply and "no VideoScore2 scores" in str(verdict.error)
    with pytest.raises(ConfigError, match="readout"):
        _judge(tiny_qwen2_5_vl, options={"readout": "mean"})
    with pytest.raises(ConfigError, match="takes no `prompt_template`"):
        VideoScore2Judge(JudgeConfig(judge="videoscore2", prompt_template="Rate {prompt}."))


# --- the tiny random checkpoint against the official call -------------------------------------------------


def test_greedy_reply_equals_generate_on_the_official_inputs(tiny_qwen2_5_vl: Path) -> None:
    judge = _judge(tiny_qwen2_5_vl, options={"max_new_tokens": 12})
    path = synthetic_path(56, 84, 81, 16.0)
    one = _input(judge, path)
    ours = judge.encode([one])
    _, official = _official_inputs(judge.processor, path)
    for key in official:
        assert ours[key].shape == official[key].shape, key
        assert float((ours[key].double() - official[key].double()).abs().max()) <= 1e-4, key
    with torch.no_grad():
        out = judge.model.generate(**official, max_new_tokens=12, do_sample=False)
    new = out[:, official["input_ids"].shape[1] :]
    text = judge.processor.batch_decode(new, skip_special_tokens=True, clean_up_tokenization_spaces=False)[0]
    (verdict,) = judge.judge_batch([one])
    assert verdict.diagnostics.raw_text == text and verdict.diagnostics.extra["new_tokens"] == new.shape[1]
    assert verdict.no_judgment and not verdict.errored  # random weights write no scores
    # a batch of several clips (left padded) gives each clip's reply alone
    other = _input(judge, synthetic_path(84, 56, 33, 8.0), prompt="a dog", item="d")
    both = judge.judge_batch([other, one])
    assert both[1].diagnostics.raw_text == text
    assert both[0].diagnostics.raw_text == judge.judge_batch([other])[0].diagnostics.raw_text


def _forcing_bias(
    tail: list[int], replies: list[list[int]], digits: set[int]
) -> dict[tuple[int, ...], float]:
    """``sequence_bias`` that makes greedy decoding write one of ``replies`` after ``tail`` (the prompt's end):
    +100 on each reply token after its shortest unambiguous context; at a digit, +100 on all five digits, so
    the model's own logits pick the digit and their ratios stay the model's."""
    for width in range(3, 16):
        targets: dict[tuple[int, ...], set[int]] = {}
        for reply in replies:
            seq = tail + reply
            for k in range(len(tail), len(seq)):
                targets.setdefault(tuple(seq[k - width + 1 : k]), set()).add(seq[k])
        if all(len(t) == 1 or t == digits for t in targets.values()):
            return {(*context, t): 100.0 for context, ts in targets.items() for t in ts}
    raise AssertionError("no context width separates the replies")


def _top_k(step: Any, k: int) -> Any:
    """transformers' ``TopKLogitsWarper`` rule, restated: scores below the k-th highest become -inf."""
    return step.masked_fill(step < torch.topk(step, k)[0][..., -1, None], float("-inf"))


def _forced_replies(judge: VideoScore2Judge, path: str) -> tuple[Any, list[list[int]]]:
    """The official inputs of ``path``, with the checkpoint's ``sequence_bias`` set so that decoding writes one
    of the 125 score replies while the five digits keep the model's own logits (the lm_head spread by 8)."""
    tokenizer = judge.processor.tokenizer
    _, official = _official_inputs(judge.processor, path)
    digit_ids = {tokenizer.convert_tokens_to_ids(str(s)) for s in range(1, 6)}
    eos = tokenizer.convert_tokens_to_ids("<|im_end|>")
    replies = [
        [*tokenizer.encode(f"visual quality: {v}; \ntext-to-video alignment: {t}, \n"
                           f"physical/common-sense consistency: {p}", add_special_tokens=False), eos]
        for v, t, p in itertools.product(range(1, 6), repeat=3)
    ]  # fmt: skip
    judge.model.lm_head.weight.data.mul_(8)
    bias = _forcing_bias(official["input_ids"][0, -16:].tolist(), replies, digit_ids)
    judge.model.generation_config.sequence_bias = bias  # in the checkpoint's generation config: every call uses it
    return official, replies


@pytest.mark.parametrize("top_k", [None, 3])
def test_soft_scores_read_the_official_top_k_under_greedy_decoding(tiny_qwen2_5_vl: Path, top_k: int | None) -> None:
    judge = _judge(tiny_qwen2_5_vl, options={"max_new_tokens": 80, "top_k": top_k})
    assert judge.model.generation_config.top_k is None  # so the official call samples with transformers' 50
    assert judge.warping == (0.7, 50 if top_k is None else top_k, 1.0)
    k = judge.warping.top_k
    path = synthetic_path(56, 84, 81, 16.0)
    official, replies = _forced_replies(judge, path)
    with torch.no_grad():
        out = judge.model.generate(**official, max_new_tokens=80, do_sample=False, output_scores=True,
                                   return_dict_in_generate=True)  # fmt: skip
    gen = out.sequences[0, official["input_ids"].shape[1] :].tolist()
    assert gen in replies
    (verdict,) = judge.judge_batch([_input(judge, path)])
    steps = {d: official_step(judge.processor.tokenizer, gen, label) for d, label in LABELS.items()}
    # the distribution the official call samples from at that step: scores / 0.7, then the top 50 of 512 tokens
    tokenizer = judge.processor.tokenizer
    soft = {d: official_soft(_top_k(out.scores[i][0] / 0.7, k), tokenizer) for d, i in steps.items()}
    assert verdict.diagnostics.extra["soft"] == soft
    if k < 5:  # fewer than the five digits kept (the forced steps rank all five first): the top-k shows
        assert soft != {d: official_soft(out.scores[i][0] / 0.7, tokenizer) for d, i in steps.items()}


def test_sampled_soft_scores_equal_the_official_sampling_call(tiny_qwen2_5_vl: Path) -> None:
    """vs2_inference.py lines 103-110: ``generate(do_sample=True, temperature=0.7, output_scores=True)``,
    no top_k (so transformers' 50), the soft score read from ``scores`` as processed."""
    judge = _judge(tiny_qwen2_5_vl, options={"max_new_tokens": 80, "do_sample": True})
    path = synthetic_path(56, 84, 81, 16.0)
    official, replies = _forced_replies(judge, path)
    torch.manual_seed(judge._seed("c"))
    with torch.no_grad():
        out = judge.model.generate(**official, max_new_tokens=80, output_scores=True, return_dict_in_generate=True,
                                   do_sample=True, temperature=0.7)  # fmt: skip
    gen = out.sequences[0, official["input_ids"].shape[1] :].tolist()
    assert gen in replies
    kept = int(torch.isfinite(out.scores[0][0]).sum())
    assert 50 <= kept < judge.model.config.text_config.vocab_size  # the official scores carry top_k=50
    (verdict,) = judge.judge_batch([_input(judge, path)])
    tokenizer = judge.processor.tokenizer
    steps = {d: official_step(tokenizer, gen, label) for d, label in LABELS.items()}
    soft = {d: official_soft(out.scores[k][0], tokenizer) for d, k in steps.items()}
    assert verdict.diagnostics.extra["soft"] == soft
    assert verdict.diagnostics.extra["warping"] == {"temperature": 0.7, "top_k": 50, "top_p": 1.0}


def test_generate_keeps_no_full_vocabulary_scores(tiny_qwen2_5_vl: Path) -> None:
    judge = _judge(tiny_qwen2_5_vl, options={"max_new_tokens": 6})
    calls: list[dict[str, Any]] = []
    generate = judge.model.generate

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        out = generate(*args, **kwargs)
        assert isinstance(out, torch.Tensor)  # the sequences alone: no scores tuple came back
        return out

    judge.model.generate = spy
    judge.judge_batch([_input(judge, synthetic_path(56, 84, 81, 16.0))])
    assert calls and not any(call.get("output_scores") for call in calls)


def test_a_checkpoint_with_another_warper_is_refused() -> None:
    from types import SimpleNamespace

    from mmjudge.judges.videoscore2 import official_warping

    assert official_warping(SimpleNamespace(top_k=1, top_p=0.9), 0.7, None) == (0.7, 1, 0.9)  # the checkpoint's
    assert official_warping(SimpleNamespace(top_k=1, top_p=None), 0.7, 0) == (0.7, 0, 1.0)  # the option wins
    with pytest.raises(ConfigError, match="min_p"):
        official_warping(SimpleNamespace(top_k=None, top_p=None, min_p=0.1), 0.7, None)


def test_soft_scores_are_the_softmax_of_generates_scores_at_the_digit_steps(tiny_qwen2_5_vl: Path) -> None:
    """With ``top_k: 0`` the recorded probabilities equal the old readout of ``output_scores`` / 0.7 exactly."""
    judge = _judge(tiny_qwen2_5_vl, options={"max_new_tokens": 80, "top_k": 0})
    tokenizer = judge.processor.tokenizer
    path = synthetic_path(56, 84, 81, 16.0)
    _, official = _official_inputs(judge.processor, path)
    digit_ids = {tokenizer.convert_tokens_to_ids(str(s)) for s in range(1, 6)}
    eos = tokenizer.convert_tokens_to_ids("<|im_end|>")
    replies = [
        [*tokenizer.encode(f"visual quality: {v}; \ntext-to-video alignment: {t}, \n"
                           f"physical/common-sense consistency: {p}", add_special_tokens=False), eos]
        for v, t, p in itertools.product(range(1, 6), repeat=3)
    ]  # fmt: skip
    judge.model.lm_head.weight.data.mul_(8)  # spread the random logits so the digits' probabilities differ
    bias = _forcing_bias(official["input_ids"][0, -16:].tolist(), replies, digit_ids)
    # in the checkpoint's generation config: both calls below use it
    judge.model.generation_config.sequence_bias = bias
    with torch.no_grad():
        out = judge.model.generate(**official, max_new_tokens=80, do_sample=False, output_scores=True,
                                   return_dict_in_generate=True)  # fmt: skip
    gen = out.sequences[0, official["input_ids"].shape[1] :].tolist()
    assert gen in replies
    (verdict,) = judge.judge_batch([_input(judge, path)])
    extra = verdict.diagnostics.extra
    text = tokenizer.decode(gen, skip_special_tokens=True, clean_up_tokenization_spaces=False)
    assert verdict.diagnostics.raw_text == text and not verdict.no_judgment
    steps = {d: official_step(tokenizer, gen, label) for d, label in LABELS.items()}
    assert extra["steps"] == steps
    soft = {d: official_soft(out.scores[k][0] / 0.7, tokenizer) for d, k in steps.items()}
    assert extra["soft"] == soft and len(set(soft.values())) > 1
    assert verdict.value == {**soft, "overall": pytest.approx(sum(soft.values()) / 3)}
    match = re.search(OFFICIAL_PATTERN, text, re.DOTALL | re.IGNORECASE)
    assert match is not None and extra["hard"] == dict(zip(LABELS, map(int, match.groups()), strict=True))


# --- the runner -------------------------------------------------------------------------------------------


def test_runs_through_the_runner_on_the_sample_data_without_errors(sample_data: Path, tmp_path: Path) -> None:
    from mmjudge.judges import load_config
    from mmjudge.judges.tiny import write_tiny_judge
    from mmjudge.runner import RunOptions, evaluate_judge, run_judge

    tiny = write_tiny_judge("videoscore2", tmp_path / "tiny")
    config = load_config(tiny.config)
    result = run_judge(
        "isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False)
    )
    (verdicts,) = result.verdicts.values()
    assert verdicts and not any(v.errored for v in verdicts)
    unread = [v for v in verdicts if v.no_judgment]  # random weights: mostly no scores in the reply
    assert all("no VideoScore2 scores" in str(v.error) and v.diagnostics.raw_text is not None for v in unread)
    assert all(set(v.value) == {"VQ", "TA", "MQ", "overall"} for v in verdicts if not v.no_judgment)  # type: ignore[arg-type]
    (output,) = evaluate_judge("isovrbench", config, sample_data / "isovrbench", tmp_path / "run",
                               RunOptions(progress=False))  # fmt: skip
    assert output.errors.errored == 0 and output.errors.total == len(verdicts)


