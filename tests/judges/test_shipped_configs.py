"""The contract every shipped judge config and card meets, one parametrised test over ``judges/*/*.yaml``.

Every config loads and builds a registered judge; a judge that loads weights names its model and one that does
not names none; the folder holds the card, and the card says what kind of judge it is (a weight-free baseline,
or a model judge whose tiny-weight tests prove the plumbing, not the scores) and cites its source. What a
particular config must hold (the paper's checkpoint, frames, dtype, strategy) and what its card must name (the
official code and commit it follows) is one row of :data:`EXPECTED` / :data:`CARD_NAMES`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mmjudge.judges import JUDGES, get_judge, load_config, make_judge

REPO = Path(__file__).resolve().parents[2]
CONFIGS = sorted((REPO / "judges").glob("*/*.yaml"))
WEIGHT_FREE = {"constant", "random", "sharpness", "frame_smoothness"}
"""Judges that load no weights (their configs name no model)."""
NO_CITATION = WEIGHT_FREE | {"openai_compatible", "label_choice", "pairwise_describe"}
"""Judges whose card cites no paper of their own: baselines, the API client and the papers' prompted-VLM protocols
(their benchmark cards cite the papers)."""
PLUMBING = "Random weights prove the plumbing, not the scores"

EXPECTED: dict[str, dict[str, Any]] = {
    "unified_reward/config.yaml": {"model": "CodeGoat24/UnifiedReward-2.0-qwen3vl-8b", "dtype": "bfloat16",
                                   "frames": 8},
    "unified_reward/pairwise.yaml": {"judge": "unified_reward_pair", "model": "CodeGoat24/UnifiedReward-2.0-qwen3vl-8b",
                                     "options.jpeg_passes": 2},
    "unified_reward_flex/config.yaml": {"model": "CodeGoat24/UnifiedReward-Flex-qwen35-9b", "dtype": "bfloat16",
                                        "frames": 8, "options.max_new_tokens": 4096},
    "videoscore2/config.yaml": {"model": "TIGER-Lab/VideoScore2", "dtype": "bfloat16"},
    "label_choice/config.yaml": {"options.method": "greedy_trie"},
    "label_choice_loglik/config.yaml": {"judge": "label_choice", "options.method": "loglik"},
    "pairwise_describe/config.yaml": {"options.strategy": "S1"},
    "pairwise_describe_s4/config.yaml": {"judge": "pairwise_describe", "options.strategy": "S4"},
    "audio_language/qwen2-audio-7b-s4.yaml": {"model": "Qwen/Qwen2-Audio-7B-Instruct", "options.strategy": "S4",
                                              "options.text_model": "Qwen/Qwen2.5-7B-Instruct"},
    "audio_language/qwen2-audio-7b-emorealm.yaml": {"model": "Qwen/Qwen2-Audio-7B-Instruct"},
    "audio_visual/omni-7b-s2.yaml": {"model": "Qwen/Qwen2.5-Omni-7B", "fps": 2.0, "options.strategy": "S2",
                                     "options.audio": True, "options.use_audio_in_video": True},
    "clip_score/config.yaml": {"model": "yuvalkirstain/PickScore_v1", "frames": 6},
    "audio_visual/config.yaml": {"fps": 2.0, "options.use_audio_in_video": True, "options.max_new_tokens": 64,
                                 "benchmarks": {"emoprefer", "emorealm"}},
    "openai_compatible/config.yaml": {"options.top_logprobs": 20, "options.temperature": 0.0,
                                      "benchmarks": {"isovrbench", "mist", "emoprefer", "emorealm", "temporalbench",
                                                     "tempcompass", "videogen_rewardbench", "genai_bench_video",
                                                     "mj_bench_video"}},
}  # fmt: skip
"""Per config (path under ``judges/``): ``field`` of the config, ``options.<name>`` of its options, or
``benchmarks`` (what the built judge answers) -> the value it must have."""

CARD_NAMES: dict[str, tuple[str, ...]] = {
    "unified_reward": ("## Reference inference", "ff6f520", "point_score_APS_video_generation.py", "vllm_request.py",
                       "pair_score_video_generation.py", "pairwise.yaml", "unified_reward_pair"),
    "unified_reward_flex": ("## Reference inference", "ff6f520", "flex_pair_rank_video_generation.py",
                            "vllm_request.py", "chosen_shown_first"),
    "videoscore2": ("## Reference inference", "vs2_inference.py"),
    "audio_language": ("## Reference inference",),
    "label_choice": ("reconstruction",),
}  # fmt: skip
"""Per judge folder: what its card must name besides the common sections."""


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _value(judge: Any, field: str) -> Any:
    if field == "benchmarks":
        return judge.benchmarks
    if field.startswith("options."):
        return getattr(judge.options, field.removeprefix("options."))
    return getattr(judge.config, field)


def test_every_judge_folder_is_checked() -> None:
    folders = {path.parent.name for path in CONFIGS}
    assert folders == {p.name for p in (REPO / "judges").iterdir() if p.is_dir()}
    assert set(EXPECTED) <= {_id(p) for p in CONFIGS} and set(CARD_NAMES) <= folders
    assert {load_config(p).judge for p in CONFIGS} == set(JUDGES.names())  # every registered judge ships a config


@pytest.mark.parametrize("path", CONFIGS, ids=_id)
def test_a_shipped_config_builds_its_registered_judge(path: Path) -> None:
    config = load_config(path)
    judge = make_judge(config)
    assert type(judge) is get_judge(config.judge)
    if config.judge in WEIGHT_FREE:
        assert config.model is None
    else:
        assert config.model, f"{_id(path)}: a judge that loads weights names its model"
    for field, wanted in EXPECTED.get(_id(path), {}).items():
        assert _value(judge, field) == wanted, (field, _value(judge, field), wanted)


@pytest.mark.parametrize("folder", sorted({p.parent for p in CONFIGS}), ids=lambda p: p.name)
def test_a_judge_folder_has_a_card_that_says_what_the_judge_is(folder: Path) -> None:
    card = " ".join((folder / "README.md").read_text(encoding="utf-8").split())
    judges = {load_config(p).judge for p in folder.glob("*.yaml")}
    if judges <= WEIGHT_FREE:
        assert "weight-free" in card.lower() and "config" in card
    elif judges != {"openai_compatible"}:
        assert PLUMBING in card
    if not judges <= NO_CITATION:
        assert "## Citation" in card
    for needed in CARD_NAMES.get(folder.name, ()):
        assert needed in card, needed
