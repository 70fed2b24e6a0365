"""``openai_compatible``: any OpenAI-compatible chat endpoint as a judge of every query kind.

The config names the endpoint (``options.base_url``), the served model (``model``) and the environment
variable holding the API key (``options.api_key_env``; the key itself is never put in a config, a
verdict, a log line or an error message). Per query, one ``POST <base_url>/chat/completions`` with
``temperature`` 0 (:mod:`mmjudge.judges._openai_http`: retries with exponential backoff on 429/5xx,
timeouts and connection errors, honouring ``Retry-After``; a per-request timeout). Frames and images go
as JPEG data URIs (:mod:`mmjudge.judges._openai_payload`; ``jpeg_quality``; frames at the runner's
``max_pixels`` size, images at their own size). Audio is not sent.

- a clip to rate (:class:`mmjudge.queries.ScoreQuery`, IsoVRBench): the sampled frames and ``vlm_digit``'s
  rating prompt with the clip's prompt (the same text the local digit judge uses), one digit 0-9 requested
  with ``logprobs`` and ``top_logprobs=20``; the score is the expected digit over the digit tokens among the
  first answer token's top logprobs, renormalised, x 100/9 (``valid_mass`` recorded).
- a choice (:class:`mmjudge.queries.ChoiceQuery`): the query's free-text prompt (MIST: the cell of the MIST
  grid; EmoPrefer: its S1 prompt; EmoReAlM: the official prompt, question then choices) with the query's
  image, else its sampled frames; the verdict is the reply as the benchmark scores it
  (:func:`mmjudge.judges.free_text_verdict`): MIST's label read with its parser (no label: ``no_judgment``),
  EmoPrefer's and EmoReAlM's reply text, scored later by the official matcher, with the parsed answer in
  ``diagnostics.extra["parsed"]``.

Served by vLLM (card: "Serving with vLLM"):

- images per request: ``options.max_images_per_request`` (the server's ``--limit-mm-per-prompt``) refuses
  a config asking for more frames per request before the run; a server's HTTP 400 for too many images is
  an error saying which setting to change, not retried, and not cached (the fix is the server's flag or
  the config, not the item);
- ``options.guided_choice``: a choice whose benchmark reads a label (MIST) sends its labels as vLLM's
  guided choice (``options.guided_choice_field``), so the reply is exactly one label; a reply that is not
  one (a server that ignored the field) is an error;
- a reply cut off at the token limit before an answer (a reasoning model: ``finish_reason: "length"``,
  ``content: null``, the text in ``reasoning_content``), or cut off before a label, is an error naming
  the limit to raise, never an answer; it is cached (greedy decoding repeats it).

A failed request (after retries), a malformed reply or a missing answer is an errored ``no_judgment``;
a reply the benchmark's parser reads no label in is a ``no_judgment`` answer. A request that failed for
a reason outside the query (the endpoint unreachable, timeouts, 5xx after the retries, an auth or
not-found reply, too many images for the server) is marked transient: the runner does not cache it, so
a rerun into the same output folder asks again.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError, MmjudgeError, SchemaError
from mmjudge.judges._base import Judge, free_text_verdict
from mmjudge.judges._failures import is_transient
from mmjudge.judges._openai_http import (
    ApiError,
    ChatClient,
    image_limit_error,
    image_limit_flag,
    refuses_image_count,
)
from mmjudge.judges._openai_payload import (
    GUIDED_CHOICE_FIELDS,
    NoAnswerError,
    answer_text,
    expected_digit_from_top_logprobs,
    first_top_logprobs,
    guided_choice_body,
    image_part,
)
from mmjudge.judges._registry import register_judge
from mmjudge.judges._types import JudgeInput
from mmjudge.judges.vlm_digit import DEFAULT_PROMPT
from mmjudge.queries import ChoiceQuery, Diagnostics, Query, ScoreQuery, Verdict

__all__ = ["OpenAICompatibleJudge", "OpenAICompatibleOptions"]

_TEXT_FIX = "raise options.max_tokens (a reasoning model spends tokens on its reasoning before the answer)"
_DIGIT_FIX = (
    "the digit protocol reads the first answer token, so a model that reasons first cannot be scored this "
    "way: serve it with its reasoning turned off, or use a model that answers directly"
)


@config_dataclass
class OpenAICompatibleOptions:
    """``options`` of an ``openai_compatible`` config."""

    base_url: str = "https://api.openai.com/v1"
    """Endpoint root; requests go to ``<base_url>/chat/completions``."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the API key (``""``: send no key, e.g. a local server)."""
    timeout_s: float = 60.0
    """Per-request timeout in seconds."""
    max_retries: int = 5
    """Retries after the first attempt (429, 5xx, timeouts, connection errors)."""
    backoff_s: float = 1.0
    """First backoff wait in seconds; doubles per retry."""
    max_backoff_s: float = 60.0
    """Cap on any wait, ``Retry-After`` included."""
    temperature: float = 0.0
    """Sampling temperature (0: greedy, as the protocols ask)."""
    max_tokens: int = 512
    """Token limit of text answers (MIST CoT, EmoPrefer, EmoReAlM)."""
    digit_max_tokens: int = 1
    """Token limit of IsoVRBench digit answers (only the first token's logprobs are read)."""
    top_logprobs: int = 20
    """Alternatives per position requested for IsoVRBench (the API maximum is 20)."""
    jpeg_quality: int = 90
    """JPEG quality of frames and images (PIL, 1-95)."""
    image_detail: str = "auto"
    """``detail`` of image parts (``low``, ``high``, ``auto``; ``""``: omit)."""
    concurrency: int = 4
    """Requests in flight per batch."""
    send_seed: bool = True
    """Send ``seed`` (the config's) with each request."""
    max_images_per_request: int | None = None
    """The server's limit on images in one request (vLLM: the image count of ``--limit-mm-per-prompt``);
    a config sending more frames is refused before the run. ``None``: unknown (the server decides)."""
    guided_choice: bool = False
    """Constrain a choice whose benchmark reads a label (MIST) to its labels (vLLM's guided choice)."""
    guided_choice_field: str = "structured_outputs"
    """The request field of the guided choice: ``structured_outputs`` (``{"choice": [...]}``, vLLM >= 0.10.2)
    or ``guided_choice`` (a list, vLLM < 0.12)."""

    def __post_init__(self) -> None:
        checks = {
            "timeout_s": self.timeout_s > 0,
            "max_retries": self.max_retries >= 0,
            "backoff_s": self.backoff_s >= 0,
            "max_backoff_s": self.max_backoff_s >= 0,
            "max_tokens": self.max_tokens >= 1,
            "digit_max_tokens": self.digit_max_tokens >= 1,
            "top_logprobs": 1 <= self.top_logprobs <= 20,
            "jpeg_quality": 1 <= self.jpeg_quality <= 95,
            "concurrency": self.concurrency >= 1,
            "image_detail": self.image_detail in ("", "low", "high", "auto"),
            "base_url": self.base_url.startswith(("http://", "https://")),
            "max_images_per_request": self.max_images_per_request is None or self.max_images_per_request >= 1,
            "guided_choice_field": self.guided_choice_field in GUIDED_CHOICE_FIELDS,
        }
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ConfigError(
                f"openai_compatible options out of range: {bad} (got "
                f"{ {name: getattr(self, name) for name in bad} }); see judges/openai_compatible/README.md"
            )


@register_judge("openai_compatible")
class OpenAICompatibleJudge(Judge):
    """A judge served by an OpenAI-compatible chat completions endpoint."""

    answers: ClassVar[frozenset[type]] = frozenset({ScoreQuery, ChoiceQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video", "image"})
    version: ClassVar[str] = "1"
    Options: ClassVar[type] = OpenAICompatibleOptions
    default_frames: ClassVar[int | None] = 8
    api_model: ClassVar[bool] = True
    """``model`` is a name the endpoint serves, not a Hub repo (:func:`mmjudge.judges.repos.loaded_repos`)."""
    own_prompts = "asks each query's own prompt (fixed per query kind)"

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        if not config.model:
            raise ConfigError("openai_compatible needs `model:` (the model name the endpoint serves)")
        self._check_image_limit()
        self._client: ChatClient | None = None
        self._secret: str | None = None

    def _check_image_limit(self) -> None:
        """Refuse a fixed frame count above the server's image limit (with ``fps`` it is checked per clip)."""
        limit = self.options.max_images_per_request
        frames = self.config.frames or self.default_frames
        if limit is None or self.config.fps is not None or frames is None or frames <= limit:
            return
        raise ConfigError(
            f"openai_compatible: `frames: {frames}` sends {frames} images per request, but the server takes at "
            f"most {limit} (`options.max_images_per_request`; vLLM: `--limit-mm-per-prompt`). Lower `frames` to "
            f"{limit} or fewer, or serve with a higher limit (vLLM: `{image_limit_flag(frames)}`) and set "
            f"`max_images_per_request: {frames}`"
        )

    def load(self, device: str) -> None:
        """Set up the HTTP client; the key is read from ``options.api_key_env`` (the device is unused)."""
        opts = self.options
        key = None
        if opts.api_key_env:
            key = os.environ.get(opts.api_key_env)
            if not key:
                raise ConfigError(
                    f"openai_compatible: environment variable {opts.api_key_env!r} is not set; export the "
                    "API key there, or set `api_key_env: ''` for an endpoint without a key"
                )
        self._secret = key
        self._client = ChatClient(
            opts.base_url,
            api_key=key,
            timeout_s=opts.timeout_s,
            max_retries=opts.max_retries,
            backoff_s=opts.backoff_s,
            max_backoff_s=opts.max_backoff_s,
        )

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        """One request per input, ``options.concurrency`` in flight; failures become ``no_judgment``."""
        if self._client is None:
            self.load("cpu")
        if len(inputs) <= 1 or self.options.concurrency == 1:
            return [self._judge_one(x) for x in inputs]
        with ThreadPoolExecutor(max_workers=min(self.options.concurrency, len(inputs))) as pool:
            return list(pool.map(self._judge_one, inputs))

    def _judge_one(self, judge_input: JudgeInput) -> Verdict:
        item_id = judge_input.query.item_id
        started = time.perf_counter()
        try:
            verdict = self._ask(judge_input.query, judge_input)
        except MmjudgeError as exc:
            error = self._scrub(f"{type(exc).__name__}: {exc}")
            return Verdict.failed(item_id, error, transient=is_transient(exc))
        latency = time.perf_counter() - started
        return dataclasses.replace(verdict, diagnostics=dataclasses.replace(verdict.diagnostics, latency_s=latency))

    @functools.singledispatchmethod
    def _ask(self, query: Query, judge_input: JudgeInput) -> Verdict:
        raise SchemaError(f"openai_compatible answers clips to rate and choices, got a {type(query).__name__}")

    @_ask.register
    def _ask_digit(self, query: ScoreQuery, judge_input: JudgeInput) -> Verdict:
        n = 0 if judge_input.frames is None else len(judge_input.frames)
        if n == 0:
            raise SchemaError(f"clip {query.item_id!r} came without frames; the judge needs sampled frames")

        prompt = DEFAULT_PROMPT.replace("{prompt}", query.prompt)
        extra = {"logprobs": True, "top_logprobs": self.options.top_logprobs}
        limit = f"digit_max_tokens={self.options.digit_max_tokens}"
        reply = self._chat(prompt, self._pictures(judge_input), self.options.digit_max_tokens, extra)
        raw = answer_text(reply, limit=limit, fix=_DIGIT_FIX).text
        digits = expected_digit_from_top_logprobs(first_top_logprobs(reply))
        if digits is None:
            raise SchemaError(
                f"no digit token among the top {self.options.top_logprobs} logprobs of the first answer token "
                f"(reply {raw!r})"
            )
        details = {"expected_digit": digits.expected, "digit_probs": digits.probs, "frames": n}
        return Verdict(
            query.item_id, digits.score, diagnostics=Diagnostics(raw, digits.valid_mass, None, details)
        )

    @_ask.register
    def _ask_choice(self, query: ChoiceQuery, judge_input: JudgeInput) -> Verdict:
        opts = self.options
        images = [judge_input.image] if judge_input.image is not None else None  # else the clip's frames
        guided = opts.guided_choice and not query.keeps_text  # a benchmark's own matcher reads free text
        extra = guided_choice_body(query.labels, opts.guided_choice_field) if guided else None
        text = query.free_prompt(seed=self.config.seed)
        reply = self._chat(text, self._pictures(judge_input, images), opts.max_tokens, extra)
        answer = answer_text(reply, limit=f"max_tokens={opts.max_tokens}", fix=_TEXT_FIX)
        if guided and answer.text.strip() not in query.labels:
            raise SchemaError(
                f"the reply {answer.text[:80]!r} is not one of the labels {list(query.labels)} sent as "
                f"`{opts.guided_choice_field}`: the server ignored the guided choice (vLLM 0.12 and later ignore "
                "`guided_choice`; vLLM before 0.10.2 knows no `structured_outputs`); set "
                "`options.guided_choice_field` for the server's vLLM version"
            )
        if answer.finish_reason == "length" and query.parse(answer.text) is None:
            raise NoAnswerError(
                f"the reply was cut off at max_tokens={opts.max_tokens} before a label (finish_reason=length; "
                f"it ends {answer.text[-80:]!r}); {_TEXT_FIX}"
            )
        cut = {"finish_reason": "length"} if answer.finish_reason == "length" else {}
        return free_text_verdict(query, answer.text, Diagnostics(extra=cut))

    def _pictures(self, judge_input: JudgeInput, images: Sequence[Any] | None = None) -> list[Any]:
        """The images of one request (``images``, else the clip's frames), at most the server's limit."""
        if images is not None:
            pictures = list(images)
        else:
            pictures = list(judge_input.frames if judge_input.frames is not None else [])
        limit = self.options.max_images_per_request
        if limit is not None and len(pictures) > limit:
            raise ConfigError(
                f"{len(pictures)} images for one request, more than the server takes "
                f"(`options.max_images_per_request: {limit}`; vLLM: `--limit-mm-per-prompt`); with `fps` the "
                "count follows the clip's length: lower `fps`, or set `frames`"
            )
        return pictures

    def _chat(
        self, text: str, pictures: list[Any], max_tokens: int, extra: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        opts = self.options
        parts = [image_part(p, quality=opts.jpeg_quality, detail=opts.image_detail or None) for p in pictures]
        payload: dict[str, Any] = {
            "model": self.config.model,
            "messages": [{"role": "user", "content": [*parts, {"type": "text", "text": text}]}],
            "temperature": opts.temperature,
            "max_tokens": max_tokens,
            **(extra or {}),
        }
        if opts.send_seed:
            payload["seed"] = self.config.seed
        assert self._client is not None
        try:
            return self._client.chat(payload)
        except ApiError as exc:
            if refuses_image_count(exc):
                raise image_limit_error(exc, len(pictures)) from exc
            raise

    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text
