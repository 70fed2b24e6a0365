"""Model requests: validated, queued ``PENDING``, claimed atomically with a lease, finished or failed.

A request carries only what its backend's rules allow (:mod:`mmjudge.leaderboard.core.policy`), checked
when it is queued. A worker claims the oldest request that is ``PENDING`` or ``RUNNING`` with an
expired lease, in one transaction that locks the request (SQLite's write lock; on PostgreSQL
``SELECT ... FOR UPDATE SKIP LOCKED``, so concurrent claims pass over each other's rows instead of
waiting), so two workers never hold the same request and a crashed worker's request returns to the
queue once its lease runs out. Each claim is one attempt;
a request whose attempts reach the cap (default 3) ends ``FAILED`` with its last log instead of being
claimed again. The worker's :class:`~mmjudge.leaderboard.store.Lease` (worker and attempt) fences
every renewal, store and finish: a worker whose lease ran out and was re-claimed can change nothing.
A request is a duplicate of a queued, running or finished one with the same model, revision, backend,
config and benchmarks; a FAILED request may be asked for again. This module holds those rules; the rows
and their SQL are the store's (:mod:`mmjudge.leaderboard.store`), whose request functions it re-exports.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mmjudge._checks import ref_name_problem
from mmjudge._text import text_key
from mmjudge.benchmarks import benchmark_ids
from mmjudge.errors import ConfigError
from mmjudge.judges import JUDGES, config_from_mapping, get_judge, make_judge, validate_options
from mmjudge.leaderboard.core.fit import check_request_fit
from mmjudge.leaderboard.core.policy import (
    DEFAULT_RULES,
    ENDPOINT_MODEL,
    ENDPOINT_NAME,
    HUB_MODEL,
    NO_MODEL,
    REPO_ID,
    REVISION,
    BackendRules,
    check_request_config,
    remote_code_revision,
)
from mmjudge.leaderboard.store import (
    DEFAULT_MAX_ATTEMPTS,
    ModelRequest,
    RequestSpec,
    Store,
    SubmissionRejected,
    claim,
    finish,
    get_request,
    insert_request,
    list_requests,
    renew,
)

__all__ = [
    "DEFAULT_BRANCH",
    "DEFAULT_MAX_ATTEMPTS",
    "ModelRequest",
    "RequestSpec",
    "canonical_config",
    "canonical_revision",
    "claim",
    "enqueue",
    "finish",
    "get_request",
    "list_requests",
    "renew",
    "validate_request",
]

MAX_CONFIG_CHARS = 4096
"""Longest config text accepted from a request."""


def validate_request(model: str, revision: str, backend: str, config: Mapping[str, Any] | str | None,
                     benchmarks: Iterable[str], *, known_backends: Iterable[str] | None = None,
                     allow_local_paths: bool = False, admin: bool = False,
                     rules: Mapping[str, BackendRules] | None = None,
                     private_labels: bool = False, remote_code: Mapping[str, str] | None = None) -> RequestSpec:  # fmt: skip
    """Check a model request: backend known, model and revision as the backend's model source reads them
    (:attr:`~mmjudge.leaderboard.core.policy.BackendRules.model_source`: a Hub repo id at a git ref name, no model
    for a weight-free backend, a served model name for an API backend), config on the backend's allow-list,
    benchmarks the backend can judge, frame options only for benchmarks with video (:mod:`mmjudge.leaderboard.core.fit`).

    ``config`` is a mapping or YAML/JSON text of :class:`mmjudge.judges.JudgeConfig` keys; only the keys
    and options :data:`mmjudge.leaderboard.core.policy.DEFAULT_RULES` (or ``rules``) allow for the backend are
    accepted (``judge``, ``model`` and ``revision`` come from the other arguments). ``allow_local_paths``
    (a local leaderboard's admin) lets ``model`` be an existing absolute folder. ``private_labels``: a
    weight-free backend is an admin's only (its answers depend on nothing but its seed and the item ids, so a
    requester who chooses the seed can solve the labels from the scores). ``trust_remote_code: true`` is
    accepted only for a repo of the operator's ``remote_code`` allow-list, which pins the revision
    (:func:`~mmjudge.leaderboard.core.policy.remote_code_revision`).

    >>> validate_request("not a repo", "", "video_reward", None, [], known_backends=["video_reward"])
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: model must be a Hub repo id like 'org/name', got 'not a repo'
    >>> validate_request("KwaiVGI/VideoReward", "", "random", None, ["mist"], known_backends=["random"])
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: random is a weight-free judge: it loads no model, so a request for it names none; leave the model empty, got 'KwaiVGI/VideoReward'
    """

    model, revision, backend = str(model).strip(), str(revision or "").strip(), str(backend).strip()
    known = sorted(known_backends) if known_backends is not None else _registered_judges()
    if backend not in known:
        raise SubmissionRejected(f"unknown judge backend {backend!r}; known: {known}")
    rules = DEFAULT_RULES if rules is None else rules
    source = rules[backend].model_source if backend in rules else HUB_MODEL
    model, revision = _model_and_revision(model, revision, backend, source, allow_local_paths)
    chosen = {str(b).strip() for b in benchmarks if str(b).strip()}
    known_benchmarks = benchmark_ids()
    if not chosen or not chosen <= set(known_benchmarks):
        raise SubmissionRejected(
            f"benchmarks must be a non-empty subset of {list(known_benchmarks)}, got {sorted(chosen)}"
        )
    mapping = dict(_config_mapping(config))
    trust = mapping.pop("trust_remote_code", False)
    revision = remote_code_revision(model, revision, trust, remote_code or {})
    check_request_config(backend, mapping, rules, admin=admin)
    if private_labels and source == NO_MODEL and not admin:
        raise SubmissionRejected(
            f"{backend} is a weight-free judge and this leaderboard's labels are private: its answers depend only "
            "on its settings and the item ids, so its scores would tell the labels; only an admin can queue it"
        )
    ordered = tuple(b for b in known_benchmarks if b in chosen)
    check_request_fit(backend, ordered, mapping, requestable=rules)
    mapping.update(judge=backend, model=model if source != NO_MODEL else None, revision=revision or None)
    if trust:
        mapping["trust_remote_code"] = True
    try:
        judge_config = config_from_mapping(mapping, source="request config")
        if backend in _registered_judges():  # its options validate, and each benchmark fits this config
            judge = make_judge(judge_config)
            for benchmark in ordered:
                judge.check_benchmark(benchmark)
    except ConfigError as exc:
        raise SubmissionRejected(str(exc)) from exc
    return RequestSpec(model, revision, backend, mapping, ordered)


def _model_and_revision(model: str, revision: str, backend: str, source: str,
                        allow_local_paths: bool) -> tuple[str, str]:  # fmt: skip
    """The request's model and revision as its backend's model source reads them (see :func:`validate_request`);
    a weight-free backend's model is its own name, and it and an API backend take no revision (the
    default branch's name, which the request form fills in, is read as none)."""
    if source == NO_MODEL:
        if model not in ("", backend):
            raise SubmissionRejected(f"{backend} is a weight-free judge: it loads no model, so a request for it "
                                     f"names none; leave the model empty, got {model!r}")  # fmt: skip
        model = backend
    elif source == ENDPOINT_MODEL:
        if not ENDPOINT_NAME.match(model) or ".." in model or "//" in model:
            raise SubmissionRejected(
                f"model must be the name the API endpoint serves (e.g. 'gpt-4o'), got {model!r}"
            )
    else:
        is_local = allow_local_paths and Path(model).is_absolute() and Path(model).is_dir()
        if not is_local and not (REPO_ID.match(model) and ".." not in model):
            raise SubmissionRejected(f"model must be a Hub repo id like 'org/name', got {model!r}")
    if source != HUB_MODEL:
        if revision not in ("", DEFAULT_BRANCH):
            raise SubmissionRejected(
                f"{backend} takes no revision ({'no model' if source == NO_MODEL else 'an API model'}: the request "
                f"is pinned by the date it is made); leave the revision empty, got {revision!r}"
            )
        return model, ""
    if revision and (not REVISION.match(revision) or ref_name_problem(revision)):
        why = ref_name_problem(revision) or "letters, digits and . _ - / only"
        raise SubmissionRejected(
            f"revision must be a commit, branch or tag name ({why}), got {revision[:80]!r}"
        )
    return model, revision


def _registered_judges() -> list[str]:

    return sorted(JUDGES.names())


def _config_mapping(config: Mapping[str, Any] | str | None) -> Mapping[str, Any]:
    if config is None or (isinstance(config, str) and not config.strip()):
        return {}
    if isinstance(config, str):
        config = _parse_yaml(config)
    if not isinstance(config, Mapping):
        raise SubmissionRejected(
            f"config must be a mapping of judge config keys, got {type(config).__name__}"
        )
    return config


def _parse_yaml(text: str) -> Any:
    import yaml

    if len(text) > MAX_CONFIG_CHARS:
        raise SubmissionRejected(
            f"config must be at most {MAX_CONFIG_CHARS} characters of YAML key: value pairs, got {len(text)}"
        )
    try:
        if any(isinstance(event, yaml.AliasEvent) for event in yaml.parse(text, Loader=yaml.SafeLoader)):
            raise SubmissionRejected(
                "config must be plain YAML key: value pairs; anchors and aliases (*name) are refused"
            )
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SubmissionRejected(f"config must be YAML or JSON key: value pairs ({exc})") from exc
    except RecursionError:
        raise SubmissionRejected(
            "config must be flat YAML key: value pairs; it is nested too deeply"
        ) from None


def enqueue(store: Store, spec: RequestSpec, submitter: str, *, daily_limit: int | None = None,
            now: float | None = None) -> int:  # fmt: skip
    """Queue a validated request as ``PENDING`` and return its id.

    Raises:
        SubmissionRejected: a PENDING, RUNNING or FINISHED request is the same run (the same model and
            revision, compared by :func:`_request_key`, backend, config and benchmarks; the message names
            it); or the submitter reached ``daily_limit``.
    """
    key = _request_key(spec.model, spec.revision, spec.config)

    def same(model: str, revision: str, config: Mapping[str, Any]) -> bool:
        return _request_key(model, revision, config) == key

    return insert_request(store, spec, submitter, same=same, daily_limit=daily_limit, now=now)


def _request_key(model: str, revision: str, config: Mapping[str, Any]) -> tuple[str, str, str]:
    """What two requests are compared by: the model by :func:`mmjudge._text.text_key`, the revision as
    :func:`canonical_revision` reads it, and the config as :func:`canonical_config` reduces it (so a
    request that only spells its defaults, an empty ``options`` or another display name is the same run)."""
    return (
        text_key(model),
        text_key(canonical_revision(revision)),
        json.dumps(canonical_config(config), sort_keys=True),
    )


DEFAULT_BRANCH = "main"
"""The revision a Hub repo is read at when none is named."""


def canonical_revision(revision: str | None) -> str:
    """The revision two requests are compared by: none means the default branch, and a branch's full
    ref name is the branch (``refs/heads/main`` is ``main``). A commit stays a commit: the worker loads
    exactly what is named.

    >>> canonical_revision(""), canonical_revision(None), canonical_revision("refs/heads/main"), canonical_revision("v1.0")
    ('main', 'main', 'main', 'v1.0')
    """
    text = str(revision or "").strip()
    if text.startswith("refs/heads/"):
        text = text[len("refs/heads/") :]
    return text or DEFAULT_BRANCH


def canonical_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """A request's config reduced to what changes the run: the keys of :class:`mmjudge.judges.JudgeConfig`
    and of the backend's options that differ from their defaults (validated through the same types), with
    the display name, the model and the revision left out (the model and revision are compared on their
    own) and an empty ``options`` dropped.

    >>> canonical_config({"judge": "random", "seed": 0, "batch_size": 1, "name": "mine", "options": {}})
    {'judge': 'random'}
    >>> canonical_config({"judge": "random", "seed": 2})
    {'judge': 'random', 'seed': 2}
    """
    import dataclasses

    chosen = config_from_mapping(config, source="request config")
    defaults = type(chosen)(judge=chosen.judge)
    out: dict[str, Any] = {"judge": chosen.judge}
    for f in dataclasses.fields(chosen):
        if f.name in ("judge", "name", "model", "revision", "options"):
            continue
        value = getattr(chosen, f.name)
        if value != getattr(defaults, f.name):
            out[f.name] = value
    options_type = get_judge(chosen.judge).Options
    options = validate_options(options_type, chosen.options, source=f"{chosen.judge} options")
    fallback = validate_options(options_type, {}, source=f"{chosen.judge} options")
    changed = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)
               if getattr(options, f.name) != getattr(fallback, f.name)}  # fmt: skip
    if changed:
        out["options"] = changed
    return out
