"""``pairwise_describe``: EmoPrefer's judging strategies S1-S4 with free generation, on description pairs.

* ``S1``: the clip's frames and both descriptions go to the VLM, which answers a1, a2 or same.
* ``S2``: the VLM describes the clip's emotions, then the same VLM compares that description with a1
  and a2 in text only.
* ``S3``: the VLM describes; an external text LLM (``options.text_model``) compares.
* ``S4``: as S3, but the text LLM first reasons (``options.max_reasoning_tokens``), then a second call
  extracts the answer from its reasoning.

It answers pairs of texts about one clip (:class:`mmjudge.queries.PairQuery`); the prompts are the
query's (for EmoPrefer, mmjudge's wording, not the paper's text). All generation is greedy. The verdict is
the answer as the benchmark scores it (:func:`mmjudge.judges.free_text_verdict`): for EmoPrefer the **raw
answer text**, which the scorer parses with the official parser (the query's ``parse``); the parsed label,
the strategy, the description and the reasoning are kept in ``diagnostics.extra``. Audio is not used
(S2 with the audio on Qwen2.5-Omni: ``audio_visual``). The text steps are :mod:`mmjudge.judges._describe`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges import _chat
from mmjudge.judges._base import free_text_verdict, missing_media, with_media
from mmjudge.judges._config import check_option
from mmjudge.judges._describe import compare_descriptions
from mmjudge.judges._family import FamilyJudge, wants_video
from mmjudge.judges._hf import load_pretrained
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import Diagnostics, PairQuery, Verdict

__all__ = ["STRATEGIES", "DescribeOptions", "PairwiseDescribeJudge", "PairwiseDescribeOptions"]

STRATEGIES: tuple[str, ...] = ("S1", "S2", "S3", "S4")
"""EmoPrefer judging strategies."""


@config_dataclass
class DescribeOptions:
    """The strategy options of a judge that answers EmoPrefer pairs with S1-S4 (``pairwise_describe``,
    ``audio_language``)."""

    judge_name: ClassVar[str] = "pairwise_describe"
    strategy: str = "S1"
    """``S1``, ``S2``, ``S3`` or ``S4``."""
    text_model: str | None = None
    """S3/S4: Hub id or local folder of the text LLM that compares (``AutoModelForCausalLM``)."""
    text_model_revision: str | None = None
    """S3/S4: revision of ``text_model`` (``local_files_only`` and ``dtype`` come from the config)."""
    max_answer_tokens: int = 32
    """Most new tokens of an answer."""
    max_description_tokens: int = 256
    """S2-S4: most new tokens of the description of the clip."""
    max_reasoning_tokens: int = 512
    """S4: most new tokens of the reasoning."""

    def __post_init__(self) -> None:
        name = self.judge_name
        check_option(name, "strategy", self.strategy, STRATEGIES)
        if self.strategy in ("S3", "S4") and not self.text_model:
            raise ConfigError(
                f"{name} strategy {self.strategy} compares with an external text LLM: "
                "set `options.text_model` to its Hub id or local folder"
            )
        for option in ("max_answer_tokens", "max_description_tokens", "max_reasoning_tokens"):
            if getattr(self, option) < 1:
                raise ConfigError(f"{name} option `{option}` must be >= 1, got {getattr(self, option)}")


@config_dataclass
class PairwiseDescribeOptions(DescribeOptions):
    """``options`` of a ``pairwise_describe`` config."""

    frames_as: str = "auto"
    """The sampled frames as one ``video`` or as separate ``images``; ``auto``: a video where the model
    family's processor takes one, else images."""

    def __post_init__(self) -> None:
        super().__post_init__()
        check_option("pairwise_describe", "frames_as", self.frames_as, ("auto", "video", "images"))


@dataclass
class _LM:
    """A loaded model with what encodes text for it."""

    model: Any
    tokenizer: Any
    encoder: Any
    """Processor (VLM) or tokenizer (text LLM) given to :mod:`mmjudge.judges._chat`."""
    family: ModelFamily | None
    """The VLM's family (``None``: a text LLM)."""

    @property
    def pad_id(self) -> int:
        return _chat.pad_token_id(self.tokenizer)

    def generate(self, encodings: Sequence[_chat.Encoded], max_new_tokens: int) -> list[str]:
        return _chat.generate_texts(self.model, self.tokenizer, encodings, max_new_tokens, self.pad_id)

    def ask(self, texts: Sequence[str], max_new_tokens: int) -> list[str]:
        """Text-only prompts (the VLM's processor without media, or the text LLM's tokenizer)."""
        if self.encoder is self.tokenizer:
            encodings = [_chat.encode_text(self.tokenizer, t) for t in texts]
        else:
            encodings = [_chat.encode_chat(self.encoder, t, family=self.family) for t in texts]
        return self.generate(encodings, max_new_tokens)


@register_judge("pairwise_describe")
class PairwiseDescribeJudge(FamilyJudge):
    """EmoPrefer S1-S4 with a transformers VLM (and, for S3/S4, a text LLM)."""

    answers: ClassVar[frozenset[type]] = frozenset({PairQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    version: ClassVar[str] = "3"
    Options: ClassVar[type] = PairwiseDescribeOptions
    default_frames: ClassVar[int | None] = 8
    own_prompts = "builds its prompts per strategy (the EmoPrefer protocol)"
    records_option_defaults = True

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.vlm: _LM | None = None
        self.text_lm: _LM | None = None

    def wants_video(self, family: ModelFamily) -> bool:
        """``options.frames_as``: ``video``, ``images``, or ``auto`` (a video where the family takes one)."""
        return wants_video(self.options.frames_as, family)

    def load(self, device: str) -> None:
        """Load the VLM (``config.model``) and, for S3/S4, the text LLM onto ``device``."""

        model, processor = self.load_model(device)
        self.vlm = _LM(model, getattr(processor, "tokenizer", processor), processor, self.family)
        if self.options.strategy in ("S3", "S4"):
            common = {
                "revision": self.options.text_model_revision,
                "local_files_only": self.config.local_files_only,
            }
            tokenizer = load_pretrained("AutoTokenizer", self.options.text_model, **common)
            text_model = load_pretrained(
                "AutoModelForCausalLM",
                self.options.text_model,
                dtype=self.config.dtype,
                device=device,
                **common,
            )
            self.text_lm = _LM(text_model, tokenizer, tokenizer, None)

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Answer each pair with the configured strategy (one generation batch per step).

        A pair without video frames fails alone (``no_judgment``) instead of being judged blind.
        """
        if self.vlm is None:
            raise RuntimeError("pairwise_describe: call load(device) before judge_batch")
        return with_media(self._answer, inputs)

    def _first_prompt(self, query: PairQuery) -> str:
        """The prompt shown with the clip: the choice (S1) or the description request (S2-S4)."""
        if self.options.strategy == "S1":
            return query.free_prompt(seed=self.config.seed)
        return query.describe_prompt()

    def model_inputs(self, x: JudgeInput) -> Any:
        """The clip's encoded first prompt (made in a decode worker); ``None`` without its frames."""
        if missing_media(x) is not None:
            return None
        return self._encode(x, self._first_prompt(cast(PairQuery, x.query)))

    def _answer(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        assert self.vlm is not None
        items = [cast(PairQuery, x.query) for x in inputs]  # the runner asks only the kinds it answers
        strategy = self.options.strategy
        extra: list[dict[str, Any]] = [{"strategy": strategy} for _ in inputs]
        first = [
            x.model_inputs or self._encode(x, self._first_prompt(i))
            for x, i in zip(inputs, items, strict=True)
        ]
        if strategy == "S1":
            answers = self.vlm.generate(first, self.options.max_answer_tokens)
        else:
            answers = self._describe_then_compare(first, items, extra)
        return [
            free_text_verdict(i, a, Diagnostics(extra=e))
            for i, a, e in zip(items, answers, extra, strict=True)
        ]

    def _encode(self, x: JudgeInput, text: str) -> _chat.Encoded:
        assert self.vlm is not None
        return _chat.encode_chat(
            self.vlm.encoder,
            text,
            family=self.vlm.family,
            frames=x.frames,
            frame_indices=x.frame_indices,
            fps=x.fps,
            frames_as_video=self.frames_as_video,
            max_pixels=self.config.max_pixels,
            total_frames=x.total_frames,
            frame_size=x.frame_size,
        )

    def _describe_then_compare(
        self, encodings: list[_chat.Encoded], items: list[PairQuery], extra: list[dict[str, Any]]
    ) -> list[str]:
        assert self.vlm is not None
        opts = self.options
        descriptions = self.vlm.generate(encodings, opts.max_description_tokens)
        judge_lm = self.vlm if opts.strategy == "S2" else self.text_lm
        assert judge_lm is not None
        reasoning = opts.max_reasoning_tokens if opts.strategy == "S4" else None
        compared = compare_descriptions(
            items, descriptions, judge_lm.ask, max_answer_tokens=opts.max_answer_tokens,
            max_reasoning_tokens=reasoning,
        )  # fmt: skip
        for e, steps in zip(extra, compared.extra, strict=True):
            e.update(steps)
        return compared.answers
