"""A tiny random VideoAlign reward checkpoint (the ``video_reward`` judge's ``options.checkpoint``)."""

from __future__ import annotations

from pathlib import Path

from mmjudge.judges._config import JudgeConfig
from mmjudge.judges._videoalign_ckpt import VideoAlignSettings, save_checkpoint
from mmjudge.judges.tiny._qwen import build_qwen2_vl
from mmjudge.judges.video_reward import VideoRewardJudge

DATA_SETTINGS = {"fps": 2.0, "max_frame_pixels": 12_544}
"""The checkpoint's ``data_config``: VideoReward's 2 fps, small frames (112 x 112; VideoReward: 448 x 448)."""


def build_videoalign(base_dir: str | Path, checkpoint_dir: str | Path, *, seed: int = 0) -> tuple[Path, Path]:
    """A tiny Qwen2-VL base with the reward markers in ``base_dir`` and, in ``checkpoint_dir``, a full
    VideoAlign checkpoint over it (``model_config.json`` + ``checkpoint-1/model.pth``, legacy key names as
    released; one output per marker, a random reward head, no z-score statistics)."""
    import torch

    base = build_qwen2_vl(base_dir, seed=seed)
    settings = VideoAlignSettings(output_dim=1, data=dict(DATA_SETTINGS))
    config = JudgeConfig(judge="video_reward", model=str(base), local_files_only=True, dtype="float32")
    model, _ = VideoRewardJudge(config).build_model("cpu", settings)
    torch.manual_seed(seed + 1)
    torch.nn.init.normal_(model.rm_head.weight)
    return base, save_checkpoint(model, checkpoint_dir, settings)
