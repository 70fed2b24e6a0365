"""Image loading: RGB ``PIL.Image`` or ``uint8 (H, W, 3)`` from a path, bytes or an HF datasets dict.

Accepted sources: a path (``str`` / ``Path``), raw encoded bytes, or the dict Hugging Face ``datasets``
stores for an ``Image`` feature, ``{"bytes": b"..." or None, "path": "..." or None}`` (bytes win when
both are set, as in ``datasets``). Any format Pillow reads works (PNG, JPEG, WebP, GIF's first frame,
BMP, TIFF). Modes are converted with ``Image.convert("RGB")``: grey is replicated, palettes are
expanded, an alpha channel is dropped (transparent pixels keep their stored colour). EXIF orientation
is not applied, as in ``datasets``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mmjudge.errors import MediaError, SchemaError
from mmjudge.media._common import check_file

__all__ = ["ImageSource", "load_image", "load_image_array"]

ImageSource = str | Path | bytes | Mapping[str, Any]
"""A path, encoded bytes, or a ``{"bytes": ..., "path": ...}`` dict."""


def load_image(source: ImageSource) -> Any:
    """Open and fully decode an image as an RGB ``PIL.Image.Image``.

    Raises:
        MediaError: missing, empty, truncated or non-image data (the message names the path).
        SchemaError: ``source`` is none of the accepted kinds.

    >>> import io
    >>> from PIL import Image
    >>> buffer = io.BytesIO(); Image.new("L", (4, 3), 7).save(buffer, format="PNG")
    >>> image = load_image({"bytes": buffer.getvalue(), "path": None})
    >>> image.mode, image.size, image.getpixel((0, 0))
    ('RGB', (4, 3), (7, 7, 7))
    """
    from PIL import Image, UnidentifiedImageError

    data, label = _resolve(source)
    try:
        with Image.open(io.BytesIO(data) if data is not None else label) as image:
            image.load()
            return image.convert("RGB")
    except UnidentifiedImageError as exc:
        raise MediaError(f"{label}: not an image format Pillow can read") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise MediaError(f"{label}: the image is truncated or damaged ({exc})") from exc


def load_image_array(source: ImageSource) -> np.ndarray:
    """The image as a ``uint8`` array ``(H, W, 3)``; see :func:`load_image`.

    >>> import io
    >>> from PIL import Image
    >>> buffer = io.BytesIO(); Image.new("RGBA", (5, 2), (1, 2, 3, 0)).save(buffer, format="PNG")
    >>> array = load_image_array(buffer.getvalue())
    >>> array.shape, array.dtype.name, array[0, 0].tolist()
    ((2, 5, 3), 'uint8', [1, 2, 3])
    """
    return np.asarray(load_image(source), dtype=np.uint8)


def _resolve(source: ImageSource) -> tuple[bytes | None, Any]:
    """(encoded bytes or None, a label or path for messages and for opening)."""
    if isinstance(source, Mapping):
        data, path = source.get("bytes"), source.get("path")
        if data:
            return bytes(data), path or "<image bytes>"
        if path:
            return None, check_file(path)
        raise MediaError(f"image dict has neither bytes nor a path: {dict(source)!r:.200}")
    if isinstance(source, (bytes, bytearray, memoryview)):
        if not len(source):
            raise MediaError("<image bytes>: the image data is empty (0 bytes)")
        return bytes(source), "<image bytes>"
    if isinstance(source, (str, Path)):
        return None, check_file(source)
    raise SchemaError(
        f"expected an image path, bytes or a {{'bytes': ..., 'path': ...}} dict, got {type(source).__name__}"
    )
