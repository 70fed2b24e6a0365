"""The Qwen-VL judges' preprocessing equals qwen-vl-utils 0.0.14 + the transformers processor.

The reference is PyPI ``qwen-vl-utils`` itself (a test dependency): its pure functions (``smart_nframes``,
``smart_resize``) on wide grids, and its ``process_vision_info`` + ``processor.apply_chat_template`` +
``processor(...)`` against ``vlm_digit.encode`` and ``_chat.encode_chat`` on a grid of clips (1-90 s,
1-60 fps, odd frame counts, 32 px to 1080p, portrait and landscape, fixed counts 2-33 and rate mode),
within 1e-4 (in practice bit-equal). qwen-vl-utils reads frames through :mod:`reference_media`'s reader,
so both sides see the same decoded frames; the decoder itself is checked against decord elsewhere.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
qvu = pytest.importorskip("qwen_vl_utils")

from qwen_vl_utils import process_vision_info  # noqa: E402
from qwen_vl_utils.vision_process import smart_nframes  # noqa: E402
from qwen_vl_utils.vision_process import smart_resize as reference_smart_resize  # noqa: E402
from reference_media import clip_info, frames_at, reference_reader, synthetic_path  # noqa: E402

from mmjudge.errors import MediaError  # noqa: E402
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery, make_judge  # noqa: E402
from mmjudge.judges._chat import encode_chat  # noqa: E402
from mmjudge.judges.profiles import QWEN_VL_UTILS  # noqa: E402
from mmjudge.media.resize import smart_resize  # noqa: E402
from mmjudge.media.video import frame_count, linspace_indices  # noqa: E402
from mmjudge.runner.decode import decode_query  # noqa: E402

TOLERANCE = 1e-4
logging.getLogger("qwen_vl_utils").setLevel(logging.ERROR)  # it warns for every rate above a clip's own
logging.getLogger("qwen_omni_utils").setLevel(logging.ERROR)


# --- pure rules on wide grids ------------------------------------------------------------------------


def _ours(total: int, fps: float, ele: dict[str, Any]) -> int | None:
    try:
        return frame_count(
            total,
            fps,
            num=ele.get("nframes"),
            target_fps=None if "nframes" in ele else ele.get("fps", 2.0),
            min_frames=ele.get("min_frames", 4),
            max_frames=ele.get("max_frames"),
            multiple_of=2,
            rule="qwen_vl_utils",
        )
    except MediaError:
        return None


def _theirs(total: int, fps: float, ele: dict[str, Any]) -> int | None:
    try:
        return int(smart_nframes(ele, total_frames=total, video_fps=fps))
    except ValueError:
        return None


def test_frame_count_equals_smart_nframes_on_a_grid() -> None:
    cases = 0
    elements = [{"fps": f} for f in (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0)] + [
        {"nframes": n} for n in range(1, 34)
    ]
    elements += [{"fps": 2.0, "min_frames": 3, "max_frames": 9}, {"fps": 1.0, "max_frames": 15}]
    for total, fps, ele in itertools.product(
        [*list(range(1, 120)), 181, 899, 1800, 5400], (1, 8, 24, 29.97, 60), elements
    ):
        assert _ours(total, fps, ele) == _theirs(total, fps, ele), (total, fps, ele)
        cases += 1
    assert cases > 25_000


def test_indices_equal_torch_linspace_rounding() -> None:
    for total in range(1, 700):
        for n in (1, 2, 3, 4, 5, 8, 10, 16, 33, 48, 100, 199):
            expected = torch.linspace(0, total - 1, n).round().long().tolist()
            assert linspace_indices(total, n) == expected, (total, n)


def test_smart_resize_equals_qwen_vl_utils_on_a_grid() -> None:
    sides = [28, 32, 33, 47, 56, 90, 144, 240, 333, 480, 608, 704, 720, 832, 1080, 1280, 1920, 3840]
    for height, width, factor in itertools.product(sides, sides, (28, 32)):
        if max(height, width) / min(height, width) > 200:
            continue
        for low, high in (
            (4 * factor**2, 16384 * factor**2),
            (128 * factor**2, 768 * factor**2),
            (128 * factor**2, 200_704),
        ):
            if high < low:
                continue
            assert smart_resize(height, width, factor, low, high) == tuple(
                reference_smart_resize(height, width, factor, low, high)
            ), (height, width, factor, low, high)


# --- video frames: sampling, size and kernel through fetch_video ---------------------------------------

CLIPS = [  # (height, width, frames, fps): 1-90 s, 1-60 fps, odd counts, 32 px to 1080p, both orientations
    (32, 48, 9, 8.0),
    (48, 32, 31, 30.0),
    (480, 832, 81, 16.0),
    (1080, 608, 25, 24.0),
    (608, 1080, 61, 60.0),
    (1080, 1920, 90, 1.0),
    (360, 640, 5400, 60.0),
    (90, 4000, 7, 7.0),
    (240, 240, 3, 24.0),
]
ELEMENTS: list[dict[str, Any]] = [
    {"fps": 2.0},
    {"fps": 0.25},
    {"nframes": 2},
    {"nframes": 5},
    {"nframes": 33},
]


def _reference_video(path: str, ele: dict[str, Any], patch: int) -> tuple[torch.Tensor, dict[str, Any]]:
    messages = [
        {"role": "user", "content": [{"type": "video", "video": path, **ele}, {"type": "text", "text": "?"}]}
    ]
    with reference_reader():
        _, videos, _ = process_vision_info(
            messages, return_video_kwargs=True, return_video_metadata=True, image_patch_size=patch
        )
    ((video, metadata),) = videos
    return video, metadata


def _our_frames(path: str, ele: dict[str, Any], factor: int) -> tuple[np.ndarray, list[int]] | None:
    """mmjudge's frames for a qwen-vl-utils video element; ``None`` where the profile refuses the clip;
    empty frames (only the shape) where the stack would exceed 12 million pixels."""
    total, fps, height, width = clip_info(path)
    try:
        indices = QWEN_VL_UTILS.frame_indices(total, fps, num=ele.get("nframes"), target_fps=ele.get("fps"))
    except MediaError:
        return None
    size = QWEN_VL_UTILS.video_size(height, width, len(indices), factor, max_pixels=ele.get("max_pixels"))
    if len(indices) * size[0] * size[1] > 12_000_000:
        return np.zeros((len(indices), *size, 3), dtype=np.uint8)[:0], indices
    frames = frames_at(path, indices)
    return QWEN_VL_UTILS.fit_video(frames, factor, max_pixels=ele.get("max_pixels")), indices


@pytest.mark.parametrize("clip", CLIPS, ids=lambda c: "x".join(map(str, c)))
def test_video_frames_equal_fetch_video(clip: tuple[int, int, int, float]) -> None:
    path = synthetic_path(*clip)
    checked = 0
    for ele, patch in itertools.product([*ELEMENTS, {"fps": 2.0, "max_pixels": 150528}], (14, 16)):
        ours = _our_frames(path, ele, 2 * patch)
        if ours is None:
            assert _theirs(clip[2], clip[3], ele) is None, (clip, ele)
            continue
        frames, indices = ours
        if len(frames) == 0:
            continue  # too big to run here: its count and size rules are checked on the grids above
        video, metadata = _reference_video(path, ele, patch)
        assert list(metadata["frames_indices"]) == indices
        assert metadata["total_num_frames"] == clip[2] and metadata["fps"] == clip[3]
        assert tuple(video.shape) == (len(indices), 3, frames.shape[1], frames.shape[2]), (clip, ele, patch)
        assert torch.equal(video, torch.from_numpy(frames).permute(0, 3, 1, 2).float()), (clip, ele, patch)
        checked += 1
    assert checked >= 4


# --- whole processor inputs of the judges ---------------------------------------------------------------


def _judge(model: Path, **options: Any) -> Any:
    config = JudgeConfig(
        judge="vlm_digit", model=str(model), local_files_only=True, dtype="float32", options=options
    )
    judge = make_judge(config)
    judge.load("cpu")
    return judge


def _input(path: str, judge: Any) -> JudgeInput:
    total, fps, height, width = clip_info(path)
    request = judge.media_request(ScoreQuery("c", Path("c.mp4"), "a red cat walks"))
    from mmjudge.runner.decode import frame_indices

    indices = frame_indices(total, fps, request)
    item = ScoreQuery("c", Path("c.mp4"), "a red cat walks")
    return JudgeInput(
        item, frames_at(path, indices), tuple(indices), fps, total_frames=total, frame_size=(height, width)
    )


def _reference_batch(judge: Any, path: str, frames_config: int, as_video: bool, patch: int) -> Any:
    from PIL import Image

    text = judge.template.replace("{prompt}", "a red cat walks")
    if as_video:
        visual = [{"type": "video", "video": path, "nframes": frames_config}]
    else:
        total, _fps, _, _ = clip_info(path)
        indices = linspace_indices(total, min(frames_config, total))
        visual = [{"type": "image", "image": Image.fromarray(f)} for f in frames_at(path, indices)]
    messages = [{"role": "user", "content": [*visual, {"type": "text", "text": text}]}]
    processor = judge.processor
    rendered = processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    with reference_reader():
        images, videos, kwargs = process_vision_info(
            messages, return_video_kwargs=True, return_video_metadata=True, image_patch_size=patch
        )
    call: dict[str, Any] = {
        "text": [rendered],
        "images": images,
        "return_tensors": "pt",
        "padding": True,
        **kwargs,
    }
    if videos:
        call["videos"] = [v for v, _ in videos]
        call["video_metadata"] = [m for _, m in videos]
    if patch == 16:
        call["do_resize"] = False  # Qwen3-VL's model card: the processor does not resize again
    return rendered, processor(**call)


def _assert_same(ours: Any, reference: Any) -> None:
    assert set(reference) <= set(ours), (sorted(reference), sorted(ours))
    for key in reference:
        a, b = ours[key], reference[key]
        assert tuple(a.shape) == tuple(b.shape), key
        if a.dtype.is_floating_point:
            assert float((a.float() - b.float()).abs().max()) <= TOLERANCE, key
        else:
            assert torch.equal(a, b), key


VLM_CASES = [
    (synthetic_path(480, 832, 81, 16.0), 8),
    (synthetic_path(32, 48, 9, 8.0), 5),
    (synthetic_path(1080, 608, 61, 30.0), 3),
    (synthetic_path(608, 1080, 2700, 30.0), 6),
    (synthetic_path(240, 240, 33, 1.0), 33),
    (synthetic_path(90, 4000, 7, 7.0), 4),
]


@pytest.mark.parametrize("family", ["tiny_qwen2_vl", "tiny_qwen3_vl", "qwen3_5"])
@pytest.mark.parametrize("as_video", [False, True], ids=["images", "video"])
def test_vlm_digit_inputs_equal_qwen_vl_utils_and_the_processor(
    family: str, as_video: bool, request: pytest.FixtureRequest
) -> None:
    patch = 14 if family == "tiny_qwen2_vl" else 16
    folder = request.getfixturevalue("tiny_family")(family) if family == "qwen3_5" else request.getfixturevalue(family)
    judge = _judge(folder, as_video=as_video)
    base = judge.config
    for path, frames in VLM_CASES:
        judge.config = dataclasses.replace(base, frames=frames)
        judge_input = _input(path, judge)
        ours = judge.encode([judge_input])
        rendered, reference = _reference_batch(judge, path, frames, as_video, patch)
        assert judge.prompt_text(judge_input.query, judge.media(judge_input)) == rendered
        _assert_same(ours, reference)


def test_a_video_of_too_few_frames_is_refused_like_qwen_vl_utils(tmp_path: Path, tiny_qwen2_vl: Path) -> None:
    """qwen-vl-utils raises for 1 requested frame (rounded to 0) and for a 1-frame clip; so does the profile,
    and the runner records it as that item's decode failure."""
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip

    with pytest.raises(ValueError):
        smart_nframes({"nframes": 1}, total_frames=81, video_fps=16.0)
    with pytest.raises(MediaError, match="between 2 and 81"):
        QWEN_VL_UTILS.frame_indices(81, 16.0, num=1)
    clip = write_video(tmp_path / "one.mp4", moving_texture_clip(1, 32, 48, seed=1), fps=8)
    config = JudgeConfig(
        judge="vlm_digit", model=str(tiny_qwen2_vl), local_files_only=True, options={"as_video": True}
    )
    request = make_judge(config).media_request(ScoreQuery("c", clip, "p"))
    decoded = decode_query(ScoreQuery("c", clip, "p"), [request])
    assert decoded.inputs is None and "MediaError" in str(decoded.error) and "1 frames" in str(decoded.error)


def test_chat_judges_encode_like_qwen_vl_utils(tiny_qwen2_vl: Path) -> None:
    """label_choice / pairwise_describe's encoder (_chat.encode_chat): an image and a video."""
    from PIL import Image
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(tiny_qwen2_vl, local_files_only=True)
    path = synthetic_path(1080, 608, 61, 30.0)
    total, fps, _height, _width = clip_info(path)
    indices = QWEN_VL_UTILS.frame_indices(total, fps, num=8)
    frames = frames_at(path, indices)
    image = Image.fromarray(frames_at(synthetic_path(333, 480, 1, 1.0), [0])[0])
    ours_video = encode_chat(
        processor, "Which?", frames=frames, frame_indices=indices, fps=fps, total_frames=total
    )
    ours_image = encode_chat(processor, "Which?", images=[image])
    for visual, ours in (
        ({"type": "video", "video": path, "nframes": 8}, ours_video),
        ({"type": "image", "image": image}, ours_image),
    ):
        messages = [{"role": "user", "content": [visual, {"type": "text", "text": "Which?"}]}]
        rendered = processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        with reference_reader():
            images, videos, kwargs = process_vision_info(
                messages, return_video_kwargs=True, return_video_metadata=True
            )
        call: dict[str, Any] = {"text": [rendered], "images": images, "return_tensors": "pt", **kwargs}
        if videos:
            call.update(videos=[v for v, _ in videos], video_metadata=[m for _, m in videos])
        _assert_same(ours, processor(**call))


def test_the_runner_decodes_a_real_clip_to_the_reference_frames(tmp_path: Path, tiny_qwen2_vl: Path) -> None:
    """Through the runner's decode step (PyAV, the sampled indices) and the judge, on an encoded mp4."""
    from mmjudge.media.encode import write_video
    from mmjudge.media.synthetic import moving_texture_clip

    clip = write_video(tmp_path / "c.mp4", moving_texture_clip(37, 64, 48, seed=2), fps=24)
    judge = _judge(tiny_qwen2_vl, as_video=True)
    item = ScoreQuery("c", clip, "a red cat walks")
    decoded = decode_query(item, [judge.media_request(item)])
    assert decoded.error is None, decoded.error
    ours = judge.encode([decoded.input(0)])
    _, reference = _reference_batch(judge, str(clip), 8, True, 14)
    _assert_same(ours, reference)
    assert math.isclose(float(ours["video_grid_thw"][0, 0]), 4)
