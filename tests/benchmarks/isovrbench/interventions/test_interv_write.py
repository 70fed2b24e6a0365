"""Counterpart clips written through the codec: frame rate, settings, keyframes and the index map."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from mmjudge.benchmarks.isovrbench.interventions import (
    EncodeSettings,
    read_x264_settings,
    write_counterpart,
)
from mmjudge.errors import UnknownNameError
from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip
from mmjudge.media.video import read_all, video_info

av = pytest.importorskip("av")


@pytest.fixture(scope="module")
def anchor(tmp_path_factory):
    path = tmp_path_factory.mktemp("anchor") / "anchor.mp4"
    clip = moving_texture_clip(33, 64, 96, seed=5, pan=(0.0, 3.0), object_speed=4.0)
    return write_video(path, clip, fps=16, crf=18, preset="fast", gop=8, bframes=2)


def _keyframes(path) -> list[int]:
    with av.open(str(path)) as container:
        packets = [p for p in container.demux(video=0) if p.size]
    order = np.argsort([p.pts for p in packets], kind="stable")
    return [int(i) for i, j in enumerate(order) if packets[j].is_keyframe]


def _mad(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b).mean())


@pytest.mark.parametrize("name", ["temporal_shuffle", "frame_hold"])
def test_index_map_reproduces_the_decoded_counterpart(anchor, tmp_path, name):
    out = write_counterpart(
        anchor,
        tmp_path / "counterpart.mp4",
        name,
        rng=np.random.default_rng(1),
        reencoded_anchor=tmp_path / "anchor2.mp4",
    )
    assert out.anchor == tmp_path / "anchor2.mp4"
    ref = read_all(out.anchor)
    got = read_all(out.counterpart)
    assert got.shape == ref.shape == (33, 64, 96, 3)
    # Both sides are second-generation encodes of the same decoded frames: the mapped frame is
    # close, and it is the nearest of all anchor frames (neighbours differ by the camera pan).
    for i, frame in enumerate(got):
        distances = [_mad(frame, candidate) for candidate in ref]
        assert int(np.argmin(distances)) == out.index_map[i]
        assert distances[out.index_map[i]] < 3.0
    if name == "temporal_shuffle":
        assert sorted(out.index_map.tolist()) == list(range(33))
    else:
        assert 8 <= np.unique(out.index_map).size <= 12


def test_counterpart_keeps_fps_and_codec_settings_and_places_its_own_keyframes(anchor, tmp_path):
    out = write_counterpart(anchor, tmp_path / "c.mp4", "temporal_shuffle", rng=np.random.default_rng(0))
    assert out.anchor == anchor
    info, ref = video_info(out.counterpart), video_info(anchor)
    assert (info.fps, info.num_frames, info.width, info.height) == (16.0, 33, 96, 64)
    assert info == ref
    settings = read_x264_settings(out.counterpart)
    assert settings is not None
    assert (settings.crf, settings.gop, settings.bframes) == (18, 8, 2)
    assert out.settings == read_x264_settings(anchor)
    # Fresh pictures: keyframes every 8 frames of the new clip, wherever the anchor's frames came from.
    assert _keyframes(out.counterpart) == [0, 8, 16, 24, 32]


def test_explicit_settings_and_callable_intervention(anchor, tmp_path):
    from mmjudge.benchmarks.isovrbench.interventions import InterventionResult

    def reverse(frames, *, rng):
        index_map = np.arange(len(frames))[::-1].copy()
        return InterventionResult(frames[index_map], index_map)

    out = write_counterpart(
        anchor, tmp_path / "r.mp4", reverse, rng=np.random.default_rng(0), settings=EncodeSettings(crf=30)
    )
    assert out.index_map.tolist() == list(range(32, -1, -1))
    assert read_x264_settings(out.counterpart).crf == 30


def test_unknown_intervention_name(anchor, tmp_path):
    with pytest.raises(UnknownNameError, match="frame_hold"):
        write_counterpart(anchor, tmp_path / "x.mp4", "reduced_steps", rng=np.random.default_rng(0))


def test_non_x264_anchor_falls_back_to_defaults_with_a_warning(tmp_path, caplog):
    path = tmp_path / "mpeg4.mp4"
    clip = moving_texture_clip(12, 32, 48, seed=1)
    with av.open(str(path), mode="w") as container:
        stream = container.add_stream("mpeg4", rate=16)
        stream.width, stream.height, stream.pix_fmt = 48, 32, "yuv420p"
        for array in clip:
            container.mux(stream.encode(av.VideoFrame.from_ndarray(array, format="rgb24")))
        container.mux(stream.encode(None))
    assert read_x264_settings(path) is None
    with caplog.at_level(logging.WARNING):
        out = write_counterpart(path, tmp_path / "c.mp4", "frame_hold", rng=np.random.default_rng(0))
    assert "no x264 settings" in caplog.text
    assert out.settings == EncodeSettings()
    assert video_info(out.counterpart).num_frames == 12


def test_settings_carry_keyint_and_mbtree_when_they_are_not_x264_defaults(tmp_path):
    clip = moving_texture_clip(12, 32, 48, seed=2)
    path = write_video(tmp_path / "k.mp4", clip, 16, crf=22, x264_params={"keyint": "30", "mbtree": "0"})
    settings = read_x264_settings(path)
    assert settings == EncodeSettings(
        crf=22, gop=None, bframes=3, x264_params={"keyint": "30", "mbtree": "0"}
    )
    default = read_x264_settings(write_video(tmp_path / "d.mp4", clip, 16))
    assert default == EncodeSettings(crf=20, bframes=3)
