"""``videoscore2``: VideoScore2 (TIGER-Lab), a generative Qwen2.5-VL reward model that writes three 1-5 scores.

Protocol (``TIGER-AI-Lab/VideoScore2`` ``vs2_inference.py`` @ ``e6abe26``, as its code runs it, except the
decoding; the card ``judges/videoscore2/README.md`` lists every decision):

1. **Frames**: the clip as one video at 2 fps (``fps``; ``frames: N`` for sweeps) by qwen-vl-utils' rule and
   size (:data:`mmjudge.judges.profiles.QWEN_VL_UTILS`: 81 frames at 16 fps -> ``[0, 9, 18, 27, 36, 44,
   53, 62, 71, 80]``, at most ``768 * 28 * 28`` pixels a frame), through the Qwen2.5-VL family's processor
   path (:func:`mmjudge.judges._family.processor_inputs`). The official script also passes ``fps=2.0`` to
   the processor: under its transformers 4.53 that sets ``second_per_grid_ts = temporal_patch_size / 2.0``;
   transformers 5 ignores it, so the judge sets that value itself.
2. **Prompt**: :data:`QUERY_TEMPLATE` with the clip's prompt, one user turn (the video, then the text), no
   system message (the chat template's default), the generation prompt on.
3. **Decoding**: greedy (the official script samples at temperature 0.7; ``options.do_sample`` samples at
   ``options.temperature`` with a per-clip seed), at most ``options.max_new_tokens`` tokens.
4. **Readout**: hard scores by :data:`HARD_PATTERN` on the reply; soft scores as the official
   ``ll_based_soft_score_normed`` (:mod:`mmjudge.judges._reward_text`) on ``generate``'s processed scores
   at each digit's step, divided by ``options.temperature`` under greedy decoding (the official scores
   were drawn at 0.7), as they are when sampling. ``options.readout`` picks which scores make the verdict.

The verdict value is ``{"VQ", "TA", "MQ", "overall"}``: visual quality, text-to-video alignment,
physical/common-sense consistency and their mean. A reply without the three scores, or (soft readout) a
score digit not found among the generated tokens, is a ``no_judgment`` answer (never a 0), the reply kept.
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges._config import check_option
from mmjudge.judges._family import FamilyJudge, Media, processor_inputs
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import Diagnostics, Query, ScoreQuery, Verdict

__all__ = [
    "HARD_PATTERN",
    "LABELS",
    "QUERY_TEMPLATE",
    "VideoScore2Judge",
    "VideoScore2Options",
    "hard_scores",
]

_LINES = (
    "You are an expert for evaluating AI-generated videos from three dimensions:",
    "(1) visual quality \u2013 clarity, smoothness, artifacts;",
    "(2) text-to-video alignment \u2013 fidelity to the prompt;",
    "(3) physical/common-sense consistency \u2013 naturalness and physics plausibility.",
    "",
    "Video prompt: $t2v_prompt",
    "",
    "Please output in this format:",
    "visual quality: <v_score>; ",
    "text-to-video alignment: <t_score>, ",
    "physical/common-sense consistency: <p_score>",
)
QUERY_TEMPLATE = string.Template(
    "\n" + "".join(f"    {line}\n" if line else "\n" for line in _LINES) + "    "
)
"""The official user text: a leading newline, each non-empty line indented by 4 spaces (the template sits in
an indented function there), en dashes, trailing spaces after ``;`` and ``,``, and 4 spaces at the end."""

LABELS = {
    "VQ": "visual quality:",
    "TA": "text-to-video alignment:",
    "MQ": "physical/common-sense consistency:",
}
"""Dimension -> the label its score follows in the reply."""
HARD_PATTERN = re.compile(
    r"visual quality:\s*(\d+).*?text-to-video alignment:\s*(\d+).*?physical/common-sense consistency:\s*(\d+)",
    re.DOTALL | re.IGNORECASE,
)
"""The official hard-score pattern (groups: VQ, TA, MQ)."""
FPS = 2.0
"""The official sampling rate (``infer_fps``)."""
SCORE_VALUES = (1, 2, 3, 4, 5)
"""The values whose token probabilities make the soft score."""


def user_text(prompt: str) -> str:
    """The official user text for a clip generated from ``prompt``.

    >>> user_text("a cat").splitlines()[6]
    '    Video prompt: a cat'
    """
    return QUERY_TEMPLATE.substitute(t2v_prompt=prompt)


def hard_scores(reply: str) -> dict[str, int] | None:
    """``{"VQ", "TA", "MQ"}`` integers read by :data:`HARD_PATTERN`, or ``None`` when it does not match.

    >>> hard_scores("Visual Quality: 4;\\nTEXT-TO-VIDEO ALIGNMENT: 3, physical/common-sense consistency:2")
    {'VQ': 4, 'TA': 3, 'MQ': 2}
    >>> hard_scores("visual quality: 4; text-to-video alignment: 3") is None
    True
    """
    found = HARD_PATTERN.search(reply)
    return None if found is None else dict(zip(LABELS, map(int, found.groups()), strict=True))


@config_dataclass
class VideoScore2Options:
    """``options`` of a ``videoscore2`` config."""

    readout: str = "soft"
    """Scores of the verdict: ``soft`` (the official script's output) or ``hard`` (the integers)."""
    do_sample: bool = False
    """Sample as the official script does (each clip alone, seeded by ``seed`` and its id) instead of greedy."""
    temperature: float = 0.7
    """The official sampling temperature: the soft scores' softmax temperature (and the sampling one)."""
    max_new_tokens: int = 1024
    """Generated tokens at most (official: 1024)."""
    min_pixels: int | None = None
    """Per-frame area floor (``None``: qwen-vl-utils', 128 * 28 * 28)."""
    total_pixels: int | None = None
    """Whole-clip pixel budget (``None``: qwen-vl-utils')."""
    model_class: str = "AutoModelForImageTextToText"
    """transformers class that loads the model."""

    def __post_init__(self) -> None:
        check_option("videoscore2", "readout", self.readout, ("soft", "hard"))
        if self.temperature <= 0 or self.max_new_tokens < 1:
            raise ConfigError(
                "videoscore2 options: expected temperature > 0 and max_new_tokens >= 1, got "
                f"temperature={self.temperature}, max_new_tokens={self.max_new_tokens}"
            )


@register_judge("videoscore2")
class VideoScore2Judge(FamilyJudge):
    """VideoScore2 for IsoVRBench clips (see the module docstring)."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = VideoScore2Options
    default_frames: ClassVar[int | None] = None
    own_prompts: ClassVar[str | None] = "asks VideoScore2's own official prompt"

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.model: Any = None
        self.processor: Any = None
        self.value_ids: dict[int, int] = {}

    @property
    def loads_as(self) -> str:
        """``options.model_class``."""
        return str(self.options.model_class)

    def wants_video(self, family: ModelFamily) -> bool:
        """Always: VideoScore2 sees the clip as one video."""
        return True

    def check_family(self, family: ModelFamily) -> None:
        """Refuse a checkpoint that is not a Qwen2.5-VL (VideoScore2's backbone)."""
        if family.name != "qwen2_5_vl":
            raise ConfigError(
                f"videoscore2 runs Qwen2.5-VL checkpoints (TIGER-Lab/VideoScore2), got {family.title} "
                f"({self.config.model!r})"
            )
        super().check_family(family)

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """Full-size frames at 2 fps (``fps``), or ``frames`` for sweeps, by qwen-vl-utils' rule."""
        cfg = self.config
        if cfg.frames is not None and cfg.fps is None:
            return MediaRequest(num_frames=cfg.frames, profile=self.family.profile)
        return MediaRequest(target_fps=cfg.fps or FPS, profile=self.family.profile)

    def load(self, device: str) -> None:
        """Load the model and processor; find the tokens of the values 1..5."""
        self.model, self.processor = self.load_model(device)
        self.value_ids = single_token_values(self.processor.tokenizer)

    def prompt_text(self, query: ScoreQuery) -> str:
        """The chat-formatted text of ``query`` (video placeholder unexpanded)."""
        from mmjudge.judges._chat import user_content

        messages = [{"role": "user", "content": user_content(user_text(query.prompt), video=True)}]
        return str(self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))

    def encode(self, inputs: Sequence[JudgeInput]) -> dict[str, Any]:
        """The left-padded processor batch of ``inputs``, ``second_per_grid_ts`` as the official ``fps=2.0`` gives."""
        import torch

        media = []
        for one in inputs:
            if one.frames is None or len(one.frames) == 0:
                raise ConfigError(
                    f"videoscore2 rates clips from their frames; {one.query.item_id!r} came without any"
                )
            media.append(Media(video=one.frames, frame_indices=one.frame_indices, fps=one.fps,
                               total_frames=one.total_frames, frame_size=one.frame_size))  # fmt: skip
        texts = [self.prompt_text(cast(ScoreQuery, one.query)) for one in inputs]
        batch = processor_inputs(self.processor, self.family, texts, media, max_pixels=self.config.max_pixels,
                                 min_pixels=self.options.min_pixels, total_pixels=self.options.total_pixels)  # fmt: skip
        step = self.processor.video_processor.temporal_patch_size / (self.config.fps or FPS)
        batch["second_per_grid_ts"] = torch.full((len(inputs),), float(step))
        return batch

    def model_inputs(self, x: JudgeInput) -> Any:
        """One clip's processor batch, made in a decode worker (``None`` without frames)."""
        return None if x.frames is None or len(x.frames) == 0 else self.encode([x])

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Generate each clip's reply and read its scores (one batch per media shape; alone when sampling)."""
        from mmjudge.judges._chat import collate, media_groups, pad_token_id

        if self.model is None:
            raise RuntimeError("videoscore2: call load(device) before judge_batch")
        made = [x.model_inputs if x.model_inputs is not None else self.encode([x]) for x in inputs]
        groups = [[i] for i in range(len(inputs))] if self.options.do_sample else media_groups(made)
        pad = pad_token_id(self.processor.tokenizer)
        verdicts: dict[int, Verdict] = {}
        for group in groups:
            batch = collate([(made[i], ()) for i in group], pad)
            replies = self.generate(batch, seed=self._seed(inputs[group[0]].query.item_id))
            for i, (ids, scores) in zip(group, replies, strict=True):
                verdicts[i] = self.verdict(
                    inputs[i], ids, scores, int(batch["attention_mask"][group.index(i)].sum())
                )
        return [verdicts[i] for i in range(len(inputs))]

    def _seed(self, item_id: str) -> int:
        digest = hashlib.sha256(f"{self.config.seed}:{item_id}".encode()).hexdigest()
        return int(digest[:8], 16)

    def generate(self, batch: dict[str, Any], *, seed: int) -> list[tuple[list[int], list[Any]]]:
        """``(generated ids up to the first end token, per-step processed scores)`` for each row of ``batch``."""
        import torch

        from mmjudge.judges._chat import pad_token_id
        from mmjudge.judges._hf import to_device

        inputs, pad = to_device(batch, self.model.device), pad_token_id(self.processor.tokenizer)
        sampling = {"do_sample": True, "temperature": self.options.temperature} if self.options.do_sample else {
            "do_sample": False}  # fmt: skip
        if self.options.do_sample:
            torch.manual_seed(seed)
        with torch.inference_mode():
            out = self.model.generate(**inputs, max_new_tokens=self.options.max_new_tokens, output_scores=True,
                                      return_dict_in_generate=True, pad_token_id=pad, **sampling)  # fmt: skip
        new = out.sequences[:, inputs["input_ids"].shape[1] :].tolist()
        ends = _end_ids(self.model.generation_config)
        rows = []
        for row, ids in enumerate(new):
            stop = next((k + 1 for k, t in enumerate(ids) if t in ends), len(ids))
            rows.append((ids[:stop], [step[row] for step in out.scores[:stop]]))
        return rows

    def verdict(self, one: JudgeInput, ids: list[int], scores: list[Any], tokens: int) -> Verdict:
        """One clip's verdict from its generated ids and their per-step processed scores."""
        from mmjudge.judges._reward_text import normed_top_score, score_step, step_probs

        tokenizer = self.processor.tokenizer
        reply = str(tokenizer.decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=False))
        hard = hard_scores(reply)
        steps = {d: score_step(tokenizer, ids, label) for d, label in LABELS.items()}
        # sampled scores were divided by the temperature already; greedy ones are divided here
        temperature = 1.0 if self.options.do_sample else self.options.temperature
        soft = None if hard is None else {
            d: normed_top_score(step_probs(scores[k], self.value_ids, temperature)) if k >= 0 else None
            for d, k in steps.items()
        }  # fmt: skip
        extra = {"hard": hard, "soft": soft, "steps": steps, "readout": self.options.readout,
                 "decoding": "sample" if self.options.do_sample else "greedy",
                 "frames": 0 if one.frames is None else len(one.frames), "tokens": tokens,
                 "new_tokens": len(ids)}  # fmt: skip
        diagnostics = Diagnostics(raw_text=reply, extra=extra)
        chosen = hard if self.options.readout == "hard" else soft
        if chosen is None or any(v is None for v in chosen.values()):
            why = (
                "no VideoScore2 scores (visual quality, text-to-video alignment, physical/common-sense consistency)"
                if hard is None
                else f"a score digit was not found among the generated tokens (steps {steps})"
            )
            return Verdict(one.query.item_id, None, True, f"{why} in the reply {reply[:200]!r}", diagnostics)
        value = {d: float(cast(float, v)) for d, v in chosen.items()}
        value["overall"] = (value["VQ"] + value["TA"] + value["MQ"]) / 3
        return Verdict(one.query.item_id, value, diagnostics=diagnostics)


def single_token_values(tokenizer: Any) -> dict[int, int]:
    """Token ids of ``"1"`` .. ``"5"`` (single tokens only, as the official readout skips the others)."""
    from mmjudge.judges._reward_text import single_token_ids

    return single_token_ids(tokenizer, SCORE_VALUES)


def _end_ids(generation_config: Any) -> set[int]:
    eos = getattr(generation_config, "eos_token_id", None)
    return set() if eos is None else {int(e) for e in (eos if isinstance(eos, (list, tuple)) else [eos])}
