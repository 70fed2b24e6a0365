"""Audio and image loading against soundfile / Pillow references, and their bad-input errors."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from mmjudge.errors import MediaError, SchemaError
from mmjudge.media.audio import load_audio
from mmjudge.media.encode import write_wav
from mmjudge.media.image import load_image, load_image_array
from mmjudge.media.synthetic import texture, tone

pytestmark = pytest.mark.timeout(60)


def test_wav_at_native_rate_matches_soundfile(tmp_path):
    import soundfile

    path = write_wav(tmp_path / "a.wav", tone(1.0, 16_000, seed=1), 16_000)
    expected, rate = soundfile.read(path, dtype="float32")
    got = load_audio(path, 16_000)
    assert rate == 16_000 and got.dtype == np.float32
    np.testing.assert_array_equal(got, expected)


def test_stereo_wav_is_averaged_and_resampled(tmp_path):
    import soundfile
    from scipy.signal import resample_poly

    left = tone(1.0, 44_100, seed=2)
    stereo = np.stack([left, -0.5 * left], axis=1)
    soundfile.write(tmp_path / "s.wav", stereo, 44_100, subtype="PCM_16")
    pcm, _ = soundfile.read(tmp_path / "s.wav", dtype="float32")
    np.testing.assert_allclose(load_audio(tmp_path / "s.wav", 44_100), pcm.mean(axis=1), atol=1e-6)
    resampled = load_audio(tmp_path / "s.wav", 16_000)
    assert abs(len(resampled) - 16_000) <= 2
    reference = resample_poly(pcm.mean(axis=1), 160, 441)  # an independent resampler
    n = min(len(reference), len(resampled)) - 200  # ignore the filters' edge effects
    assert np.corrcoef(resampled[100:n], reference[100:n])[0, 1] > 0.999


def test_audio_track_of_an_mp4(av_clip):
    original = tone(2.0, 16_000, seed=3)
    got = load_audio(av_clip, 16_000)
    assert got.dtype == np.float32 and got.ndim == 1
    assert 32_000 <= len(got) <= 32_000 + 2048  # AAC pads the last frame
    assert np.corrcoef(got[:32_000], original)[0, 1] > 0.99  # lossy, but aligned (priming removed)


def test_audio_errors(tmp_path, bad_files, clips):
    (tmp_path / "t.wav").write_text("not audio")
    for path in (bad_files["missing"], bad_files["empty"], tmp_path / "t.wav", clips["bframes_64x96"].path):
        with pytest.raises(MediaError, match=path.name):
            load_audio(path)


def _encoded(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_image_sources_and_modes(tmp_path, mode):
    array = texture(12, 20, np.random.default_rng(0))
    image = Image.fromarray(array).convert(mode)
    data = _encoded(image, "PNG")
    (tmp_path / "i.png").write_bytes(data)
    expected = np.asarray(image.convert("RGB"))
    for source in (
        tmp_path / "i.png",
        str(tmp_path / "i.png"),
        data,
        {"bytes": data, "path": "x.png"},
        {"bytes": None, "path": str(tmp_path / "i.png")},
    ):
        got = load_image_array(source)
        assert got.dtype == np.uint8 and got.shape == (12, 20, 3)
        np.testing.assert_array_equal(got, expected)
    assert load_image(data).mode == "RGB"


def test_jpeg_decodes_like_pillow():
    array = texture(16, 24, np.random.default_rng(1))
    data = _encoded(Image.fromarray(array), "JPEG")
    np.testing.assert_array_equal(
        load_image_array(data), np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    )


def test_image_errors(tmp_path, bad_files):
    good = _encoded(Image.fromarray(texture(64, 64, np.random.default_rng(2))), "PNG")
    (tmp_path / "cut.png").write_bytes(good[: len(good) // 2])
    (tmp_path / "text.png").write_text("not an image")
    for path in (bad_files["missing"], bad_files["empty"], tmp_path / "cut.png", tmp_path / "text.png"):
        with pytest.raises(MediaError, match=path.name):
            load_image(path)
    with pytest.raises(MediaError):
        load_image(b"")
    with pytest.raises(MediaError):
        load_image({"bytes": None, "path": None})
    with pytest.raises(SchemaError):
        load_image(42)  # type: ignore[arg-type]
