"""video_score: VideoScore v1 / v1.1 as TIGER-AI-Lab/VideoScore@8e44973 ``examples/run_videoscore.py`` runs it.

Each test states the official rule as the reference: the prompt (its text is pinned by the SHA-256 of
``REGRESSION_QUERY_PROMPT`` read from that file), the processor call on the raw string, the ``np.arange``
frame rule, and the Mantis head (``score`` on the last non-pad hidden state). A tiny random checkpoint in
VideoScore's key layout (``model.*`` + ``score.*``) is loaded through the judge's real path. Random weights
prove the plumbing, not the scores.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery, load_config, make_judge
from mmjudge.media.video import float_arange_indices, sample_indices
from mmjudge.runner.decode import frame_indices

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from PIL import Image  # noqa: E402

from mmjudge.judges.video_score import (  # noqa: E402
    OUTPUTS,
    REGRESSION_QUERY_PROMPT,
    build_prompt,
    dimension_scores,
)

REPO = Path(__file__).resolve().parents[2]
OFFICIAL_PROMPT_SHA256 = "49b386d9ea3003760c983cc258cf4211faf858d58191f95fcfacdf68a8fed2c0"
"""SHA-256 of ``REGRESSION_QUERY_PROMPT`` (1,163 characters) in ``examples/run_videoscore.py`` at
TIGER-AI-Lab/VideoScore@8e449734 (the same text as ``benchmark/utils_tools.py``)."""
TRICKY = 'He said "it\'s {fine}" & {text_prompt} \\n {0} }{'
"""A prompt with quotes, braces and the placeholder itself."""
TRICKY_FILLED_SHA256 = "9f29ffac9fec30724cbb2c66fede974832b2b1b9af2748273654e61728c322fb"
"""SHA-256 of the official ``REGRESSION_QUERY_PROMPT.format(text_prompt=TRICKY) + "<image> " * 3``."""
RVS_81_48 = [0, 1, 3, 5, 6, 8, 10, 11, 13, 15, 16, 18, 20, 21, 23, 25, 27, 28, 30, 32, 33, 35, 37, 38, 40, 42,
             43, 45, 47, 48, 50, 52, 54, 55, 57, 59, 60, 62, 64, 65, 67, 69, 70, 72, 74, 75, 77, 79]  # fmt: skip
"""The protocol file's worked example: an IsoVRBench clip (81 frames) under v1.1's 48-frame cap."""


def _official_indices(total: int, most: int) -> list[int]:
    """The official rule, stated plainly (RVS lines 71-74)."""
    if total > most:
        return [int(i) for i in np.arange(0, total, total / most).astype(int)]
    return list(range(total))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mmjudge.judges.tiny._videoscore import build_videoscore

    return build_videoscore(tmp_path_factory.mktemp("tiny-videoscore"), seed=0)


@pytest.fixture(scope="module")
def judge(tiny: Path) -> Any:
    return _load(tiny, round=None)


def _load(model: Path, **options: Any) -> Any:
    one = make_judge(JudgeConfig(judge="video_score", model=str(model), local_files_only=True, dtype="float32",
                                 options=options))  # fmt: skip
    one.load("cpu")
    return one


def _clip(i: int, frames: int = 3, prompt: str = "a red cat walks") -> JudgeInput:
    pixels = np.random.default_rng(i).integers(0, 256, (frames, 40, 64, 3), dtype=np.uint8)
    return JudgeInput(
        ScoreQuery(f"c{i}", Path(f"c{i}.mp4"), prompt), frames=pixels, frame_indices=tuple(range(frames))
    )


# --- prompt ---------------------------------------------------------------------------------------------


def test_the_prompt_is_the_official_text_character_for_character() -> None:
    assert hashlib.sha256(REGRESSION_QUERY_PROMPT.encode()).hexdigest() == OFFICIAL_PROMPT_SHA256
    assert len(REGRESSION_QUERY_PROMPT) == 1163
    assert REGRESSION_QUERY_PROMPT.startswith("\nSuppose you are an expert")
    assert "in that sub-score, \nthe lowest" in REGRESSION_QUERY_PROMPT  # the trailing space survives
    assert REGRESSION_QUERY_PROMPT.endswith(
        'prompt is "{text_prompt}",\nall the frames of video are as follows:\n'
    )


def test_a_prompt_with_quotes_and_braces_is_substituted_as_is_then_one_image_per_frame() -> None:
    built = build_prompt(TRICKY, 3)
    assert built == REGRESSION_QUERY_PROMPT.format(text_prompt=TRICKY) + "<image> " * 3  # the official call
    assert hashlib.sha256(built.encode()).hexdigest() == TRICKY_FILLED_SHA256
    assert built.endswith('"He said "it\'s {fine}" & {text_prompt} \\n {0} }{",\nall the frames of video are as '
                          "follows:\n<image> <image> <image> ")  # fmt: skip


def test_image_tags_in_the_text_count_towards_the_frames_as_in_the_official_code() -> None:
    assert build_prompt("a <image> here", 3).endswith('"a <image> here",\nall the frames of video are as follows:\n'
                                                      "<image> <image> ")  # fmt: skip


# --- frames ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "most"), [(81, 48), (81, 16), (30, 48), (48, 48), (49, 48), (208, 48), (1, 16)]
)
def test_frame_indices_follow_the_official_arange_rule(total: int, most: int) -> None:
    expected = _official_indices(total, most)
    assert float_arange_indices(total, most) == expected
    assert sample_indices(total, 16.0, num=most, policy="float_arange") == expected


def _official_decoded_frames(total: int, most: int) -> list[int]:
    """The frames the official code keeps (RVS lines 9-22 and 69-74): indices from the container's frame count,
    then ``for i, frame in enumerate(container.decode(...))``, keeping frame ``i`` when ``i in indices`` (the
    loop's ``break`` past ``indices[-1]`` and its ``i >= indices[0]`` test change nothing): a clip decodes
    frames ``0 .. total - 1``, so an index equal to ``total`` is never reached."""
    indices = np.arange(0, total, total / most).astype(int) if total > most else np.arange(total)
    decoded = np.arange(total)
    return decoded[np.isin(decoded, indices)].tolist()


def test_frame_indices_equal_the_official_decoded_frames_on_every_length_and_cap() -> None:
    differ = [
        (total, most)
        for most in range(1, 129)
        for total in range(1, 2001)
        if float_arange_indices(total, most) != _official_decoded_frames(total, most)
    ]
    assert differ == []


def test_frames_at_a_cap_that_float_rounding_overshoots_are_the_cap() -> None:
    assert len(np.arange(0, 138, 138 / 100)) == 101  # the official index list ends on 138 itself
    assert float_arange_indices(138, 100) == _official_decoded_frames(138, 100)
    assert len(float_arange_indices(138, 100)) == 100
    assert len(sample_indices(138, 16.0, num=100, policy="float_arange")) == 100


def test_frame_indices_worked_examples_of_the_protocol() -> None:
    assert float_arange_indices(81, 48) == RVS_81_48
    assert float_arange_indices(81, 16) == list(range(0, 80, 5))
    assert float_arange_indices(30, 48) == list(range(30))
    assert sample_indices(208, 16.0, num=48, policy="arange")[27] == 117  # the integer rule differs here
    assert float_arange_indices(208, 48)[27] == 116


def test_the_judge_asks_the_runner_for_the_official_frames() -> None:
    v11 = make_judge(load_config(REPO / "judges" / "video_score" / "config.yaml"))
    v1 = make_judge(load_config(REPO / "judges" / "video_score" / "v1.yaml"))
    assert frame_indices(81, 16.0, v11.media_request()) == RVS_81_48
    assert frame_indices(81, 16.0, v1.media_request()) == list(range(0, 80, 5))
    assert v11.config.model == "TIGER-Lab/VideoScore-v1.1" and v1.config.model == "TIGER-Lab/VideoScore"
    swept = make_judge(dataclasses.replace(v11.config, frames=16))  # a --frames sweep replaces the cap
    assert frame_indices(81, 16.0, swept.media_request()) == list(range(0, 80, 5))


def test_a_rate_or_a_pixel_cap_is_refused() -> None:
    for key, value in (("fps", 2.0), ("max_pixels", 1000)):
        with pytest.raises(ConfigError, match=f"takes no `{key}`"):
            make_judge(JudgeConfig(judge="video_score", model="m", **{key: value}))


# --- inputs ---------------------------------------------------------------------------------------------


def test_input_ids_equal_the_official_recipe_on_the_processor(judge: Any) -> None:
    one = _clip(0, frames=3, prompt=TRICKY)
    ours = judge.encode([one])
    frames = [Image.fromarray(f) for f in one.frames]
    text = REGRESSION_QUERY_PROMPT.format(text_prompt=TRICKY) + "<image> " * len(frames)
    reference = judge.processor(text=text, images=frames, return_tensors="pt")
    assert set(ours) == set(reference)
    for key in reference:
        assert torch.equal(ours[key], reference[key]), key
    tokens = judge.processor.tokenizer.convert_ids_to_tokens(ours["input_ids"][0].tolist())
    assert tokens[0] == "<s>" and tokens.count("<fake_token_around_image>") == 2 * 3
    assert tokens[-2:] == ["<fake_token_around_image>", "Ġ"]  # the trailing space after the last image block
    assert judge.processor.image_processor.do_image_splitting is False
    assert type(judge.processor.image_processor).__name__ == "Idefics2ImageProcessorPil"


# --- head -----------------------------------------------------------------------------------------------


def _plain_outputs(model_dir: Path, batch: dict[str, Any]) -> Any:
    """``head(Idefics2Model(...).last_hidden_state[0, -1])``, with the head read from the safetensors file."""
    from safetensors.torch import load_file
    from transformers import Idefics2Model

    backbone = Idefics2Model.from_pretrained(model_dir, local_files_only=True, dtype=torch.float32).eval()
    weights = load_file(model_dir / "model.safetensors")
    with torch.no_grad():
        hidden = backbone(**batch).last_hidden_state[0, -1]
    return hidden @ weights["score.weight"].T + weights["score.bias"]


def test_the_five_outputs_are_the_head_at_the_last_token(judge: Any, tiny: Path) -> None:
    one = _clip(1, frames=4)
    [verdict] = judge.judge_batch([one])
    ours = torch.tensor([verdict.diagnostics.extra["outputs"][k] for k in OUTPUTS], dtype=torch.float32)
    expected = _plain_outputs(tiny, dict(judge.encode([one])))
    assert torch.allclose(ours, expected, atol=1e-5, rtol=0), (ours, expected)
    assert verdict.value == dimension_scores(ours.tolist())


def test_a_right_padded_batch_equals_one_clip_at_a_time(judge: Any) -> None:
    clips = [
        _clip(2, frames=4, prompt="a cat"),
        _clip(3, frames=4, prompt="a dog runs on the beach at sunset"),
        _clip(4, frames=2, prompt="a bird"),  # another frame count: a batch of its own
    ]
    [(group, batch), (alone, _)] = judge.batches(clips)
    assert (group, alone) == ([0, 1], [2])
    lengths = batch["attention_mask"].sum(dim=-1).tolist()
    assert lengths[0] < lengths[1] and batch["attention_mask"][0, -1] == 0  # the first row is padded
    together = [v.diagnostics.extra["outputs"] for v in judge.judge_batch(clips)]
    alone = [judge.judge_batch([c])[0].diagnostics.extra["outputs"] for c in clips]
    for a, b in zip(together, alone, strict=True):
        assert np.allclose([a[k] for k in OUTPUTS], [b[k] for k in OUTPUTS], atol=1e-5, rtol=0)


# --- verdict --------------------------------------------------------------------------------------------


def test_dimension_mapping_and_overall() -> None:
    outputs = [1.0, 2.0, 3.0, 4.0, 5.5]  # visual, temporal, dynamic, text-to-video, factual
    assert dimension_scores(outputs) == {"VQ": 1.0, "MQ": 2.0, "TA": 4.0, "overall": 3.1}
    rounded = dimension_scores([2.2974, 2.4691, 2.9063, 2.7656, 2.5161], 3)
    assert rounded == {"VQ": 2.297, "MQ": 2.469, "TA": 2.766, "overall": 2.5908}
    # equal sums of rounded outputs tie exactly
    assert (
        dimension_scores([0.1, 0.2, 0.3, 0.7, 0.4], 3)["overall"]
        == dimension_scores([0.3, 0.2, 0.1, 0.7, 0.4], 3)["overall"]
    )


def test_the_verdict_rounds_to_three_decimals_by_default_and_keeps_the_raw_outputs(tiny: Path) -> None:
    rounding = _load(tiny)
    [verdict] = rounding.judge_batch([_clip(4)])
    raw = [verdict.diagnostics.extra["outputs"][k] for k in OUTPUTS]
    assert verdict.value == dimension_scores(raw, 3)
    assert verdict.value["VQ"] == round(raw[0], 3) and verdict.value["TA"] == round(raw[3], 3)
    assert verdict.diagnostics.extra["frames"] == 3


def test_a_clip_without_frames_fails_alone(judge: Any) -> None:
    empty = JudgeInput(ScoreQuery("e", Path("e.mp4"), "x"), frames=np.zeros((0, 8, 8, 3), dtype=np.uint8))
    failed, ok = judge.judge_batch([empty, _clip(5)])
    assert failed.no_judgment and "no video frames" in (failed.error or "")
    assert not ok.no_judgment


# --- checkpoint -----------------------------------------------------------------------------------------


def _edit_checkpoint(tiny: Path, out: Path, drop: tuple[str, ...] = (), add: tuple[str, ...] = ()) -> Path:
    from safetensors.torch import load_file, save_file

    shutil.copytree(tiny, out)
    weights = load_file(out / "model.safetensors")
    kept = {k: v for k, v in weights.items() if k not in drop} | {k: torch.zeros(1) for k in add}
    save_file(kept, out / "model.safetensors", metadata={"format": "pt"})
    return out


def test_the_checkpoint_uses_mantis_key_layout(tiny: Path) -> None:
    from safetensors import safe_open

    with safe_open(tiny / "model.safetensors", "pt") as f:
        keys = set(f.keys())
    assert {"score.weight", "score.bias"} <= keys
    assert {k.split(".")[1] for k in keys - {"score.weight", "score.bias"}} == {
        "vision_model",
        "connector",
        "text_model",
    }


def test_missing_head_keys_are_refused(tiny: Path, tmp_path: Path) -> None:
    bad = _edit_checkpoint(tiny, tmp_path / "no-head", drop=("score.weight", "score.bias"))
    with pytest.raises(ConfigError, match=r"missing keys \['score.bias', 'score.weight'\]"):
        _load(bad)


def test_unexpected_keys_are_refused(tiny: Path, tmp_path: Path) -> None:
    bad = _edit_checkpoint(tiny, tmp_path / "extra", add=("lm_head.weight",))
    with pytest.raises(ConfigError, match=r"unexpected keys \['lm_head.weight'\]"):
        _load(bad)


# --- a run ----------------------------------------------------------------------------------------------


def test_a_run_on_the_isovrbench_sample_data_has_no_failed_item(
    tiny: Path, sample_data: Path, tmp_path: Path
) -> None:
    from mmjudge.runner import RunOptions, run_judge

    config = JudgeConfig(judge="video_score", model=str(tiny), local_files_only=True, dtype="float32",
                         batch_size=2, options={"max_frames": 48})  # fmt: skip
    result = run_judge("isovrbench", config, sample_data / "isovrbench", tmp_path / "out",
                       RunOptions(limit=2, progress=False))  # fmt: skip
    [verdicts] = result.verdicts.values()
    failed = [(v.item_id, v.error) for v in verdicts if v.no_judgment]
    assert verdicts and not failed, failed[:3]
    for verdict in verdicts:
        assert set(verdict.value) == {"VQ", "MQ", "TA", "overall"}
        assert verdict.diagnostics.extra["frames"] == 48  # 81-frame clips under the 48-frame cap


def test_the_decode_workers_prepare_the_inputs_and_verdicts_do_not_change(
    tiny: Path, sample_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``decode_workers`` the forked workers call ``model_inputs`` (the official processor call); the
    judging process only batches the tensors, and every verdict equals the one made without workers."""
    import os

    from mmjudge.judges.video_score import VideoScoreJudge
    from mmjudge.runner import RunOptions, run_judge

    calls = tmp_path / "encode-calls"
    calls.mkdir()
    original = VideoScoreJudge.encode

    def recorded(self: Any, inputs: Any) -> Any:
        (calls / f"{os.getpid()}-{os.urandom(4).hex()}").touch()
        return original(self, inputs)

    monkeypatch.setattr(VideoScoreJudge, "encode", recorded)
    config = JudgeConfig(judge="video_score", model=str(tiny), local_files_only=True, dtype="float32",
                         batch_size=2, frames=4)  # fmt: skip
    verdicts = {}
    for workers in (0, 2):
        run = RunOptions(limit=3, decode_workers=workers, progress=False)
        result = run_judge("isovrbench", config, sample_data / "isovrbench", tmp_path / f"out-{workers}", run)
        [verdicts[workers]] = result.verdicts.values()
        pids = {int(p.name.split("-")[0]) for p in calls.iterdir()}
        assert pids and (pids == {os.getpid()} if workers == 0 else os.getpid() not in pids), pids
        for path in calls.iterdir():
            path.unlink()
    assert len(verdicts[0]) >= 3 and not any(v.no_judgment for v in verdicts[0])
    assert [(v.item_id, v.value, v.diagnostics.extra) for v in verdicts[2]] == [
        (v.item_id, v.value, v.diagnostics.extra) for v in verdicts[0]
    ]
