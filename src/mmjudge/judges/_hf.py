"""Shared Hugging Face loading for the model-based judges (torch and transformers imported lazily).

Every backend loads weights the same way:

- :func:`require_torch` / :func:`require_transformers` import the libraries or raise
  :class:`~mmjudge.errors.MissingDependencyError` naming ``pip install 'mmjudge[judges]'``;
- :func:`parse_dtype` turns a config's ``dtype`` string into a ``torch.dtype`` (or ``"auto"``);
- :func:`load_pretrained` calls ``<cls>.from_pretrained(path_or_id, revision=..., local_files_only=...,
  dtype=..., device_map={"": device})`` (never ``"auto"``: under a launcher each rank owns one device)
  and turns a missing or unreadable model into a :class:`~mmjudge.errors.ConfigError` that names the
  model, the revision and what to do;
- :func:`load_model_and_processor` does both halves for a :class:`~mmjudge.judges.JudgeConfig`;
- :func:`to_device` moves a processor's batch to the model's device (floating tensors to its dtype).

>>> parse_dtype("auto")
'auto'
>>> parse_dtype("bf16")
torch.bfloat16
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from mmjudge._deps import require
from mmjudge.errors import ConfigError

__all__ = [
    "DTYPES",
    "load_model_and_processor",
    "load_pretrained",
    "model_source",
    "parse_dtype",
    "require_torch",
    "require_transformers",
    "to_device",
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
        **kwargs: passed to ``from_pretrained``.

    Returns:
        The loaded object (a model is put in ``eval()`` mode).
    """
    transformers = require_transformers()
    if isinstance(cls, str):
        cls = getattr(transformers, cls)
    options: dict[str, Any] = {"revision": revision, "local_files_only": local_files_only, **kwargs}
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
            "the folder does not exist"
            if _looks_local(source) and not Path(source).exists()
            else "check the model id or path"
            + (" (local_files_only is set: download it first)" if local_files_only else "")
        )
        raise ConfigError(f"could not load {cls.__name__} from {where}: {hint}. Cause: {exc}") from exc
    if hasattr(loaded, "eval") and device is not None:
        loaded.eval()
    return loaded


def _looks_local(source: str) -> bool:
    return source.startswith((".", "/", "~")) or Path(source).exists() or source.count("/") > 1


def load_model_and_processor(
    config: Any, device: str, model_class: Any = "AutoModelForImageTextToText", **model_kwargs: Any
) -> tuple[Any, Any]:
    """The config's model (on ``device``) and its processor (``AutoProcessor``)."""
    source = model_source(config)
    common = {"revision": config.revision, "local_files_only": config.local_files_only}
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
