"""``audio_visual``: a Qwen2.5-Omni-style thinker judging EmoReAlM and EmoPrefer from video + audio.

Model: transformers' ``Qwen2_5OmniThinkerForConditionalGeneration`` with ``Qwen2_5OmniProcessor``; the
checkpoint's family (:data:`mmjudge.judges.families.FAMILIES`, ``qwen2_5_omni``) is checked before the run. A
folder or Hub id holding the whole Qwen2.5-Omni model (``model_type: qwen2_5_omni``, e.g.
``Qwen/Qwen2.5-Omni-7B``) is loaded as ``Qwen2_5OmniForConditionalGeneration`` with
``enable_audio_output=False`` (no talker) and its ``.thinker`` is used; a thinker-only folder
(``qwen2_5_omni_thinker``) is loaded directly. Both go through :func:`mmjudge.judges._hf.load_pretrained`
(``revision``, ``local_files_only``, ``dtype``, ``device_map={"": device}``).

Input per query, as Qwen2.5-Omni takes a video with its soundtrack, preprocessed as qwen-omni-utils 0.0.9's
``process_mm_info`` does (:data:`mmjudge.judges.profiles.QWEN_OMNI_UTILS`):

- frames: sampled at the config's ``fps`` (default 2, Qwen2.5-Omni's rate) or ``frames`` count by its
  ``smart_nframes`` (at a rate: clamped to ``[min_frames, max_frames]`` and the clip length, floored to an
  even count; a fixed count rounded to an even one), indices ``torch.linspace(0, total - 1, n).round()``;
  decoded at full size and resized once when the judge encodes the query (in a decode worker where there are
  some) to its ``fetch_video`` size for the model's factor (the processor's ``patch_size * merge_size``, 28 for
  Qwen2.5-Omni: floor ``128 * 28**2``, cap ``min(768 * 28**2, total_pixels / n * 2)``; ``max_pixels`` in the
  config can only lower it) with torchvision's bicubic antialiased kernel; the processor is called with
  ``do_resize=False``;
- audio: the clip's audio as ``librosa.load(path, sr=16000)`` gives it (mono mean of the channels, soxr
  HQ resampling; EmoPrefer ``audio/{name}.wav``; EmoReAlM the ``.wav`` beside the clip, else the clip's
  track), interleaved with the frames in 2-second chunks (``use_audio_in_video``, the processor's
  ``load_audio_from_video`` with the decoded audio); with ``use_audio_in_video: false`` the audio is a
  separate part before the video;
- the frame rate passed to the processor is qwen-omni-utils' ``sample_fps``, ``n / total * clip_fps``
  (:func:`sampled_fps`), so audio and video chunks line up in time;
- text: the query's prompt for a free-text answer (:meth:`~mmjudge.queries.ChoiceQuery.free_prompt`: EmoReAlM's
  official question prompt; EmoPrefer's S1); **no subtitles**; the official Qwen2.5-Omni system prompt.

It answers choices (:class:`mmjudge.queries.ChoiceQuery`) from video and audio. ``options.strategy``:

* ``S1`` (default): one call, the clip and the query's prompt; the reply is the answer.
* ``S2`` (EmoPrefer only, :class:`mmjudge.queries.PairQuery`): step one, the clip (frames and audio exactly
  as above) with the pair's :meth:`~mmjudge.queries.PairQuery.describe_prompt` (``max_description_tokens``);
  step two, the same thinker in **text only** (system prompt, then
  :meth:`~mmjudge.queries.PairQuery.compare_prompt` of the description; no media) answers a1, a2 or same
  (:func:`mmjudge.judges._describe.compare_descriptions`, shared with ``pairwise_describe``). Asking S2
  of a benchmark without pairs is refused before the run (:meth:`AudioVisualJudge.check_benchmark`).

Greedy decoding (``max_new_tokens`` for the answer); the verdict is the answer as the benchmark scores it
(:func:`mmjudge.judges.free_text_verdict`): for EmoReAlM and EmoPrefer the raw response text (scored later
by the official matchers), the parsed answer in ``diagnostics.extra["parsed"]`` (S2: the description in
``diagnostics.extra["description"]``). Each query is encoded on
its own and the batch is left-padded (:func:`mmjudge.judges._chat.batches`), so a batch of many gives what
a batch of one gives. A query with neither frames nor audio gives ``no_judgment``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple, cast

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, MediaError
from mmjudge.judges._base import free_text_verdict
from mmjudge.judges._chat import generate_texts, pad_token_id
from mmjudge.judges._config import check_option
from mmjudge.judges._describe import compare_descriptions
from mmjudge.judges._family import FamilyJudge
from mmjudge.judges._hf import hub_options, load_pretrained, model_source
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.judges._vision_batch import model_factor
from mmjudge.judges.families import ModelFamily
from mmjudge.queries import ChoiceQuery, Diagnostics, PairQuery, Query, Verdict, kind_name

__all__ = ["OMNI_SYSTEM_PROMPT", "STRATEGIES", "AudioVisualJudge", "AudioVisualOptions", "sampled_fps"]

OMNI_SYSTEM_PROMPT = (
    "You are Qwen, a virtual human developed by the Qwen Team, Alibaba Group, capable of perceiving "
    "auditory and visual inputs, as well as generating text and speech."
)
"""Qwen2.5-Omni's official system prompt (its model card asks for it)."""
AUDIO_SAMPLE_RATE = 16_000
"""Qwen2.5-Omni's audio rate (Whisper features)."""
DEFAULT_FPS = 2.0
"""Frame sampling rate when the config sets neither ``fps`` nor ``frames`` (Qwen2.5-Omni's default)."""
STRATEGIES: tuple[str, ...] = ("S1", "S2")
"""EmoPrefer strategies this judge runs (S1: answer from the clip; S2: describe it, then compare in text)."""


@config_dataclass
class AudioVisualOptions:
    """``options`` of an ``audio_visual`` config."""

    max_new_tokens: int = 64
    """Greedy decoding length limit of the answer."""
    strategy: str = "S1"
    """``S1``: answer from the clip; ``S2`` (pairs only, EmoPrefer): describe the clip, then compare in text."""
    max_description_tokens: int = 256
    """S2: greedy decoding length limit of the clip description."""
    use_audio_in_video: bool = True
    """Interleave the audio with the frames (Qwen2.5-Omni's video-with-audio mode); false: separate part."""
    audio: bool = True
    """Give the model the audio at all (false: frames only, an ablation)."""
    system_prompt: str = OMNI_SYSTEM_PROMPT
    """System turn (``""``: none, the chat template's default)."""
    min_frames: int = 4
    """Fewest frames sampled (qwen-omni-utils: 4)."""
    max_frames: int = 768
    """Most frames sampled (qwen-omni-utils: 768, then the clip length)."""

    def __post_init__(self) -> None:
        check_option("audio_visual", "strategy", self.strategy, STRATEGIES)
        if self.max_description_tokens < 1:
            raise ConfigError(
                f"audio_visual option `max_description_tokens` must be >= 1, got {self.max_description_tokens}"
            )
        if self.max_new_tokens < 1 or self.min_frames < 1 or self.max_frames < self.min_frames:
            raise ConfigError(
                "audio_visual options: expected max_new_tokens >= 1 and 1 <= min_frames <= max_frames, got "
                f"max_new_tokens={self.max_new_tokens}, min_frames={self.min_frames}, max_frames={self.max_frames}"
            )


def sampled_fps(
    num_frames: int, total_frames: int | None, clip_fps: float | None, default: float = DEFAULT_FPS
) -> float:
    """qwen-omni-utils' ``sample_fps``: ``num_frames / total_frames * clip_fps`` (``default`` when unknown).

    >>> sampled_fps(4, 16, 8.0)
    2.0
    >>> sampled_fps(4, None, 24.0), sampled_fps(4, 10, None)
    (2.0, 2.0)
    """
    if clip_fps and total_frames:
        return num_frames / max(total_frames, 1e-6) * float(clip_fps)
    return float(default)


@register_judge("audio_visual")
class AudioVisualJudge(FamilyJudge):
    """Qwen2.5-Omni thinker over video + audio for EmoReAlM and EmoPrefer (greedy, raw text verdicts)."""

    answers: ClassVar[frozenset[type]] = frozenset({ChoiceQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video", "audio"})
    version: ClassVar[str] = "2"
    model_class: ClassVar[str] = "Qwen2_5OmniThinkerForConditionalGeneration"
    Options: ClassVar[type] = AudioVisualOptions
    default_frames: ClassVar[int | None] = None
    own_prompts = "asks each query's own prompt (the benchmark's protocol)"

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.model: Any = None
        self.processor: Any = None

    def check_family(self, family: ModelFamily) -> None:
        """Refuse a model that is not Qwen2.5-Omni (the judge interleaves its audio and video chunks)."""
        if family.name != "qwen2_5_omni":
            raise ConfigError(
                f"audio_visual loads Qwen2.5-Omni models (model_type qwen2_5_omni or qwen2_5_omni_thinker); "
                f"{self.config.model!r} is {family.title}: pick a Qwen2.5-Omni checkpoint"
            )
        super().check_family(family)

    def media_request(self, query: Query | None = None) -> MediaRequest:
        """Frames by qwen-omni-utils' rules (``fps``, default 2, or ``frames``) at full size (the judge resizes
        them for the model's factor); audio at 16 kHz as librosa loads it."""
        cfg, opts = self.config, self.options
        fps = cfg.fps if cfg.fps is not None or cfg.frames else DEFAULT_FPS
        return MediaRequest(
            num_frames=None if fps is not None else cfg.frames,
            target_fps=fps,
            min_frames=opts.min_frames,
            max_frames=opts.max_frames,
            profile=self.family.profile,
            audio_sample_rate=AUDIO_SAMPLE_RATE if opts.audio else None,
            audio_resampler="soxr_hq",
        )

    def load(self, device: str) -> None:
        """Load the thinker (from a thinker folder or a whole Qwen2.5-Omni model) and the processor."""

        _ = self.family  # any family but Qwen2.5-Omni is refused here, before a weight is read
        source = model_source(self.config)
        common: dict[str, Any] = hub_options(self.config)
        kind = getattr(load_pretrained("AutoConfig", source, **common), "model_type", None)
        weights: dict[str, Any] = {"dtype": self.config.dtype, "device": device, **common}
        if kind == "qwen2_5_omni":
            full = load_pretrained(
                "Qwen2_5OmniForConditionalGeneration", source, enable_audio_output=False, **weights
            )
            self.model = full.thinker
        else:  # qwen2_5_omni_thinker
            self.model = load_pretrained(self.model_class, source, **weights)
        self.processor = load_pretrained("AutoProcessor", source, **common)

    def check_benchmark(self, benchmark: str) -> type:
        """The query kind asked of ``benchmark``; strategy S2 only for pairs of texts (EmoPrefer), refused
        before the run for any other benchmark."""
        kind = super().check_benchmark(benchmark)
        if self.options.strategy != "S1" and not issubclass(kind, PairQuery):
            raise ConfigError(
                f"audio_visual strategy {self.options.strategy} describes the clip, then compares the "
                f"description with two candidate texts: it answers {kind_name(PairQuery)!r} (EmoPrefer), "
                f"and {benchmark!r} asks {kind_name(kind)!r}; use strategy S1 for {benchmark!r}"
            )
        return kind

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """Greedy answers (S2: descriptions, then text-only comparisons); items are grouped by whether their
        audio is interleaved (one flag per call)."""
        if self.model is None:
            raise RuntimeError("audio_visual: call load(device) before judge_batch")
        verdicts: dict[int, Verdict] = {}
        groups: dict[bool, list[tuple[int, dict[str, Any]]]] = {}
        for position, judge_input in enumerate(inputs):
            try:
                encoded, interleaved = judge_input.model_inputs or self.encode(judge_input)
            except MediaError as exc:
                verdicts[position] = Verdict.failed(judge_input.query.item_id, f"MediaError: {exc}")
                continue
            groups.setdefault(interleaved, []).append((position, encoded))
        describe = self.options.strategy == "S2"
        budget = self.options.max_description_tokens if describe else self.options.max_new_tokens
        replies: dict[int, _Reply] = {}
        for interleaved, members in groups.items():
            started = time.perf_counter()
            texts = self._generate([enc for _, enc in members], interleaved, budget)
            latency = (time.perf_counter() - started) / len(members)
            for (position, _), text in zip(members, texts, strict=True):
                replies[position] = _Reply(text, interleaved, latency, {"strategy": self.options.strategy})
        if describe and replies:
            replies = self._compare(inputs, replies)
        for position, reply in replies.items():
            verdicts[position] = self._verdict(inputs[position], reply)
        return [verdicts[i] for i in range(len(inputs))]

    def ask(self, texts: Sequence[str], max_new_tokens: int) -> list[str]:
        """Greedy replies to text-only prompts (the system prompt, then each text; no media)."""
        encodings = [self.encode_text(t) for t in texts]
        return self._generate(encodings, False, max_new_tokens) if encodings else []

    def encode_text(self, text: str) -> dict[str, Any]:
        """A text-only prompt's processor output: the system prompt, then ``text`` (S2 step two)."""
        return dict(self.processor(text=[self._render(self._chat([_text(text)]))], return_tensors="pt"))

    def _compare(self, inputs: Sequence[JudgeInput], replies: dict[int, _Reply]) -> dict[int, _Reply]:
        """S2 step two: each description compared with its pair's candidates by the same thinker, in text."""
        positions = sorted(replies)
        items = [self._pair(inputs[p].query) for p in positions]
        descriptions = [replies[p].text for p in positions]
        started = time.perf_counter()
        compared = compare_descriptions(
            items, descriptions, self.ask, max_answer_tokens=self.options.max_new_tokens
        )
        share = (time.perf_counter() - started) / len(positions)
        out = {}
        for p, answer, steps in zip(positions, compared.answers, compared.extra, strict=True):
            before = replies[p]
            out[p] = _Reply(answer, before.interleaved, before.latency_s + share, {**before.extra, **steps})
        return out

    def model_inputs(self, x: JudgeInput) -> Any:
        """:meth:`encode` of ``x`` (made in a decode worker; a query with neither frames nor audio fails there
        as here, with a ``MediaError``)."""
        return self.encode(x)

    def messages(self, judge_input: JudgeInput, *, video: bool, audio_part: bool) -> list[dict[str, Any]]:
        """The chat: the system prompt, then the user turn (audio part, video part, prompt text)."""
        parts: list[dict[str, Any]] = [{"type": "audio"}] if audio_part else []
        if video:
            parts.append({"type": "video"})
        return self._chat([*parts, _text(self.prompt(judge_input.query))])

    def prompt(self, query: Query) -> str:
        """The text shown with the clip: the query's free-text prompt (S1) or the pair's description
        request (S2, step one)."""
        if self.options.strategy == "S1":
            return cast(ChoiceQuery, query).free_prompt(seed=self.config.seed)  # the runner asks only these
        return self._pair(query).describe_prompt()

    def _pair(self, query: Query) -> PairQuery:
        pair = query.text_pair()
        if pair is None:  # check_benchmark refuses this before a run
            raise ConfigError(
                f"audio_visual strategy {self.options.strategy} asks pairs of texts ({kind_name(PairQuery)!r}), "
                f"got {query.item_id!r}, {kind_name(type(query))!r}; use strategy S1"
            )
        return pair

    def _chat(self, user: list[dict[str, Any]]) -> list[dict[str, Any]]:
        system = self.options.system_prompt
        head = [{"role": "system", "content": [_text(system)]}] if system else []
        return [*head, {"role": "user", "content": user}]

    def _render(self, chat: list[dict[str, Any]]) -> str:
        return str(self.processor.apply_chat_template(chat, add_generation_prompt=True, tokenize=False))

    def encode(self, judge_input: JudgeInput) -> tuple[dict[str, Any], bool]:
        """One query's processor output, and whether its audio is interleaved with its frames."""
        frames = judge_input.frames
        has_video = frames is not None and len(frames) > 0
        audio = judge_input.audio if self.options.audio else None
        has_audio = audio is not None and len(audio) > 0
        if not has_video and not has_audio:
            raise MediaError(f"query {judge_input.query.item_id!r} came with neither video frames nor audio")
        interleaved = has_video and has_audio and self.options.use_audio_in_video
        chat = self.messages(judge_input, video=has_video, audio_part=has_audio and not interleaved)
        prompt = self._render(chat)
        kwargs: dict[str, Any] = {"text": [prompt], "return_tensors": "pt"}
        if has_video:
            assert frames is not None and self.family.profile is not None
            factor = model_factor(self.processor, video=True)
            frames = self.family.profile.fit_video(
                frames, factor, source_size=judge_input.frame_size, max_pixels=self.config.max_pixels
            )
            fps = sampled_fps(
                len(frames), judge_input.total_frames, judge_input.fps, self.config.fps or DEFAULT_FPS
            )
            kwargs.update(videos=[frames], fps=fps, do_sample_frames=False, do_resize=False)
        if has_audio:
            kwargs["audio"] = [audio]
        if interleaved:
            kwargs.update(audio_from_video_indices=[0], load_audio_from_video=True)
        return dict(self.processor(**kwargs)), interleaved

    def _generate(self, encodings: list[dict[str, Any]], interleaved: bool, max_new_tokens: int) -> list[str]:
        tokenizer = self.processor.tokenizer
        return generate_texts(self.model, tokenizer, encodings, max_new_tokens, pad_token_id(tokenizer),
                              use_audio_in_video=interleaved)  # fmt: skip

    def _verdict(self, judge_input: JudgeInput, reply: _Reply) -> Verdict:
        frames = 0 if judge_input.frames is None else len(judge_input.frames)
        audio = judge_input.audio if self.options.audio else None
        extra = {
            "frames": frames,
            "audio_s": 0.0 if audio is None else len(audio) / AUDIO_SAMPLE_RATE,
            "audio_in_video": reply.interleaved,
            **reply.extra,
        }
        query = cast(ChoiceQuery, judge_input.query)
        return free_text_verdict(query, reply.text, Diagnostics(latency_s=reply.latency_s, extra=extra))


class _Reply(NamedTuple):
    """One query's reply so far."""

    text: str
    """The generated text (S2: the description until the comparison replaces it with the answer)."""
    interleaved: bool
    """Whether the clip's audio was interleaved with its frames."""
    latency_s: float
    """Seconds of generation spent on the query."""
    extra: dict[str, Any]
    """``strategy``, and for S2 the ``description``."""


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
