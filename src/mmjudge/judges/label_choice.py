"""``label_choice``: a VLM picks one label string, by constrained greedy decoding or log-likelihood.

It answers choices (:class:`mmjudge.queries.ChoiceQuery`): the labels and the prompt are the query's,
that is the benchmark's (:meth:`~mmjudge.queries.ChoiceQuery.prompt`), with the clip's frames or the
image attached when the query has them; the answer follows the prompt's answer prefix. For MIST the
prompt is the cell of its prompt grid (**mmjudge's reconstruction of the paper's Appendix I, not its
verbatim text**) and the prefix the prefilled ``{"final_label": "``; for EmoPrefer the pair's one-step
prompt (S1) with ``a1``, ``a2``, ``same``; for EmoReAlM the question prompt plus an answer line, with the
letters of its choices.

``options.method`` picks the rule (:mod:`mmjudge.judges._constrained`): ``greedy_trie`` (default;
the paper's "greedy decoding constrained to the four labels") or ``loglik`` (sum of token log-probs of
each label's continuation, maximum wins). Labels are tokenised alone (``tokenizer.encode(label,
add_special_tokens=False)``) and appended after the prompt's token ids, so both rules score the same
token sequences. The method used is recorded in ``diagnostics.extra["method"]``; ``valid_mass`` is the
probability of the allowed first tokens at the answer position.

CoT strategies (MIST ``cot``, ``few_shot_cot``): the reasoning is generated freely and greedily (at
most ``options.max_reasoning_tokens``), cut before any ``final_label`` the model wrote itself (that
free label is parsed with the query's :meth:`~mmjudge.queries.ChoiceQuery.parse` and kept in
``extra["free_label"]``), then ``\\n{"final_label": "`` is appended and the label is chosen under the
constraint (the kept reasoning is re-tokenised from its text). Audio is not used (see ``audio_visual``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.judges import _chat
from mmjudge.judges._base import missing_media, with_media
from mmjudge.judges._config import check_option
from mmjudge.judges._constrained import METHODS, Choice, LabelTrie, choose
from mmjudge.judges._family import FamilyJudge, wants_video
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import ChoiceQuery, Diagnostics, LabelPrompt, Query, Verdict

__all__ = ["LabelChoiceJudge", "LabelChoiceOptions", "Prompt", "build_prompt"]

_FRAMES_AS = ("auto", "video", "images")
_OWN_JSON = re.compile(r"""\{?\s*["']?final[_\s-]?label""", re.IGNORECASE)


@config_dataclass
class LabelChoiceOptions:
    """``options`` of a ``label_choice`` config."""

    method: str = "greedy_trie"
    """``greedy_trie`` (constrained greedy decoding) or ``loglik`` (full-sequence log-likelihood)."""
    max_reasoning_tokens: int = 256
    """CoT prompts: most tokens of free reasoning before the constrained label."""
    frames_as: str = "auto"
    """A query's clip: the sampled frames as one ``video`` or as separate ``images``; ``auto``: a video where
    the model family's processor takes one (:attr:`mmjudge.judges.families.ModelFamily.video`), else images."""

    def __post_init__(self) -> None:
        check_option("label_choice", "method", self.method, METHODS)
        check_option("label_choice", "frames_as", self.frames_as, _FRAMES_AS)
        if self.max_reasoning_tokens < 1:
            raise ConfigError(
                f"label_choice option `max_reasoning_tokens` must be >= 1, got {self.max_reasoning_tokens}"
            )


Prompt = LabelPrompt
"""What the model is asked for one query (text, allowed labels, answer prefix and suffix, reasoning)."""


def build_prompt(query: Query, *, seed: int = 0) -> Prompt:
    """The query's prompt and allowed labels (:meth:`~mmjudge.queries.ChoiceQuery.prompt`).

    Raises:
        SchemaError: the query offers no labels to constrain the answer to.
    """
    prompt = cast(ChoiceQuery, query).prompt(seed=seed)  # the runner asks only the kinds it answers
    if not prompt.labels:
        raise SchemaError(f"query {query.item_id!r} offers no labels to constrain the answer to")
    return prompt


def cut_reasoning(text: str) -> str:
    """The reasoning before any ``final_label`` the model wrote itself, stripped.

    >>> cut_reasoning('It is an idiom here. {"final_label": "FF"}')
    'It is an idiom here.'
    """
    match = _OWN_JSON.search(text)
    return (text[: match.start()] if match else text).strip()


def _answer_text(reasoning: str, prompt: Prompt) -> str:
    """Assistant text before the label: the cut reasoning and a newline (CoT), then the answer prefix."""
    return (cut_reasoning(reasoning) + "\n" if prompt.reasoning else "") + prompt.answer_prefix


@register_judge("label_choice")
class LabelChoiceJudge(FamilyJudge):
    """Constrained label choice with a transformers image-text-to-text model."""

    answers: ClassVar[frozenset[type]] = frozenset({ChoiceQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video", "image"})
    version: ClassVar[str] = "3"
    Options: ClassVar[type] = LabelChoiceOptions
    default_frames: ClassVar[int | None] = 8
    own_prompts = "asks each query's own prompt (the benchmark's protocol, e.g. the MIST grid)"
    records_option_defaults = True

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.model: Any = None
        self.processor: Any = None
        self._tries: dict[tuple[str, ...], LabelTrie] = {}

    def wants_video(self, family: ModelFamily) -> bool:
        """``options.frames_as``: ``video``, ``images``, or ``auto`` (a video where the family takes one)."""
        return wants_video(self.options.frames_as, family)

    def load(self, device: str) -> None:
        """Load the model and processor (``config.model``) onto ``device``."""
        self.model, self.processor = self.load_model(device)

    @property
    def tokenizer(self) -> Any:
        """The processor's tokenizer."""
        return getattr(self.processor, "tokenizer", self.processor)

    @property
    def pad_id(self) -> int:
        """Padding token id (the EOS token when the tokenizer has no pad token)."""
        return _chat.pad_token_id(self.tokenizer)

    def trie(self, labels: tuple[str, ...]) -> LabelTrie:
        """The label trie of ``labels`` under the model's tokenizer (cached)."""
        if labels not in self._tries:
            encode = self.tokenizer.encode
            self._tries[labels] = LabelTrie({lab: encode(lab, add_special_tokens=False) for lab in labels})
        return self._tries[labels]

    def _encode(self, x: JudgeInput, prompt: Prompt) -> _chat.Encoded:
        images = [x.image] if x.image is not None else []
        return _chat.encode_chat(
            self.processor,
            prompt.text,
            family=self.family,
            images=images,
            frames=x.frames,
            frame_indices=x.frame_indices,
            fps=x.fps,
            frames_as_video=self.frames_as_video,
            max_pixels=self.config.max_pixels,
            total_frames=x.total_frames,
            frame_size=x.frame_size,
        )

    def model_inputs(self, x: JudgeInput) -> Any:
        """The query's encoded prompt with its media (made in a decode worker); ``None`` without its media."""
        if missing_media(x) is not None:
            return None
        return self._encode(x, build_prompt(x.query, seed=self.config.seed))

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Choose one label per input (see the module docstring); inputs without their media fail alone."""
        if self.model is None:
            raise RuntimeError("label_choice: call load(device) before judge_batch")
        return with_media(self._choose, inputs)

    def _choose(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        prompts = [build_prompt(x.query, seed=self.config.seed) for x in inputs]
        encodings = [x.model_inputs or self._encode(x, p) for x, p in zip(inputs, prompts, strict=True)]
        reasoning = self._reason(encodings, prompts)
        prefixes = [
            self.tokenizer.encode(_answer_text(r, p), add_special_tokens=False) if _answer_text(r, p) else []
            for r, p in zip(reasoning, prompts, strict=True)
        ]

        def logprobs(rows: Sequence[tuple[int, tuple[int, ...]]]) -> Any:
            return _chat.row_logprobs(self.model, [(encodings[i], [*prefixes[i], *prefix]) for i, prefix in rows],
                                      self.pad_id)  # fmt: skip

        choices = choose(self.options.method, [self.trie(p.labels) for p in prompts], logprobs)
        return [
            self._verdict(x, p, r, c) for x, p, r, c in zip(inputs, prompts, reasoning, choices, strict=True)
        ]

    def _reason(self, encodings: list[_chat.Encoded], prompts: list[Prompt]) -> list[str]:
        """Free reasoning (raw generated text) for the CoT prompts; ``""`` for the others."""
        todo = [i for i, p in enumerate(prompts) if p.reasoning]
        out = [""] * len(prompts)
        if todo:
            texts = _chat.generate_texts(
                self.model,
                self.tokenizer,
                [encodings[i] for i in todo],
                self.options.max_reasoning_tokens,
                self.pad_id,
            )
            for i, text in zip(todo, texts, strict=True):
                out[i] = text
        return out

    def _verdict(self, x: JudgeInput, prompt: Prompt, reasoning: str, choice: Choice) -> Verdict:
        extra: dict[str, Any] = {
            "method": choice.method,
            "labels": list(prompt.labels),
            "logliks": choice.logliks,
            "label_tokens": list(choice.tokens),
        }
        if prompt.reasoning:
            extra["free_label"] = cast(ChoiceQuery, x.query).parse(reasoning)
            extra["reasoning"] = reasoning
        raw = f"{_answer_text(reasoning, prompt)}{choice.label}{prompt.answer_suffix}"
        return Verdict(
            x.query.item_id, choice.label, diagnostics=Diagnostics(raw, choice.valid_mass, extra=extra)
        )
