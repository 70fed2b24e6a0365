"""Shared Hugging Face loading for the model-based judges (torch and transformers imported lazily).

Every backend loads weights the same way:

- :func:`require_torch` / :func:`require_transformers` import the libraries or raise
  :class:`~mmjudge.errors.MissingDependencyError` naming ``pip install 'mmjudge[judges]'``;
- :func:`parse_dtype` turns a config's ``dtype`` string into a ``torch.dtype`` (or ``"auto"``);
- :func:`load_pretrained` calls ``<cls>.from_pretrained(path_or_id, revision=..., local_files_only=...,
  dtype=..., device_map={"": device})`` (never ``"auto"``: under a launcher each rank owns one device)
  and turns a missing or unreadable model into a :class:`~mmjudge.errors.ConfigError` that names the
  model, the revision and what to do;
- :func:`hub_options` gives the config's ``revision``, ``local_files_only`` and ``trust_remote_code`` for
  every ``from_pretrained`` of a judge, and logs the warning that opting in to a repo's own code deserves;
  without the opt-in ``trust_remote_code=False`` is always passed, so transformers never asks at a prompt;
- :func:`load_model_and_processor` does both halves for a :class:`~mmjudge.judges.JudgeConfig`;
- :func:`with_mistral_tokenizer` (called by :func:`load_pretrained`) loads a checkpoint whose only tokenizer
  is a mistral-common ``tekken.json`` through transformers' Mistral conversion, or refuses it naming the fix;
- :func:`to_device` moves a processor's batch to the model's device (floating tensors to its dtype).

>>> parse_dtype("auto")
'auto'
>>> parse_dtype("bf16")
torch.bfloat16
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from mmjudge._deps import require
from mmjudge.errors import ConfigError

__all__ = [
    "COMMIT",
    "DTYPES",
    "hub_options",
    "load_model_and_processor",
    "load_pretrained",
    "model_source",
    "parse_dtype",
    "require_torch",
    "require_transformers",
    "to_device",
    "with_mistral_tokenizer",
]

DTYPES = {
    "auto": "auto",
    "float32": "float32",
    "fp32": "float32",
    "float": "float32",
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float16": "float16",
    "fp16": "float16",
    "half": "float16",
}
"""Accepted ``dtype`` spellings -> torch dtype names (``"auto"``: the checkpoint's own dtype)."""


COMMIT = re.compile(r"^[0-9a-f]{40}$")
"""A full git commit hash: the only revision that pins a repo's code."""

logger = logging.getLogger(__name__)
_WARNED: set[tuple[Any, Any, Any]] = set()
"""(judge, repo, revision) already warned about in this process (one warning per repo, not per file loaded)."""


def hub_options(config: Any, *, source: str | None = None) -> dict[str, Any]:
    """The ``from_pretrained`` options a judge config sets for the repos it loads: ``revision``,
    ``local_files_only`` and ``trust_remote_code``.

    With ``trust_remote_code: true`` a warning names the repo (``source``, default the config's ``model``) and
    its revision, and says so when the revision is not a commit (code at a branch can change between runs).

    >>> from mmjudge.judges import JudgeConfig
    >>> hub_options(JudgeConfig(judge="vlm_digit", model="org/m", revision="abc"))
    {'revision': 'abc', 'local_files_only': False, 'trust_remote_code': False}
    """
    trust = bool(getattr(config, "trust_remote_code", False))
    repo = source or getattr(config, "model", None)
    revision = config.revision
    if trust and (config.judge, repo, revision) not in _WARNED:
        _WARNED.add((config.judge, repo, revision))
        pinned = bool(revision) and bool(COMMIT.match(str(revision)))
        logger.warning(
            "%s: trust_remote_code is set, so the Python code that %r ships runs in this process (revision %s)%s",
            config.judge,
            repo,
            revision or "the default branch",
            "" if pinned else "; pin `revision` to a 40-character commit so the code cannot change under you",
        )
    return {
        "revision": config.revision,
        "local_files_only": config.local_files_only,
        "trust_remote_code": trust,
    }


def require_torch(purpose: str = "model-based judges") -> ModuleType:
    """``import torch`` or raise :class:`MissingDependencyError` naming ``mmjudge[judges]``."""
    return require("torch", "judges", purpose=purpose)


def require_transformers(purpose: str = "model-based judges") -> ModuleType:
    """``import transformers`` (and torch) or raise :class:`MissingDependencyError` naming ``mmjudge[judges]``."""
    require_torch(purpose)
    return require("transformers", "judges", purpose=purpose)


def parse_dtype(name: str) -> Any:
    """The ``torch.dtype`` for a config's ``dtype`` string, or ``"auto"``.

    >>> parse_dtype("float16")
    torch.float16
    >>> parse_dtype("int8")
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: unknown dtype 'int8'; expected one of ['auto', 'bf16', 'bfloat16', 'float', 'float16', 'float32', 'fp16', 'fp32', 'half']
    """
    key = str(name).lower()
    if key not in DTYPES:
        raise ConfigError(f"unknown dtype {name!r}; expected one of {sorted(DTYPES)}")
    if DTYPES[key] == "auto":
        return "auto"
    torch = require_torch()
    return getattr(torch, DTYPES[key])


def model_source(config: Any) -> str:
    """The config's ``model`` (Hub id or local path), or a :class:`ConfigError` when it is missing.

    >>> from mmjudge.judges import JudgeConfig
    >>> model_source(JudgeConfig(judge="vlm_digit"))
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: judge 'vlm_digit' needs `model:` (a Hugging Face model id or a local folder) in its config
    """
    if not config.model:
        raise ConfigError(
            f"judge {config.judge!r} needs `model:` (a Hugging Face model id or a local folder) in its config"
        )
    return str(config.model)


def load_pretrained(
    cls: Any,
    path_or_id: str | Path,
    *,
    revision: str | None = None,
    local_files_only: bool = False,
    dtype: str | None = None,
    device: str | None = None,
    trust_remote_code: bool = False,
    **kwargs: Any,
) -> Any:
    """``cls.from_pretrained`` with mmjudge's conventions and a clear error for a missing model.

    Args:
        cls: a transformers class with ``from_pretrained`` (a model, processor or tokenizer class), or
            its name in ``transformers`` (``"AutoModelForImageTextToText"``).
        path_or_id: local folder or Hub model id.
        revision: commit hash, branch or tag.
        local_files_only: never download.
        dtype: dtype string (:func:`parse_dtype`); ``None`` for classes without weights.
        device: put the whole model on this device (``device_map={"": device}``); ``None`` for processors.
        trust_remote_code: run the repo's own code (:func:`hub_options`); always passed, so a repo that
            needs its own code is refused (never asked about at a prompt) unless the config opts in.
        **kwargs: passed to ``from_pretrained``.

    Returns:
        The loaded object (a model is put in ``eval()`` mode).
    """
    transformers = require_transformers()
    if isinstance(cls, str):
        cls = getattr(transformers, cls)
    options: dict[str, Any] = {"revision": revision, "local_files_only": local_files_only,
                               "trust_remote_code": trust_remote_code, **kwargs}  # fmt: skip
    if dtype is not None:
        options["dtype"] = parse_dtype(dtype)
    if device is not None:
        options["device_map"] = {"": device}
    source = str(path_or_id)
    try:
        loaded = cls.from_pretrained(source, **options)
    except (OSError, ValueError) as exc:
        where = f"{source!r}" + (f" at revision {revision!r}" if revision else "")
        hint = (
            "the repo ships its own Python code: set `trust_remote_code: true` in the judge config to run it "
            "(pin `revision` to a commit), or choose a model transformers implements"
            if "trust_remote_code" in str(exc) and not trust_remote_code
            else "the folder does not exist"
            if _looks_local(source) and not Path(source).exists()
            else "check the model id or path"
            + (" (local_files_only is set: download it first)" if local_files_only else "")
        )
        raise ConfigError(f"could not load {cls.__name__} from {where}: {hint}. Cause: {exc}") from exc
    if hasattr(loaded, "eval") and device is not None:
        loaded.eval()
    return with_mistral_tokenizer(loaded, source)


TEKKEN = "tekken.json"
"""The file name of a mistral-common tokenizer (Mistral-Small-3.2 ships its tokenizer as this file alone)."""


def with_mistral_tokenizer(loaded: Any, source: str) -> Any:
    """``loaded`` (a processor or a tokenizer), its tokenizer rebuilt by transformers' Mistral backend when the
    checkpoint's only tokenizer is a mistral-common ``tekken.json``.

    transformers 5 reads such a file through ``TokenizersBackend`` (a Pixtral processor always does), which
    keeps the vocabulary but names no ``<s>``/``</s>``/``<pad>`` and has no chat template.
    ``transformers.integrations.mistral.convert_tekken_tokenizer`` builds it with those tokens and the chat
    template (a ``chat_template.jinja`` or ``.json`` beside the file, else the one mistral-common writes from
    the file); without a template the checkpoint is refused, naming the fix. Anything else is returned as is.
    """
    tokenizer = getattr(loaded, "tokenizer", loaded)
    vocab = getattr(tokenizer, "vocab_file", None)
    init = getattr(tokenizer, "init_kwargs", None) or {}
    if not (isinstance(vocab, str) and Path(vocab).name == TEKKEN and init.get("tokenizer_file") is None):
        return loaded
    if type(tokenizer).__name__ != "TokenizersBackend" or tokenizer.bos_token is not None:
        return loaded  # transformers named its tokens already (a tokenizer_config.json or its Mistral backend)
    from transformers.integrations.mistral.tokenizer import convert_tekken_tokenizer

    mistral = convert_tekken_tokenizer(vocab)
    if not mistral.chat_template:
        raise ConfigError(
            f"{source!r} ships its tokenizer only as a mistral-common {TEKKEN}, with no chat template beside it; "
            "transformers writes the template from that file with mistral-common: install it "
            "(pip install 'mmjudge[mistral]', or pip install mistral-common), or put the model's "
            f"chat_template.jinja next to {TEKKEN}"
        )
    if loaded is tokenizer:
        return mistral
    loaded.tokenizer = mistral
    if getattr(loaded, "chat_template", None) is None:
        loaded.chat_template = mistral.chat_template
    return loaded


def _looks_local(source: str) -> bool:
    return source.startswith((".", "/", "~")) or Path(source).exists() or source.count("/") > 1


def load_model_and_processor(
    config: Any, device: str, model_class: Any = "AutoModelForImageTextToText", **model_kwargs: Any
) -> tuple[Any, Any]:
    """The config's model (on ``device``) and its processor (``AutoProcessor``)."""
    source = model_source(config)
    common = hub_options(config)
    processor = load_pretrained("AutoProcessor", source, **common)
    model = load_pretrained(model_class, source, dtype=config.dtype, device=device, **common, **model_kwargs)
    return model, processor


def to_device(batch: Mapping[str, Any], device: Any, dtype: Any = None) -> dict[str, Any]:
    """Tensors of ``batch`` on ``device``; floating tensors cast to ``dtype`` when given.

    >>> import torch
    >>> moved = to_device({"ids": torch.tensor([1]), "pixels": torch.zeros(1), "n": 3}, "cpu", torch.float16)
    >>> moved["ids"].dtype, moved["pixels"].dtype, moved["n"]
    (torch.int64, torch.float16, 3)
    """
    torch = require_torch()
    out: dict[str, Any] = {}
    for key, value in batch.items():
        if isinstance(value, torch.Tensor):
            cast = dtype if dtype is not None and value.is_floating_point() else None
            value = value.to(device=device, dtype=cast) if cast is not None else value.to(device)
        out[key] = value
    return out
