"""The jobs of a build: one anchor and one counterpart per intervention for every prompt, and their order.

Each job carries a spec (everything that determines its clip: prompt, seed, generator, steps, clip size,
encoding, options, and for counterparts built from the anchor the anchor's own key) hashed into its
resume key. Jobs run in stages, one generator at a time: the anchor's generator (anchors, then
``reduced_steps`` and ``attribute_edit``), the frame-reuse interventions, then every other generator
in the order the config first names it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mmjudge.benchmarks.isovrbench.generate._builders import Job, anchor_clip
from mmjudge.benchmarks.isovrbench.generate._config import GenerateConfig
from mmjudge.benchmarks.isovrbench.generate._prompts import PromptRecord, derive_seed
from mmjudge.benchmarks.isovrbench.generate._store import spec_key
from mmjudge.errors import ConfigError

__all__ = ["check_edits", "plan_jobs", "stage_order"]

_FROM_ANCHOR = ("temporal_shuffle", "frame_hold", "motion_regen", "i2v_continuation")
"""Interventions whose clip depends on the anchor clip's frames."""


def _generator(config: GenerateConfig, key: str) -> dict[str, Any]:
    spec = dataclasses.asdict(config.generators[key])
    spec.pop("offload")  # where weights live changes nothing in the output
    return {"key": key, **spec}


def _base(config: GenerateConfig) -> dict[str, Any]:
    return {"clip": dataclasses.asdict(config.clip), "encode": dataclasses.asdict(config.encode)}


def job_generator(config: GenerateConfig, role: str) -> str | None:
    """The generator key that renders ``role`` (``None`` for the frame-reuse interventions)."""
    if role in ("anchor", "reduced_steps", "attribute_edit"):
        return config.anchor.generator
    return getattr(config.interventions[role], "generator", None)


def _spec(
    config: GenerateConfig, prompt: PromptRecord, seed: int, role: str, anchor_key: str
) -> dict[str, Any]:
    spec: dict[str, Any] = {"role": role, **_base(config)}
    generator = job_generator(config, role)
    if generator is not None:
        spec["generator"] = _generator(config, generator)
    if role != "anchor":
        spec["options"] = dataclasses.asdict(config.interventions[role])
    if role in _FROM_ANCHOR:
        spec.update(anchor=anchor_key, seed_base=config.seed)
    if role not in ("temporal_shuffle", "frame_hold"):
        spec.update(prompt=prompt.prompt, seed=seed)
    if role in ("anchor", "attribute_edit"):
        spec["steps"] = config.anchor.steps
    if role == "attribute_edit":
        spec["edited_prompt"] = prompt.edited_prompt  # None: the configured editor (in options) writes it
    return spec


def plan_jobs(config: GenerateConfig, prompts: Sequence[PromptRecord]) -> dict[str, list[Job]]:
    """Prompt id -> its jobs (anchor first, then the config's interventions in order)."""
    plan: dict[str, list[Job]] = {}
    for prompt in prompts:
        seed = prompt.seed if prompt.seed is not None else derive_seed(config.seed, prompt.prompt_id)
        anchor_spec = _spec(config, prompt, seed, "anchor", "")
        anchor_key = spec_key(anchor_spec)
        jobs = [
            Job(
                prompt,
                seed,
                "anchor",
                anchor_clip(prompt.prompt_id),
                config.anchor.generator,
                anchor_spec,
                anchor_key,
            )
        ]
        for role in config.interventions:
            spec = _spec(config, prompt, seed, role, anchor_key)
            clip = f"clips/{prompt.prompt_id}/{role}.mp4"
            jobs.append(Job(prompt, seed, role, clip, job_generator(config, role), spec, spec_key(spec)))
        plan[prompt.prompt_id] = jobs
    return plan


def stage_order(config: GenerateConfig) -> list[str | None]:
    """Generator keys in the order their jobs run (``None``: the frame-reuse stage, after the anchors).

    >>> from mmjudge.benchmarks.isovrbench.generate._config import load_config
    >>> stage_order(load_config("isovrbench"))
    ['wan2.2-t2v-a14b', None, 'wan2.2-i2v-a14b', 'wan2.2-ti2v-5b', 'wan2.1-t2v-1.3b']
    """
    order: list[str | None] = [config.anchor.generator, None]
    for role in config.interventions:
        key = job_generator(config, role)
        if key not in order:
            order.append(key)
    return order


def check_edits(config: GenerateConfig, prompts: Sequence[PromptRecord]) -> None:
    """Refuse, before anything runs, a prompt whose ``attribute_edit`` prompt nothing can provide."""
    options = config.interventions.get("attribute_edit")
    if options is None or options.editor is not None:
        return
    missing = [p.prompt_id for p in prompts if p.edited_prompt is None]
    if missing:
        raise ConfigError(
            f"{len(missing)} prompts have no `edited_prompt` (first: {missing[:5]}) and "
            "interventions.attribute_edit has no `editor`: add the edits to the prompt file or configure a "
            "text model under interventions.attribute_edit.editor"
        )
