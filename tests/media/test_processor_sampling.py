"""The frames a family's video processor picks (``processor_indices``) equal its own ``sample_frames``.

References: transformers' ``LlavaNextVideoVideoProcessor`` (the default ``sample_frames``, shared by
LLaVA-OneVision and Video-LLaVA), ``InternVLVideoProcessor`` (centred, ``initial_shift=True``) and
``SmolVLMVideoProcessor`` (1 fps, at most ``num_frames``, one second skipped at both ends), called on a grid
of clip lengths (1 to 5,400 frames), frame rates (1 to 60 fps, 29.97 included) and frame counts (1 to 64),
refusals included.
"""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("transformers")
pytest.importorskip("torchvision")

from transformers.models.internvl.video_processing_internvl import InternVLVideoProcessor
from transformers.models.llava_next_video.video_processing_llava_next_video import (
    LlavaNextVideoVideoProcessor,
)
from transformers.models.smolvlm.video_processing_smolvlm import SmolVLMVideoProcessor
from transformers.video_utils import VideoMetadata

from mmjudge.errors import MediaError
from mmjudge.media.video import processor_indices, sample_indices

TOTALS = [*range(1, 130), 241, 899, 1800, 5400]
RATES = (1.0, 7.0, 16.0, 24.0, 29.97, 60.0)
COUNTS = (1, 2, 3, 5, 8, 16, 33, 64)


def _reference(processor: object, total: int, clip_fps: float, n: int, **kwargs: object) -> list[int] | None:
    metadata = VideoMetadata(total_num_frames=total, fps=clip_fps, duration=total / clip_fps)
    try:
        return [int(i) for i in processor.sample_frames(metadata, num_frames=n, **kwargs)]  # type: ignore[attr-defined]
    except ValueError:
        return None


def _ours(policy: str, total: int, fps: float, n: int) -> list[int] | None:
    try:
        return processor_indices(policy, total, fps, num=n)
    except MediaError:
        return None


@pytest.mark.parametrize(
    ("policy", "processor", "kwargs"),
    [
        ("arange", LlavaNextVideoVideoProcessor(), {}),
        ("arange_centred", InternVLVideoProcessor(), {}),
        ("smolvlm", SmolVLMVideoProcessor(), {"fps": 1}),
    ],
    ids=["arange", "arange_centred", "smolvlm"],
)
def test_indices_equal_the_processors_sample_frames(policy: str, processor: object, kwargs: dict) -> None:
    cases = refused = 0
    for total, fps, n in itertools.product(TOTALS, RATES, COUNTS):
        expected = _reference(processor, total, fps, n, **kwargs)
        assert _ours(policy, total, fps, n) == expected, (policy, total, fps, n)
        cases += 1
        refused += expected is None
    assert cases == len(TOTALS) * len(RATES) * len(COUNTS)
    assert (refused > 0) == (policy != "smolvlm")  # more frames than the clip has: refused, as they refuse


def test_the_runner_takes_the_processor_rule_through_sample_indices() -> None:
    assert sample_indices(81, 16.0, num=8, policy="arange") == processor_indices("arange", 81, 16.0, num=8)
    assert sample_indices(81, 16.0, target_fps=1.0, policy="arange") == [0, 16, 32, 48, 64]
    with pytest.raises(MediaError, match="more frames than the clip has"):
        sample_indices(4, 16.0, num=8, policy="arange_centred")
