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
   ``ll_based_soft_score_normed`` (:mod:`mmjudge.judges._reward_text`) on the processed scores at each
   digit's step: the scores the official call samples from, after ``options.temperature`` (0.7) and the
   top-k it carries (``options.top_k``; ``null``: the checkpoint's generation config, else transformers'
   default 50, as the official script passes none) and the checkpoint's top-p, under greedy decoding too.
   The digits' probabilities are recorded as they are generated (:func:`digit_recorder`), never every
   step's full-vocabulary scores. ``options.readout`` picks which scores make the verdict.

The verdict value is ``{"VQ", "TA", "MQ", "overall"}``: visual quality, text-to-video alignment,
physical/common-sense consistency and their mean. A reply without the three scores, or (soft readout) a
score digit not found among the generated tokens, is a ``no_judgment`` answer (never a 0), the reply kept.
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges._chat import batches, pad_token_id, user_content
from mmjudge.judges._config import check_option
from mmjudge.judges._family import FamilyJudge, Media, processor_inputs
from mmjudge.judges._hf import to_device
from mmjudge.judges._registry import register_judge
from mmjudge.judges._reward_text import (
    Warping,
    digit_recorder,
    normed_top_score,
    score_step,
    single_token_ids,
)
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
TRANSFORMERS_TOP_K = 50
"""transformers' default ``top_k`` (4.53, the official pin, and 5.x): the official sampled scores carry it
unless the checkpoint's generation config sets another."""


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
    top_k: int | None = None
    """Top-k of the soft scores' distribution (and of sampling): ``None`` takes the checkpoint's generation
    config, else transformers' default 50, as the official script (which passes none) does; 0 keeps all."""
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
        if self.temperature <= 0 or self.max_new_tokens < 1 or (self.top_k is not None and self.top_k < 0):
            raise ConfigError(
                "videoscore2 options: expected temperature > 0, max_new_tokens >= 1 and top_k >= 0 (or null), got "
                f"temperature={self.temperature}, max_new_tokens={self.max_new_tokens}, top_k={self.top_k}"
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
        self.warping: Warping | None = None

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
        self.warping = official_warping(self.model.generation_config, self.options.temperature, self.options.top_k)

    def prompt_text(self, query: ScoreQuery) -> str:
        """The chat-formatted text of ``query`` (video placeholder unexpanded)."""

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

        if self.model is None:
            raise RuntimeError("videoscore2: call load(device) before judge_batch")
        made = [x.model_inputs if x.model_inputs is not None else self.encode([x]) for x in inputs]
        pad = pad_token_id(self.processor.tokenizer)
        verdicts: dict[int, Verdict] = {}
        for group, batch in batches(made, pad, alone=self.options.do_sample):
            replies = self.generate(batch, seed=self._seed(inputs[group[0]].query.item_id))
            for i, (ids, probs) in zip(group, replies, strict=True):
                verdicts[i] = self.verdict(
                    inputs[i], ids, probs, int(batch["attention_mask"][group.index(i)].sum())
                )
        return [verdicts[i] for i in range(len(inputs))]

    def _seed(self, item_id: str) -> int:
        digest = hashlib.sha256(f"{self.config.seed}:{item_id}".encode()).hexdigest()
        return int(digest[:8], 16)

    def generate(self, batch: dict[str, Any], *, seed: int) -> list[tuple[list[int], list[dict[int, float]]]]:
        """``(generated ids up to the first end token, per-step probabilities of the values 1..5)`` for each
        row of ``batch``; the probabilities are recorded while generating (only five numbers a step)."""
        import torch
        from transformers import LogitsProcessorList

        if self.warping is None:
            raise RuntimeError("videoscore2: call load(device) before generate")
        inputs, pad = to_device(batch, self.model.device), pad_token_id(self.processor.tokenizer)
        sampling = self.options.do_sample
        recorder = digit_recorder(self.value_ids, self.warping, in_float64=not sampling)
        # sampling draws from the same warpers the recorder reads (set here, not left to the checkpoint)
        warpers = {"temperature": self.warping.temperature, "top_k": self.warping.top_k,
                   "top_p": self.warping.top_p} if sampling else {}  # fmt: skip
        if sampling:
            torch.manual_seed(seed)
        with torch.inference_mode():
            out = self.model.generate(**inputs, max_new_tokens=self.options.max_new_tokens, do_sample=sampling,
                                      pad_token_id=pad, logits_processor=LogitsProcessorList([recorder]),
                                      **warpers)  # fmt: skip
        new = out[:, inputs["input_ids"].shape[1] :].tolist()
        ends = _end_ids(self.model.generation_config)
        rows = []
        for row, ids in enumerate(new):
            stop = next((k + 1 for k, t in enumerate(ids) if t in ends), len(ids))
            rows.append((ids[:stop], recorder.probs(row, stop)))
        return rows

    def verdict(self, one: JudgeInput, ids: list[int], probs: Sequence[Mapping[int, float]], tokens: int) -> Verdict:
        """One clip's verdict from its generated ids and, per step, the probabilities of the values 1..5 under
        the processed scores (:meth:`generate`)."""

        tokenizer = self.processor.tokenizer
        reply = str(tokenizer.decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=False))
        hard = hard_scores(reply)
        steps = {d: score_step(tokenizer, ids, label) for d, label in LABELS.items()}
        soft = None if hard is None else {
            d: normed_top_score(probs[k]) if k >= 0 else None for d, k in steps.items()
        }  # fmt: skip
        extra = {"hard": hard, "soft": soft, "steps": steps, "readout": self.options.readout,
                 "decoding": "sample" if self.options.do_sample else "greedy",
                 "warping": None if self.warping is None else self.warping._asdict(),
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


def official_warping(generation_config: Any, temperature: float, top_k: int | None) -> Warping:
    """The warpers the official call samples with: ``temperature``, ``top_k`` (``None``: the checkpoint's
    generation config's, else transformers' default 50) and the checkpoint's top-p; a checkpoint that sets
    another warper is refused, as the soft scores would not read it.

    >>> from types import SimpleNamespace
    >>> official_warping(SimpleNamespace(top_k=None, top_p=None), 0.7, None)
    Warping(temperature=0.7, top_k=50, top_p=1.0)
    """
    others = {"min_p": None, "typical_p": 1.0, "epsilon_cutoff": 0.0, "eta_cutoff": 0.0, "top_h": None}
    set_here = {k: getattr(generation_config, k, neutral) for k, neutral in others.items()}
    odd = {k: v for k, v in set_here.items() if v is not None and v != others[k]}
    if odd:
        raise ConfigError(
            f"videoscore2 reads its soft scores after temperature, top-k and top-p only; the checkpoint's "
            f"generation config also sets {odd}: remove them from its generation_config.json"
        )
    checkpoint_k, top_p = getattr(generation_config, "top_k", None), getattr(generation_config, "top_p", None)
    k = top_k if top_k is not None else (checkpoint_k if checkpoint_k is not None else TRANSFORMERS_TOP_K)
    return Warping(float(temperature), int(k), 1.0 if top_p is None else float(top_p))


def single_token_values(tokenizer: Any) -> dict[int, int]:
    """Token ids of ``"1"`` .. ``"5"`` (single tokens only, as the official readout skips the others)."""

    return single_token_ids(tokenizer, SCORE_VALUES)


def _end_ids(generation_config: Any) -> set[int]:
    eos = getattr(generation_config, "eos_token_id", None)
    return set() if eos is None else {int(e) for e in (eos if isinstance(eos, (list, tuple)) else [eos])}
