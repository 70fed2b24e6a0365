"""Test clips and bad files for the media tests, generated once per session (small and fast)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from mmjudge.media.encode import write_video
from mmjudge.media.synthetic import moving_texture_clip, tone

BACKEND_NAMES = ("pyav", "decord")


class Clip(NamedTuple):
    path: Path
    num_frames: int
    height: int
    width: int
    open_gop: bool


# name: (frames, height, width, encoder settings); frame counts are not multiples of 3, 4, 5 or 8
CLIP_SPECS = {
    "bframes_64x96": (37, 64, 96, {"bframes": 3}),
    "bframes_96x160": (29, 96, 160, {"bframes": 2, "gop": 12}),
    "open_gop_64x96": (38, 64, 96, {"gop": 16, "open_gop": True, "bframes": 3}),
    "open_gop_96x160": (37, 96, 160, {"gop": 16, "open_gop": True, "bframes": 3}),
    "intra_p_64x96": (23, 64, 96, {"bframes": 0, "gop": 8}),
}


@pytest.fixture(scope="session")
def clip_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("clips")


@pytest.fixture(scope="session")
def clips(clip_dir: Path) -> dict[str, Clip]:
    out = {}
    for seed, (name, (frames, height, width, options)) in enumerate(CLIP_SPECS.items()):
        array = moving_texture_clip(frames, height, width, seed=seed, object_speed=4.0)
        path = write_video(clip_dir / f"{name}.mp4", array, fps=16, preset="veryfast", **options)
        out[name] = Clip(path, frames, height, width, bool(options.get("open_gop")))
    return out


@pytest.fixture(scope="session")
def av_clip(clip_dir: Path) -> Path:
    """A clip with an AAC audio track (2 s at 16 kHz)."""
    frames = moving_texture_clip(32, 64, 96, seed=7)
    return write_video(clip_dir / "with_audio.mp4", frames, fps=16, audio=tone(2.0, 16_000, seed=3))


@pytest.fixture(scope="session")
def bad_files(clip_dir: Path, clips: dict[str, Clip]) -> dict[str, Path]:
    """Damaged and wrong files, each of which must give a MediaError naming the path."""
    import av

    bad = clip_dir / "bad"
    bad.mkdir()
    good = clips["bframes_96x160"].path.read_bytes()
    files = {
        "missing": bad / "missing.mp4",
        "empty": bad / "empty.mp4",
        "text": bad / "text.mp4",
        "truncated": bad / "truncated.mp4",
        "truncated_faststart": bad / "truncated_faststart.mp4",
        "zero_frames": bad / "zero_frames.mp4",
        "zero_frame_stream": bad / "zero_frame_stream.mp4",
        "audio_only": bad / "audio_only.mp4",
        "directory": bad / "folder.mp4",
    }
    files["empty"].write_bytes(b"")
    files["text"].write_text("this is a text file, not a video\n" * 20)
    files["truncated"].write_bytes(good[: len(good) // 2])  # moov at the end: the index is lost
    faststart = _remux_faststart(av, clips["bframes_96x160"].path, bad / "faststart.mp4").read_bytes()
    files["truncated_faststart"].write_bytes(faststart[: int(len(faststart) * 0.6)])  # index kept, data cut
    with av.open(str(files["zero_frames"]), "w") as container:  # the muxer drops the empty track
        stream = container.add_stream("libx264", rate=16)
        stream.width, stream.height, stream.pix_fmt = 96, 64, "yuv420p"
        container.start_encoding()
    # a fragmented mp4 keeps the empty track: a video stream with zero frames
    with av.open(
        str(files["zero_frame_stream"]), "w", options={"movflags": "frag_keyframe+empty_moov"}
    ) as container:
        stream = container.add_stream("libx264", rate=16)
        stream.width, stream.height, stream.pix_fmt = 96, 64, "yuv420p"
        container.start_encoding()
    _write_audio_only(av, files["audio_only"])
    files["directory"].mkdir()
    return files


@pytest.fixture(scope="session")
def damaged_data(clip_dir: Path, clips: dict[str, Clip]) -> Path:
    """A faststart clip whose frame data is overwritten with noise after the first frames."""
    import av

    data = bytearray(_remux_faststart(av, clips["bframes_96x160"].path, clip_dir / "fs2.mp4").read_bytes())
    start = data.find(b"mdat") + 8000
    data[start : start + 4000] = np.random.default_rng(1).integers(0, 256, 4000, dtype=np.uint8).tobytes()
    path = clip_dir / "bad" / "damaged_data.mp4"
    path.write_bytes(bytes(data))
    return path


def _remux_faststart(av: object, src: Path, dst: Path) -> Path:
    with av.open(str(src)) as source, av.open(str(dst), "w", options={"movflags": "faststart"}) as sink:  # type: ignore[attr-defined]
        in_stream = source.streams.video[0]
        out_stream = sink.add_stream_from_template(in_stream)
        for packet in source.demux(in_stream):
            if packet.dts is None:
                continue
            packet.stream = out_stream
            sink.mux(packet)
    return dst


def _write_audio_only(av: object, path: Path) -> None:
    samples = tone(0.5, 16_000).reshape(1, -1)
    with av.open(str(path), "w") as container:  # type: ignore[attr-defined]
        stream = container.add_stream("aac", rate=16_000, layout="mono")
        for start in range(0, samples.shape[1], 1024):
            frame = av.AudioFrame.from_ndarray(  # type: ignore[attr-defined]
                np.ascontiguousarray(samples[:, start : start + 1024]), format="flt", layout="mono"
            )
            frame.sample_rate, frame.pts = 16_000, start
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
