"""Judge configuration: a YAML file (``judges/<name>/config.yaml``) validated into :class:`JudgeConfig`.

:class:`JudgeConfig` and every backend's ``Options`` are config dataclasses (:mod:`mmjudge._configs`:
strict pydantic dataclasses): unknown keys and values of the wrong type are refused with a
:class:`~mmjudge.errors.ConfigError` naming the key and the expected type. A config's :func:`fingerprint` (hash of the resolved config, the judge
class's ``version`` and the mmjudge version) identifies its results and its cache entries.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from mmjudge._configs import config_dataclass, validated
from mmjudge._version import __version__
from mmjudge.errors import ConfigError


@config_dataclass
class JudgeConfig:
    """A resolved judge configuration."""

    judge: str
    """Registered judge backend, e.g. ``"frame_smoothness"`` or ``"vlm_digit"``."""
    name: str = ""
    """Display name in results and on the leaderboard (default: the backend name)."""
    model: str | None = None
    """Hub model id or local path of the weights (``None`` for weight-free judges)."""
    revision: str | None = None
    """Model revision (commit hash or tag) to load."""
    local_files_only: bool = False
    """Never download: load from the local cache or path only."""
    trust_remote_code: bool = False
    """Run the Python code the model repo ships (its own model classes, ``auto_map``) when loading it: opt-in,
    logged as a warning naming the repo and revision (pin ``revision`` to a commit), never asked interactively;
    ``false`` refuses such a repo. A public model request may set it only for a repo the leaderboard's operator
    allow-lists at a pinned commit (``Settings.remote_code``)."""
    dtype: str = "auto"
    """Torch dtype name (``auto``, ``bfloat16``, ``float16``, ``float32``)."""
    batch_size: int = 1
    """Items per ``judge_batch`` call."""
    frames: int | None = None
    """Frames sampled per clip (``None``: the judge's default)."""
    fps: float | None = None
    """Sample frames at this rate instead of a fixed count."""
    max_pixels: int | None = None
    """Resize frames to at most this many pixels."""
    prompt_template: str | None = None
    """Prompt template override (backend-specific placeholders)."""
    seed: int = 0
    """Seed for any randomness in the judge."""
    options: dict[str, Any] = field(default_factory=dict)
    """Backend-specific options, validated against the backend's ``Options`` dataclass."""

    @property
    def display_name(self) -> str:
        """``name`` or, when empty, the backend name."""
        return self.name or self.judge


def config_from_mapping(data: Mapping[str, Any], *, source: str = "<config>") -> JudgeConfig:
    """Validate a mapping into a :class:`JudgeConfig`.

    >>> config_from_mapping({"judge": "random", "seed": 3}).seed
    3
    >>> config_from_mapping({"judge": "random", "frame": 8})
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: <config>: unknown key 'frame'; known keys: ['batch_size', 'dtype', 'fps', 'frames', 'judge', 'local_files_only', 'max_pixels', 'model', 'name', 'options', 'prompt_template', 'revision', 'seed', 'trust_remote_code']
    >>> config_from_mapping({"judge": "random", "batch_size": "4"})
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: <config>: key 'batch_size' expects int, got str '4'
    """
    return validated(JudgeConfig, data, source)


def validate_options(options_type: type, data: Mapping[str, Any], *, source: str = "<options>") -> Any:
    """Validate backend options into an instance of the backend's ``Options`` dataclass."""
    return validated(options_type, data, source)


def load_config(path: str | Path) -> JudgeConfig:
    """Read and validate a judge config YAML file."""
    import yaml

    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"judge config {path} does not exist") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of config keys, got {type(data).__name__}")
    return config_from_mapping(data, source=str(path))


def fingerprint(config: JudgeConfig, judge_version: str) -> str:
    """Hash of the resolved config, the judge code version and the mmjudge version (16 hex digits).

    ``trust_remote_code`` counts only when set, so the configs that never set it keep their fingerprints.

    >>> a = fingerprint(JudgeConfig(judge="random"), "1")
    >>> a == fingerprint(JudgeConfig(judge="random", seed=1), "1"), len(a)
    (False, 16)
    """

    resolved = dataclasses.asdict(config)
    if not resolved.get("trust_remote_code"):
        resolved.pop("trust_remote_code", None)
    payload = {"config": resolved, "judge_version": judge_version, "mmjudge": __version__}
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def check_option(judge: str, key: str, value: Any, allowed: Collection[Any]) -> None:
    """Refuse a backend option outside its allowed values.

    >>> check_option("label_choice", "method", "beam", ("greedy_trie", "loglik"))
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: label_choice option `method` must be one of ['greedy_trie', 'loglik'], got 'beam'
    """
    if value not in allowed:
        raise ConfigError(f"{judge} option `{key}` must be one of {list(allowed)}, got {value!r}")
