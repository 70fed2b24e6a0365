"""PickScore's image processor: pixel values of the slow PIL CLIP processor against transformers 5's torchvision one.

Run: ``.venv/bin/python benchmarks/clip_image_backend.py [SAMPLE_DATA]`` (default: ``demo-output/sample-data``,
written by ``make demo``). CLIP-H's processor settings (shortest edge 224, centre crop 224, bicubic, OpenAI
mean and std), the 6 frames ``clip_score`` reads of each IsoVRBench sample clip; prints the largest and the
mean absolute difference of the two backends' pixel values.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
from transformers.models.clip.image_processing_clip import CLIPImageProcessor
from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

from mmjudge.media.video import read_frames, video_info

CLIP_H: dict[str, Any] = {
    "size": {"shortest_edge": 224},
    "crop_size": {"height": 224, "width": 224},
    "resample": 3,
    "image_mean": [0.48145466, 0.4578275, 0.40821073],
    "image_std": [0.26862954, 0.26130258, 0.27577711],
}


def main(root: Path) -> None:
    pil, torchvision = CLIPImageProcessorPil(**CLIP_H), CLIPImageProcessor(**CLIP_H)
    clips = sorted((root / "isovrbench").rglob("*.mp4"))
    if not clips:
        raise SystemExit(f"no IsoVRBench clips under {root / 'isovrbench'}; run `make demo` or pass SAMPLE_DATA")
    worst, means = 0.0, list[float]()
    for clip in clips:
        total = video_info(clip).num_frames
        frames = list(read_frames(clip, [int(i) for i in np.round(np.linspace(0, total - 1, 6))]))
        a = pil(images=frames, return_tensors="np")["pixel_values"]
        b = torchvision(images=frames, return_tensors="pt")["pixel_values"].numpy()
        worst, means = max(worst, float(np.abs(a - b).max())), [*means, float(np.abs(a - b).mean())]
    print(f"{len(clips)} clips: max |pil - torchvision| = {worst:.4f}, mean = {np.mean(means):.5f}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("demo-output/sample-data"))
