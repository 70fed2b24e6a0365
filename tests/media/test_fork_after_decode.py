"""A decode worker forked after the main process decoded still decodes (PyAV 19's threaded conversion hung it)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

pytest.importorskip("av")

from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip
from mmjudge.media.video import read_frames


def _read_in_child(path: str) -> tuple[int, ...]:
    return tuple(read_frames(path, [0, 2, 4], threads=1).shape)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_worker_forked_after_decoding_in_the_parent_decodes(tmp_path: Path) -> None:
    path = write_video(tmp_path / "clip.mp4", moving_texture_clip(6, 64, 96, seed=3), fps=8)
    parent = read_frames(path, [0, 2, 4], threads=0)  # the parent converts first, with FFmpeg's thread choice
    with multiprocessing.get_context("fork").Pool(1) as pool:
        shape = pool.apply_async(_read_in_child, (str(path),)).get(timeout=60)
    assert shape == parent.shape == (3, 64, 96, 3)
