"""Qwen-VL "smart resize": one resize implementation for frames from every decoder backend.

Both output sides are multiples of ``factor``, the area stays within ``[min_pixels, max_pixels]`` and
the aspect ratio is kept as closely as the rounding allows. The arithmetic is qwen-vl-utils'
``smart_resize``; the pixels are resampled with Pillow's bicubic filter (``Image.resize(...,
Image.BICUBIC)``, which low-pass filters when shrinking, like torchvision's ``antialias=True``),
frame by frame, on the ``uint8`` RGB frames. The decoders' own scalers are never used: they differ
between backends by up to 150 levels on fine texture. Results can differ from qwen-vl-utils'
torchvision float path by a few levels (different rounding), not in size.
"""

from __future__ import annotations

import math

import numpy as np

from mmjudge.errors import ConfigError, SchemaError

__all__ = ["resize_max_pixels", "smart_resize"]

MAX_RATIO = 200
"""qwen-vl-utils refuses images whose long side is more than 200 times the short side."""


def smart_resize(
    height: int,
    width: int,
    factor: int = 28,
    min_pixels: int = 4 * 28 * 28,
    max_pixels: int = 16384 * 28 * 28,
) -> tuple[int, int]:
    """Target ``(height, width)``: multiples of ``factor``, area in ``[min_pixels, max_pixels]``.

    Steps (qwen-vl-utils): round each side to the nearest multiple of ``factor`` (at least
    ``factor``); if the area exceeds ``max_pixels``, scale both sides by ``sqrt(H*W / max_pixels)``
    and round each *down* to a multiple of ``factor``; if it is below ``min_pixels``, scale by
    ``sqrt(min_pixels / (H*W))`` and round each *up*. Rounding down keeps the area within
    ``max_pixels``; a side never drops below ``factor``.

    >>> smart_resize(704, 1280, 28, max_pixels=200_704)
    (308, 588)
    >>> smart_resize(480, 832, 28, max_pixels=200_704)
    (336, 588)
    >>> smart_resize(20, 30, 28)
    (56, 84)
    """
    if height < 1 or width < 1:
        raise SchemaError(f"expected a positive frame size, got {height}x{width}")
    if max(height, width) / min(height, width) > MAX_RATIO:
        raise SchemaError(f"aspect ratio must be below {MAX_RATIO}, got {height}x{width}")
    if factor < 1 or max_pixels < factor * factor or min_pixels > max_pixels:
        raise ConfigError(
            f"expected factor >= 1 and factor**2 <= min_pixels <= max_pixels, got factor={factor}, "
            f"min_pixels={min_pixels}, max_pixels={max_pixels}"
        )
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def resize_max_pixels(
    frames: np.ndarray, max_pixels: int, factor: int = 28, *, min_pixels: int | None = None
) -> np.ndarray:
    """Resize ``uint8`` frames ``(T, H, W, 3)`` (or one frame ``(H, W, 3)``) to :func:`smart_resize`'s size.

    Args:
        frames: RGB frames.
        max_pixels: upper bound on the output area per frame.
        factor: both output sides are multiples of this.
        min_pixels: lower bound on the area; ``None`` means ``4 * factor**2`` (qwen-vl-utils' 56*56
            for ``factor=28``).

    Returns:
        Resized frames with the input's layout; the input itself when the size already fits.

    >>> frames = np.zeros((2, 704, 1280, 3), dtype=np.uint8)
    >>> resize_max_pixels(frames, 200_704).shape
    (2, 308, 588, 3)
    """
    from PIL import Image

    array = np.asarray(frames)
    if array.dtype != np.uint8 or array.ndim not in (3, 4) or array.shape[-1] != 3:
        raise SchemaError(f"expected uint8 frames (T, H, W, 3) or (H, W, 3), got {array.dtype} {array.shape}")
    batch = array if array.ndim == 4 else array[None]
    lower = 4 * factor * factor if min_pixels is None else min_pixels
    height, width = smart_resize(batch.shape[1], batch.shape[2], factor, min(lower, max_pixels), max_pixels)
    if (height, width) == batch.shape[1:3]:
        return array
    out = np.empty((len(batch), height, width, 3), dtype=np.uint8)
    for i, frame in enumerate(batch):
        out[i] = np.asarray(Image.fromarray(frame).resize((width, height), Image.Resampling.BICUBIC))
    return out if array.ndim == 4 else out[0]
