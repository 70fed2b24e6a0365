"""``audio_language``: an audio-language model (Qwen2-Audio) judging clips by ear, from their sound alone.

Model: transformers' ``Qwen2AudioForConditionalGeneration`` with ``Qwen2AudioProcessor`` (its
``WhisperFeatureExtractor`` and the checkpoint's chat template), the family ``qwen2_audio``
(:attr:`mmjudge.judges.families.ModelFamily.audio_only`); any other family is refused before the run.

Input per query, as Qwen/Qwen2-Audio-7B-Instruct's model card builds it:

- audio: the clip's sound as ``librosa.load(path, sr=processor.feature_extractor.sampling_rate)`` gives it
  (16 kHz for Qwen2-Audio; mono mean of the channels, soxr HQ resampling); EmoPrefer ``audio/{name}.wav``,
  EmoReAlM the ``.wav`` beside the clip, else the clip's own track. No frames are decoded;
- text: the chat template on one user turn, ``[{"type": "audio", "audio_url": <path>}, {"type": "text", ...}]``
  (the released template renders an item with an ``audio``/``audio_url`` key as
  ``Audio 1: <|audio_bos|><|AUDIO|><|audio_eos|>``; its default system turn applies), then
  ``processor(text=[prompt], audio=[samples], sampling_rate=..., padding=True)``.

It answers choices (:class:`mmjudge.queries.ChoiceQuery`): a pair of descriptions (EmoPrefer) with
``pairwise_describe``'s strategies and code (S1: the choice prompt with the audio; S2-S4: the model describes
what it hears, then the same model (S2) or the text LLM ``options.text_model`` compares, S4 with a reasoning
step and a second call that extracts the answer: :mod:`mmjudge.judges._describe`); any other choice
(EmoReAlM) is asked directly, its free-text prompt with the audio. Greedy decoding; the verdict is the reply as
the benchmark scores it (:func:`mmjudge.judges.free_text_verdict`: the raw text for both benchmarks).

It is accepted only on a benchmark whose clips carry sound (``RecordSpec.sound``); each query then needs its
audio (:func:`mmjudge.judges.media_needed`): a clip without sound fails alone (a decode error for an audio file
or clip track that cannot be read, ``no_judgment`` for a query without either), never judged blind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.judges import _chat
from mmjudge.judges._base import free_text_verdict, missing_media, with_media
from mmjudge.judges._hf import hub_options, load_pretrained, model_source
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges.families import ModelFamily
from mmjudge.judges.pairwise_describe import DescribeOptions, PairwiseDescribeJudge
from mmjudge.queries import ChoiceQuery, Query, Verdict

__all__ = ["AudioLanguageJudge", "AudioLanguageOptions", "audio_messages"]


@config_dataclass
class AudioLanguageOptions(DescribeOptions):
    """``options`` of an ``audio_language`` config: ``pairwise_describe``'s strategy options for EmoPrefer pairs
    (other choices are asked directly; S2-S4 describe the clip's audio)."""

    judge_name: ClassVar[str] = "audio_language"


def audio_messages(text: str, audio_url: str) -> list[dict[str, Any]]:
    """The user turn Qwen2-Audio's model card builds: the audio part (with its ``audio_url`` key, which the
    released chat template tests for), then the text.

    >>> audio_messages("Which emotion?", "a.wav")[0]["content"][0]
    {'type': 'audio', 'audio_url': 'a.wav'}
    """
    return [
        {
            "role": "user",
            "content": [{"type": "audio", "audio_url": audio_url}, {"type": "text", "text": text}],
        }
    ]


@register_judge("audio_language")
class AudioLanguageJudge(PairwiseDescribeJudge):
    """Qwen2-Audio over the clip's sound: EmoPrefer S1-S4 (``pairwise_describe``'s steps), EmoReAlM directly."""

    answers: ClassVar[frozenset[type]] = frozenset({ChoiceQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"audio"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = AudioLanguageOptions
    default_frames: ClassVar[int | None] = None
    model_class: ClassVar[str] = "Qwen2AudioForConditionalGeneration"
    own_prompts = "asks each query's own prompts (the benchmark's protocol, EmoPrefer's strategies)"

    _sampling_rate: int | None = None

    def wants_video(self, family: ModelFamily) -> bool:
        """Never: the model takes no frames."""
        return False

    def check_family(self, family: ModelFamily) -> None:
        """Refuse a model that does not hear (a vision family), and frame settings (no frames are decoded)."""
        if not family.audio_only:
            raise ConfigError(
                f"audio_language judges with an audio-language model (Qwen2-Audio, model_type qwen2_audio); "
                f"{self.config.model!r} is {family.title}, which takes images and clips: judge it with "
                "pairwise_describe, label_choice or vlm_digit (audio_visual for Qwen2.5-Omni)"
            )
        settings = {
            k: v for k in ("frames", "fps", "max_pixels") if (v := getattr(self.config, k)) is not None
        }
        if settings:
            raise ConfigError(
                f"audio_language decodes no frames (it hears the clip's sound only): remove {sorted(settings)} "
                "from the config"
            )

    def check_model(self) -> None:
        """Resolve the family (an audio-language one) and read the feature extractor's sampling rate."""
        super().check_model()
        _ = self.sampling_rate

    @property
    def sampling_rate(self) -> int:
        """The rate the feature extractor takes (``feature_extractor.sampling_rate``; 16 kHz for Qwen2-Audio),
        read from the loaded processor or, before loading, from the checkpoint's ``preprocessor_config.json``."""
        if self._sampling_rate is None:
            extractor = (
                self.vlm.encoder.feature_extractor if self.vlm is not None else self._feature_extractor()
            )
            self._sampling_rate = int(extractor.sampling_rate)
        return self._sampling_rate

    def _feature_extractor(self) -> Any:

        return load_pretrained("AutoFeatureExtractor", model_source(self.config), **hub_options(self.config))

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """The clip's audio at the feature extractor's own rate, as ``librosa.load(path, sr=rate)`` gives it;
        no frames."""
        return MediaRequest(audio_sample_rate=self.sampling_rate, audio_resampler="soxr_hq")

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Answer each query from its audio; a query without audio fails alone (``no_judgment``)."""
        if self.vlm is None:
            raise RuntimeError("audio_language: call load(device) before judge_batch")
        return with_media(self._answer, inputs, self.reads)

    def model_inputs(self, x: JudgeInput) -> Any:
        """The query's encoded first prompt with its audio (made in a decode worker); ``None`` without audio."""
        if missing_media(x, self.reads) is not None:
            return None
        return self._encode(x, self._first_prompt(x.query))

    def _first_prompt(self, query: Any) -> str:
        """A pair: its strategy's first prompt (``pairwise_describe``'s); any other choice: its free-text prompt."""
        if self._by_strategy(query):
            return super()._first_prompt(query)
        return str(query.free_prompt(seed=self.config.seed))

    @staticmethod
    def _by_strategy(query: Query) -> bool:
        """Whether EmoPrefer's strategies apply (a pair of texts about one clip)."""
        return query.text_pair() is not None

    def _answer(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        pairs = [k for k, x in enumerate(inputs) if self._by_strategy(x.query)]
        direct = [k for k, x in enumerate(inputs) if not self._by_strategy(x.query)]
        verdicts: dict[int, Verdict] = {}
        if pairs:
            verdicts.update(zip(pairs, super()._answer([inputs[k] for k in pairs]), strict=True))
        if direct:
            verdicts.update(zip(direct, self._ask_directly([inputs[k] for k in direct]), strict=True))
        return [self._with_audio_seconds(verdicts[k], inputs[k]) for k in range(len(inputs))]

    def _ask_directly(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """A choice's free-text prompt with the audio, answered in one greedy call."""
        assert self.vlm is not None
        first = [x.model_inputs or self._encode(x, self._first_prompt(x.query)) for x in inputs]
        answers = self.vlm.generate(first, self.options.max_answer_tokens)
        queries = [cast(ChoiceQuery, x.query) for x in inputs]  # the runner asks only the kinds it answers
        return [free_text_verdict(q, a) for q, a in zip(queries, answers, strict=True)]

    def _with_audio_seconds(self, verdict: Verdict, x: JudgeInput) -> Verdict:
        seconds = 0.0 if x.audio is None else len(x.audio) / self.sampling_rate
        extra = {**verdict.diagnostics.extra, "audio_s": seconds}
        return dataclasses.replace(verdict, diagnostics=dataclasses.replace(verdict.diagnostics, extra=extra))

    def _encode(self, x: JudgeInput, text: str) -> _chat.Encoded:
        """One query's processor output: the chat-templated prompt with one audio part, and its audio."""
        assert self.vlm is not None
        processor, query = self.vlm.encoder, x.query
        messages = audio_messages(text, str(query.audio or query.video))
        prompt = processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        encoded = processor(text=[prompt], audio=[x.audio], sampling_rate=self.sampling_rate, padding=True,
                            return_tensors="pt")  # fmt: skip
        return dict(encoded)
