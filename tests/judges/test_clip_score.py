"""clip_score: the PickScore-style rule written out against the judge, batching, errors, a runner run.

A tiny random CLIP (random weights prove the plumbing, not the scores), loaded back through the
judge's real loading path.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery
from mmjudge.runner.decode import frame_indices

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from mmjudge.judges.clip_score import ClipScoreJudge, clip_scores  # noqa: E402


def _clip(i: int, frames: int = 3) -> JudgeInput:
    pixels = np.random.default_rng(i).integers(0, 256, (frames, 48, 80, 3), dtype=np.uint8)
    item = ScoreQuery(f"c{i}", Path(f"c{i}.mp4"), "a blue dog walks" + " in the city" * i)
    return JudgeInput(query=item, frames=pixels, frame_indices=tuple(range(frames)), fps=16.0)


@pytest.fixture(scope="module")
def judge(tiny_clip: Path) -> ClipScoreJudge:
    loaded = ClipScoreJudge(
        JudgeConfig(judge="clip_score", model=str(tiny_clip), local_files_only=True, dtype="float32")
    )
    loaded.load("cpu")
    return loaded


def test_default_request_is_eight_uniform_frames() -> None:
    request = ClipScoreJudge(JudgeConfig(judge="clip_score")).media_request(ScoreQuery("c", Path("c.mp4"), "p"))
    assert frame_indices(81, 16.0, request) == [int(i) for i in np.round(np.linspace(0, 80, 8))]


def test_clip_scores_formula() -> None:
    rng = np.random.default_rng(0)
    text, images, counts, scale = rng.normal(size=(2, 5)), rng.normal(size=(5, 5)), [2, 3], 0.7
    got = clip_scores(
        torch.tensor(text), torch.tensor(images), torch.tensor(scale, dtype=torch.float64), counts
    )
    unit = lambda x: x / np.linalg.norm(x)  # noqa: E731
    owners = [0, 0, 1, 1, 1]
    per_frame = [np.exp(scale) * unit(text[o]) @ unit(images[k]) for k, o in enumerate(owners)]
    assert got == pytest.approx([np.mean(per_frame[:2]), np.mean(per_frame[2:])], abs=1e-12)


def test_score_is_mean_scaled_cosine_of_projected_embeddings(judge: ClipScoreJudge) -> None:
    inputs = [_clip(0), _clip(1, frames=2)]
    verdicts = judge.judge_batch(inputs)
    model, processor = judge.model, judge.processor
    with torch.no_grad():
        for one, verdict in zip(inputs, verdicts, strict=True):
            assert one.frames is not None and isinstance(one.query, ScoreQuery)
            text_inputs = processor(text=[one.query.prompt], return_tensors="pt")
            text_hidden = model.text_model(**text_inputs).pooler_output
            text = model.text_projection(text_hidden)[0].double().numpy()
            image_inputs = processor(images=list(one.frames), return_tensors="pt")
            image = model.visual_projection(model.vision_model(**image_inputs).pooler_output).double().numpy()
            cos = image @ text / np.linalg.norm(image, axis=1) / np.linalg.norm(text)
            expected = float(np.mean(np.exp(model.logit_scale.item()) * cos))
            assert verdict.value == pytest.approx(expected, abs=1e-5)
            assert verdict.diagnostics.extra["frames"] == len(one.frames)


def test_batch_of_many_equals_batch_of_one(judge: ClipScoreJudge) -> None:
    inputs = [_clip(0), _clip(1, frames=5), _clip(2, frames=1)]
    many = judge.judge_batch(inputs)
    for one, verdict in zip(inputs, many, strict=True):
        (alone,) = judge.judge_batch([one])
        assert alone.value == pytest.approx(verdict.value, abs=1e-5)


def test_clips_without_frames_are_refused(judge: ClipScoreJudge) -> None:
    empty = JudgeInput(query=ScoreQuery("c", Path("c.mp4"), "p"), frames=None)
    with pytest.raises(ConfigError, match="rates clips from their frames"):
        judge.judge_batch([empty])


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    config = JudgeConfig(judge="clip_score", model=str(tmp_path / "missing"), local_files_only=True)
    with pytest.raises(ConfigError, match=r"could not load .*missing.*the folder does not exist"):
        ClipScoreJudge(config).load("cpu")
    with pytest.raises(ConfigError, match="needs `model:`"):
        ClipScoreJudge(JudgeConfig(judge="clip_score")).load("cpu")


def test_runs_through_the_runner_on_the_sample_data(
    sample_data: Path, tiny_clip: Path, tmp_path: Path
) -> None:
    from mmjudge.runner import RunOptions, evaluate_judge

    config = JudgeConfig(
        judge="clip_score", model=str(tiny_clip), local_files_only=True, batch_size=8, frames=4
    )
    (output,) = evaluate_judge(
        "isovrbench", config, sample_data / "isovrbench", tmp_path / "run", RunOptions(progress=False)
    )
    records = [json.loads(line) for line in output.predictions.read_text().splitlines()[1:]]
    assert records and not any(r["no_judgment"] for r in records)
    assert output.scores


def test_the_shipped_config_samples_table_6s_six_frames() -> None:
    from mmjudge.judges import load_config, make_judge

    repo = Path(__file__).resolve().parents[2]
    config = load_config(repo / "judges" / "clip_score" / "config.yaml")
    request = make_judge(config).media_request(ScoreQuery("c", Path("c.mp4"), "p"))
    assert frame_indices(81, 16.0, request) == [0, 16, 32, 48, 64, 80]  # IsoVRBench Table 6: 6 frames


def test_the_processor_repo_is_pinned_by_its_own_revision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The config's ``revision`` pins PickScore; the CLIP-H processor repo has its own commits."""

    calls: list[tuple[str, str | None]] = []

    class _Model:
        logit_scale = 1.0

    def fake(cls, source, **kwargs):
        calls.append((str(cls), kwargs.get("revision")))
        return _Model()

    import mmjudge.judges.clip_score as clip_module

    monkeypatch.setattr(clip_module, "load_pretrained", fake)  # where clip_score looks it up
    config = JudgeConfig(judge="clip_score", model="org/pick", revision="a" * 40,
                         options={"processor": "org/clip-h", "processor_revision": "b" * 40})  # fmt: skip
    ClipScoreJudge(config).load("cpu")
    assert calls == [("AutoProcessor", "b" * 40), ("AutoModel", "a" * 40)]
    calls.clear()
    ClipScoreJudge(JudgeConfig(judge="clip_score", model="org/pick", revision="a" * 40)).load("cpu")
    assert calls == [("AutoProcessor", "a" * 40), ("AutoModel", "a" * 40)]


def _official_pixels(frame: np.ndarray, processor: object) -> np.ndarray:
    """The slow (PIL) CLIP image processor PickScore's official code ran under transformers 4, restated: the
    shorter side resized to ``shortest_edge`` by PIL bicubic (the longer one ``int(edge * long / short)``), a
    centre crop, ``/ 255`` and the processor's mean and standard deviation, channels first."""
    from PIL import Image

    config = processor.image_processor  # type: ignore[attr-defined]
    edge, crop = config.size["shortest_edge"], config.crop_size
    height, width = frame.shape[:2]
    short, long = sorted((height, width))
    new_long = int(edge * long / short)
    size = (new_long, edge) if width >= height else (edge, new_long)
    resized = np.asarray(Image.fromarray(frame).resize(size, Image.Resampling.BICUBIC), dtype=np.float32)
    top, left = (resized.shape[0] - crop["height"]) // 2, (resized.shape[1] - crop["width"]) // 2
    cropped = resized[top : top + crop["height"], left : left + crop["width"]] / 255.0
    normalised = (cropped - np.array(config.image_mean)) / np.array(config.image_std)
    return normalised.transpose(2, 0, 1)


def test_frames_go_through_the_slow_pil_processor_the_official_code_ran(judge: ClipScoreJudge) -> None:
    pixels = _clip(3, frames=4).frames
    assert pixels is not None
    frames = list(pixels)
    got = judge.processor(images=frames, return_tensors="pt")["pixel_values"].numpy()
    official = np.stack([_official_pixels(frame, judge.processor) for frame in frames])
    assert np.abs(got - official).max() < 1e-5
    fast = ClipScoreJudge(JudgeConfig(judge="clip_score", model=judge.config.model, local_files_only=True,
                                      dtype="float32", options={"image_backend": "torchvision"}))  # fmt: skip
    fast.load("cpu")
    other = fast.processor(images=frames, return_tensors="pt")["pixel_values"].numpy()
    assert np.abs(other - official).max() > 1e-3  # transformers 5's default resizes with another kernel


def test_an_unknown_image_backend_is_refused() -> None:
    with pytest.raises(ConfigError, match="image_backend"):
        ClipScoreJudge(JudgeConfig(judge="clip_score", options={"image_backend": "opencv"}))
