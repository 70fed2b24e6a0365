"""Synthetic clip judges with known behaviour, for the robustness probes' tests (no weights, no network).

Each judges IsoVRBench clips from their path and prompt only; the tables a judge reads (which prompt
belongs to which clip, which generator made it) are filled by the test from the built folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from mmjudge.judges import Judge, JudgeInput, MediaRequest
from mmjudge.queries import ScoreQuery, Verdict, item_key

PROMPT_OF: dict[str, str] = {}
"""Clip file name -> its own prompt (filled by the test)."""
GENERATOR_OF: dict[str, str] = {}
"""Clip file name -> its generator (filled by the test)."""
GENERATOR_SCORE = {"Wan2.2-T2V-A14B": 0.0, "Wan2.2-TI2V-5B": 1.0, "Wan2.1-T2V-1.3B": -1.0}
"""The generator-identity judge's score of each generator's clips."""


def _key(item: ScoreQuery) -> str:
    return str(item.video)


class _ClipJudge(Judge):
    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        return [Verdict(x.query.item_id, self.score(x)) for x in inputs]

    def score(self, x: JudgeInput) -> float:
        raise NotImplementedError


class ConstantClipJudge(_ClipJudge):
    """Every clip scores 1.0 (reads nothing)."""

    default_frames: ClassVar[int | None] = None

    def media_request(self, item: object) -> MediaRequest:
        return MediaRequest()

    def score(self, x: JudgeInput) -> float:
        return 1.0


class FrameBlindJudge(_ClipJudge):
    """Decodes frames but scores from the clip's path alone (the frame count cannot matter)."""

    default_frames: ClassVar[int | None] = 8

    def score(self, x: JudgeInput) -> float:
        assert x.frames is not None
        return (item_key(x.query.video.name + x.query.video.parent.name) % 1000) / 1000.0


class FrameHungryJudge(_ClipJudge):
    """Prefers the anchor only when it sees at least 16 frames (ties below): accuracy rises with frames."""

    default_frames: ClassVar[int | None] = 8

    def score(self, x: JudgeInput) -> float:
        assert x.frames is not None
        return float(x.query.video.name == "anchor.mp4") if len(x.frames) >= 16 else 0.0


class PromptMatchJudge(_ClipJudge):
    """1.0 when the prompt is the clip's own, else 0.0 (reads the prompt, not the frames)."""

    default_frames: ClassVar[int | None] = None

    def media_request(self, item: object) -> MediaRequest:
        return MediaRequest()

    def score(self, x: JudgeInput) -> float:
        assert isinstance(x.query, ScoreQuery)
        return float(PROMPT_OF[_key(x.query)] == x.query.prompt)


class GeneratorJudge(_ClipJudge):
    """Scores a clip by its generator alone (:data:`GENERATOR_SCORE`)."""

    default_frames: ClassVar[int | None] = None

    def media_request(self, item: object) -> MediaRequest:
        return MediaRequest()

    def score(self, x: JudgeInput) -> float:
        assert isinstance(x.query, ScoreQuery)
        return GENERATOR_SCORE[GENERATOR_OF[_key(x.query)]]


JUDGES = {
    "test_constant_clip": ConstantClipJudge,
    "test_frame_blind": FrameBlindJudge,
    "test_frame_hungry": FrameHungryJudge,
    "test_prompt_match": PromptMatchJudge,
    "test_generator": GeneratorJudge,
}


class LoadCountingJudge(FrameBlindJudge):
    """:class:`FrameBlindJudge` that counts its ``load`` calls and refuses to judge unloaded."""

    loads: ClassVar[list[str]] = []

    def load(self, device: str) -> None:
        LoadCountingJudge.loads.append(device)
        self.weights = "loaded"

    def score(self, x: JudgeInput) -> float:
        assert getattr(self, "weights", None) == "loaded", "judged before load()"
        return super().score(x) + self.config.seed


JUDGES["test_load_counting"] = LoadCountingJudge
