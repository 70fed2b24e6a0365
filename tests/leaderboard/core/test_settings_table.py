"""Each leaderboard setting is declared once (:data:`mmjudge.leaderboard.core.settings.SETTINGS`): the command line's
flags and the Space's variables come from that one table, so a new entry appears in both without further edits."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from mmjudge.cli import build_parser
from mmjudge.errors import ConfigError
from mmjudge.leaderboard.app.space import VARIABLES, SpaceConfig
from mmjudge.leaderboard.core import settings as settings_module
from mmjudge.leaderboard.core.redaction import SECRETS
from mmjudge.leaderboard.core.setting_kinds import Number
from mmjudge.leaderboard.core.settings import SETTINGS, STARTUP, Setting, Settings, from_flags

COMMIT = "b" * 40


def _serve_parser() -> argparse.ArgumentParser:
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices["leaderboard"]
    raise AssertionError("no leaderboard subcommand")


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def test_each_setting_is_declared_once_and_names_a_settings_field_or_a_startup_option() -> None:
    names = [s.name for s in SETTINGS]
    flags = [s.flag for s in SETTINGS if s.flag]
    variables = [s.variable for s in SETTINGS if s.variable]
    assert len(names) == len(set(names)) and len(flags) == len(set(flags)) and len(variables) == len(set(variables))
    fields = {f.name for f in dataclasses.fields(Settings)}
    assert set(names) <= fields | set(STARTUP) and set(STARTUP) <= set(names)
    assert all(s.help.strip() and (s.flag or s.variable) for s in SETTINGS)


def test_the_cli_flags_space_variables_and_secrets_are_the_tables() -> None:
    parser = _serve_parser()
    assert {s.flag for s in SETTINGS if s.flag} <= _flags(parser)
    assert {s.variable for s in SETTINGS if s.variable} <= set(VARIABLES)
    assert {s.variable for s in SETTINGS if s.secret} <= set(SECRETS) and "MMJUDGE_DB" in SECRETS
    for setting in SETTINGS:
        if setting.variable:
            assert VARIABLES[setting.variable] == setting.help
        if setting.flag:
            assert next(a for a in parser._actions if setting.flag in a.option_strings).help == setting.help


def test_the_command_and_the_space_read_the_same_values() -> None:
    argv = ["leaderboard", "--no-auth", "--admin", "root", "--admin", "ann", "--daily-limit", "7", "--max-mb", "2",
            "--private-labels", "--ladder-margin", "0.5", "--ladder", "free", "--remote-code", f"org/m@{COMMIT}", "--data-root", "/x"]  # fmt: skip
    from_cli = from_flags(build_parser().parse_args(argv))
    env = {"MMJUDGE_NO_AUTH": "1", "MMJUDGE_ADMINS": "root, ann", "MMJUDGE_DAILY_LIMIT": "7", "MMJUDGE_MAX_MB": "2",
           "MMJUDGE_PRIVATE_LABELS": "1", "MMJUDGE_LADDER_MARGIN": "0.5", "MMJUDGE_LADDER": "free",
           "MMJUDGE_REMOTE_CODE": f"org/m@{COMMIT}",
           "MMJUDGE_DATA_ROOT": "/x"}  # fmt: skip
    from_space = dict(SpaceConfig.from_env(env, persistent=Path("/nonexistent")).settings)
    shared = set(from_cli) - {"demo_output", "data_root"}  # the command's own default; a string it checks itself
    assert {k: from_cli[k] for k in shared} == {k: from_space[k] for k in shared}
    assert from_cli["max_bytes"] == 2 * 1024 * 1024 and from_cli["require_login"] is False
    assert (from_cli["demo_output"], from_space["demo_output"]) == ("demo-output", None)
    defaults = from_flags(build_parser().parse_args(["leaderboard"]))
    assert {k: v for k, v in defaults.items() if k not in STARTUP} == {
        "data_root": None, "require_login": True, "admins": (), "daily_limit": Settings.daily_limit,
        "max_bytes": Settings.max_bytes, "private_labels": False, "ladder_margin": Settings.ladder_margin,
        "ladder": "fixed", "remote_code": {},
    }  # fmt: skip
    with pytest.raises(ConfigError, match="--remote-code entry 'org/m@main'"):
        from_flags(build_parser().parse_args(["leaderboard", "--remote-code", "org/m@main"]))


def test_a_new_entry_becomes_a_flag_and_a_variable_without_further_edits(monkeypatch) -> None:
    added = Setting("max_attempts", Number(int), flag="--max-claims", variable="MMJUDGE_MAX_CLAIMS", help="claims")
    monkeypatch.setattr(settings_module, "SETTINGS", (*SETTINGS, added))
    assert from_flags(build_parser().parse_args(["leaderboard", "--max-claims", "4"]))["max_attempts"] == 4
    assert from_flags(build_parser().parse_args(["leaderboard"]))["max_attempts"] == Settings.max_attempts
    env = {"MMJUDGE_DATA_ROOT": "/x", "MMJUDGE_MAX_CLAIMS": "4"}
    assert SpaceConfig.from_env(env, persistent=Path("/nonexistent")).settings["max_attempts"] == 4
    with pytest.raises(ConfigError, match="MMJUDGE_MAX_CLAIMS='none': expected a positive whole number"):
        SpaceConfig.from_env({**env, "MMJUDGE_MAX_CLAIMS": "none"}, persistent=Path("/nonexistent"))


def test_space_settings_open_the_board_they_describe(tmp_path, monkeypatch) -> None:
    seen = {}

    def open_leaderboard(db, **keywords):
        seen.update(db=db, **keywords)
        raise _Stop

    from mmjudge.leaderboard.app import space
    from mmjudge.leaderboard.app.space import open_space

    monkeypatch.setattr(space, "open_leaderboard", open_leaderboard)  # where the Space start-up looks it up

    root = tmp_path / "labels"
    root.mkdir()
    env = {"MMJUDGE_DATA_ROOT": str(root), "MMJUDGE_ADMINS": "root", "MMJUDGE_REMOTE_CODE": f"org/m@{COMMIT}",
           "MMJUDGE_MAX_MB": "1", "MMJUDGE_NO_AUTH": "1", "MMJUDGE_DB": str(tmp_path / "s.sqlite")}  # fmt: skip
    with pytest.raises(_Stop):
        open_space(env, persistent=tmp_path / "none")
    assert seen["db"] == str(tmp_path / "s.sqlite") and seen["data_root"] == root
    assert (seen["admins"], seen["remote_code"], seen["max_bytes"]) == (("root",), {"org/m": COMMIT}, 1024 * 1024)
    assert seen["require_login"] is False and "mirror_repo" not in seen and seen["demo_output"] is None


class _Stop(Exception):
    """Raised in place of opening a store: the test needs only the arguments."""


def test_a_daily_limit_of_zero_is_one_setting_by_flag_and_by_variable(board_factory, reference) -> None:
    """``--daily-limit 0`` and ``MMJUDGE_DAILY_LIMIT=0`` mean the same: a board that takes no uploads or
    requests (the variable used to refuse 0 while the flag took it); a fraction or a negative is refused by both."""
    import json

    from mmjudge.leaderboard import SubmissionMeta, SubmissionRejected

    flag = from_flags(build_parser().parse_args(["leaderboard", "--daily-limit", "0"]))["daily_limit"]
    env = {"MMJUDGE_DATA_ROOT": "/x", "MMJUDGE_DAILY_LIMIT": "0"}
    variable = SpaceConfig.from_env(env, persistent=Path("/nonexistent")).settings["daily_limit"]
    assert flag == variable == 0
    for text in ("-1", "2.5", "inf", "nan"):
        with pytest.raises(ConfigError, match=f"MMJUDGE_DAILY_LIMIT='{text}': expected a whole number of 0 or more"):
            SpaceConfig.from_env({**env, "MMJUDGE_DAILY_LIMIT": text}, persistent=Path("/nonexistent"))
    with pytest.raises(ValueError, match="daily_limit must be 0 or more"):
        Settings(daily_limit=-1)  # the flag's value is checked here
    board = board_factory(daily_limit=0)
    header = {"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j"}
    lines = [json.dumps(header), *(json.dumps({"id": r["id"], "prediction": r["answer"]}) for r in reference["emorealm"])]
    with pytest.raises(SubmissionRejected, match="takes no uploads or model requests"):
        board.submit(("\n".join(lines) + "\n").encode(), SubmissionMeta("j", "m", "r", weights="open"), "u")
    assert board.store.submissions("emorealm") == []
