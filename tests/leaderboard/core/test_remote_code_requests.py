"""Model requests that ask to run a repo's own code (``trust_remote_code``): refused unless the operator
allow-lists the repo at a pinned commit, and then run at that commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmjudge._configs import validated
from mmjudge.errors import ConfigError
from mmjudge.leaderboard import SubmissionRejected
from mmjudge.leaderboard.app.space import SpaceConfig
from mmjudge.leaderboard.core import queue as q
from mmjudge.leaderboard.core.policy import DEFAULT_RULES
from mmjudge.leaderboard.core.settings import Settings

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _request(config: str, *, revision: str = "", remote_code: dict | None = None, model: str = "org/remote"):
    return q.validate_request(model, revision, "clip_score", config, ["isovrbench"], known_backends=["clip_score"],
                              rules=DEFAULT_RULES, remote_code=remote_code)  # fmt: skip


def test_a_public_request_may_not_run_remote_code_unless_allow_listed() -> None:
    with pytest.raises(SubmissionRejected, match="has not allow-listed it; allow-listed repos: none"):
        _request("trust_remote_code: true")
    with pytest.raises(SubmissionRejected, match="has not allow-listed it"):
        _request("trust_remote_code: true", remote_code={"org/other": COMMIT})
    with pytest.raises(SubmissionRejected, match=f"only at the commit the operator allow-listed, {COMMIT}"):
        _request("trust_remote_code: true", revision="dev", remote_code={"org/remote": COMMIT})
    with pytest.raises(SubmissionRejected, match="expected true or false"):
        _request("trust_remote_code: 1", remote_code={"org/remote": COMMIT})
    spec = _request("trust_remote_code: true", remote_code={"org/remote": COMMIT})
    assert spec.revision == spec.config["revision"] == COMMIT and spec.config["trust_remote_code"] is True
    plain = _request("batch_size: 2", revision="v1", remote_code={"org/remote": COMMIT})
    assert plain.revision == "v1" and "trust_remote_code" not in plain.config
    assert "trust_remote_code" not in _request("trust_remote_code: false").config


def test_the_operators_allow_list_pins_commits() -> None:
    assert Settings(remote_code={"org/remote": COMMIT}).remote_code == {"org/remote": COMMIT}
    with pytest.raises(ConfigError, match="40-character commit"):
        validated(Settings, {"remote_code": {"org/remote": "main"}}, "settings")
    env = {"MMJUDGE_DATA_ROOT": "/tmp", "MMJUDGE_REMOTE_CODE": f"org/remote@{COMMIT}"}
    assert SpaceConfig.from_env(env, persistent=Path("/nonexistent")).settings["remote_code"] == {"org/remote": COMMIT}
    with pytest.raises(ConfigError, match="MMJUDGE_REMOTE_CODE entry 'org/remote@main'"):
        SpaceConfig.from_env(
            {**env, "MMJUDGE_REMOTE_CODE": "org/remote@main"}, persistent=Path("/nonexistent")
        )


def test_a_board_request_uses_the_operators_list(board_factory) -> None:
    board = board_factory(remote_code={"org/remote": COMMIT})
    queued = board.request_model(
        "org/remote", "", "clip_score", "trust_remote_code: true", ["isovrbench"], "alice"
    )
    assert queued.spec.revision == COMMIT and queued.spec.config["trust_remote_code"] is True
    with pytest.raises(SubmissionRejected, match="has not allow-listed it"):
        board.request_model("org/else", "", "clip_score", "trust_remote_code: true", ["isovrbench"], "alice")
