"""Smoke tests of :mod:`tiny_families`: each family loads back offline and runs one image (and one video).

Each checkpoint is loaded through ``AutoProcessor`` / ``AutoModelForImageTextToText`` with
``local_files_only=True``; a chat with one ``{"type": "image"}`` (or ``"video"``) part is rendered by the
saved chat template, which must place the processor's own placeholder token, and the processor's batch
goes through the model's forward pass.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tiny_families import FAMILY_BUILDERS, VIDEO_FAMILIES

np = pytest.importorskip("numpy")
Image = pytest.importorskip("PIL.Image")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

PROMPT = "Rate the quality from 0 to 9."
VOCAB = 512


def _load(folder: Path) -> tuple[Any, Any]:
    processor = transformers.AutoProcessor.from_pretrained(folder, local_files_only=True)
    model = transformers.AutoModelForImageTextToText.from_pretrained(folder, local_files_only=True)
    return processor, model.eval()


def _forward(processor: Any, model: Any, part: str, media: dict[str, Any]) -> None:
    """Render one user turn with a ``part`` placeholder, process it with ``media``, check the logits."""
    messages = [{"role": "user", "content": [{"type": part}, {"type": "text", "text": PROMPT}]}]
    text = processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    assert getattr(processor, f"{part}_token") in text
    assert PROMPT in text
    batch = processor(text=text, return_tensors="pt", **media)
    with torch.no_grad():
        logits = model(**batch).logits
    assert tuple(logits.shape) == (1, batch["input_ids"].shape[1], VOCAB)
    assert bool(torch.isfinite(logits).all())


@pytest.mark.parametrize("key", sorted(FAMILY_BUILDERS))
def test_family_reads_landscape_and_portrait_images(tiny_family: Callable[[str], Path], key: str) -> None:
    processor, model = _load(tiny_family(key))
    digits = processor.tokenizer("0123456789", add_special_tokens=False)["input_ids"]
    assert len(digits) == 10
    rng = np.random.default_rng(0)
    for height, width in ((480, 832), (832, 480)):
        image = Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=np.uint8))
        _forward(processor, model, "image", {"images": [image]})


@pytest.mark.parametrize("key", sorted(VIDEO_FAMILIES))
def test_family_reads_an_eight_frame_video(tiny_family: Callable[[str], Path], key: str) -> None:
    processor, model = _load(tiny_family(key))
    frames = np.random.default_rng(1).integers(0, 256, (8, 480, 832, 3), dtype=np.uint8)
    _forward(processor, model, "video", {"videos": [frames]})
