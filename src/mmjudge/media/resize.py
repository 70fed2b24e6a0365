"""Qwen-VL "smart resize": one resize implementation for frames from every decoder backend.

Both output sides are multiples of ``factor``, the area stays within ``[min_pixels, max_pixels]`` and
the aspect ratio is kept as closely as the rounding allows. The arithmetic is qwen-vl-utils'
``smart_resize`` (the same in VideoAlign's vendored copy). The pixels are resampled by one of two
kernels, each the one a reference uses, on the ``uint8`` RGB frames:

- ``"pil_bicubic"``: Pillow's ``Image.resize(..., BICUBIC)`` frame by frame (qwen-vl-utils'
  ``fetch_image``, so every image path; low-pass filters when shrinking).
- ``"torchvision_bicubic_antialias"``: ``torchvision.transforms.functional.resize(video_TCHW_uint8,
  size, BICUBIC, antialias=True)``, what qwen-vl-utils' and VideoAlign's ``fetch_video`` do to a
  decoded clip (torchvision's uint8 path rounds and clamps to ``uint8``; the references then call
  ``.float()``, which changes no value). The two kernels differ by 2-8 grey levels on the same frame.

The decoders' own scalers are never used: they differ between backends by up to 150 levels on fine
texture.
"""

from __future__ import annotations

import math

import numpy as np

from mmjudge._deps import require
from mmjudge.errors import ConfigError, SchemaError

__all__ = ["KERNELS", "resize_frames", "resize_max_pixels", "smart_resize"]

MAX_RATIO = 200
"""qwen-vl-utils refuses images whose long side is more than 200 times the short side."""
KERNELS = ("pil_bicubic", "torchvision_bicubic_antialias")
"""Resampling kernels of :func:`resize_frames`."""


def smart_resize(
    height: int,
    width: int,
    factor: int = 28,
    min_pixels: float = 4 * 28 * 28,
    max_pixels: float = 16384 * 28 * 28,
) -> tuple[int, int]:
    """Target ``(height, width)``: multiples of ``factor``, area in ``[min_pixels, max_pixels]``.

    Steps (qwen-vl-utils): round each side to the nearest multiple of ``factor`` (at least
    ``factor``); if the area exceeds ``max_pixels``, scale both sides by ``sqrt(H*W / max_pixels)``
    and round each *down* to a multiple of ``factor``; else if it is below ``min_pixels``, scale by
    ``sqrt(min_pixels / (H*W))`` and round each *up*. The cap is tested first, so with
    ``min_pixels > max_pixels`` (allowed, as in VideoAlign's copy) a large frame shrinks and a small one
    grows. A side never drops below ``factor`` (the references would give 0 there and fail later).

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
    if factor < 1 or max_pixels < factor * factor:
        raise ConfigError(
            f"expected factor >= 1 and max_pixels >= factor**2, got factor={factor}, max_pixels={max_pixels}"
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


def _check(frames: np.ndarray) -> np.ndarray:
    array = np.asarray(frames)
    if array.dtype != np.uint8 or array.ndim not in (3, 4) or array.shape[-1] != 3:
        raise SchemaError(f"expected uint8 frames (T, H, W, 3) or (H, W, 3), got {array.dtype} {array.shape}")
    return array


def resize_frames(frames: np.ndarray, height: int, width: int, kernel: str = "pil_bicubic") -> np.ndarray:
    """``uint8`` frames ``(T, H, W, 3)`` (or one ``(H, W, 3)``) resampled to ``height x width`` by ``kernel``.

    The input itself comes back when it already has that size.

    >>> resize_frames(np.zeros((2, 40, 60, 3), dtype=np.uint8), 28, 56).shape
    (2, 28, 56, 3)
    """
    array = _check(frames)
    batch = array if array.ndim == 4 else array[None]
    if (height, width) == batch.shape[1:3]:
        return array
    if kernel == "pil_bicubic":
        out = _pil_bicubic(batch, height, width)
    elif kernel == "torchvision_bicubic_antialias":
        out = _torchvision_bicubic(batch, height, width)
    else:
        raise ConfigError(f"unknown resize kernel {kernel!r}; known kernels: {list(KERNELS)}")
    return out if array.ndim == 4 else out[0]


def _pil_bicubic(batch: np.ndarray, height: int, width: int) -> np.ndarray:
    from PIL import Image

    out = np.empty((len(batch), height, width, 3), dtype=np.uint8)
    for i, frame in enumerate(batch):
        out[i] = np.asarray(Image.fromarray(frame).resize((width, height), Image.Resampling.BICUBIC))
    return out


def _torchvision_bicubic(batch: np.ndarray, height: int, width: int) -> np.ndarray:
    torch = require("torch", "judges", purpose="the torchvision resize kernel")
    functional = require(
        "torchvision.transforms.functional", "judges", purpose="the torchvision resize kernel"
    )
    tensor = torch.from_numpy(np.ascontiguousarray(batch)).permute(0, 3, 1, 2)
    resized = functional.resize(
        tensor, [height, width], interpolation=functional.InterpolationMode.BICUBIC, antialias=True
    )
    return np.ascontiguousarray(resized.permute(0, 2, 3, 1).numpy())


def resize_max_pixels(
    frames: np.ndarray,
    max_pixels: int,
    factor: int = 28,
    *,
    min_pixels: int | None = None,
    kernel: str = "pil_bicubic",
) -> np.ndarray:
    """Resize ``uint8`` frames ``(T, H, W, 3)`` (or one frame ``(H, W, 3)``) to :func:`smart_resize`'s size.

    Args:
        frames: RGB frames.
        max_pixels: upper bound on the output area per frame.
        factor: both output sides are multiples of this.
        min_pixels: lower bound on the area; ``None`` means ``4 * factor**2`` (qwen-vl-utils' 56*56
            for ``factor=28``), at most ``max_pixels``.
        kernel: one of :data:`KERNELS`.

    Returns:
        Resized frames with the input's layout; the input itself when the size already fits.

    >>> frames = np.zeros((2, 704, 1280, 3), dtype=np.uint8)
    >>> resize_max_pixels(frames, 200_704).shape
    (2, 308, 588, 3)
    """
    array = _check(frames)
    lower = min(4 * factor * factor if min_pixels is None else min_pixels, max_pixels)
    height, width = smart_resize(array.shape[-3], array.shape[-2], factor, lower, max_pixels)
    return resize_frames(array, height, width, kernel)
