"""The leaderboard's settings: one config dataclass holding every policy value and its default.

The command line (``mmjudge leaderboard``), the Space's variables (:class:`~mmjudge.leaderboard.space.SpaceConfig`)
and :func:`~mmjudge.leaderboard.startup.open_leaderboard` take their defaults from :class:`Settings`
(:func:`default`), so each default is written once. This module imports nothing heavy: the command line
reads it while it builds its parser.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from mmjudge._configs import config_dataclass
from mmjudge.errors import ConfigError
from mmjudge.leaderboard.policy import DEFAULT_RULES, BackendRules
from mmjudge.leaderboard.revisions import RevisionResolver
from mmjudge.leaderboard.store import DEFAULT_MAX_ATTEMPTS
from mmjudge.leaderboard.validation import DEFAULT_MAX_BYTES

__all__ = ["Settings", "default"]


@config_dataclass
class Settings:
    """Leaderboard policy: the one place its defaults are written (:func:`default`; the CLI, the Space's
    variables and :func:`mmjudge.leaderboard.startup.open_leaderboard` read them from here)."""

    data_root: Path | None = None
    """Folder with built benchmark folders ``<data_root>/<id>/`` (the labels the server holds)."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Size limit of a submitted file."""
    daily_limit: int = 5
    """Uploads plus model requests per user per 24 hours (:func:`quota_text` says how they count)."""
    admins: frozenset[str] = field(default_factory=frozenset)
    """Usernames allowed to hide submissions."""
    require_login: bool = True
    """Refuse handlers called without a logged-in profile (Space mode); ``False`` is the local no-auth mode."""
    score_options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _per_benchmark("options"))
    """Per-benchmark keyword options of the ranked scoring (default: each benchmark's
    ``leaderboard.options``, e.g. strict mode where a missing answer would otherwise be skipped, so that
    marking answers ``no_judgment`` cannot raise a score)."""
    side_scores: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(
        default_factory=lambda: _per_benchmark("side_scorings")
    )
    """Per benchmark, further scorings of the same file stored beside the ranked one (label -> scorer
    options; default: each benchmark's ``leaderboard.side_scorings``, e.g. an official mode as the
    paper reports it)."""
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    """Claims of a model request before it ends FAILED (a request that kills its worker each time)."""
    request_rules: Mapping[str, BackendRules] = field(default_factory=lambda: dict(DEFAULT_RULES))
    """What a model request may set, per backend (:mod:`mmjudge.leaderboard.policy`)."""
    server_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Backend options the server fixes for every request (e.g. ``openai_compatible``'s ``base_url``
    and ``api_key_env``); never taken from a request, never shown."""
    remote_code: Mapping[str, str] = field(default_factory=dict)
    """Model repos whose own Python code a model request may run (``trust_remote_code``), each at the one
    commit the operator read and allows: ``{"org/name": "<40-hex commit>"}``. Empty: no request may run
    a repo's code (:func:`mmjudge.leaderboard.policy.remote_code_revision`)."""
    resolve_revision: RevisionResolver | None = None
    """Model requests are queued at the commit this names for their revision (``None``: at the revision as
    named; :mod:`mmjudge.leaderboard.revisions`)."""
    private_labels: bool = False
    """The labels are private (a Hub dataset repo users cannot read): a submitted row's public feedback is
    its submitter's Ladder score only (:class:`~mmjudge.leaderboard.store.LadderRule`), and its results file
    and breakdowns are withheld."""
    ladder_margin: float = 1.0
    """Private-label mode: the Ladder's margin and rounding step, in the headline's units (points)."""
    label_names: Mapping[str, str] = field(default_factory=dict)
    """Per benchmark, the name of the labels' source a row's ``Scored on`` shows (a Space: the label repo
    ``org/name``); default ``<id> labels (local folder)``. The set itself is identified by the folder's
    content hash."""

    def __post_init__(self) -> None:
        if not self.ladder_margin > 0:
            raise ConfigError(f"ladder_margin must be a positive number of headline points, got {self.ladder_margin!r}")
        if self.daily_limit < 0:
            raise ConfigError(f"daily_limit must be 0 or more, got {self.daily_limit!r}")
        from mmjudge.leaderboard.policy import check_remote_code_list

        check_remote_code_list(self.remote_code)
        for name in ("max_bytes", "max_attempts"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be a positive integer, got {getattr(self, name)!r}")


def default(name: str) -> Any:
    """The default of setting ``name`` (a field of :class:`Settings` with a plain default).

    >>> default("daily_limit"), default("ladder_margin")
    (5, 1.0)
    """
    field_ = next((f for f in dataclasses.fields(Settings) if f.name == name), None)
    if field_ is None or field_.default is dataclasses.MISSING:
        raise KeyError(f"Settings has no setting {name!r} with a plain default")
    return field_.default


def _per_benchmark(attribute: str) -> dict[str, Any]:
    """``{id: benchmark.present.leaderboard.<attribute>}`` for every registered benchmark that sets one."""
    from mmjudge.benchmarks import benchmark_ids, get_benchmark

    found = {b: getattr(get_benchmark(b).present.leaderboard, attribute) for b in benchmark_ids()}
    return {b: dict(v) for b, v in found.items() if v}
