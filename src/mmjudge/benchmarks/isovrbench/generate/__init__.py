"""Building IsoVRBench-format pairs from prompts with your own generators (extra ``generate``: diffusers).

``build_interventions(prompts, config, out)`` renders an anchor per prompt with a text-to-video
generator and one counterpart per intervention (the paper's eight: frame reuse, ``motion_regen`` in
first-last-frame mode, ``attribute_edit``, ``reduced_steps`` and three generator substitutions), records
every generation parameter per clip, and writes the pair table ``mmjudge build-dataset isovrbench``
ingests. Builds are sharded over processes and resumable; see :mod:`mmjudge.benchmarks.isovrbench.generate._build`.
The config format is :class:`GenerateConfig` (``load_config("isovrbench")`` is the paper's set-up).

Importing this package does not import torch or diffusers.
"""

from __future__ import annotations

from mmjudge.benchmarks.isovrbench.generate._build import (
    BuildResult,
    Ranks,
    SingleProcess,
    build_interventions,
)
from mmjudge.benchmarks.isovrbench.generate._config import (
    INTERVENTION_OPTIONS,
    AnchorSpec,
    ClipSpec,
    EditorSpec,
    EncodeSpec,
    GenerateConfig,
    GeneratorSpec,
    config_from_mapping,
    load_config,
)
from mmjudge.benchmarks.isovrbench.generate._keyframes import (
    check_keyframe_count,
    keyframe_positions,
    splice_intervals,
)
from mmjudge.benchmarks.isovrbench.generate._pipelines import (
    DiffusersLoader,
    GeneratorPool,
    PipelineLoader,
    Rendered,
    Renderer,
    check_first_last_frame,
)
from mmjudge.benchmarks.isovrbench.generate._prompts import PromptRecord, derive_seed, read_prompts

INTERVENTIONS: tuple[str, ...] = tuple(INTERVENTION_OPTIONS)
"""The intervention ids this package builds (IsoVRBench's eight, in the paper's order)."""

__all__ = [
    "INTERVENTIONS",
    "AnchorSpec",
    "BuildResult",
    "ClipSpec",
    "DiffusersLoader",
    "EditorSpec",
    "EncodeSpec",
    "GenerateConfig",
    "GeneratorPool",
    "GeneratorSpec",
    "PipelineLoader",
    "PromptRecord",
    "Ranks",
    "Rendered",
    "Renderer",
    "SingleProcess",
    "build_interventions",
    "check_first_last_frame",
    "check_keyframe_count",
    "config_from_mapping",
    "derive_seed",
    "keyframe_positions",
    "load_config",
    "read_prompts",
    "splice_intervals",
]
