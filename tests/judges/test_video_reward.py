"""video_reward: VideoAlign sampling, token counts, marker heads, z-score and sum, checkpoint loading.

Random tiny weights prove the plumbing, not the scores. Each checkpoint test writes a VideoAlign folder
from an in-memory reward model (legacy key names, as released) and checks that the judge, loading it
through its real path, scores exactly like the in-memory model.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.errors import ConfigError, MediaError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery
from mmjudge.runner.decode import frame_indices

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from mmjudge.judges._videoalign_ckpt import (  # noqa: E402
    LoraSettings,
    VideoAlignSettings,
    read_settings,
    remap_legacy_keys,
    save_checkpoint,
    to_legacy_keys,
    wrap_lora,
)
from mmjudge.judges.profiles import VIDEOALIGN  # noqa: E402
from mmjudge.judges.video_reward import MARKERS, VideoRewardJudge, reward_scores  # noqa: E402

MEANS = {"VQ": 0.1, "MQ": -0.2, "TA": 0.3}
STDS = {"VQ": 2.0, "MQ": 0.5, "TA": 1.5}
LORA = LoraSettings(r=4, alpha=8.0, exclude=("lm_head", "rm_head", "embed_tokens", "visual"))


def _clip(i: int, frames: int = 4, size: tuple[int, int] = (56, 84), seed: int = 0) -> JudgeInput:
    rng = np.random.default_rng(seed + i)
    pixels = rng.integers(0, 256, (frames, *size, 3), dtype=np.uint8)
    item = ScoreQuery(f"c{i}", Path(f"c{i}.mp4"), "a red cat walks on the beach" + " at sunset" * i)
    return JudgeInput(query=item, frames=pixels, frame_indices=tuple(range(frames)), fps=16.0)


def _config(base: Path, checkpoint: Path | None = None, **options: Any) -> JudgeConfig:
    opts = {"min_pixels": 3136, **options}
    if checkpoint is not None:
        opts["checkpoint"] = str(checkpoint)
    return JudgeConfig(
        judge="video_reward", model=str(base), local_files_only=True, dtype="float32", options=opts
    )


def _write_checkpoint(
    base: Path, folder: Path, output_dim: int, lora: bool, *, lora_as_full: bool = False
) -> tuple[Any, Any, VideoAlignSettings]:
    """A random reward model (LoRA B non-zero) saved as a legacy VideoAlign folder; returns the model in memory.

    ``lora_as_full`` writes the LoRA-wrapped model's whole state dict as ``model.pth`` instead of adapter files.
    """
    settings = VideoAlignSettings(
        output_dim=output_dim,
        lora=LORA if lora else None,
        means=MEANS,
        stds=STDS,
        data={"fps": 2.0, "max_frame_pixels": 200_704},
    )
    model, processor = VideoRewardJudge(_config(base, folder)).build_model("cpu", settings)
    torch.manual_seed(1)
    torch.nn.init.normal_(model.rm_head.weight)
    if lora:
        model = wrap_lora(model, LORA)
        for name, param in model.named_parameters():
            if "lora_B" in name:
                torch.nn.init.normal_(param, std=0.1)
    save_checkpoint(model, folder, settings)
    if lora_as_full:
        for path in (folder / "checkpoint-1").iterdir():
            path.unlink()
        torch.save(to_legacy_keys(model.state_dict()), folder / "checkpoint-1" / "model.pth")
    return (model.merge_and_unload() if lora else model), processor, settings


def _in_memory_judge(
    base: Path, folder: Path, model: Any, processor: Any, settings: VideoAlignSettings
) -> Any:
    judge = VideoRewardJudge(_config(base, folder))
    judge.model, judge.processor, judge.settings = model, processor, settings
    judge.marker_ids = {d: int(processor.tokenizer.convert_tokens_to_ids(m)) for d, m in MARKERS.items()}
    return judge


@pytest.fixture(scope="module")
def full_checkpoint(tiny_qwen2_vl: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("videoalign-full")
    _write_checkpoint(tiny_qwen2_vl, folder, 1, lora=False)
    return folder


@pytest.fixture(scope="module")
def judge(tiny_qwen2_vl: Path, full_checkpoint: Path) -> Any:
    loaded = VideoRewardJudge(_config(tiny_qwen2_vl, full_checkpoint))
    loaded.load("cpu")
    return loaded


# --- sampling ---------------------------------------------------------------------------------------


def videoalign_smart_nframes(ele: dict[str, Any], total_frames: int, video_fps: float) -> int:
    """VideoAlign's vendored ``vision_process.smart_nframes`` (KwaiVGI/VideoAlign@219ab9d), as its code states it."""
    if "nframes" in ele:
        nframes = round(ele["nframes"] / 2) * 2
    else:
        fps = ele.get("fps", 2.0)
        min_frames = math.ceil(ele.get("min_frames", 4) / 2) * 2
        max_frames = math.floor(ele.get("max_frames", min(768, total_frames)) / 2) * 2
        nframes = total_frames / video_fps * fps
        nframes = min(max(nframes, min_frames), max_frames)
        nframes = round(nframes / 2) * 2
    if nframes > total_frames:
        nframes = total_frames
    if not (2 <= nframes <= total_frames):
        raise ValueError(f"nframes should in interval [2, {total_frames}], but got {nframes}.")
    return nframes


def videoalign_frame_size(height: int, width: int, nframes: int, ele: dict[str, Any]) -> tuple[int, int]:
    """VideoAlign's ``fetch_video`` size: its ``VIDEO_*`` constants and its ``smart_resize`` (factor 28)."""
    factor = 28
    min_pixels = ele.get("min_pixels", 128 * 28 * 28)
    total_pixels = ele.get("total_pixels", 24576 * 28 * 28)
    max_pixels = max(min(768 * 28 * 28, total_pixels / nframes * 2), int(min_pixels * 1.05))
    max_pixels = ele.get("max_pixels", max_pixels)  # VideoAlign's inference always passes max_frame_pixels
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def test_frame_indices_follow_videoalign() -> None:
    judge = VideoRewardJudge(JudgeConfig(judge="video_reward"))
    request = judge.media_request(ScoreQuery("c", Path("c.mp4"), "p"))
    assert (request.target_fps, request.profile, judge.max_pixels) == (2.0, VIDEOALIGN, 200_704)
    assert frame_indices(81, 16.0, request) == [0, 9, 18, 27, 36, 44, 53, 62, 71, 80]
    checked = 0
    for total, fps in itertools.product([*list(range(1, 130)), 300, 3000], (2.0, 8.0, 16.0, 24.0, 29.97, 60.0)):
        for frames, rate in [(None, 2.0), (None, 0.5), (None, 4.0), *((n, None) for n in (1, 2, 3, 5, 8, 16, 33))]:
            ele = {"fps": rate} if frames is None else {"nframes": frames}
            config = JudgeConfig(judge="video_reward", frames=frames, fps=rate)
            ask = VideoRewardJudge(config).media_request(ScoreQuery("c", Path("c.mp4"), "p"))
            try:
                n = videoalign_smart_nframes(ele, total, fps)
            except ValueError:
                with pytest.raises(MediaError):
                    frame_indices(total, fps, ask)
                continue
            expected = torch.linspace(0, total - 1, n).round().long().tolist()
            assert frame_indices(total, fps, ask) == expected, (total, fps, ele)
            checked += 1
    assert checked > 7000


def test_frame_sizes_follow_videoalign() -> None:
    sides = [28, 32, 48, 90, 240, 333, 480, 608, 704, 832, 1080, 1280, 1920]
    for height, width, n in itertools.product(sides, sides, (2, 4, 10, 160, 768)):
        for ele in ({"max_pixels": 200_704}, {"max_pixels": 76_800}, {"max_pixels": 200_704, "min_pixels": 3136}, {}):
            got = VIDEOALIGN.video_size(
                height, width, n, 28, min_pixels=ele.get("min_pixels"), max_pixels=ele.get("max_pixels")
            )
            assert got == videoalign_frame_size(height, width, n, ele), (height, width, n, ele)


def test_a_small_clip_is_resized_once_with_videoaligns_kernel(judge: Any, tmp_path: Path) -> None:
    """Decoded by the runner at full size, a 32x48 clip is resized once, when the judge encodes it, to VideoAlign's
    size for the model's factor, with torchvision's kernel: the processor gets exactly those frames."""
    from torchvision.transforms import InterpolationMode
    from torchvision.transforms import functional as tvf

    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip
    from mmjudge.media.video import read_all
    from mmjudge.runner.decode import decode_query

    clip = write_video(tmp_path / "small.mp4", moving_texture_clip(21, 32, 48, seed=5), fps=16)
    item = ScoreQuery("c", clip, "p")
    judge_input = decode_query(item, [judge.media_request(item)]).input(0)
    n = videoalign_smart_nframes({"fps": 2.0}, 21, 16.0)
    indices = torch.linspace(0, 20, n).round().long().tolist()
    source = read_all(clip)[indices]
    assert judge_input.frame_indices == tuple(indices) and judge_input.frame_size == (32, 48)
    np.testing.assert_array_equal(judge_input.frames, source)  # full size from the runner
    height, width = videoalign_frame_size(32, 48, n, {"max_pixels": 200_704, "min_pixels": 3136})
    resized = tvf.resize(torch.from_numpy(source).permute(0, 3, 1, 2), [height, width],
                         interpolation=InterpolationMode.BICUBIC, antialias=True)  # fmt: skip
    expected = judge.processor.video_processor(
        videos=[resized.permute(0, 2, 3, 1).numpy()], do_resize=False, do_sample_frames=False, return_tensors="pt"
    )
    ours = judge.encode_one(judge_input)
    assert torch.equal(ours["video_grid_thw"], expected["video_grid_thw"])
    assert torch.equal(ours["pixel_values_videos"], expected["pixel_values_videos"])


def test_frames_setting_samples_a_fixed_even_count() -> None:
    judge = VideoRewardJudge(JudgeConfig(judge="video_reward", frames=16, max_pixels=50_000))
    request = judge.media_request(ScoreQuery("c", Path("c.mp4"), "p"))
    assert (request.num_frames, request.target_fps, judge.max_pixels) == (16, None, 50_000)
    assert frame_indices(81, 16.0, request) == torch.linspace(0, 80, 16).round().long().tolist()


# --- tokens -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("min_pixels", "size"), [(3136, (56, 84)), (100_352, (56, 84)), (3136, (130, 250))])
def test_video_tokens_per_clip(judge: Any, min_pixels: int, size: tuple[int, int]) -> None:
    from mmjudge.media.resize import smart_resize

    judge = _with_options(judge, min_pixels=min_pixels)
    batch = judge.encode([_clip(0, frames=6, size=size)])
    height, width = smart_resize(*size, 28, min_pixels=min_pixels, max_pixels=200_704)
    # Qwen2-VL: 14-px patches, 2 frames per temporal patch, 2x2 patches merged into one token.
    expected = (6 // 2) * (height // 14) * (width // 14) // 4
    video_id = judge.model.config.video_token_id
    assert int((batch["input_ids"] == video_id).sum()) == expected
    assert batch["video_grid_thw"].tolist() == [[3, height // 14, width // 14]]
    assert "mm_token_type_ids" in batch  # transformers 5 needs it for M-RoPE with video
    for marker in MARKERS.values():
        assert int((batch["input_ids"] == judge.processor.tokenizer.convert_tokens_to_ids(marker)).sum()) == 1


def _with_options(judge: Any, **options: Any) -> Any:
    import copy
    import dataclasses

    clone = copy.copy(judge)
    clone.options = dataclasses.replace(judge.options, **options)
    return clone


# --- rewards ----------------------------------------------------------------------------------------


def test_reward_scores_z_score_and_sum() -> None:
    raw = {"VQ": 1.3, "MQ": -0.7, "TA": 2.2}
    z = {d: (raw[d] - MEANS[d]) / STDS[d] for d in raw}
    out = reward_scores(raw, MEANS, STDS)
    assert out == pytest.approx({**z, "overall": z["VQ"] + z["MQ"] + z["TA"]}, abs=1e-12)
    assert reward_scores(raw) == pytest.approx({**raw, "overall": sum(raw.values())}, abs=1e-12)


def test_verdicts_are_z_scored_raw_heads_read_at_the_markers(judge: Any) -> None:
    from mmjudge.judges._hf import to_device

    inputs = [_clip(0), _clip(1)]
    verdicts = judge.judge_batch(inputs)
    batch = to_device(judge.encode(inputs), "cpu")
    length = batch["input_ids"].shape[1]
    # VideoAlign's backbone call under transformers 4.45: position_ids=None -> 0..L-1 on all three axes
    sequential = torch.arange(length).view(1, 1, -1).expand(3, len(inputs), -1)
    with torch.no_grad():
        hidden = judge.model.model(**batch, position_ids=sequential).last_hidden_state
    weight = judge.model.rm_head.weight.detach().double()  # output_dim 1: one row
    for row, verdict in enumerate(verdicts):
        raw = {}
        for dim, marker in MARKERS.items():
            (position,) = (
                batch["input_ids"][row] == judge.processor.tokenizer.convert_tokens_to_ids(marker)
            ).nonzero()
            raw[dim] = float(hidden[row, int(position)].double() @ weight[0])
        assert verdict.diagnostics.extra["raw"] == pytest.approx(raw, abs=1e-5)
        z = {d: (raw[d] - MEANS[d]) / STDS[d] for d in raw}
        assert verdict.value == pytest.approx({**z, "overall": sum(z.values())}, abs=1e-5)
        assert verdict.diagnostics.extra["normalized"] is True


def test_mrope_positions_are_transformers_own(judge: Any) -> None:
    from mmjudge.judges._hf import to_device

    inputs = [_clip(0)]
    batch = to_device(judge.encode(inputs), "cpu")
    with torch.no_grad():
        default = judge.model.model(**batch).last_hidden_state
    mrope = _with_options(judge, positions="mrope").raw_rewards(batch)
    sequential = judge.raw_rewards(batch)
    marker = judge.processor.tokenizer.convert_tokens_to_ids(MARKERS["VQ"])
    (position,) = (batch["input_ids"][0] == marker).nonzero()
    by_hand = float(default[0, int(position)].double() @ judge.model.rm_head.weight.detach().double()[0])
    assert float(mrope[0, 0]) == pytest.approx(by_hand, abs=1e-5)
    assert abs(float(mrope[0, 0]) - float(sequential[0, 0])) > 1e-6  # the scheme matters on video tokens
    with pytest.raises(ConfigError, match="positions"):
        VideoRewardJudge(JudgeConfig(judge="video_reward", options={"positions": "rope"}))


def test_use_norm_false_keeps_raw_rewards(judge: Any) -> None:
    (verdict,) = _with_options(judge, use_norm=False).judge_batch([_clip(0)])
    raw = verdict.diagnostics.extra["raw"]
    assert verdict.value == pytest.approx({**raw, "overall": sum(raw.values())}, abs=1e-12)


def test_batch_of_many_equals_batch_of_one(judge: Any) -> None:
    inputs = [_clip(i, frames=4 + 2 * (i % 2)) for i in range(3)]
    many = judge.judge_batch(inputs)
    for one, verdict in zip(inputs, many, strict=True):
        (alone,) = judge.judge_batch([one])
        assert alone.item_id == verdict.item_id
        assert alone.value == pytest.approx(verdict.value, abs=1e-5)


# --- checkpoints ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("output_dim", "lora"), [(1, False), (3, False), (1, True), (3, True)])
def test_checkpoint_loads_like_the_model_that_wrote_it(
    tiny_qwen2_vl: Path, tmp_path: Path, output_dim: int, lora: bool
) -> None:
    folder = tmp_path / "ckpt"
    model, processor, settings = _write_checkpoint(tiny_qwen2_vl, folder, output_dim, lora)
    files = sorted(p.name for p in (folder / "checkpoint-1").iterdir())
    assert files == (["adapter_model.safetensors", "non_lora_state_dict.pth"] if lora else ["model.pth"])
    written = _saved_keys(folder / "checkpoint-1")
    assert not any(".visual." in k or "language_model" in k for k in written)  # legacy names on disk
    assert any(k.removeprefix("base_model.model.").startswith("visual.") for k in written) != lora
    assert read_settings(folder) == settings
    inputs = [_clip(0), _clip(1)]
    expected = _in_memory_judge(tiny_qwen2_vl, folder, model, processor, settings).judge_batch(inputs)
    loaded = VideoRewardJudge(_config(tiny_qwen2_vl, folder))
    loaded.load("cpu")
    got = loaded.judge_batch(inputs)
    for a, b in zip(expected, got, strict=True):
        assert b.value == pytest.approx(a.value, abs=1e-5)
    base_only, _ = VideoRewardJudge(_config(tiny_qwen2_vl, folder)).build_model("cpu", settings)
    assert not torch.equal(base_only.rm_head.weight, loaded.model.rm_head.weight)  # the head was loaded


def test_lora_model_saved_whole_as_model_pth(tiny_qwen2_vl: Path, tmp_path: Path) -> None:
    folder = tmp_path / "ckpt"
    model, processor, settings = _write_checkpoint(tiny_qwen2_vl, folder, 3, lora=True, lora_as_full=True)
    written = _saved_keys(folder / "checkpoint-1")
    assert any("lora_A.default" in k for k in written) and any(
        k.startswith("base_model.model.visual.") for k in written
    )
    inputs = [_clip(0), _clip(1)]
    expected = _in_memory_judge(tiny_qwen2_vl, folder, model, processor, settings).judge_batch(inputs)
    loaded = VideoRewardJudge(_config(tiny_qwen2_vl, folder))
    loaded.load("cpu")
    for a, b in zip(expected, loaded.judge_batch(inputs), strict=True):
        assert b.value == pytest.approx(a.value, abs=1e-5)


def test_markers_missing_from_the_base_tokenizer_are_added(tmp_path: Path) -> None:
    from tiny_models import build_qwen2_vl
    from transformers import AutoTokenizer

    base = build_qwen2_vl(tmp_path / "stock", reward_markers=False)
    stock = AutoTokenizer.from_pretrained(base, local_files_only=True)
    assert not any(m in stock.get_vocab() for m in MARKERS.values())
    folder = tmp_path / "ckpt"
    model, processor, settings = _write_checkpoint(base, folder, 1, lora=False)
    vocab = processor.tokenizer.get_vocab()
    assert all(m in vocab for m in MARKERS.values())
    assert model.get_input_embeddings().weight.shape[0] == len(processor.tokenizer)
    loaded = VideoRewardJudge(_config(base, folder))
    loaded.load("cpu")
    inputs = [_clip(0)]
    (expected,) = _in_memory_judge(base, folder, model, processor, settings).judge_batch(inputs)
    (got,) = loaded.judge_batch(inputs)
    assert got.value == pytest.approx(expected.value, abs=1e-5)
    batch = loaded.encode(inputs)
    for marker in MARKERS.values():  # each marker is one token, not split into pieces
        assert (
            int((batch["input_ids"] == loaded.processor.tokenizer.convert_tokens_to_ids(marker)).sum()) == 1
        )


def _saved_keys(checkpoint: Path) -> list[str]:
    keys: list[str] = []
    for path in checkpoint.iterdir():
        if path.suffix == ".pth":
            keys += list(torch.load(path, weights_only=True))
        else:
            from safetensors.torch import load_file

            keys += list(load_file(str(path)))
    return keys


def test_legacy_key_remap_round_trip(judge: Any) -> None:
    state = judge.model.state_dict()
    legacy = to_legacy_keys(state)
    assert "visual.patch_embed.proj.weight" in legacy and "model.layers.0.mlp.up_proj.weight" in legacy
    assert "model.embed_tokens.weight" in legacy and "lm_head.weight" in legacy and "rm_head.weight" in legacy
    assert remap_legacy_keys(legacy).keys() == state.keys()
    assert all(remap_legacy_keys(legacy)[k] is v for k, v in state.items())
    assert remap_legacy_keys(state).keys() == state.keys()  # new names are left alone
    prefixed = {f"base_model.model.{k}": v for k, v in legacy.items()}
    assert set(remap_legacy_keys(prefixed)) == {f"base_model.model.{k}" for k in state}


def test_a_foreign_checkpoint_is_refused_with_the_keys(
    tiny_qwen2_vl: Path, full_checkpoint: Path, tmp_path: Path
) -> None:
    import shutil

    folder = tmp_path / "ckpt"
    shutil.copytree(full_checkpoint, folder)
    path = folder / "checkpoint-1" / "model.pth"
    state = torch.load(path, weights_only=True)
    state["rm_head.extra.weight"] = torch.zeros(1)
    torch.save(state, path)
    with pytest.raises(ConfigError, match=r"1 checkpoint keys match no parameter.*rm_head\.extra\.weight"):
        VideoRewardJudge(_config(tiny_qwen2_vl, folder)).load("cpu")


def test_missing_paths_give_clear_errors(tiny_qwen2_vl: Path, full_checkpoint: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"needs options\.checkpoint"):
        VideoRewardJudge(_config(tiny_qwen2_vl)).load("cpu")
    with pytest.raises(ConfigError, match=r"model_config\.json.*no such folder"):
        VideoRewardJudge(_config(tiny_qwen2_vl, tmp_path / "nowhere")).load("cpu")
    with pytest.raises(ConfigError, match="does not exist"):
        VideoRewardJudge(_config(tmp_path / "no-model", full_checkpoint)).load("cpu")
    with pytest.raises(ConfigError, match=r"could not fetch the checkpoint 'someone/no-such-reward-model'"):
        VideoRewardJudge(_config(tiny_qwen2_vl, Path("someone/no-such-reward-model"))).load("cpu")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "model_config.json").write_text(json.dumps({"model_config": {}}))
    with pytest.raises(ConfigError, match="checkpoint-<step>"):
        VideoRewardJudge(_config(tiny_qwen2_vl, tmp_path / "empty")).load("cpu")


def test_bad_options_and_prompts_are_refused() -> None:
    with pytest.raises(ConfigError, match="expected keys"):
        VideoRewardJudge(JudgeConfig(judge="video_reward", options={"means": {"VQ": 0.0}}))
    with pytest.raises(ConfigError, match="must contain"):
        VideoRewardJudge(JudgeConfig(judge="video_reward", prompt_template="no placeholder"))
    official_style = "Textual prompt - {text_prompt} <|VQ_reward|> <|MQ_reward|> <|TA_reward|>"
    assert (
        "{prompt}"
        in VideoRewardJudge(JudgeConfig(judge="video_reward", prompt_template=official_style)).template
    )


# --- end to end -------------------------------------------------------------------------------------


def test_runs_through_the_runner_on_the_sample_data(
    sample_data: Path, tiny_qwen2_vl: Path, full_checkpoint: Path, tmp_path: Path
) -> None:
    from mmjudge.benchmarks.isovrbench.queries import DIMENSION_HEADS
    from mmjudge.runner import RunOptions, evaluate_judge

    config = JudgeConfig(
        judge="video_reward",
        model=str(tiny_qwen2_vl),
        local_files_only=True,
        dtype="float32",
        batch_size=4,
        fps=2.0,
        options={"checkpoint": str(full_checkpoint), "min_pixels": 3136},
    )
    (output,) = evaluate_judge(
        "isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False)
    )
    records = [json.loads(line) for line in output.predictions.read_text().splitlines()[1:]]
    assert records and not any(r["no_judgment"] for r in records)
    assert output.scores  # scored by the benchmark core
    cache = "\n".join(p.read_text() for p in (tmp_path / "run" / "cache").glob("*.jsonl"))
    assert all(head in cache for head in ("VQ", "MQ", "TA", "overall"))
    assert set(DIMENSION_HEADS.values()) == {"VQ", "MQ", "TA", "overall"}


