"""The leaderboard's settings: one config dataclass holding every policy value and its default, and one
table saying how each is set.

:class:`Settings` holds each value's default (:func:`default`). :data:`SETTINGS` declares, once per setting an
operator sets, its help text, its command-line flag of ``mmjudge leaderboard``, its Space environment variable,
whether it is a secret, and how it is written (:mod:`mmjudge.leaderboard.core.setting_kinds`): the command line
builds its flags from it (:func:`add_flags`, :func:`from_flags`), the Space reads the environment through it
(:func:`from_environment`), and the Space's :data:`~mmjudge.leaderboard.app.space.VARIABLES` and the secret names
(:data:`~mmjudge.leaderboard.core.redaction.SECRETS`) list it. This module imports nothing heavy: the command line
reads it while it builds its parser.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge._configs import config_dataclass
from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.leaderboard.core.ladder import LADDERS
from mmjudge.leaderboard.core.policy import DEFAULT_RULES, BackendRules, check_remote_code_list
from mmjudge.leaderboard.core.revisions import RevisionResolver
from mmjudge.leaderboard.core.setting_kinds import Folder, Kind, Names, Number, Pins, Switch, Text
from mmjudge.leaderboard.core.validation import DEFAULT_MAX_BYTES
from mmjudge.leaderboard.store import DEFAULT_MAX_ATTEMPTS

__all__ = ["SETTINGS", "STARTUP", "MiB", "Setting", "Settings", "add_flags", "board_settings", "default", "from_environment", "from_flags"]

MiB = 1024 * 1024
"""Bytes in a mebibyte (a file's size limit is written in MiB)."""


@config_dataclass
class Settings:
    """Leaderboard policy: the one place its defaults are written (:func:`default`; the CLI, the Space's
    variables and :func:`mmjudge.leaderboard.app.startup.open_leaderboard` read them from here)."""

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
    """What a model request may set, per backend (:mod:`mmjudge.leaderboard.core.policy`)."""
    server_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Backend options the server fixes for every request (e.g. ``openai_compatible``'s ``base_url``
    and ``api_key_env``); never taken from a request, never shown."""
    remote_code: Mapping[str, str] = field(default_factory=dict)
    """Model repos whose own Python code a model request may run (``trust_remote_code``), each at the one
    commit the operator read and allows: ``{"org/name": "<40-hex commit>"}``. Empty: no request may run
    a repo's code (:func:`mmjudge.leaderboard.core.policy.remote_code_revision`)."""
    resolve_revision: RevisionResolver | None = None
    """Model requests are queued at the commit this names for their revision (``None``: at the revision as
    named; :mod:`mmjudge.leaderboard.core.revisions`)."""
    private_labels: bool = False
    """The labels are private (a Hub dataset repo users cannot read): a submitted row's public feedback is
    its submitter's Ladder score only (:class:`~mmjudge.leaderboard.store.LadderRule`), and its results file
    and breakdowns are withheld."""
    ladder_margin: float = 1.0
    """Private-label mode: the Ladder's margin and rounding step, in the headline's units (points)."""
    ladder: str = "fixed"
    """Private-label mode: the Ladder's rule (:data:`~mmjudge.leaderboard.core.ladder.LADDERS`): ``fixed`` (the
    margin :attr:`ladder_margin`) or ``free`` (parameter-free: the standard error of the paired difference with
    the row that set the best shown score; :attr:`ladder_margin` where the two cannot be paired)."""
    label_names: Mapping[str, str] = field(default_factory=dict)
    """Per benchmark, the name of the labels' source a row's ``Scored on`` shows (a Space: the label repo
    ``org/name``); default ``<id> labels (local folder)``. The set itself is identified by the folder's
    content hash."""

    def __post_init__(self) -> None:

        if self.ladder not in LADDERS:
            raise ConfigError(f"ladder must be one of {', '.join(LADDERS)}, got {self.ladder!r}")
        if not self.ladder_margin > 0:
            raise ConfigError(f"ladder_margin must be a positive number of headline points, got {self.ladder_margin!r}")
        if self.daily_limit < 0:
            raise ConfigError(f"daily_limit must be 0 or more, got {self.daily_limit!r}")

        check_remote_code_list(self.remote_code)
        for name in ("max_bytes", "max_attempts"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be a positive integer, got {getattr(self, name)!r}")


STARTUP = ("db", "demo_output", "mirror_repo", "no_auth_on_space")
"""Settings of :data:`SETTINGS` that are not :class:`Settings` fields: where the command or the Space opens the
store (:func:`~mmjudge.leaderboard.app.startup.open_leaderboard`'s ``db``), the baselines it ingests, the Hub
repo it mirrors to (:func:`~mmjudge.leaderboard.app.startup.start_mirror`), and whether the no-login mode may
start on a Space (:func:`~mmjudge.leaderboard.app.auth.check_no_auth`)."""
_FIELD = object()


@dataclass(frozen=True)
class Setting:
    """One setting an operator sets: its name, how it is written, and where (flag, variable, or both)."""

    name: str
    """The :class:`Settings` field it sets, or a start-up option (:data:`STARTUP`)."""
    kind: Kind
    """How its value is written (:mod:`mmjudge.leaderboard.core.setting_kinds`)."""
    help: str
    """What it does, shown by ``--help`` and by the Space's variable list."""
    flag: str | None = None
    """Its flag of ``mmjudge leaderboard`` (``None``: the Space's only)."""
    variable: str | None = None
    """Its Space environment variable (``None``: the command line's only)."""
    secret: bool = False
    """It holds a credential: a Space secret, masked in every public log."""
    command_default: Any = _FIELD
    """The command line's default where it differs from the Space's (the field's default)."""

    @property
    def default(self) -> Any:
        """The value when it is not set: the :class:`Settings` field's default (for a start-up option ``None``, or
    off for a switch)."""
        found = {f.name: f for f in dataclasses.fields(Settings)}.get(self.name)
        if found is None:  # a start-up option: a switch not given is off, anything else absent
            return self.kind.from_flag(False, self.flag or self.name) if isinstance(self.kind, Switch) else None
        if found.default_factory is not dataclasses.MISSING:
            return found.default_factory()
        return found.default

    @property
    def dest(self) -> str:
        """The attribute ``argparse`` stores the flag's value in (``--no-auth`` -> ``no_auth``)."""
        return (self.flag or "").lstrip("-").replace("-", "_")


def add_flags(parser: argparse.ArgumentParser, names: Collection[str] | None = None, *, absent: Any = _FIELD) -> None:
    """Add the flag of each setting of :data:`SETTINGS` that has one (only ``names`` when given) to ``parser``;
    ``absent`` replaces the defaults (``argparse.SUPPRESS`` on a subcommand sharing its parent's flags)."""
    for setting in SETTINGS:
        if setting.flag is None or (names is not None and setting.name not in names):
            continue
        given = setting.default if setting.command_default is _FIELD else setting.command_default
        keywords = setting.kind.flag(given)
        if absent is not _FIELD:
            keywords["default"] = absent
        parser.add_argument(setting.flag, help=setting.help, **keywords)


def from_flags(args: argparse.Namespace, names: Collection[str] | None = None) -> dict[str, Any]:
    """``{name: value}`` of every setting with a flag (only ``names`` when given), from the parsed command line."""
    return {s.name: s.kind.from_flag(getattr(args, s.dest), s.flag) for s in SETTINGS
            if s.flag is not None and (names is None or s.name in names)}  # fmt: skip


def from_environment(environ: Mapping[str, str], problems: list[str]) -> dict[str, Any]:
    """``{name: value}`` of every setting with a variable: read from ``environ`` (values stripped; an empty
    one is not set), else its default; each problem is appended to ``problems`` as one line.

    >>> problems = []; values = from_environment({"MMJUDGE_ADMINS": "root", "MMJUDGE_MAX_MB": "0"}, problems)
    >>> values["admins"], values["daily_limit"], problems
    (('root',), 5, ["MMJUDGE_MAX_MB='0': expected a positive number"])
    """
    values = {}
    for setting, variable in ((s, s.variable) for s in SETTINGS if s.variable is not None):
        text = environ.get(variable, "").strip()
        try:
            values[setting.name] = setting.kind.from_text(text, variable) if text else setting.default
        except ConfigError as exc:
            problems.append(str(exc))
    return values


def board_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`Settings` among ``values`` (:func:`from_flags`, :func:`from_environment`): the start-up
    options (:data:`STARTUP`) left out.

    >>> board_settings({"db": "lb.sqlite", "daily_limit": 3})
    {'daily_limit': 3}
    """
    return {name: value for name, value in values.items() if name not in STARTUP}


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

    found = {b: getattr(get_benchmark(b).present.leaderboard, attribute) for b in benchmark_ids()}
    return {b: dict(v) for b, v in found.items() if v}


SETTINGS: tuple[Setting, ...] = (
    Setting("db", Text(), flag="--db", variable="MMJUDGE_DB", secret=True,
            help="the store: an SQLite file, or a postgresql:// URL shared with the workers (a secret: it holds the "
            "password; the command reads $MMJUDGE_DB when --db is not given); default /data/leaderboard.sqlite on a "
            "Space with persistent storage, else <user data dir>/mmjudge/leaderboard.sqlite"),
    Setting("data_root", Folder(), flag="--data-root", variable="MMJUDGE_DATA_ROOT",
            help="folder of built benchmark folders <id>/ holding the labels, used instead of the Hub label repos "
            "(the command's default: <demo output>/sample-data if present; a Space's: the MMJUDGE_LABELS_<ID> repos)"),
    Setting("demo_output", Text(), flag="--demo-output", variable="MMJUDGE_DEMO_OUTPUT", command_default="demo-output",
            help="`mmjudge demo` output to ingest as baselines, <dir>/<benchmark>/<judge>/predictions.jsonl "
            "(weight-free judges: shown, never ranked; the command's default: demo-output, a Space's: none)"),
    Setting("mirror_repo", Text(), flag="--mirror-repo", variable="MMJUDGE_MIRROR_REPO",
            help="mirror the public tables to this Hub dataset repo (needs HF_TOKEN with write access; default: off)"),
    Setting("require_login", Switch(means=False), flag="--no-auth", variable="MMJUDGE_NO_AUTH",
            help="local no-login mode, the submitter is 'local' (variable: 1; refused on a Space unless "
            "--no-auth-on-space; without it, off a Space, OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET of an OAuth app must "
            "be set: README, Deploy)"),
    Setting("no_auth_on_space", Switch(), flag="--no-auth-on-space", variable="MMJUDGE_NO_AUTH_ON_SPACE",
            help="allow the no-login mode on a Hugging Face Space (variable: 1): anyone who reaches the Space submits "
            "as 'local' and every admin action is open; only for a private Space of your own (default: refused)"),
    Setting("admins", Names(), flag="--admin", variable="MMJUDGE_ADMINS",
            help="username allowed to hide rows (the flag repeatable, the variable comma-separated)"),
    Setting("daily_limit", Number(int, at_least=0), flag="--daily-limit", variable="MMJUDGE_DAILY_LIMIT",
            help="uploads + model requests per user per 24 h (a request counts once, whatever its benchmarks; "
            f"worker rows do not count; 0: none, a board that only shows; default {default('daily_limit')})"),
    Setting("max_bytes", Number(int, written=float, unit=MiB), flag="--max-mb", variable="MMJUDGE_MAX_MB",
            help=f"size limit of a prediction file in MiB (default {default('max_bytes') / MiB:g})"),
    Setting("private_labels", Switch(), flag="--private-labels", variable="MMJUDGE_PRIVATE_LABELS",
            help="the labels are private (variable: 1; a Space checks its label repos are): a submitted row, and "
            "each row of a non-admin's model request, shows only its Ladder score, its breakdowns and results file "
            "are withheld; weight-free judges are requestable by admins only"),
    Setting("ladder_margin", Number(float), flag="--ladder-margin", variable="MMJUDGE_LADDER_MARGIN",
            help="private labels: the Ladder's margin and rounding step, in headline points "
            f"(default {default('ladder_margin'):g})"),
    Setting("ladder", Text(), flag="--ladder", variable="MMJUDGE_LADDER",
            help="private labels: the Ladder's rule, 'fixed' (the margin above) or 'free' (parameter-free, Blum & "
            "Hardt's Section 4: a new score is shown when it beats the best shown by one standard error of the two "
            f"rows' paired difference; the margin where they cannot be paired; default {default('ladder')})"),
    Setting("remote_code", Pins(), flag="--remote-code", variable="MMJUDGE_REMOTE_CODE",
            help="model repo whose own Python code a model request may run (trust_remote_code), pinned: "
            "org/name@<40-hex commit> (the flag repeatable, the variable comma-separated; default: none)"),
)
"""Every setting an operator sets, declared once: the command line's flags and the Space's variables come from
here. Not here: the Space's label sources (``MMJUDGE_BENCHMARKS``, ``MMJUDGE_LABELS_<ID>``,
``MMJUDGE_LABELS_DIR``: a Space downloads its labels, the command reads a folder), the login's variables
(:data:`mmjudge.leaderboard.core.login_settings.VARIABLES`: read by the login guard, and on a Space by gradio itself), the
command's ``--port``/``--host`` (the Space's server picks them) and the worker's own flags."""
