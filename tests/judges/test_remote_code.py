"""``trust_remote_code``: opt-in in a local judge config, warned about, never asked at a prompt, and refused in a
public model request unless the operator allow-lists the repo at a pinned commit."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from pathlib import Path

import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, config_from_mapping
from mmjudge.judges._config import fingerprint
from mmjudge.judges._hf import _WARNED, hub_options, load_pretrained

COMMIT = "0123456789abcdef0123456789abcdef01234567"

CUSTOM_CONFIG = """
from transformers import PretrainedConfig


class RemoteOnlyConfig(PretrainedConfig):
    model_type = "remote_only_test"

    def __init__(self, width=3, **kwargs):
        self.width = width
        super().__init__(**kwargs)
"""


@pytest.fixture
def remote_repo(tmp_path: Path) -> Path:
    """A model folder whose config class exists only as the repo's own code (``auto_map``), as Kimi-VL's or
    CogVLM2's do."""
    folder = tmp_path / "remote-only"
    folder.mkdir()
    (folder / "configuration_remote_only.py").write_text(CUSTOM_CONFIG)
    config = {"model_type": "remote_only_test", "width": 5,
              "auto_map": {"AutoConfig": "configuration_remote_only.RemoteOnlyConfig"}}  # fmt: skip
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def test_the_config_key_is_known_and_off_by_default() -> None:
    assert config_from_mapping({"judge": "clip_score", "trust_remote_code": True}).trust_remote_code is True
    assert JudgeConfig(judge="clip_score").trust_remote_code is False
    with pytest.raises(ConfigError, match="trust_remote_code"):
        config_from_mapping({"judge": "clip_score", "trust_remote_code": "yes please"})


def test_fingerprints_of_configs_without_it_do_not_move() -> None:
    from mmjudge._version import __version__

    config = JudgeConfig(judge="random", seed=3)
    before = {k: v for k, v in dataclasses.asdict(config).items() if k != "trust_remote_code"}
    text = json.dumps(
        {"config": before, "judge_version": "1", "mmjudge": __version__}, sort_keys=True, default=str
    )
    assert fingerprint(config, "1") == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert fingerprint(dataclasses.replace(config, trust_remote_code=True), "1") != fingerprint(config, "1")


def test_a_repo_with_its_own_code_is_refused_without_the_opt_in(remote_repo: Path) -> None:
    with pytest.raises(ConfigError, match=r"set `trust_remote_code: true` in the judge config"):
        load_pretrained("AutoConfig", remote_repo, local_files_only=True)


def test_the_opt_in_runs_the_repos_code_and_warns_once_naming_repo_and_revision(
    remote_repo: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = JudgeConfig(
        judge="clip_score", model=str(remote_repo), local_files_only=True, trust_remote_code=True
    )
    _WARNED.clear()
    with caplog.at_level(logging.WARNING, logger="mmjudge.judges._hf"):
        options = hub_options(config)
        hub_options(config)
    loaded = load_pretrained("AutoConfig", remote_repo, **options)
    assert type(loaded).__name__ == "RemoteOnlyConfig" and loaded.width == 5
    [record] = [r for r in caplog.records if "trust_remote_code" in r.getMessage()]
    message = record.getMessage()
    assert str(remote_repo) in message and "the default branch" in message and "pin `revision`" in message
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mmjudge.judges._hf"):
        hub_options(dataclasses.replace(config, revision=COMMIT))
    assert COMMIT in caplog.text and "pin `revision`" not in caplog.text


def test_trust_remote_code_is_always_passed_so_transformers_never_prompts() -> None:
    seen: list[dict] = []

    class Recorder:
        __name__ = "Recorder"

        @classmethod
        def from_pretrained(cls, source, **kwargs):
            seen.append(kwargs)
            return object()

    load_pretrained(Recorder, "org/m")
    load_pretrained(Recorder, "org/m", **hub_options(JudgeConfig(judge="clip_score", model="org/m")))
    assert [s["trust_remote_code"] for s in seen] == [False, False]
