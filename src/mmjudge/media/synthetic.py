"""Deterministic synthetic clips with real texture and motion (sample data, tests, benchmarks).

A clip is a camera pan over a multi-scale noise texture with a few textured objects moving across it,
so that it neither compresses trivially nor has zero motion. Nothing here claims to look like a
generated video: the sample data card labels these clips synthetic.
"""

from __future__ import annotations

import numpy as np


def texture(height: int, width: int, rng: np.random.Generator, *, octaves: int = 4) -> np.ndarray:
    """Multi-scale value-noise texture, ``uint8 (height, width, 3)``.

    >>> texture(8, 12, np.random.default_rng(0)).shape
    (8, 12, 3)
    """
    out = np.zeros((height, width, 3), dtype=np.float32)
    weight_total = 0.0
    for octave in range(octaves):
        cell = max(1, 2 ** (octaves - octave + 1))
        small = rng.random((height // cell + 2, width // cell + 2, 3), dtype=np.float32)
        big = np.repeat(np.repeat(small, cell, axis=0), cell, axis=1)[:height, :width]
        weight = 0.5**octave
        out += weight * big
        weight_total += weight
    out /= weight_total
    tint = rng.random(3, dtype=np.float32) * 0.6 + 0.4
    return np.clip(out * tint * 255.0, 0, 255).astype(np.uint8)


def moving_texture_clip(
    num_frames: int = 81,
    height: int = 480,
    width: int = 832,
    *,
    seed: int = 0,
    pan: tuple[float, float] = (0.0, 3.0),
    num_objects: int = 3,
    object_speed: float = 6.0,
) -> np.ndarray:
    """A clip panning over texture with ``num_objects`` textured squares moving linearly.

    Args:
        num_frames: number of frames.
        height: frame height in pixels.
        width: frame width in pixels.
        seed: seeds every random choice; the same arguments give the same clip.
        pan: camera motion (rows, columns) per frame, in pixels.
        num_objects: moving objects drawn over the background.
        object_speed: object speed in pixels per frame.

    Returns:
        ``uint8`` array ``(num_frames, height, width, 3)``.

    >>> clip = moving_texture_clip(5, 32, 48, seed=1)
    >>> clip.shape, clip.dtype.name
    ((5, 32, 48, 3), 'uint8')
    >>> bool((clip[1] != clip[0]).any())
    True
    >>> moving_texture_clip(81, 32, 48, pan=(-0.2698, 2.6)).shape  # a slow upward pan reaches the canvas edge
    (81, 32, 48, 3)
    """
    rng = np.random.default_rng(seed)
    # The last frame's offset is round(|pan| * (num_frames - 1)), which can exceed int(|pan| * num_frames)
    # (pan -0.2698 over 81 frames: 22 > 21); the max keeps every other clip identical to before.
    margin_y = max(int(abs(pan[0]) * num_frames), round(abs(pan[0]) * (num_frames - 1))) + 1
    margin_x = max(int(abs(pan[1]) * num_frames), round(abs(pan[1]) * (num_frames - 1))) + 1
    canvas = texture(height + margin_y, width + margin_x, rng)
    side = max(4, min(height, width) // 5)
    objects = [
        (
            texture(side, side, rng, octaves=2),
            rng.uniform(0, height - side),
            rng.uniform(0, width - side),
            rng.normal(size=2) * object_speed,
        )
        for _ in range(num_objects)
    ]
    clip = np.empty((num_frames, height, width, 3), dtype=np.uint8)
    for t in range(num_frames):
        y0 = int(round(t * pan[0])) if pan[0] >= 0 else margin_y - 1 + int(round(t * pan[0]))
        x0 = int(round(t * pan[1])) if pan[1] >= 0 else margin_x - 1 + int(round(t * pan[1]))
        clip[t] = canvas[y0 : y0 + height, x0 : x0 + width]
        for patch, y, x, velocity in objects:
            py = _bounce(y + velocity[0] * t, height - side)
            px = _bounce(x + velocity[1] * t, width - side)
            clip[t, py : py + side, px : px + side] = patch
    return clip


def _bounce(position: float, limit: int) -> int:
    """Reflect ``position`` into ``[0, limit]`` (objects bounce off the frame edges)."""
    if limit <= 0:
        return 0
    period = 2 * limit
    p = position % period
    return int(round(p if p <= limit else period - p))


def tone(duration_s: float, sample_rate: int = 16_000, *, seed: int = 0) -> np.ndarray:
    """A deterministic mono float32 signal (two tones with a slow envelope plus light noise).

    >>> tone(0.5).shape
    (8000,)
    """
    rng = np.random.default_rng(seed)
    t = np.arange(int(duration_s * sample_rate), dtype=np.float32) / sample_rate
    f1, f2 = rng.uniform(150, 400), rng.uniform(500, 1200)
    envelope = 0.5 + 0.5 * np.sin(2 * np.pi * rng.uniform(0.5, 2.0) * t)
    signal = 0.3 * np.sin(2 * np.pi * f1 * t) + 0.15 * np.sin(2 * np.pi * f2 * t)
    noise = 0.02 * rng.standard_normal(t.shape[0], dtype=np.float32)
    return np.asarray(envelope * signal + noise, dtype=np.float32)
