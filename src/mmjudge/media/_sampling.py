"""Frame-index sampling (pure arithmetic, no decoding): how many frames, and which.

Three frame-count rules, each the rule of the code it names:

- ``"plain"``: mmjudge's own rule for judges without a reference (the weight-free baselines):
  clamp, round to ``multiple_of`` (half to even), cap at the clip length, at least one frame.
- ``"qwen_vl_utils"``: ``smart_nframes`` of PyPI ``qwen-vl-utils`` 0.0.14 (and ``qwen-omni-utils``
  0.0.9, whose copy is the same): a fixed count is *rounded* to the frame factor; a rate-derived
  count is clamped to ``[min_frames, max_frames]`` and the clip length, then *floored* to the factor.
  A count outside ``[factor, total]`` is an error there, and a :class:`~mmjudge.errors.MediaError` here.
- ``"videoalign"``: the ``smart_nframes`` of VideoAlign's vendored ``vision_process.py`` (an older
  qwen-vl-utils): fixed and rate-derived counts are both *rounded* to the factor after the clamp, then
  capped at the clip length (which can leave an odd count); below the factor is an error.

Indices are ``torch.linspace(0, total - 1, n).round()`` as every reference computes them, emulated in
float32 numpy (:func:`linspace_indices`): numpy's float64 ``linspace`` rounds differently on 2.6% of
``(total, n)`` pairs (7,408 of 279,900 with ``total < 1500``, ``n <= 200``).
"""

from __future__ import annotations

import math

import numpy as np

from mmjudge.errors import ConfigError, MediaError

POLICIES = ("linspace", "segment_centers", "arange", "arange_centred", "smolvlm", "float_arange", "int_scaled",
            "linspace_floor")
PROCESSOR_POLICIES = ("arange", "arange_centred", "smolvlm")
"""Policies that are a transformers video processor's own ``sample_frames`` (count and indices together)."""
SMOLVLM_FPS = 1.0
"""SmolVLM2's sampling rate (``video_sampling.fps`` of its released processor config)."""
FRAME_RULES = ("plain", "qwen_vl_utils", "videoalign")
FPS_MAX_FRAMES = 768
"""The references' default ``max_frames`` at a rate: ``min(768, total)`` when none is given."""


def linspace_indices(total: int, n: int) -> list[int]:
    """``torch.linspace(0, total - 1, n).round().long()`` (float32, round half to even), without torch.

    torch's CPU kernel computes ``step = (end - start) / (n - 1)`` in float32 and fills the first half
    forward from ``start`` and the second half backward from ``end``; both are reproduced here.

    >>> linspace_indices(81, 8)
    [0, 11, 23, 34, 46, 57, 69, 80]
    >>> linspace_indices(7, 1), linspace_indices(1, 3)
    ([0], [0, 0, 0])
    """
    if n < 1:
        raise ConfigError(f"expected at least one frame to sample, got n={n}")
    if n == 1:
        return [0]
    end = np.float32(total - 1)
    step = np.float32(end / np.float32(n - 1))
    i = np.arange(n)
    forward = step * i.astype(np.float32)
    backward = end - step * (n - 1 - i).astype(np.float32)
    values = np.where(i < n // 2, forward, backward).astype(np.float32)
    return [int(v) for v in np.round(values)]


def sample_indices(
    total: int,
    fps: float,
    *,
    num: int | None = None,
    target_fps: float | None = None,
    policy: str = "linspace",
    min_frames: int = 1,
    max_frames: int | None = None,
    multiple_of: int = 1,
    rule: str = "plain",
) -> list[int]:
    """Frame indices to sample from a clip of ``total`` frames at ``fps``.

    How many frames (:func:`frame_count`) follows ``rule`` (see the module docstring); with
    ``"plain"``:

    1. ``raw = num`` if ``num`` is given, else ``raw = total / fps * target_fps`` (exactly one of the
       two must be given).
    2. ``raw`` is clamped to ``[lo, hi]`` with ``lo = ceil(min_frames / multiple_of) * multiple_of`` and
       ``hi = floor(min(max_frames or total, total) / multiple_of) * multiple_of`` (when ``hi < lo``,
       ``raw`` is left as it is).
    3. ``n = round(raw / multiple_of) * multiple_of`` with Python's ``round`` (half to even).
    4. ``n`` is finally capped at ``total`` and is at least 1: a clip shorter than ``min_frames``
       gives all of its frames.

    Which frames:

    - ``"linspace"``: :func:`linspace_indices` (``torch.linspace(0, total - 1, n).round()``, as
      qwen-vl-utils and VideoAlign compute it). The first and the last frame are always included;
      ``n == 1`` gives ``[0]``.
    - ``"segment_centers"``: split ``[0, total)`` into ``n`` equal segments and take the frame at
      each segment's centre, ``floor((k + 0.5) * total / n)`` for ``k = 0 .. n-1`` (TSN-style uniform
      sampling; never includes the last frame unless ``n == total``).
    - ``"float_arange"``: VideoScore's rule (:func:`float_arange_indices`; ``num`` is the cap, which also
      decides the count).
    - ``"int_scaled"``: UnifiedReward-2.0's rule (:func:`int_scaled_indices`; a repeated index is one frame).
    - ``"linspace_floor"``: UnifiedReward-Flex's rule (:func:`linspace_floor_indices`; a repeated index is
      two frames).

    Args:
        total: number of frames in the clip.
        fps: the clip's frame rate (used with ``target_fps``).
        num: number of frames wanted.
        target_fps: sampling rate in frames per second of video time.
        policy: ``"linspace"`` or ``"segment_centers"``, or a processor's own rule
            (:func:`processor_indices`, which then decides the count too).
        min_frames: lower bound on ``n`` for a rate (and, in ``"plain"``, for ``num`` too).
        max_frames: upper bound on ``n``; ``None`` means ``total`` in ``"plain"`` and
            ``min(768, total)`` in the reference rules (a given value is used as is there, as the
            references use a ``max_frames`` key).
        multiple_of: ``n`` is rounded to a multiple of this (the references' frame factor, 2).
        rule: ``"plain"``, ``"qwen_vl_utils"`` or ``"videoalign"``.

    Returns:
        ``n`` sorted frame indices in ``[0, total)``; distinct when ``n <= total``.

    >>> sample_indices(81, 16, target_fps=2)
    [0, 9, 18, 27, 36, 44, 53, 62, 71, 80]
    >>> sample_indices(81, 16, num=8)
    [0, 11, 23, 34, 46, 57, 69, 80]
    >>> sample_indices(81, 16, target_fps=0.5, min_frames=4, max_frames=768, multiple_of=2)
    [0, 27, 53, 80]
    >>> sample_indices(10, 16, num=4, policy="segment_centers")
    [1, 3, 6, 8]
    """
    if policy in PROCESSOR_POLICIES:
        return processor_indices(policy, total, fps, num=num, target_fps=target_fps)
    if policy in COUNT_POLICIES:
        if num is None or target_fps is not None:
            raise ConfigError(
                f"{policy} sampling takes a number of frames (num), not a rate; got num={num}, target_fps={target_fps}"
            )
        return COUNT_POLICIES[policy](total, num)
    n = frame_count(
        total,
        fps,
        num=num,
        target_fps=target_fps,
        min_frames=min_frames,
        max_frames=max_frames,
        multiple_of=multiple_of,
        rule=rule,
    )
    if policy == "linspace":
        return linspace_indices(total, n)
    if policy == "segment_centers":
        return [((2 * k + 1) * total) // (2 * n) for k in range(n)]
    raise ConfigError(f"unknown sampling policy {policy!r}; known policies: {list(POLICIES)}")


def float_arange_indices(total: int, most: int) -> list[int]:
    """VideoScore's frame rule: every frame of a clip of at most ``most`` frames, else
    ``np.arange(0, total, total / most).astype(int)`` (float64 steps truncated), keeping the indices below
    ``total``: the official code takes a frame while decoding when its index is in that list, so the index
    ``total`` that float rounding sometimes adds is never reached (``most`` frames on every clip).

    TIGER-AI-Lab/VideoScore@8e44973 ``examples/run_videoscore.py`` (its ``MAX_NUM_FRAMES``: 48 for
    VideoScore-v1.1, 16 for v1). The float steps differ from the integer ``"arange"`` policy's
    ``k * total // most`` on some clips (``(208, 48)``: frame 116 here, 117 there), so they have their own policy.

    >>> float_arange_indices(81, 16)
    [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75]
    >>> float_arange_indices(30, 48) == list(range(30))
    True
    >>> len(float_arange_indices(138, 100))
    100
    """
    if total < 1:
        raise MediaError(f"expected a clip with at least one frame, got total={total}")
    if most < 1:
        raise ConfigError(f"expected a frame cap of at least 1, got {most}")
    if total <= most:
        return list(range(total))
    # float rounding can end the range on ``total`` itself (138 frames, cap 100: 101 steps); the official
    # decode loop keeps a frame only when its index is decoded, so an index past the last frame is dropped
    return [int(i) for i in np.arange(0, total, total / most).astype(int) if i < total]


def int_scaled_indices(total: int, num: int) -> list[int]:
    """UnifiedReward-2.0's frame rule: ``int(i * total / num)`` for ``i < num``, taken while the clip is read
    sequentially, so an index that repeats is one frame (a clip shorter than ``num`` gives each frame once).

    CodeGoat24/UnifiedReward@ff6f520 ``point_score_APS_video_generation.py`` ``read_video_frames``.

    >>> int_scaled_indices(81, 8)
    [0, 10, 20, 30, 40, 50, 60, 70]
    >>> int_scaled_indices(7, 8)
    [0, 1, 2, 3, 4, 5, 6]
    """
    _check_count(total, num)
    return sorted({int(i * total / num) for i in range(num)})


def linspace_floor_indices(total: int, num: int) -> list[int]:
    """UnifiedReward-Flex's frame rule: ``np.linspace(0, total - 1, num).astype(int)``, each index read on its
    own, so a repeated index is two frames (float64, truncated: not :func:`linspace_indices`' rounding).

    CodeGoat24/UnifiedReward@ff6f520 ``UnifiedReward-Flex/flex_pair_rank_video_generation.py`` ``extract_frames``.

    >>> linspace_floor_indices(81, 8)
    [0, 11, 22, 34, 45, 57, 68, 80]
    >>> linspace_floor_indices(5, 8)
    [0, 0, 1, 1, 2, 2, 3, 4]
    """
    _check_count(total, num)
    return [int(i) for i in np.linspace(0, total - 1, num).astype(int)]


def _check_count(total: int, num: int) -> None:
    if num < 1:
        raise ConfigError(f"expected at least one frame to sample, got {num}")
    if total < 1:
        raise MediaError(f"expected a clip with at least one frame, got a frame count of {total}")


COUNT_POLICIES = {
    "float_arange": float_arange_indices,
    "int_scaled": int_scaled_indices,
    "linspace_floor": linspace_floor_indices,
}
"""The policies that are a reference's whole rule for a number of frames (the count and the indices)."""


def processor_indices(
    policy: str, total: int, fps: float, *, num: int | None = None, target_fps: float | None = None
) -> list[int]:
    """The frames a transformers video processor's ``sample_frames`` picks (count and indices).

    - ``"arange"``: ``default_sample_indices_fn`` (LLaVA-OneVision, LLaVA-NeXT-Video, Video-LLaVA):
      ``n = num`` or ``max(1, int(total / fps * target_fps))``, indices ``k * total // n``.
    - ``"arange_centred"``: InternVL's ``sample_frames`` with ``initial_shift=True``: float32
      ``arange(total / n / 2, total, total / n)`` truncated to integers (``torch.arange(...).int()``).
    - ``"smolvlm"``: SmolVLM's ``sample_frames``: ``min(round(rate * duration), num)`` frames (at least 1;
      ``rate`` = ``target_fps`` or :data:`SMOLVLM_FPS`), one second skipped at both ends when the clip is
      longer than ``2 + num / rate`` seconds, ``np.linspace(start, end, n, dtype=int)``, duplicates dropped.

    Asking for more frames than the clip has is a :class:`~mmjudge.errors.MediaError` in the first two,
    as the processors raise.

    >>> processor_indices("arange", 81, 16.0, num=8)
    [0, 10, 20, 30, 40, 50, 60, 70]
    >>> processor_indices("arange_centred", 81, 16.0, num=8)
    [5, 15, 25, 35, 45, 55, 65, 75]
    >>> processor_indices("smolvlm", 81, 16.0, num=8)
    [0, 20, 40, 60, 80]
    """
    if policy == "smolvlm":
        return _smolvlm_indices(total, fps, num, target_fps)
    if num is None:
        if target_fps is None or not fps:
            raise ConfigError("expected a frame count or a sampling rate with the clip's fps, got neither")
        num = max(1, int(total / fps * target_fps))
    if num < 1 or num > total:
        raise MediaError(
            f"{policy} sampling of {num} frames from a clip of {total} frames: the model's processor refuses "
            "more frames than the clip has; ask for fewer frames"
        )
    if policy == "arange":
        return [int(i) for i in np.arange(num, dtype=np.int64) * total // num]
    if policy == "arange_centred":
        step = total / num
        values = (step / 2 + np.arange(math.ceil((total - step / 2) / step)) * step).astype(np.float32)
        return [int(v) for v in np.trunc(values)]
    raise ConfigError(f"unknown sampling policy {policy!r}; known policies: {list(POLICIES)}")


def _smolvlm_indices(total: int, fps: float, num: int | None, target_fps: float | None) -> list[int]:
    rate = SMOLVLM_FPS if target_fps is None else float(target_fps)
    most = 64 if num is None else num  # SmolVLM2's video_sampling.max_frames
    duration = total / fps
    wanted = max(1, min(int(round(rate * duration)), most))
    start, end = 0, total - 1
    if duration - 2 > most * rate:  # skip_secs=1 at both ends
        start, end = int(fps), int(total - fps)
    start, end = max(0, start), min(end, total - 1)
    if start >= end:
        start, end = 0, total - 1
    return [int(i) for i in np.unique(np.linspace(start, end, wanted, dtype=int))]


def frame_count(
    total: int,
    fps: float,
    *,
    num: int | None = None,
    target_fps: float | None = None,
    min_frames: int = 1,
    max_frames: int | None = None,
    multiple_of: int = 1,
    rule: str = "plain",
) -> int:
    """How many frames :func:`sample_indices` takes (arguments as there).

    >>> frame_count(81, 16, target_fps=2, min_frames=4, max_frames=768, multiple_of=2, rule="qwen_vl_utils")
    10
    >>> frame_count(3, 16, target_fps=2, min_frames=4, multiple_of=2, rule="videoalign")
    2
    >>> frame_count(41, 16, num=5, multiple_of=2, rule="qwen_vl_utils")
    4
    """
    if total < 1:
        raise ConfigError(f"expected a clip with at least one frame, got total={total}")
    if (num is None) == (target_fps is None):
        raise ConfigError(f"give exactly one of num or target_fps, got num={num}, target_fps={target_fps}")
    if multiple_of < 1 or min_frames < 1:
        raise ConfigError(f"expected multiple_of >= 1 and min_frames >= 1, got {multiple_of}, {min_frames}")
    if target_fps is not None and (fps <= 0 or target_fps <= 0):
        raise ConfigError(f"expected positive fps and target_fps, got fps={fps}, target_fps={target_fps}")
    if rule == "plain":
        return _plain(total, fps, num, target_fps, min_frames, max_frames, multiple_of)
    if rule not in FRAME_RULES:
        raise ConfigError(f"unknown frame-count rule {rule!r}; known rules: {list(FRAME_RULES)}")
    factor = multiple_of
    if num is not None:
        n = round(num / factor) * factor
    else:
        lo = math.ceil(min_frames / factor) * factor
        hi = (
            math.floor((max_frames if max_frames is not None else min(FPS_MAX_FRAMES, total)) / factor)
            * factor
        )
        raw = total / fps * target_fps  # type: ignore[operator]
        if rule == "qwen_vl_utils":
            n = math.floor(min(min(max(raw, lo), hi), total) / factor) * factor
        else:
            n = round(min(max(raw, lo), hi) / factor) * factor
    if rule == "videoalign":
        n = min(n, total)
    if not factor <= n <= total:
        asked = f"{num} frames" if num is not None else f"{target_fps} fps"
        raise MediaError(
            f"{rule} sampling of {asked} from a clip of {total} frames gives {n} frames; the reference "
            f"needs between {factor} and {total}: use a longer clip or ask for fewer frames"
        )
    return int(n)


def _plain(
    total: int,
    fps: float,
    num: int | None,
    target_fps: float | None,
    min_frames: int,
    max_frames: int | None,
    multiple_of: int,
) -> int:
    raw = total / fps * target_fps if target_fps is not None else float(num)  # type: ignore[arg-type]
    lo = math.ceil(min_frames / multiple_of) * multiple_of
    hi = math.floor(min(max_frames or total, total) / multiple_of) * multiple_of
    raw = min(max(raw, lo), hi) if hi >= lo else raw
    n = round(raw / multiple_of) * multiple_of
    return max(1, min(n, total))
