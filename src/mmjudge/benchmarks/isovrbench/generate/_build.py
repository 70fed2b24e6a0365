"""``build_interventions``: prompt file + config -> clips and an IsoVRBench pair table, sharded and resumable.

Prompts are split between processes (each prompt with all its clips on one rank, so the anchor a
counterpart reuses is always local); each rank runs its jobs stage by stage, one generator in memory
at a time, skipping every clip the resume log (:mod:`mmjudge.benchmarks.isovrbench.generate._store`) shows finished. A clip
is encoded under a temporary name, fsynced, renamed into place and only then logged. At the end the
main rank gathers the records and writes ``<split>.jsonl``, ``clips.jsonl`` and ``generation.json``.

Sharding takes a ``ranks`` object with the judge runner's interface (``rank``, ``world``, ``device``,
``is_main``, ``shard``, ``gather``, ``barrier``); ``mmjudge build-interventions`` passes the runner's
accelerate state, so ``torchrun`` / ``accelerate launch`` start several ranks exactly as for
``mmjudge eval``. Without one, a single process runs everything.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from mmjudge._hashing import file_sha256
from mmjudge.benchmarks.isovrbench.generate._builders import BUILDERS, Context, Job, Produced
from mmjudge.benchmarks.isovrbench.generate._config import GenerateConfig, load_config
from mmjudge.benchmarks.isovrbench.generate._editor import TextModelEditor
from mmjudge.benchmarks.isovrbench.generate._pipelines import (
    GeneratorPool,
    PipelineLoader,
    check_first_last_frame,
)
from mmjudge.benchmarks.isovrbench.generate._plan import check_edits, plan_jobs, stage_order
from mmjudge.benchmarks.isovrbench.generate._prompts import PromptRecord, read_prompts
from mmjudge.benchmarks.isovrbench.generate._store import ClipLog
from mmjudge.benchmarks.isovrbench.generate._table import write_outputs
from mmjudge.errors import ConfigError
from mmjudge.media.encode import write_video

__all__ = ["BuildResult", "Ranks", "SingleProcess", "build_interventions"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


class Ranks(Protocol):
    """The process's place in a multi-process run (the judge runner's ``Dist`` satisfies it)."""

    rank: int
    world: int
    device: str

    @property
    def is_main(self) -> bool: ...

    def barrier(self) -> None: ...

    def shard(self, items: Sequence[T]) -> list[T]: ...

    def gather(self, values: list[Any]) -> list[Any]: ...


@dataclass
class SingleProcess:
    """One process does everything (``device``: CUDA when available, else CPU)."""

    device: str = ""
    rank: int = 0
    world: int = 1

    def __post_init__(self) -> None:
        if not self.device:
            import torch

            self.device = "cuda" if torch.cuda.is_available() else "cpu"

    @property
    def is_main(self) -> bool:
        return True

    def barrier(self) -> None:
        return None

    def shard(self, items: Sequence[T]) -> list[T]:
        return list(items)

    def gather(self, values: list[Any]) -> list[Any]:
        return list(values)


@dataclass
class BuildResult:
    """What a build did (complete on the main rank)."""

    out: Path
    """The build folder."""
    table: Path
    """The pair table (``<split>.jsonl``)."""
    pairs: int = 0
    """Pairs in the table."""
    clips: int = 0
    """Clips in the build."""
    generated: int = 0
    """Clips made by this run, all ranks."""
    reused: int = 0
    """Clips found finished at start."""
    loads: int = 0
    """Generator loads on the main rank."""
    seconds: float = 0.0
    """Wall time of the main rank."""
    world: int = 1
    """Processes."""
    per_role_s: dict[str, float] = field(default_factory=dict)
    """Seconds per clip kind on the main rank (generation + encoding), summed."""


def build_interventions(
    prompts: str | Path | Sequence[PromptRecord],
    config: str | Path | GenerateConfig,
    out: str | Path,
    *,
    split: str = "test",
    ranks: Ranks | None = None,
    loader: PipelineLoader | None = None,
    progress: bool = True,
) -> BuildResult:
    """Make every clip of every prompt and write the pair table (see the module doc).

    Args:
        prompts: prompt file (JSON Lines, see :mod:`mmjudge.benchmarks.isovrbench.generate._prompts`) or its records.
        config: generation config (YAML path, shipped name or :class:`GenerateConfig`).
        out: build folder; a folder with an earlier (killed) build of the same prompts is resumed.
        split: name of the pair table (``test``, ``train`` or ``validation``).
        ranks: multi-process state (default: one process).
        loader: makes pipelines from generator specs (default: diffusers ``from_pretrained``).
        progress: show a progress bar on the main rank.
    """
    started = time.perf_counter()
    config = config if isinstance(config, GenerateConfig) else load_config(config)
    records = read_prompts(prompts) if isinstance(prompts, (str, Path)) else list(prompts)
    if split not in ("test", "train", "validation"):
        raise ConfigError(f"split must be test, train or validation, got {split!r}")
    check_edits(config, records)
    ranks = ranks or SingleProcess()
    pool = GeneratorPool(config, ranks.device, loader)
    _preflight(config, pool)
    root = Path(out)
    log = ClipLog(root / "records", rank=ranks.rank)
    plan = plan_jobs(config, records)
    done = {job.clip for jobs in plan.values() for job in jobs if log.finished(job.clip, job.key, root)}
    todo = [pid for pid, jobs in plan.items() if any(job.clip not in done for job in jobs)]
    ranks.barrier()  # every rank has read the log before any rank appends to it
    mine = ranks.shard(todo)
    result = BuildResult(root, root / f"{split}.jsonl", world=ranks.world, reused=len(done))
    ctx = Context(config, pool, root)
    new = _run(ctx, [plan[pid] for pid in mine], done, log, ranks, progress, result)
    gathered = ranks.gather(new)
    result.generated, result.loads = len(gathered), pool.loads
    if ranks.is_main:
        for record in gathered:
            log.records[record["clip"]] = record
        result.pairs, result.clips = write_outputs(
            root, result.table, config, plan, log.records, prompts, ranks.world
        )
    result.seconds = time.perf_counter() - started
    ranks.barrier()
    return result


def _preflight(config: GenerateConfig, pool: GeneratorPool) -> None:
    """Refuse, before anything is generated, what the pipelines' configs show cannot work: first-last-frame
    with ``expand_timesteps``, and ``guidance_scale_2`` for a pipeline with one expert."""
    used = {config.anchor.generator} | {getattr(o, "generator", None) for o in config.interventions.values()}
    for key in sorted(k for k in used if k is not None):
        pipeline = pool.loader.pipeline_config(config.generators[key])
        if pipeline is None:
            continue  # unknown before loading: the pipeline checks its own inputs
        if "guidance_scale_2" in config.generators[key].call and pipeline.get("boundary_ratio") is None:
            raise ConfigError(
                f"generators.{key}.call sets guidance_scale_2, but {config.label(key)} has one expert "
                "(no boundary_ratio): remove guidance_scale_2 (it is for Wan2.2 A14B's second expert)"
            )
        regen = config.interventions.get("motion_regen")
        if regen is not None and regen.generator == key:
            check_first_last_frame(pipeline, config.label(key))


def _run(
    ctx: Context,
    plans: list[list[Job]],
    done: set[str],
    log: ClipLog,
    ranks: Ranks,
    progress: bool,
    result: BuildResult,
) -> list[dict[str, Any]]:
    """This rank's jobs, stage by stage; returns the new records."""
    from tqdm.auto import tqdm

    todo = [job for jobs in plans for job in jobs if job.clip not in done]
    _prepare_edits(ctx, todo, ranks.device)
    bar = tqdm(total=len(todo), desc="clips", unit="clip", disable=not (ranks.is_main and progress))
    new: list[dict[str, Any]] = []
    for stage in stage_order(ctx.config):
        for job in (j for j in todo if j.generator == stage):
            started = time.perf_counter()
            produced = BUILDERS[job.role](job, ctx)
            record = _write_clip(ctx, job, produced, time.perf_counter() - started)
            log.put(record)
            new.append(record)
            result.per_role_s[job.role] = result.per_role_s.get(job.role, 0.0) + record["seconds"]
            bar.update(1)
        if stage is not None:
            ctx.pool.release()
    bar.close()
    return new


def _prepare_edits(ctx: Context, todo: list[Job], device: str) -> None:
    """The edited prompt of every pending ``attribute_edit`` job (the file's, else the text model's)."""
    jobs = [job for job in todo if job.role == "attribute_edit"]
    editor: TextModelEditor | None = None
    for job in jobs:
        if job.prompt.edited_prompt is not None:
            source = {"source": "prompt_file", "edit": job.prompt.edit}
            ctx.edits[job.prompt.prompt_id] = (job.prompt.edited_prompt, source)
            continue
        if editor is None:
            editor = TextModelEditor(ctx.config.interventions["attribute_edit"].editor, device)
        ctx.edits[job.prompt.prompt_id] = (editor(job.prompt.prompt), editor.describe())
    if editor is not None:
        editor.close()


def _write_clip(ctx: Context, job: Job, produced: Produced, seconds: float) -> dict[str, Any]:

    config = ctx.config
    path = ctx.root / job.clip
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    # mbtree off: libx264 then writes the same bytes for the same frames (see data/samples/isovrbench.py)
    params = {"mbtree": "0"}
    write_video(
        tmp,
        produced.frames,
        config.clip.fps,
        crf=config.encode.crf,
        preset=config.encode.preset,
        x264_params=params,
    )
    with tmp.open("rb") as handle:
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    clip = config.clip
    steps = [call["num_inference_steps"] for call in produced.calls]
    stat = path.stat()
    return {
        "clip": job.clip,
        "key": job.key,
        "sha256": file_sha256(path),
        "bytes": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
        "prompt_id": job.prompt.prompt_id,
        "role": job.role,
        "generator": produced.generator,
        "prompt": job.prompt.prompt,
        "seed": job.seed,
        "steps": steps[0] if len(set(steps)) == 1 else (steps or None),
        "num_frames": int(produced.frames.shape[0]),
        "height": clip.height,
        "width": clip.width,
        "fps": clip.fps,
        "calls": produced.calls,
        "encode": {**dataclasses.asdict(config.encode), "x264_params": params},
        **produced.extra,
        "seconds": round(seconds, 3),
    }
