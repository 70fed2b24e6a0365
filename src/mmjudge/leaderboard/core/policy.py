"""What a model request may carry: per backend, an allow-list of judge config keys and options.

A request carries only what a requester may choose (model id and revision, frame count, batch size and
a few backend settings with bounded values); it never carries a URL, a secret, an environment variable
name or a local path. Anything else is refused when the request is queued, with a message naming the
key. Backends that call a remote API (``openai_compatible``) can be queued by admins only; their
endpoint and the environment variable holding the key are fixed by the server
(:attr:`mmjudge.leaderboard.Settings.server_options`), never by the request. A backend without rules
here (for instance a third-party judge) is not open to requests until the operator adds rules.

What a request's model names depends on the backend (:attr:`BackendRules.model_source`): a Hub model repo
(:data:`HUB_MODEL`, pinned to a commit when queued), nothing (:data:`NO_MODEL`: a weight-free backend such as
``random``; its rows are baselines, never ``run here`` rows of a model), or a model name behind the server's
fixed API endpoint (:data:`ENDPOINT_MODEL`: ``gpt-4o`` is not a Hub repo; pinned by the date instead).
Revisions are git ref names (:func:`mmjudge._checks.ref_name_problem`), never paths.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mmjudge._checks import ref_name_problem
from mmjudge._text import unsafe_char
from mmjudge.errors import ConfigError
from mmjudge.leaderboard.store import SubmissionRejected

__all__ = [
    "DEFAULT_RULES",
    "ENDPOINT_MODEL",
    "ENDPOINT_NAME",
    "HUB_MODEL",
    "NO_MODEL",
    "REPO_ID",
    "REVISION",
    "BackendRules",
    "Rule",
    "check_remote_code_list",
    "check_request_config",
    "remote_code_revision",
]

REPO_ID = re.compile(r"^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/)?[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")
"""A Hub repo id (``org/name`` or ``name``); never a path: no leading ``/``, ``.``, ``~`` or ``..``."""
COMMIT = re.compile(r"^[0-9a-f]{40}$")
"""A full git commit hash (an allow-listed remote-code repo is pinned to one)."""
REVISION = re.compile(r"^[A-Za-z0-9_.\-/]{0,100}$")
"""The characters of a commit, branch or tag name (the name must also pass :func:`mmjudge._checks.ref_name_problem`)."""
ENDPOINT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,127}$")
"""A model name an API endpoint serves (``gpt-4o``, ``gpt-4.1-2025-04-14``, ``Qwen/Qwen2.5-VL-7B-Instruct``)."""
HUB_MODEL, NO_MODEL, ENDPOINT_MODEL = "hub", "none", "endpoint"
"""What a request's model names (:attr:`BackendRules.model_source`)."""


_KINDS = ("int", "float", "bool", "choice", "repo_id", "revision", "text")


@dataclass(frozen=True)
class Rule:
    """The values one requestable key may take."""

    kind: str
    """``int``, ``float``, ``bool``, ``choice``, ``repo_id``, ``revision`` or ``text``."""
    low: float | None = None
    """Smallest number allowed (``int``/``float``)."""
    high: float | None = None
    """Largest number allowed (``int``/``float``); the maximum length for ``text``."""
    choices: tuple[Any, ...] = ()
    """Allowed values (``choice``)."""
    nullable: bool = False
    """``null`` is allowed (the backend's default)."""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"Rule kind must be one of {list(_KINDS)}, got {self.kind!r}")

    def problem(self, value: Any) -> str:
        """Why ``value`` is not allowed (``""`` when it is).

        >>> Rule("int", 1, 64).problem(65), Rule("repo_id").problem("/etc")
        ('expected an integer from 1 to 64, got 65', "expected a Hub repo id like 'org/name' (never a URL or a local path), got '/etc'")
        """
        if value is None:
            return "" if self.nullable else f"expected {self._expected()}, got null"
        check = getattr(self, f"_{self.kind}")
        return "" if check(value) else f"expected {self._expected()}, got {_short(value)}"

    def _int(self, value: Any) -> bool:
        return type(value) is int and self._within(value)

    def _float(self, value: Any) -> bool:
        return type(value) in (int, float) and math.isfinite(value) and self._within(value)

    def _within(self, value: float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def _bool(self, value: Any) -> bool:
        return type(value) is bool

    def _choice(self, value: Any) -> bool:
        return isinstance(value, (str, int)) and not isinstance(value, bool) and value in self.choices

    def _repo_id(self, value: Any) -> bool:
        return isinstance(value, str) and bool(REPO_ID.match(value)) and ".." not in value

    def _revision(self, value: Any) -> bool:
        return isinstance(value, str) and bool(REVISION.match(value)) and not ref_name_problem(value)

    def _text(self, value: Any) -> bool:

        limit = int(self.high or 100)
        return isinstance(value, str) and 0 < len(value) <= limit and unsafe_char(value) is None

    def _expected(self) -> str:
        if self.kind == "int":
            return f"an integer from {self.low:g} to {self.high:g}"
        if self.kind == "float":
            return f"a number from {self.low:g} to {self.high:g}"
        if self.kind == "choice":
            return f"one of {list(self.choices)}"
        return {
            "bool": "true or false",
            "repo_id": "a Hub repo id like 'org/name' (never a URL or a local path)",
            "revision": "a commit, branch or tag name",
            "text": f"one line of visible text of at most {int(self.high or 100)} characters",
        }[self.kind]


@dataclass(frozen=True)
class BackendRules:
    """What a request for one backend may set."""

    config: Mapping[str, Rule]
    """Top-level judge config keys (``model``, ``revision`` and ``judge`` come from the request's fields)."""
    options: Mapping[str, Rule] = field(default_factory=dict)
    """Backend ``options`` keys."""
    admin_only: bool = False
    """Only an admin may queue it (judges that call a remote API with the server's key)."""
    model_source: str = HUB_MODEL
    """What the request's model names: :data:`HUB_MODEL` (a Hub repo, pinned to a commit), :data:`NO_MODEL` (a
    weight-free backend: no model; its rows are baselines, shown and never ranked) or :data:`ENDPOINT_MODEL`
    (a model name behind the server's API endpoint; never asked of the Hub)."""

    def __post_init__(self) -> None:
        if self.model_source not in (HUB_MODEL, NO_MODEL, ENDPOINT_MODEL):
            raise ValueError(f"model_source must be one of {[HUB_MODEL, NO_MODEL, ENDPOINT_MODEL]}, "
                             f"got {self.model_source!r}")  # fmt: skip


def _int(low: float, high: float, nullable: bool = False) -> Rule:
    return Rule("int", low, high, nullable=nullable)


# Bounds are what the papers' protocols use, with room for a sweep (IsoVRBench's frame sweep goes to 48, VideoScore
# reads 48, VideoAlign 2 fps, Mantis 8 fps; frames of at most 1280 x 28 x 28 pixels, VideoScore2's 24576 x 28 x 28
# pixels in all; AVERE generates 2048 tokens, VideoScore2 samples 1024 at temperature 0.7): a request past them
# would only hold a GPU longer (each run also has a time budget: mmjudge.leaderboard.worker.budget).
MAX_FRAMES = 64
MAX_FRAME_PIXELS = 1280 * 28 * 28
MAX_TOTAL_PIXELS = 24576 * 28 * 28
MAX_NEW_TOKENS = 2048
_NAME = Rule("text", high=100)
_PIXELS = _int(3136, MAX_FRAME_PIXELS, True)
_TOTAL_PIXELS = _int(3136, MAX_TOTAL_PIXELS, True)
_FRAMES = {"frames": _int(1, MAX_FRAMES, True), "fps": Rule("float", 0.1, 8.0, nullable=True), "max_pixels": _PIXELS}
_BATCH = {"batch_size": _int(1, 64)}
_DTYPE = {"dtype": Rule("choice", choices=("auto", "bfloat16", "float16", "float32"))}
_SEED = {"seed": _int(0, 2**31 - 1)}
_LOCAL = {"name": _NAME, **_FRAMES, **_BATCH, **_DTYPE, "local_files_only": Rule("bool")}
_TOKENS = _int(1, MAX_NEW_TOKENS)

DEFAULT_RULES: Mapping[str, BackendRules] = {
    "random": BackendRules({"name": _NAME, **_BATCH, **_SEED}, {"include_same": Rule("bool")}, model_source=NO_MODEL),
    "constant": BackendRules(
        {"name": _NAME, **_BATCH},
        {"label": Rule("choice", choices=("FF", "WF", "FL", "LL")),
         "choice": Rule("choice", choices=("a1", "a2", "same")),
         "letter": Rule("choice", choices=tuple("ABCDEFGHIJ"))},
        model_source=NO_MODEL,
    ),
    "frame_smoothness": BackendRules({"name": _NAME, **_FRAMES, **_BATCH}, model_source=NO_MODEL),
    "sharpness": BackendRules({"name": _NAME, **_FRAMES, **_BATCH}, model_source=NO_MODEL),
    "clip_score": BackendRules(
        _LOCAL, {"processor": Rule("repo_id", nullable=True), "processor_revision": Rule("revision", nullable=True)}
    ),
    "vlm_digit": BackendRules(
        _LOCAL,
        {"as_video": Rule("bool"), "padding_side": Rule("choice", choices=("left", "right")),
         "min_pixels": _PIXELS, "total_pixels": _TOTAL_PIXELS},
    ),
    "video_reward": BackendRules(
        _LOCAL,
        {"checkpoint": Rule("repo_id", nullable=True), "checkpoint_revision": Rule("revision", nullable=True),
         "checkpoint_step": _int(-1, 10**9), "min_pixels": _PIXELS, "use_norm": Rule("bool"),
         "positions": Rule("choice", choices=("sequential", "mrope"), nullable=True)},
    ),
    "label_choice": BackendRules(
        {**_LOCAL, **_SEED},
        {"method": Rule("choice", choices=("greedy_trie", "loglik")), "max_reasoning_tokens": _TOKENS,
         "frames_as": Rule("choice", choices=("video", "images"))},
    ),
    "pairwise_describe": BackendRules(
        _LOCAL,
        {"strategy": Rule("choice", choices=("S1", "S2", "S3", "S4")),
         "text_model": Rule("repo_id", nullable=True), "text_model_revision": Rule("revision", nullable=True),
         "max_answer_tokens": _TOKENS, "max_description_tokens": _TOKENS, "max_reasoning_tokens": _TOKENS,
         "frames_as": Rule("choice", choices=("video", "images"))},
    ),
    "audio_visual": BackendRules(
        _LOCAL,
        {"max_new_tokens": _TOKENS, "use_audio_in_video": Rule("bool"), "audio": Rule("bool"),
         "min_frames": _int(1, 768), "max_frames": _int(1, 768), "strategy": Rule("choice", choices=("S1", "S2")),
         "max_description_tokens": _TOKENS},
    ),
    "audio_language": BackendRules(
        {"name": _NAME, **_BATCH, **_DTYPE, "local_files_only": Rule("bool")},
        {"strategy": Rule("choice", choices=("S1", "S2", "S3", "S4")),
         "text_model": Rule("repo_id", nullable=True), "text_model_revision": Rule("revision", nullable=True),
         "max_answer_tokens": _TOKENS, "max_description_tokens": _TOKENS, "max_reasoning_tokens": _TOKENS},
    ),
    "video_score": BackendRules(
        {"name": _NAME, "frames": _int(1, MAX_FRAMES, True), **_BATCH, **_DTYPE, "local_files_only": Rule("bool")},
        {"max_frames": _int(1, MAX_FRAMES), "round": _int(0, 8, True),
         "image_backend": Rule("choice", choices=("pil", "torchvision"))},
    ),
    "videoscore2": BackendRules(
        {**_LOCAL, **_SEED},
        {"readout": Rule("choice", choices=("soft", "hard")), "do_sample": Rule("bool"),
         "temperature": Rule("float", 0.05, 1.0), "max_new_tokens": _int(1, 1024),
         "min_pixels": _PIXELS, "total_pixels": _TOTAL_PIXELS},
    ),
    "unified_reward": BackendRules(
        {"name": _NAME, "frames": _int(1, 64, True), **_BATCH, **_DTYPE, "local_files_only": Rule("bool")},
        {"max_new_tokens": _TOKENS, "jpeg_quality": _int(1, 100, True), "jpeg_passes": _int(0, 2)},
    ),
    "unified_reward_pair": BackendRules(
        {"name": _NAME, "frames": _int(1, 32, True), **_BATCH, **_DTYPE, "local_files_only": Rule("bool")},
        {"max_new_tokens": _TOKENS, "jpeg_quality": _int(1, 100, True), "jpeg_passes": _int(0, 2)},
    ),
    "unified_reward_flex": BackendRules(
        {"name": _NAME, "frames": _int(1, 32, True), **_BATCH, **_DTYPE, "local_files_only": Rule("bool")},
        {"max_new_tokens": _TOKENS, "jpeg_quality": _int(1, 100, True)},
    ),
    "openai_compatible": BackendRules(
        {"name": _NAME, **_FRAMES, **_BATCH, **_SEED},
        {"timeout_s": Rule("float", 1.0, 600.0), "max_retries": _int(0, 10), "max_tokens": _TOKENS,
         "temperature": Rule("float", 0.0, 2.0), "top_logprobs": _int(1, 20), "jpeg_quality": _int(1, 95),
         "image_detail": Rule("choice", choices=("", "low", "high", "auto")), "concurrency": _int(1, 16),
         "send_seed": Rule("bool")},
        admin_only=True,
        model_source=ENDPOINT_MODEL,
    ),
}  # fmt: skip
"""Rules of the built-in backends (the operator may replace them through ``Settings.request_rules``)."""


def check_request_config(backend: str, config: Mapping[str, Any], rules: Mapping[str, BackendRules], *,
                         admin: bool) -> None:  # fmt: skip
    """Refuse a request config holding anything its backend's rules do not allow.

    Raises:
        SubmissionRejected: the backend is not open to requests, needs an admin, or a key is not on its
            allow-list or has a value outside its rule (the message names the key).

    >>> check_request_config("random", {"seed": 3}, DEFAULT_RULES, admin=False)
    >>> check_request_config("video_reward", {"options": {"checkpoint": "/etc"}}, DEFAULT_RULES, admin=False)
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: request key `options.checkpoint` of video_reward: expected a Hub repo id like 'org/name' (never a URL or a local path), got '/etc'
    """
    if backend not in rules:
        raise SubmissionRejected(
            f"judge backend {backend!r} is not open to model requests on this leaderboard; "
            f"requestable backends: {sorted(rules)}"
        )
    backend_rules = rules[backend]
    if backend_rules.admin_only and not admin:
        raise SubmissionRejected(
            f"judge backend {backend!r} calls a remote API with this server's key, so only an admin can "
            "queue it; submit its predictions.jsonl instead, or ask an admin"
        )
    for key, value in config.items():
        if key == "options":
            _check_options(backend, value, backend_rules)
        else:
            _check_key(backend, key, value, backend_rules.config, "")


def _check_options(backend: str, options: Any, rules: BackendRules) -> None:
    if options is None:
        return
    if not isinstance(options, Mapping):
        raise SubmissionRejected(
            f"request key `options` of {backend} must be a mapping of option: value, got {_short(options)}"
        )
    for key, value in options.items():
        _check_key(backend, str(key), value, rules.options, "options.")


def _check_key(backend: str, key: str, value: Any, allowed: Mapping[str, Rule], prefix: str) -> None:
    if key not in allowed:
        raise SubmissionRejected(
            f"request key `{prefix}{key}` is not something a requester may set for {backend} (URLs, "
            f"secrets, environment variable names and local paths are never taken from a request); "
            f"allowed {'options' if prefix else 'keys'}: {sorted(allowed) or 'none'}"
        )
    problem = allowed[key].problem(value)
    if problem:
        raise SubmissionRejected(f"request key `{prefix}{key}` of {backend}: {problem}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text)} characters)"


def check_remote_code_list(allowed: Mapping[str, str]) -> None:
    """Refuse an operator's remote-code allow-list that does not pin each repo id to a full commit.

    >>> check_remote_code_list({"THUDM/VisionReward-Video": "main"})
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: remote_code: 'THUDM/VisionReward-Video' must be pinned to a 40-character commit (the code the operator read), got 'main'
    """

    for repo, commit in allowed.items():
        if not (isinstance(repo, str) and REPO_ID.match(repo) and ".." not in repo and "/" in repo):
            raise ConfigError(
                f"remote_code: expected Hub repo ids like 'org/name' as keys, got {_short(repo)}"
            )
        if not (isinstance(commit, str) and COMMIT.match(commit)):
            raise ConfigError(f"remote_code: {repo!r} must be pinned to a 40-character commit (the code the "
                              f"operator read), got {_short(commit)}")  # fmt: skip


def remote_code_revision(model: str, revision: str, trust: Any, allowed: Mapping[str, str]) -> str:
    """The revision a request runs at, after its ``trust_remote_code`` is checked against the operator's
    allow-list: without it, ``revision`` as asked; with it, the one commit the list pins ``model`` to.

    A repo's own code runs on the server with the server's credentials, so a request may ask for it only
    for a repo the operator allow-listed, and only at the allow-listed commit (a branch could move to code
    nobody read).

    >>> pinned = {"org/m": "ab" * 20}
    >>> remote_code_revision("org/m", "", True, pinned) == "ab" * 20, remote_code_revision("org/x", "v1", False, {})
    (True, 'v1')
    >>> remote_code_revision("org/x", "", True, pinned)
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: 'org/x' would run its own Python code on this server (trust_remote_code), and this leaderboard's operator has not allow-listed it; allow-listed repos: ['org/m'] (an operator adds one at a pinned commit: Settings.remote_code)
    """
    if not isinstance(trust, bool):
        raise SubmissionRejected(
            f"request key `trust_remote_code`: expected true or false, got {_short(trust)}"
        )
    if not trust:
        return revision
    pinned = allowed.get(model)
    if pinned is None:
        raise SubmissionRejected(
            f"{model!r} would run its own Python code on this server (trust_remote_code), and this leaderboard's "
            f"operator has not allow-listed it; allow-listed repos: {sorted(allowed) or 'none'} (an operator adds "
            "one at a pinned commit: Settings.remote_code)"
        )
    if revision not in ("", "main", "refs/heads/main", pinned):
        raise SubmissionRejected(
            f"{model!r} runs its own code here only at the commit the operator allow-listed, {pinned}; "
            f"got revision {revision!r}: leave the revision empty or give that commit"
        )
    return pinned
