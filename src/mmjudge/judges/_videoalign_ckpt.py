"""VideoAlign / VideoReward checkpoints: settings, weights (full or LoRA + non-LoRA) and legacy key names.

A VideoAlign checkpoint folder holds ``model_config.json`` (``data_config``: fps, max_frame_pixels,
prompt template; ``model_config``: ``output_dim``, ``reward_token``, ``use_special_tokens``;
``peft_lora_config``; ``inference_config``: per-dimension ``VQ_mean``/``VQ_std``/...) and one or more
``checkpoint-<step>/`` folders with either a full ``model.pth`` or a LoRA adapter
(``adapter_model.safetensors``) plus the other trained weights (``non_lora_state_dict.pth``).

The weights were saved by transformers < 4.52, where Qwen2-VL's vision tower was ``visual.`` and the
decoder ``model.layers...``; since 4.52 they are ``model.visual.`` and ``model.language_model.layers...``.
:func:`remap_legacy_keys` renames old keys (with or without PEFT's ``base_model.model.`` prefix) and
leaves new ones alone; :func:`to_legacy_keys` is its inverse (used to write test checkpoints).

>>> sorted(remap_legacy_keys({"base_model.model.visual.patch_embed.proj.weight": 0, "model.norm.weight": 1,
...                            "rm_head.weight": 2}))
['base_model.model.model.visual.patch_embed.proj.weight', 'model.language_model.norm.weight', 'rm_head.weight']
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge._deps import require
from mmjudge.errors import ConfigError, summarize

__all__ = [
    "DIMENSIONS",
    "LoraSettings",
    "VideoAlignSettings",
    "attach_head",
    "find_checkpoint",
    "insert_adapter_name",
    "load_weights",
    "lora_target_modules",
    "read_settings",
    "remap_legacy_keys",
    "save_checkpoint",
    "to_legacy_keys",
    "wrap_lora",
]

logger = logging.getLogger(__name__)

DIMENSIONS = ("VQ", "MQ", "TA")
"""VideoAlign's reward dimensions, in marker order."""
_PREFIXES = ("base_model.model.", "")
_LORA_PARTS = ("lora_A", "lora_B", "lora_embedding_A", "lora_embedding_B", "lora_magnitude_vector")


@dataclass(frozen=True)
class LoraSettings:
    """The LoRA wrapping a VideoAlign model was trained with (``peft_lora_config``)."""

    r: int
    """LoRA rank."""
    alpha: float
    """LoRA alpha."""
    exclude: tuple[str, ...] = ()
    """Module-name substrings never wrapped (``lora_namespan_exclude``; ``visual`` unless ``vision_lora``)."""
    num_modules: int = -1
    """Wrap only the last N candidate modules (``num_lora_modules``; -1: all)."""
    use_rslora: bool = False
    """Rank-stabilised scaling."""
    modules_to_save: tuple[str, ...] = ()
    """Modules trained in full beside the adapter."""


@dataclass(frozen=True)
class VideoAlignSettings:
    """What :func:`read_settings` takes from ``model_config.json``."""

    output_dim: int = 3
    """Outputs of the linear reward head."""
    reward_token: str = "special"
    """``special`` (read at the markers), ``last`` (last real token)."""
    lora: LoraSettings | None = None
    """LoRA settings, or ``None`` for a full checkpoint."""
    means: dict[str, float] = field(default_factory=dict)
    """Per-dimension means for z-scoring (empty: no normalisation)."""
    stds: dict[str, float] = field(default_factory=dict)
    """Per-dimension standard deviations for z-scoring."""
    data: dict[str, Any] = field(default_factory=dict)
    """The ``data_config`` block (fps, max_frame_pixels, ... as written)."""


def read_settings(folder: str | Path) -> VideoAlignSettings:
    """Settings from ``<folder>/model_config.json`` (a missing folder or file is a :class:`ConfigError`)."""
    path = Path(folder) / "model_config.json"
    if not path.is_file():
        raise ConfigError(
            f"expected a VideoAlign checkpoint folder with model_config.json, got {str(folder)!r} "
            f"({'no such folder' if not Path(folder).exists() else 'model_config.json missing'}); "
            "set options.checkpoint to the folder holding model_config.json and checkpoint-<step>/"
        )
    raw = json.loads(path.read_text(encoding="utf-8"))
    model = raw.get("model_config", {})
    special = bool(model.get("use_special_tokens", False))
    inference = raw.get("inference_config") or {}
    return VideoAlignSettings(
        output_dim=int(model.get("output_dim", 3)),
        reward_token="special" if special else str(model.get("reward_token", "last")),
        lora=_lora(raw.get("peft_lora_config") or {}),
        means={d: float(inference[f"{d}_mean"]) for d in DIMENSIONS if f"{d}_mean" in inference},
        stds={d: float(inference[f"{d}_std"]) for d in DIMENSIONS if f"{d}_std" in inference},
        data=dict(raw.get("data_config") or {}),
    )


def _lora(block: Mapping[str, Any]) -> LoraSettings | None:
    if not block.get("lora_enable", False):
        return None
    exclude = block.get("lora_namespan_exclude") or []
    if isinstance(exclude, str):  # VideoAlign writes a Python literal string
        exclude = re.findall(r"['\"]([^'\"]+)['\"]", exclude)
    exclude = list(exclude)
    if not block.get("vision_lora", False) and "visual" not in exclude:
        exclude.append("visual")
    return LoraSettings(
        r=int(block.get("lora_r", 8)),
        alpha=float(block.get("lora_alpha", 16)),
        exclude=tuple(exclude),
        num_modules=int(block.get("num_lora_modules", -1)),
        use_rslora=bool(block.get("use_rslora", False)),
        modules_to_save=tuple(block.get("lora_modules_to_save") or ()),
    )


def find_checkpoint(folder: str | Path, step: int = -1) -> Path:
    """``<folder>/checkpoint-<step>`` (``step=-1``: the highest step), or ``folder`` itself if it holds weights."""
    folder = Path(folder)
    steps = {
        int(p.name.split("-")[-1]): p for p in folder.glob("checkpoint-*") if p.name.split("-")[-1].isdigit()
    }
    if step != -1 and step in steps:
        return steps[step]
    if step != -1:
        raise ConfigError(f"{folder}: no checkpoint-{step}/; found steps {sorted(steps)}")
    if steps:
        return steps[max(steps)]
    if (folder / "model.pth").is_file() or (folder / "adapter_model.safetensors").is_file():
        return folder
    raise ConfigError(
        f"{folder}: expected checkpoint-<step>/ folders (or model.pth / adapter_model.safetensors), found none"
    )


def remap_legacy_keys(state: Mapping[str, Any]) -> dict[str, Any]:
    """Keys of a transformers < 4.52 Qwen2-VL state dict renamed for >= 4.52 (new keys unchanged)."""
    out: dict[str, Any] = {}
    for key, value in state.items():
        prefix = "base_model.model." if key.startswith("base_model.model.") else ""
        rest = key[len(prefix) :]
        if rest.startswith("visual."):
            rest = "model." + rest
        elif rest.startswith("model.") and not rest.startswith(("model.visual.", "model.language_model.")):
            rest = "model.language_model." + rest[len("model.") :]
        out[prefix + rest] = value
    return out


def to_legacy_keys(state: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`remap_legacy_keys`: >= 4.52 names back to the legacy ones.

    >>> to_legacy_keys({"model.visual.merger.mlp.0.bias": 0, "model.language_model.layers.0.mlp.up_proj.weight": 1})
    {'visual.merger.mlp.0.bias': 0, 'model.layers.0.mlp.up_proj.weight': 1}
    """
    out: dict[str, Any] = {}
    for key, value in state.items():
        prefix = "base_model.model." if key.startswith("base_model.model.") else ""
        rest = key[len(prefix) :]
        if rest.startswith("model.visual."):
            rest = rest[len("model.") :]
        elif rest.startswith("model.language_model."):
            rest = "model." + rest[len("model.language_model.") :]
        out[prefix + rest] = value
    return out


def insert_adapter_name(state: Mapping[str, Any], adapter: str = "default") -> dict[str, Any]:
    """PEFT's saved adapter keys (``...lora_A.weight``) with the adapter name (``...lora_A.default.weight``).

    >>> insert_adapter_name({"m.q_proj.lora_A.weight": 0})
    {'m.q_proj.lora_A.default.weight': 0}
    """
    out: dict[str, Any] = {}
    for key, value in state.items():
        parts = key.split(".")
        spot = next((i for i, part in enumerate(parts) if part in _LORA_PARTS), None)
        if spot is not None and (spot + 1 == len(parts) or parts[spot + 1] != adapter):
            parts.insert(spot + 1, adapter)
        out[".".join(parts)] = value
    return out


def lora_target_modules(model: Any, settings: LoraSettings) -> list[str]:
    """Names of the linear and embedding modules VideoAlign wraps with LoRA (its trainer's rule)."""
    from torch import nn

    names = [
        name
        for name, module in model.named_modules()
        if isinstance(module, (nn.Linear, nn.Embedding)) and not any(ex in name for ex in settings.exclude)
    ]
    return names[-settings.num_modules :] if settings.num_modules > 0 else names


def attach_head(model: Any, output_dim: int) -> Any:
    """Give ``model`` VideoAlign's bias-free linear reward head ``rm_head`` (float32, on the model's device).

    The head sits on the model itself, so the state-dict key is ``rm_head.weight`` as in VideoAlign.
    """
    import torch

    hidden = model.config.get_text_config().hidden_size
    model.rm_head = torch.nn.Linear(hidden, output_dim, bias=False).to(
        device=model.device, dtype=torch.float32
    )
    return model


def wrap_lora(model: Any, settings: LoraSettings) -> Any:
    """``model`` wrapped with PEFT LoRA on VideoAlign's target modules."""

    peft = require("peft", "judges", purpose="loading a VideoAlign LoRA checkpoint")
    config = peft.LoraConfig(
        target_modules=lora_target_modules(model, settings),
        r=settings.r,
        lora_alpha=settings.alpha,
        lora_dropout=0.0,
        use_rslora=settings.use_rslora,
        bias="none",
        modules_to_save=list(settings.modules_to_save) or None,
    )
    return peft.get_peft_model(model, config)


def _load_state(model: Any, incoming: Mapping[str, Any], source: Path, *, full: bool = False) -> None:

    state = model.state_dict()
    missing = sorted(set(state) - set(incoming))
    if full and missing:
        logger.warning(
            "%s: %d model parameters are not in the checkpoint and keep their base weights: %s",
            source,
            len(missing),
            summarize(missing),
        )
    unknown = sorted(set(incoming) - set(state))
    if unknown:
        raise ConfigError(
            f"{source}: {len(unknown)} checkpoint keys match no parameter of the model: {summarize(unknown)}; "
            f"expected keys like {summarize(sorted(state)[:3])} (is options.checkpoint for this base model?)"
        )
    bad = [k for k, v in incoming.items() if tuple(v.shape) != tuple(state[k].shape)]
    if bad:
        k = bad[0]
        raise ConfigError(
            f"{source}: {len(bad)} tensors have the wrong shape, e.g. {k}: checkpoint "
            f"{tuple(incoming[k].shape)}, model {tuple(state[k].shape)}"
        )
    state.update(incoming)
    model.load_state_dict(state, strict=True)


def load_weights(model: Any, checkpoint: Path, settings: VideoAlignSettings) -> Any:
    """Load a full ``model.pth`` or a LoRA adapter + ``non_lora_state_dict.pth`` into ``model``.

    Legacy key names are remapped; a LoRA model is merged and unwrapped, so the result is a plain
    transformers model with ``rm_head``.
    """
    import torch

    full = checkpoint / "model.pth"
    if full.is_file():
        state = remap_legacy_keys(torch.load(full, map_location="cpu", weights_only=True))
        wrapped = any(k.startswith("base_model.model.") for k in state)
        if wrapped and settings.lora is not None:
            peft_model = wrap_lora(model, settings.lora)
            _load_state(peft_model, state, full, full=True)
            return peft_model.merge_and_unload()
        if wrapped:
            state = {k.removeprefix("base_model.model."): v for k, v in state.items()}
        _load_state(model, state, full, full=True)
        return model
    adapter, rest = checkpoint / "adapter_model.safetensors", checkpoint / "non_lora_state_dict.pth"
    if not (adapter.is_file() and rest.is_file()):
        raise ConfigError(
            f"{checkpoint}: expected model.pth, or adapter_model.safetensors with non_lora_state_dict.pth"
        )
    if settings.lora is None:
        raise ConfigError(
            f"{checkpoint}: a LoRA adapter, but model_config.json has no enabled peft_lora_config"
        )
    from safetensors.torch import load_file

    peft_model = wrap_lora(model, settings.lora)
    incoming = remap_legacy_keys(insert_adapter_name(load_file(str(adapter))))
    incoming.update(remap_legacy_keys(torch.load(rest, map_location="cpu", weights_only=True)))
    _load_state(peft_model, incoming, checkpoint)
    return peft_model.merge_and_unload()


def save_checkpoint(
    model: Any,
    folder: str | Path,
    settings: VideoAlignSettings,
    *,
    step: int = 1,
    legacy: bool = True,
    trained: Sequence[str] = ("rm_head", "embed_tokens"),
) -> Path:
    """Write ``model`` as a VideoAlign checkpoint folder (for tests and benchmarks); returns ``folder``.

    A PEFT-wrapped ``model`` is written as adapter + non-LoRA state dict (the parameters whose names
    contain one of ``trained``), a plain one as ``model.pth``; ``legacy`` writes transformers < 4.52 key
    names, as the released checkpoints have.
    """
    import torch

    folder = Path(folder)
    target = folder / f"checkpoint-{step}"
    target.mkdir(parents=True, exist_ok=True)
    rename = to_legacy_keys if legacy else dict
    if settings.lora is not None:
        from peft import get_peft_model_state_dict
        from safetensors.torch import save_file

        adapter = {k: v.contiguous() for k, v in get_peft_model_state_dict(model).items()}
        save_file(rename(adapter), str(target / "adapter_model.safetensors"))
        rest = {
            k: v for k, v in model.state_dict().items() if "lora_" not in k and any(t in k for t in trained)
        }
        torch.save(rename(rest), target / "non_lora_state_dict.pth")
    else:
        torch.save(rename(model.state_dict()), target / "model.pth")
    (folder / "model_config.json").write_text(
        json.dumps(_settings_json(settings), indent=2), encoding="utf-8"
    )
    return folder


def _settings_json(settings: VideoAlignSettings) -> dict[str, Any]:
    lora = settings.lora
    inference = {f"{d}_{k}": v[d] for k, v in (("mean", settings.means), ("std", settings.stds)) for d in v}
    return {
        "data_config": settings.data,
        "model_config": {
            "output_dim": settings.output_dim,
            "reward_token": settings.reward_token,
            "use_special_tokens": settings.reward_token == "special",
        },
        "peft_lora_config": {
            "lora_enable": lora is not None,
            "lora_r": lora.r if lora else 8,
            "lora_alpha": lora.alpha if lora else 16,
            "lora_dropout": 0.0,
            "lora_namespan_exclude": str([e for e in lora.exclude if e != "visual"]) if lora else "[]",
            "vision_lora": False,
            "num_lora_modules": lora.num_modules if lora else -1,
        },
        "inference_config": inference or None,
    }
