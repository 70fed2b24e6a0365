"""One way to add a judge or a family: every judge that loads a chat model resolves its family the same way
(:class:`mmjudge.judges._family.FamilyJudge`), reads the resize factor from its model's processor instead of a
constant, refuses a family its official code does not run before the run, and batches its queries' encodings
through one function (:func:`mmjudge.judges._chat.batches`)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import mmjudge.judges as judges_package
from mmjudge.errors import ConfigError
from mmjudge.judges import JUDGES, JudgeConfig, JudgeInput, get_judge
from mmjudge.judges._family import FamilyJudge
from mmjudge.queries import ScoreQuery

JUDGES_DIR = Path(judges_package.__file__).parent

NOT_A_FAMILY = {
    "constant": "weight-free",
    "random": "weight-free",
    "sharpness": "weight-free (pixels only)",
    "frame_smoothness": "weight-free (pixels only)",
    "clip_score": "a CLIP scorer: an image and a text encoder, no chat model, no processor family",
    "openai_compatible": "an HTTP API: the server owns the model",
}
"""The registered judges that load no transformers chat model, and why."""


def test_every_judge_that_loads_a_chat_model_resolves_its_family() -> None:
    outside = {name for name in JUDGES.names() if not issubclass(get_judge(name), FamilyJudge)}
    assert outside == set(NOT_A_FAMILY)


def _calls(name: str) -> dict[str, int]:
    """Modules of ``mmjudge.judges`` (not ``tiny``) calling the function ``name``, with the count of calls."""
    found: dict[str, int] = {}
    for path in sorted(JUDGES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if called == name:
                    found[path.name] = found.get(path.name, 0) + 1
    return found


def test_encodings_are_batched_through_one_function() -> None:
    """``collate`` and ``media_groups`` are called by ``_chat`` alone (its :func:`batches`, and the scoring rows of
    ``row_logprobs``); the processor's batch call by ``processor_inputs`` alone; judges call ``batches``."""
    assert set(_calls("collate")) == {"_chat.py"}
    assert set(_calls("media_groups")) == {"_chat.py"}
    assert set(_calls("processor_batch")) == {"_family.py"}
    assert {"video_reward.py", "video_score.py", "vlm_digit.py", "videoscore2.py", "_chat.py"} <= set(
        _calls("batches")
    )
    # the generating judges batch through _chat.generate_texts, which batches through batches
    assert {"audio_visual.py", "unified_reward.py"} <= set(_calls("generate_texts"))


def test_no_judge_hard_codes_a_resize_factor() -> None:
    for path in sorted(JUDGES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                assert "FACTOR" not in names, f"{path.name} sets a FACTOR of its own"


def _config(judge: str, model: Path, **extra: Any) -> JudgeConfig:
    return JudgeConfig(judge=judge, model=str(model), local_files_only=True, dtype="float32", **extra)


@pytest.mark.parametrize(
    ("judge", "fixture", "names"),
    [
        ("video_reward", "tiny_omni_thinker", "Qwen2-VL"),
        ("audio_visual", "tiny_qwen2_vl", "Qwen2.5-Omni"),
        ("video_score", "tiny_qwen2_vl", "Idefics2"),
    ],
)
def test_a_family_the_official_code_does_not_run_is_refused_before_the_run(
    judge: str, fixture: str, names: str, request: pytest.FixtureRequest
) -> None:
    model = request.getfixturevalue(fixture)
    made = get_judge(judge)(_config(judge, model))
    with pytest.raises(ConfigError, match=names):
        made.check_model()  # what the runner's prepare step calls, before anything is decoded or loaded


@pytest.fixture(scope="module")
def qwen2_vl_patch16(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mmjudge.judges.tiny._qwen import build_qwen2_vl

    return build_qwen2_vl(tmp_path_factory.mktemp("qwen2-vl-patch16"), patch=16)


def test_video_reward_resizes_for_the_models_own_factor(qwen2_vl_patch16: Path) -> None:
    """A backbone with 16-px patches (factor 32): the clip is sized for 32, as VideoAlign's rule gives for it."""
    from transformers import AutoProcessor

    from mmjudge.judges.profiles import VIDEOALIGN

    judge = get_judge("video_reward")(_config("video_reward", qwen2_vl_patch16, options={"min_pixels": 3136}))
    judge.check_model()
    judge.processor = AutoProcessor.from_pretrained(qwen2_vl_patch16, local_files_only=True)
    frames = np.random.default_rng(0).integers(0, 256, (4, 70, 150, 3), dtype=np.uint8)
    clip = JudgeInput(ScoreQuery("c", Path("c.mp4"), "a cat"), frames=frames, frame_indices=(0, 1, 2, 3), fps=8.0)
    encoded = judge.encode_one(clip)
    height, width = VIDEOALIGN.video_size(70, 150, 4, 32, min_pixels=3136, max_pixels=judge.max_pixels)
    assert height % 32 == 0 and width % 32 == 0
    assert encoded["video_grid_thw"].tolist() == [[2, height // 16, width // 16]]
