"""The generation config (``generate.yaml``): generators, the anchor, clip size, encoding, interventions.

A YAML mapping validated into :class:`GenerateConfig` (config dataclasses, :mod:`mmjudge._configs`): unknown
keys and values of the wrong type are refused with a :class:`~mmjudge.errors.ConfigError` naming the key. ``load_config("isovrbench")`` reads
the shipped config of the paper's set-up (``configs/isovrbench.yaml`` beside this module).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from mmjudge._configs import config_dataclass, validated
from mmjudge.errors import ConfigError, UnknownNameError

__all__ = [
    "BUILTIN_CONFIGS",
    "INTERVENTION_OPTIONS",
    "AnchorSpec",
    "ClipSpec",
    "EditOptions",
    "EditorSpec",
    "EncodeSpec",
    "GenerateConfig",
    "GeneratorSpec",
    "HoldOptions",
    "RegenOptions",
    "ShuffleOptions",
    "StepsOptions",
    "SubstitutionOptions",
    "config_from_mapping",
    "load_config",
]

TEMPORAL_FACTOR = 4
"""Wan's VAE compresses time by 4: every call renders ``4k + 1`` frames."""

DEFAULT_EDIT_INSTRUCTION = (
    "Rewrite the video prompt below with exactly one visual attribute changed or removed (a colour, an "
    "object, a count, an action or a setting). Keep every other word. Answer with the rewritten prompt "
    "only, on one line.\n\nPrompt: {prompt}\nRewritten prompt:"
)
"""Instruction given to a text model that edits prompts (``{prompt}`` is replaced)."""


@config_dataclass
class GeneratorSpec:
    """How to load one diffusers video pipeline."""

    path: str
    """Hub repo id or local folder of a diffusers pipeline (``model_index.json``)."""
    label: str = ""
    """Name recorded in ``generator_chosen`` / ``generator_rejected`` (default: the config key)."""
    dtype: str = "bfloat16"
    """Torch dtype of the weights (``bfloat16``, ``float16``, ``float32``)."""
    revision: str | None = None
    """Repo revision (commit hash or tag)."""
    local_files_only: bool = False
    """Never download: load from the local cache or folder only."""
    offload: bool = False
    """``enable_model_cpu_offload`` instead of moving the whole pipeline to the device."""
    call: dict[str, Any] = field(default_factory=dict)
    """Extra keyword arguments of every call (``guidance_scale``, ``guidance_scale_2``, ``negative_prompt``)."""
    t2v_class: str = "WanPipeline"
    """diffusers class used to render from text."""
    i2v_class: str = "WanImageToVideoPipeline"
    """diffusers class used to render from a first (and last) frame."""


@config_dataclass
class ClipSpec:
    """Size of every clip (the paper: 81 frames at 16 fps, 480x832)."""

    height: int = 480
    """Frame height in pixels."""
    width: int = 832
    """Frame width in pixels."""
    num_frames: int = 81
    """Frames per clip; ``4k + 1`` for Wan."""
    fps: float = 16.0
    """Frame rate written into the clips."""


@config_dataclass
class EncodeSpec:
    """H.264 settings of every clip (all clips of a build share them)."""

    crf: int = 18
    """x264 constant rate factor."""
    preset: str = "medium"
    """x264 preset."""


@config_dataclass
class AnchorSpec:
    """The anchor: the prompt rendered by the reference generator."""

    generator: str
    """Key of the anchor's generator in ``generators``."""
    steps: int = 50
    """Denoising steps (the paper: 50)."""


@config_dataclass
class EditorSpec:
    """A causal text model that writes the edited prompt of ``attribute_edit`` when the prompt file has none."""

    model: str
    """Hub repo id or local folder of a ``transformers`` causal language model."""
    dtype: str = "bfloat16"
    """Torch dtype of the weights."""
    revision: str | None = None
    """Repo revision."""
    local_files_only: bool = False
    """Never download."""
    max_new_tokens: int = 96
    """Longest edit generated (greedy decoding)."""
    instruction: str = DEFAULT_EDIT_INSTRUCTION
    """Instruction template; ``{prompt}`` is replaced by the original prompt."""


@config_dataclass
class ShuffleOptions:
    """``temporal_shuffle``: cut into segments, none left in place."""

    segments: int = 6
    """Number of contiguous segments (the paper: 6)."""


@config_dataclass
class HoldOptions:
    """``frame_hold``: keep some anchor frames, each repeated until the next."""

    kept: list[int] = field(default_factory=lambda: [8, 12])
    """Inclusive range ``[low, high]`` of distinct frames kept (the paper: 8 to 12)."""


@config_dataclass
class RegenOptions:
    """``motion_regen``: anchor keyframes kept, each interval regenerated first-last-frame."""

    generator: str
    """Key of a first-last-frame capable generator (an I2V pipeline without ``expand_timesteps``)."""
    keyframes: list[int] = field(default_factory=lambda: [8, 12])
    """Keyframe counts to draw from (the paper: 8 or 12); first and last frame are always keyframes."""
    steps: int = 30
    """Denoising steps of each interval (the paper: 30)."""


@config_dataclass
class EditOptions:
    """``attribute_edit``: same generator and seed, one prompt attribute edited; scored under the original."""

    editor: EditorSpec | None = None
    """Text model for prompts whose line in the prompt file has no ``edited_prompt``."""


@config_dataclass
class StepsOptions:
    """``reduced_steps``: the anchor's prompt, seed and generator with fewer steps."""

    steps: int = 8
    """Denoising steps (the paper: 8; a 16-step split also exists)."""


@config_dataclass
class SubstitutionOptions:
    """A generator substitution (``i2v_continuation``, ``t2v_5b``, ``t2v_1_3b``)."""

    generator: str
    """Key of the substituted generator."""
    steps: int = 50
    """Denoising steps."""


INTERVENTION_OPTIONS: dict[str, type] = {
    "temporal_shuffle": ShuffleOptions,
    "frame_hold": HoldOptions,
    "motion_regen": RegenOptions,
    "attribute_edit": EditOptions,
    "reduced_steps": StepsOptions,
    "i2v_continuation": SubstitutionOptions,
    "t2v_5b": SubstitutionOptions,
    "t2v_1_3b": SubstitutionOptions,
}
"""Intervention id -> its options type, in the paper's column order (the ids IsoVRBench scores)."""


@config_dataclass
class GenerateConfig:
    """A validated generation config."""

    generators: dict[str, GeneratorSpec]
    """Generator key -> how to load it."""
    anchor: AnchorSpec
    """The anchor's generator and steps."""
    interventions: dict[str, Any]
    """Intervention id -> its options (one of the ``*Options`` types), in the paper's order."""
    clip: ClipSpec = field(default_factory=ClipSpec)
    """Clip size shared by anchors and counterparts."""
    encode: EncodeSpec = field(default_factory=EncodeSpec)
    """Encoder settings shared by every clip."""
    seed: int = 0
    """Base of the per-prompt seeds (a prompt's own ``seed`` wins)."""
    source: str = "<config>"
    """Where the config came from (for messages)."""

    def label(self, generator: str) -> str:
        """The recorded name of generator key ``generator``."""
        return self.generators[generator].label or generator

    def as_dict(self) -> dict[str, Any]:
        """The resolved config as plain data (recorded in ``generation.json``)."""
        return dataclasses.asdict(self)


BUILTIN_CONFIGS: dict[str, str] = {"isovrbench": "isovrbench.yaml"}
"""Config names shipped in ``mmjudge/benchmarks/isovrbench/generate/configs/``."""


def load_config(path_or_name: str | Path) -> GenerateConfig:
    """Read and validate a generation config from a YAML file or a shipped name.

    >>> config = load_config("isovrbench")
    >>> config.anchor.steps, config.clip.num_frames, list(config.interventions)[:3]
    (50, 81, ['temporal_shuffle', 'frame_hold', 'motion_regen'])
    """
    import yaml

    path = Path(path_or_name)
    if not path.is_file() and str(path_or_name) in BUILTIN_CONFIGS:
        path = Path(__file__).with_name("configs") / BUILTIN_CONFIGS[str(path_or_name)]
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"generation config {path} does not exist; give a YAML file or one of {sorted(BUILTIN_CONFIGS)}"
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of config keys, got {type(data).__name__}")
    return config_from_mapping(data, source=str(path))


def config_from_mapping(data: Mapping[str, Any], *, source: str = "<config>") -> GenerateConfig:
    """Validate a mapping into a :class:`GenerateConfig` (see the module doc for the keys).

    >>> config_from_mapping({"generators": {"g": {"path": "x"}}, "anchor": {"generator": "h"},
    ...                      "interventions": {"reduced_steps": {}}})
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: <config>: anchor.generator 'h' is not a key of `generators` (['g'])
    """
    allowed = {"generators", "anchor", "interventions", "clip", "encode", "seed"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"{source}: unknown key {unknown[0]!r}; known keys: {sorted(allowed)}")
    for key in ("generators", "anchor", "interventions"):
        if not isinstance(data.get(key), dict) or not data[key]:
            raise ConfigError(f"{source}: `{key}` must be a non-empty mapping, got {data.get(key)!r}")
    generators = {
        str(name): validated(GeneratorSpec, spec, f"{source}: generators.{name}")
        for name, spec in data["generators"].items()
    }
    parts = {
        "generators": generators,
        "anchor": validated(AnchorSpec, data["anchor"], f"{source}: anchor"),
        "interventions": _interventions(data["interventions"], source),
        "clip": validated(ClipSpec, data.get("clip") or {}, f"{source}: clip"),
        "encode": validated(EncodeSpec, data.get("encode") or {}, f"{source}: encode"),
        "seed": data.get("seed", 0),
        "source": source,
    }
    config = validated(GenerateConfig, parts, source)
    _check(config)
    return config


def _interventions(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, options in data.items():
        if name not in INTERVENTION_OPTIONS:
            raise UnknownNameError(
                f"{source}: unknown intervention {name!r}; expected some of {list(INTERVENTION_OPTIONS)}"
            )
        options = dict(options or {})
        if name == "attribute_edit" and isinstance(options.get("editor"), dict):
            options["editor"] = validated(EditorSpec, options["editor"], f"{source}: {name}.editor")
        out[name] = validated(INTERVENTION_OPTIONS[name], options, f"{source}: interventions.{name}")
    return {name: out[name] for name in INTERVENTION_OPTIONS if name in out}  # the paper's order


def _check(config: GenerateConfig) -> None:
    """Cross-field rules: generators exist, frame counts and steps are usable."""
    source, clip = config.source, config.clip
    used = {"anchor.generator": config.anchor.generator}
    used.update(
        {f"interventions.{name}.generator": opt.generator for name, opt in config.interventions.items()
         if hasattr(opt, "generator")}
    )  # fmt: skip
    for where, key in used.items():
        if key not in config.generators:
            raise ConfigError(
                f"{source}: {where} {key!r} is not a key of `generators` ({sorted(config.generators)})"
            )
    if clip.num_frames % TEMPORAL_FACTOR != 1:
        raise ConfigError(
            f"{source}: clip.num_frames must be 4k + 1 (Wan renders 4k + 1 frames per call), got {clip.num_frames}"
        )
    if clip.height % 16 or clip.width % 16 or clip.height <= 0 or clip.width <= 0:
        raise ConfigError(
            f"{source}: clip height and width must be positive multiples of 16, got {clip.height}x{clip.width}"
        )
    steps = [("anchor.steps", config.anchor.steps)]
    steps += [
        (f"interventions.{n}.steps", o.steps) for n, o in config.interventions.items() if hasattr(o, "steps")
    ]
    for where, value in steps:
        if value < 1:
            raise ConfigError(f"{source}: {where} must be at least 1, got {value}")
    reduced = config.interventions.get("reduced_steps")
    if reduced is not None and reduced.steps >= config.anchor.steps:
        raise ConfigError(
            f"{source}: interventions.reduced_steps.steps ({reduced.steps}) must be fewer than the anchor's "
            f"{config.anchor.steps} steps"
        )
    _check_frame_options(config)


def _check_frame_options(config: GenerateConfig) -> None:
    from mmjudge.benchmarks.isovrbench.generate._keyframes import check_keyframe_count

    source, frames = config.source, config.clip.num_frames
    hold = config.interventions.get("frame_hold")
    if hold is not None and (len(hold.kept) != 2 or not 1 <= hold.kept[0] <= hold.kept[1] <= frames):
        raise ConfigError(
            f"{source}: interventions.frame_hold.kept must be [low, high] with 1 <= low <= high <= {frames}, "
            f"got {hold.kept}"
        )
    shuffle = config.interventions.get("temporal_shuffle")
    if shuffle is not None and not 2 <= shuffle.segments <= frames:
        raise ConfigError(
            f"{source}: interventions.temporal_shuffle.segments must lie in 2..{frames}, got {shuffle.segments}"
        )
    regen = config.interventions.get("motion_regen")
    if regen is not None:
        if not regen.keyframes:
            raise ConfigError(f"{source}: interventions.motion_regen.keyframes must list at least one count")
        for count in regen.keyframes:
            check_keyframe_count(
                frames, count, step=TEMPORAL_FACTOR, where=f"{source}: interventions.motion_regen"
            )
