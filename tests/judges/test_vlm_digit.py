"""vlm_digit: frame sampling, token counts, the expected digit against a hand computation, padding.

Tiny random Qwen2-VL, Qwen2.5-VL and Qwen3-VL models (random weights prove the plumbing, not the
scores), loaded back through the judge's real loading path.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery
from mmjudge.runner.decode import frame_indices

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from mmjudge.judges._digits import digit_token_ids, expected_digit, last_positions  # noqa: E402
from mmjudge.judges.vlm_digit import VlmDigitJudge  # noqa: E402

FAMILIES = ["tiny_qwen2_vl", "tiny_qwen2_5_vl", "tiny_qwen3_vl"]


def _clip(i: int, frames: int = 4, size: tuple[int, int] = (56, 84)) -> JudgeInput:
    pixels = np.random.default_rng(i).integers(0, 256, (frames, *size, 3), dtype=np.uint8)
    item = ScoreQuery(f"c{i}", Path(f"c{i}.mp4"), "a dog runs in the city" + " at night" * (2 * i))
    indices = tuple(int(x) for x in np.round(np.linspace(0, 80, frames)))
    return JudgeInput(query=item, frames=pixels, frame_indices=indices, fps=16.0)


def _judge(model: Path, **options: Any) -> VlmDigitJudge:
    config = JudgeConfig(
        judge="vlm_digit", model=str(model), local_files_only=True, dtype="float32", options=options
    )
    judge = VlmDigitJudge(config)
    judge.load("cpu")
    return judge


def _reference_scores(judge: VlmDigitJudge, inputs: list[JudgeInput]) -> tuple[list[float], list[float]]:
    """The rule written out: full forward, logits at the last real token, softmax over the ten digits."""
    batch = judge.encode(inputs)
    with torch.no_grad():
        logits = judge.model(**batch).logits.double().numpy()
    mask = batch["attention_mask"].numpy()
    ids = [judge.processor.tokenizer.convert_tokens_to_ids(str(d)) for d in range(10)]
    scores, masses = [], []
    for row in range(len(inputs)):
        last = int(np.nonzero(mask[row])[0].max())
        z = logits[row, last]
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        digits = p[ids]
        scores.append(float((digits / digits.sum()) @ np.arange(10) / 9 * 100))
        masses.append(float(digits.sum()))
    return scores, masses


def test_default_request_is_eight_uniform_frames_at_full_size(tiny_qwen2_vl: Path) -> None:
    model = {"model": str(tiny_qwen2_vl), "local_files_only": True}
    request = VlmDigitJudge(JudgeConfig(judge="vlm_digit", max_pixels=50_000, **model)).media_request(
        ScoreQuery("c", Path("c.mp4"), "p")
    )
    assert request.num_frames == 8 and request.max_pixels is None  # the judge resizes with the model's factor
    assert frame_indices(81, 16.0, request) == [int(i) for i in np.round(np.linspace(0, 80, 8))]
    sweep = VlmDigitJudge(JudgeConfig(judge="vlm_digit", frames=16, **model)).media_request(
        ScoreQuery("c", Path("c"), "p")
    )
    assert sweep.num_frames == 16


def test_last_positions_under_left_and_right_padding() -> None:
    mask = torch.tensor([[1, 1, 1, 0, 0], [0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [0, 1, 0, 1, 0]])
    assert last_positions(mask).tolist() == [2, 4, 4, 3]


def test_expected_digit_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(3, 40)) * 3
    ids = [5, 7, 9, 11, 13, 15, 17, 19, 21, 23]
    out = expected_digit(torch.tensor(logits), ids)
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    q = p[:, ids] / p[:, ids].sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out.scores, q @ np.arange(10) * 100 / 9, atol=1e-9)
    np.testing.assert_allclose(out.valid_mass, p[:, ids].sum(axis=1), atol=1e-12)
    assert out.argmax == list(q.argmax(axis=1))


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("as_video", [False, True], ids=["images", "video"])
def test_score_is_the_expected_digit_under_either_padding(
    family: str, as_video: bool, request: pytest.FixtureRequest
) -> None:
    model = request.getfixturevalue(family)
    inputs = [_clip(0), _clip(1), _clip(2, frames=6)]
    results = {}
    for side in ("left", "right"):
        judge = _judge(model, as_video=as_video, padding_side=side)
        verdicts = judge.judge_batch(inputs)
        scores, masses = _reference_scores(judge, inputs)
        assert [v.value for v in verdicts] == pytest.approx(scores, abs=1e-6)
        assert [v.diagnostics.valid_mass for v in verdicts] == pytest.approx(masses, abs=1e-6)
        assert all(0 <= v.value <= 100 and v.diagnostics.raw_text in "0123456789" for v in verdicts)
        results[side] = [v.value for v in verdicts]
    assert results["left"] == pytest.approx(results["right"], abs=1e-5)


@pytest.mark.parametrize("family", FAMILIES)
def test_batch_of_many_equals_batch_of_one(family: str, request: pytest.FixtureRequest) -> None:
    judge = _judge(request.getfixturevalue(family))
    inputs = [_clip(0), _clip(1, frames=6), _clip(2)]
    many = judge.judge_batch(inputs)
    for one, verdict in zip(inputs, many, strict=True):
        (alone,) = judge.judge_batch([one])
        assert alone.value == pytest.approx(verdict.value, abs=1e-5)
        assert alone.diagnostics.valid_mass == pytest.approx(verdict.diagnostics.valid_mass, abs=1e-6)


@pytest.mark.parametrize(("family", "patch"), [("tiny_qwen2_vl", 14), ("tiny_qwen3_vl", 16)])
@pytest.mark.parametrize("as_video", [False, True], ids=["images", "video"])
def test_vision_tokens_per_clip(
    family: str, patch: int, as_video: bool, request: pytest.FixtureRequest
) -> None:
    from qwen_vl_utils.vision_process import smart_resize as reference_smart_resize

    judge = _judge(request.getfixturevalue(family), as_video=as_video)
    frames = 6
    batch = judge.encode([_clip(0, frames=frames)])
    factor = 2 * patch
    # qwen-vl-utils' limits: images [4, 16384] factor**2 cells; video frames at least 128 cells
    low, high = (128 * factor**2, 768 * factor**2) if as_video else (4 * factor**2, 16384 * factor**2)
    height, width = reference_smart_resize(56, 84, factor, min_pixels=low, max_pixels=high)
    per_frame = (height // patch) * (width // patch) // 4  # 2x2 patches merged into one token
    # An image is one temporal patch (the frame doubled); a video packs 2 frames per temporal patch.
    expected = frames // 2 * per_frame if as_video else frames * per_frame
    config = judge.model.config
    token = config.video_token_id if as_video else config.image_token_id
    assert int((batch["input_ids"] == token).sum()) == expected


def test_total_pixels_caps_each_video_frame_as_qwen_vl_utils_does(tiny_qwen3_vl: Path) -> None:
    judge = _judge(tiny_qwen3_vl, as_video=True)
    judge.options = dataclasses.replace(judge.options, total_pixels=8 * 32 * 32 * 256, min_pixels=32 * 32 * 4)
    batch = judge.encode([_clip(0, frames=8, size=(1280, 1280))])
    # per-frame cap max(min(768 cells, total_pixels / 8 * 2), 1.05 * min_pixels) = 512 cells of 32 px
    ((t, h, w),) = batch["video_grid_thw"].tolist()
    assert (t, h * 16, w * 16) == (4, 704, 704) and (h // 2) * (w // 2) <= 512
    judge.config = dataclasses.replace(judge.config, max_pixels=1000)  # below the 4-cell floor
    with pytest.raises(ConfigError, match="below the frame floor"):
        judge.encode([_clip(0, frames=8)])


def test_digits_must_be_single_tokens() -> None:
    class Splitter:
        def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
            return [1, 2] if text == "7" else [ord(text)]

    with pytest.raises(ConfigError, match="expected digit '7' to be one token"):
        digit_token_ids(Splitter())


def test_config_errors() -> None:
    with pytest.raises(ConfigError, match="must contain"):
        VlmDigitJudge(JudgeConfig(judge="vlm_digit", prompt_template="Rate it."))
    with pytest.raises(ConfigError, match="padding_side"):
        VlmDigitJudge(JudgeConfig(judge="vlm_digit", options={"padding_side": "middle"}))
    with pytest.raises(ConfigError, match="needs `model:`"):
        VlmDigitJudge(JudgeConfig(judge="vlm_digit")).load("cpu")


def test_missing_model_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"could not load .*no-such-model.*the folder does not exist"):
        _judge(tmp_path / "no-such-model")


def test_runs_through_the_runner_on_the_sample_data(
    sample_data: Path, tiny_qwen2_vl: Path, tmp_path: Path
) -> None:
    from mmjudge.runner import RunOptions, evaluate_judge

    config = JudgeConfig(
        judge="vlm_digit",
        model=str(tiny_qwen2_vl),
        local_files_only=True,
        dtype="float32",
        batch_size=4,
        frames=4,
    )
    (output,) = evaluate_judge(
        "isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False)
    )
    records = [json.loads(line) for line in output.predictions.read_text().splitlines()[1:]]
    assert records and not any(r["no_judgment"] for r in records)
    assert output.scores


def test_runs_through_mmjudge_eval(sample_data: Path, tiny_qwen2_vl: Path, tmp_path: Path) -> None:
    from mmjudge.cli import main

    config = tmp_path / "config.yaml"
    config.write_text(
        f"judge: vlm_digit\nmodel: {tiny_qwen2_vl}\nlocal_files_only: true\ndtype: float32\nframes: 4\n"
        "options:\n  as_video: true\n",
        encoding="utf-8",
    )
    args = [
        "eval",
        "--benchmark",
        "isovrbench",
        "--judge",
        str(config),
        "--data",
        str(sample_data / "isovrbench"),
    ]
    assert main([*args, "--out", str(tmp_path / "out"), "--limit", "4", "--no-progress"]) == 0
    records = [
        json.loads(line) for line in (tmp_path / "out" / "predictions.jsonl").read_text().splitlines()[1:]
    ]
    assert len(records) == 4 and not any(r["no_judgment"] for r in records)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_bfloat16_matches_cpu_float32(tiny_qwen2_vl: Path) -> None:
    inputs = [_clip(0), _clip(1)]
    cpu = [v.value for v in _judge(tiny_qwen2_vl).judge_batch(inputs)]
    config = JudgeConfig(judge="vlm_digit", model=str(tiny_qwen2_vl), local_files_only=True, dtype="bfloat16")
    judge = VlmDigitJudge(config)
    judge.load("cuda:0")
    assert judge.model.device.type == "cuda"
    gpu = [v.value for v in judge.judge_batch(inputs)]
    assert gpu == pytest.approx(cpu, abs=1.0)  # bf16 weights: close, not equal
