"""Frame sampling and smart resize against the rules of qwen-vl-utils / VideoAlign written out here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from mmjudge.errors import ConfigError, SchemaError
from mmjudge.media.resize import resize_frames, resize_max_pixels, smart_resize
from mmjudge.media.video import linspace_indices, sample_indices


def videoalign_indices(total: int, video_fps: float, fps: float) -> list[int]:
    """VideoAlign's ``smart_nframes`` (FRAME_FACTOR 2, FPS_MIN_FRAMES 4, FPS_MAX_FRAMES 768) + its linspace
    (``torch.linspace(...).round()``, emulated by :func:`linspace_indices`, checked against torch in
    ``tests/judges/test_qwen_vl_parity.py``)."""
    min_frames = math.ceil(4 / 2) * 2
    max_frames = math.floor(min(768, total) / 2) * 2
    nframes = total / video_fps * fps
    nframes = min(max(nframes, min_frames), max_frames)
    nframes = min(round(nframes / 2) * 2, total)
    return linspace_indices(total, nframes)


def test_documented_example():
    assert sample_indices(81, 16, target_fps=2) == [0, 9, 18, 27, 36, 44, 53, 62, 71, 80]
    assert sample_indices(81, 16, target_fps=2, min_frames=4, max_frames=768, multiple_of=2) == [
        0, 9, 18, 27, 36, 44, 53, 62, 71, 80,
    ]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.integers(8, 2000), st.sampled_from([8, 16, 24, 25, 30, 29.97]), st.sampled_from([0.5, 1, 2, 4]))
def test_matches_videoalign_rule(total, video_fps, fps):
    got = sample_indices(total, video_fps, target_fps=fps, min_frames=4, multiple_of=2, rule="videoalign")
    assert got == videoalign_indices(total, video_fps, fps)
    plain = sample_indices(total, video_fps, target_fps=fps, min_frames=4, max_frames=768, multiple_of=2)
    assert plain == got  # the plain rule agrees wherever the clip has at least min_frames frames


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 500), st.integers(1, 600), st.sampled_from(["linspace", "segment_centers"]))
def test_indices_properties(total, num, policy):
    got = sample_indices(total, 16, num=num, policy=policy)
    n = min(num, total)
    assert len(got) == n and got == sorted(got) and len(set(got)) == n
    assert got[0] >= 0 and got[-1] < total
    if policy == "linspace":
        assert got[0] == 0 and (n == 1 or got[-1] == total - 1)
    else:
        for k, index in enumerate(got):  # the centre of segment k lies in [k*total/n, (k+1)*total/n)
            assert k * total / n <= index + 0.5 <= (k + 1) * total / n


def test_sampling_errors():
    with pytest.raises(ConfigError):
        sample_indices(10, 16)
    with pytest.raises(ConfigError):
        sample_indices(10, 16, num=2, target_fps=1)
    with pytest.raises(ConfigError, match="known policies"):
        sample_indices(10, 16, num=2, policy="random")
    with pytest.raises(ConfigError):
        sample_indices(0, 16, num=2)


def qwen_vl_utils_smart_resize(height, width, factor, min_pixels, max_pixels):
    """qwen-vl-utils' ``smart_resize`` written out step by step."""
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


sizes = st.integers(16, 4000)


@settings(max_examples=300, deadline=None)
@given(sizes, sizes, st.sampled_from([14, 28, 32]), st.sampled_from([50_176, 200_704, 1_003_520]))
def test_smart_resize_rule_and_properties(height, width, factor, max_pixels):
    if max(height, width) / min(height, width) > 200:
        return
    min_pixels = 4 * factor * factor
    h, w = smart_resize(height, width, factor, min_pixels, max_pixels)
    assert (h, w) == qwen_vl_utils_smart_resize(height, width, factor, min_pixels, max_pixels)
    assert h % factor == 0 and w % factor == 0
    if min(height, width) * max_pixels >= max(height, width) * factor * factor:  # not clamped to one factor
        assert h * w <= max_pixels


@pytest.mark.slow  # imports torch through transformers (~8 s)
def test_smart_resize_matches_transformers_on_common_sizes():
    qwen2_vl = pytest.importorskip("transformers.models.qwen2_vl.image_processing_qwen2_vl")
    for height, width in [
        (704, 1280),
        (480, 832),
        (720, 1280),
        (1080, 1920),
        (240, 320),
        (50, 60),
        (2000, 90),
    ]:
        for max_pixels in (200_704, 28 * 28 * 1280, 64 * 28 * 28):
            expected = qwen2_vl.smart_resize(height, width, 28, 56 * 56, max_pixels)
            assert smart_resize(height, width, 28, 56 * 56, max_pixels) == tuple(expected)


def test_resize_max_pixels_is_pil_bicubic_per_frame():
    rng = np.random.default_rng(0)
    frames = rng.integers(0, 256, (3, 100, 180, 3), dtype=np.uint8)
    out = resize_max_pixels(frames, 4_000, factor=14)
    h, w = smart_resize(100, 180, 14, 4 * 14 * 14, 4_000)
    assert out.shape == (3, h, w, 3) and out.dtype == np.uint8
    for frame, got in zip(frames, out, strict=True):
        expected = np.asarray(Image.fromarray(frame).resize((w, h), Image.Resampling.BICUBIC))
        np.testing.assert_array_equal(got, expected)
    single = resize_max_pixels(frames[0], 4_000, factor=14)
    np.testing.assert_array_equal(single, out[0])
    fitting = np.zeros((2, 56, 84, 3), dtype=np.uint8)
    assert resize_max_pixels(fitting, 200_704) is fitting


def test_resize_errors():
    with pytest.raises(SchemaError):
        resize_max_pixels(np.zeros((2, 8, 8), dtype=np.uint8), 1000)
    with pytest.raises(SchemaError):
        resize_max_pixels(np.zeros((8, 8, 3), dtype=np.float32), 1000)
    with pytest.raises(ConfigError):
        smart_resize(100, 100, 28, 100, 500)
    with pytest.raises(ConfigError, match="known kernels"):
        resize_frames(np.zeros((2, 8, 8, 3), dtype=np.uint8), 4, 4, kernel="lanczos")
    with pytest.raises(SchemaError, match="aspect ratio"):
        smart_resize(10, 5000)


def test_min_pixels_above_max_pixels_shrinks_large_frames_and_grows_small_ones():
    """VideoAlign's copy of smart_resize tests the cap first and has no min <= max check."""
    assert smart_resize(480, 832, 28, min_pixels=100_352, max_pixels=76_800) == (196, 364)
    assert smart_resize(32, 48, 28, min_pixels=100_352, max_pixels=76_800) == (280, 392)


def test_the_torchvision_kernel_is_torchvisions_uint8_bicubic_antialias():
    torch = pytest.importorskip("torch")
    functional = pytest.importorskip("torchvision.transforms.functional")
    frames = np.random.default_rng(3).integers(0, 256, (3, 90, 160, 3), dtype=np.uint8)
    got = resize_frames(frames, 56, 112, kernel="torchvision_bicubic_antialias")
    source = torch.from_numpy(frames).permute(0, 3, 1, 2)
    expected = functional.resize(source, [56, 112], interpolation=functional.InterpolationMode.BICUBIC, antialias=True)
    np.testing.assert_array_equal(got, expected.permute(0, 2, 3, 1).numpy())
    pil = resize_frames(frames, 56, 112, kernel="pil_bicubic")
    assert 0 < int(np.abs(pil.astype(int) - got.astype(int)).max()) <= 16  # the kernels differ by a few levels
