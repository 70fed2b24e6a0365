"""Every Hub repo a judge config loads, and pinning each to a commit.

A config names its model (``model`` at ``revision``) and, for some backends, a second repo in its options: the
text LLM of EmoPrefer's S3/S4 strategies (``text_model``), VideoAlign's checkpoint (``checkpoint``), PickScore's
processor (``processor``). The rule that finds them is the options' own naming: an option ``<name>`` beside an
option ``<name>_revision`` names a repo and its revision (:func:`repo_options`). A branch or tag moves; a commit
does not, so a run (or a leaderboard request) that says what it loaded pins every one of them
(:func:`pin_config`): the model, then each second repo the options set, each to the commit its revision names
now. A local folder is no Hub repo (nothing to pin), nor is the model of an API judge (``api_model``: a name an
endpoint serves).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from mmjudge._hub import hub_commit
from mmjudge.errors import ConfigError
from mmjudge.judges._config import JudgeConfig, config_from_mapping
from mmjudge.judges._registry import get_judge

__all__ = ["COMMIT", "LoadedRepo", "Resolver", "hub_commit", "loaded_repos", "pin_config", "repo_options"]

COMMIT = re.compile(r"[0-9a-f]{40}")
"""A full git commit hash."""
REVISION_SUFFIX = "_revision"

Resolver = Callable[[str, str], str]
"""``(repo id, revision) -> the 40-hex commit the revision names now`` (raises when it cannot say)."""

class LoadedRepo(NamedTuple):
    """One Hub repo a config loads."""

    key: str
    """Where the config names it: ``model`` or ``options.<name>``."""
    repo: str
    """The repo id."""
    revision: str | None
    """The revision the config gives it (``None``: the default branch)."""
    revision_key: str
    """Where the config gives its revision: ``revision`` or ``options.<name>_revision``."""


def repo_options(options_type: type) -> tuple[tuple[str, str], ...]:
    """``(repo option, revision option)`` of a judge's ``Options``: each option ``X`` with a partner ``X_revision``.

    >>> from mmjudge.judges import get_judge
    >>> repo_options(get_judge("pairwise_describe").Options)
    (('text_model', 'text_model_revision'),)
    >>> repo_options(get_judge("random").Options)
    ()
    """
    if not dataclasses.is_dataclass(options_type):
        return ()
    names = {f.name for f in dataclasses.fields(options_type)}
    return tuple((n[: -len(REVISION_SUFFIX)], n) for n in sorted(names)
                 if n.endswith(REVISION_SUFFIX) and n[: -len(REVISION_SUFFIX)] in names)  # fmt: skip


def _is_hub_id(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and not os.path.isabs(value) and not os.path.exists(value)


def loaded_repos(config: JudgeConfig | Mapping[str, Any]) -> list[LoadedRepo]:
    """The Hub repos ``config`` loads: its model (unless the judge is an API judge, the model is a local folder,
    or there is none), then each second repo its options set.

    >>> loaded_repos({"judge": "audio_language", "model": "org/audio", "options": {"strategy": "S3",
    ...               "text_model": "org/text", "text_model_revision": "v1"}})  # doctest: +NORMALIZE_WHITESPACE
    [LoadedRepo(key='model', repo='org/audio', revision=None, revision_key='revision'),
     LoadedRepo(key='options.text_model', repo='org/text', revision='v1', revision_key='options.text_model_revision')]
    """
    if not isinstance(config, JudgeConfig):
        config = config_from_mapping(config, source="judge config")
    judge = get_judge(config.judge)
    found = []
    if _is_hub_id(config.model) and not getattr(judge, "api_model", False):
        found.append(LoadedRepo("model", str(config.model), config.revision, "revision"))
    for name, revision_name in repo_options(judge.Options):
        value = config.options.get(name)
        if _is_hub_id(value):
            found.append(LoadedRepo(f"options.{name}", str(value), config.options.get(revision_name),
                                    f"options.{revision_name}"))  # fmt: skip
    return found


def pin_config(config: Mapping[str, Any], resolve: Resolver, *, default_branch: str = "main") -> dict[str, Any]:
    """``config`` (a judge config mapping) with every repo of :func:`loaded_repos` at the commit ``resolve``
    says its revision names (``default_branch`` when it has none); a revision that is already a commit stays.

    Raises:
        ConfigError: ``resolve`` failed for a repo, or did not answer a commit (the message names the key).

    >>> pin_config({"judge": "clip_score", "model": "org/clip", "options": {"processor": "org/proc"}},
    ...            lambda repo, rev: {"org/clip": "a" * 40, "org/proc": "b" * 40}[repo])  # doctest: +NORMALIZE_WHITESPACE
    {'judge': 'clip_score', 'model': 'org/clip', 'options': {'processor': 'org/proc',
     'processor_revision': 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'}, 'revision': 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'}
    """
    pinned: dict[str, Any] = {**config, "options": dict(config.get("options") or {})}
    for repo in loaded_repos(config):
        if repo.revision is not None and COMMIT.fullmatch(repo.revision):
            continue
        asked = repo.revision or default_branch
        try:
            commit = resolve(repo.repo, asked)
        except Exception as exc:  # any failure to say which commit it is refuses the pin, naming the repo
            raise ConfigError(
                f"`{repo.key}`: could not pin {repo.repo}@{asked} to a commit ({type(exc).__name__}: "
                f"{' '.join(str(exc).split())[:160]}); check the repo and revision exist and can be read here"
            ) from None
        if not isinstance(commit, str) or not COMMIT.fullmatch(commit):
            raise ConfigError(f"`{repo.key}`: the Hub named no commit for {repo.repo}@{asked} (got {str(commit)[:60]!r})")
        if repo.revision_key == "revision":
            pinned["revision"] = commit
        else:
            pinned["options"][repo.revision_key.removeprefix("options.")] = commit
    if not pinned["options"] and "options" not in config:
        del pinned["options"]
    return pinned
