"""Run a judge through a benchmark's robustness probes with the normal runner (cache, resume, shards).

The benchmark's own queries are judged first (a robustness run into the folder of a normal ``mmjudge
eval`` run finds them all in ``OUT/cache``); then each probe that applies judges only its new queries:
its variants (derived at run time, recorded in the report) or a frame-count sweep (each clip decoded
once, judged once per count). The repeat probe (any benchmark, ``repeats >= 2``) judges every item
again with seeds ``seed + 1, ...``. Nothing here changes the benchmark's scoring: the base scores are
the benchmark's scorer on the base verdicts, and each probe measures from verdicts.
"""

from __future__ import annotations

import dataclasses
import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge._version import __version__
from mmjudge.benchmarks import Benchmark, JudgeTraits, Probe, ProbeData, QuerySource, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.judges import Judge, JudgeConfig, fingerprint, with_frames
from mmjudge.queries import Query, Verdict, kind_name
from mmjudge.report import headline
from mmjudge.robustness._schema import SCHEMA_VERSION, summary_of
from mmjudge.runner import (
    ItemErrors,
    RunOptions,
    RunResult,
    prepare_judge,
    resolve_config,
    run_queries,
    setting_errors,
    sharing_weights,
)
from mmjudge.scoring import rows_of_run

__all__ = ["Judged", "RobustnessOptions", "judge_robustness", "run_robustness"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RobustnessOptions:
    """How to run the probes."""

    run: RunOptions = field(default_factory=RunOptions)
    """Runner options (decode workers, media root, limit, batch size); ``frames``/``swap`` are set per probe."""
    probes: tuple[str, ...] = ()
    """Only these probes (empty: every probe of the benchmark, and ``repeat``: skipped unless ``repeats >= 2``)."""
    repeats: int = 0
    """Runs for the repeat-stability probe (the judge's run plus ``repeats - 1`` reseeded ones; < 2: skipped)."""
    frames: tuple[int, ...] | None = None
    """Frame counts of the frame-count probe (``None``: the benchmark's sweep)."""
    seed: int = 0
    """Seed of the probes' bootstrap intervals and cross-validation splits."""


_DEFAULT = RobustnessOptions()


class Judged(NamedTuple):
    """A robustness run's report and the items of each of its runs that failed with an error."""

    report: dict[str, Any]
    """The ``robustness.json`` object (``{"probes": []}`` on ranks other than the main one)."""
    errors: list[ItemErrors]
    """One entry per judged setting (the benchmark's items, each probe's run; main rank)."""


def _judge(
    errors: list[ItemErrors], label: str, benchmark: str, judge: Judge, queries: list[Query],
    rows: list[dict[str, Any]], out_dir: str | Path, run: RunOptions,
) -> RunResult:  # fmt: skip
    """:func:`run_queries`, noting which of its verdicts failed with an error under ``label``."""
    result = run_queries(benchmark, judge, queries, rows, out_dir, run)
    errors.extend(setting_errors(result, label))
    return result


def _cost(result: RunResult) -> dict[str, int]:
    return {"items": result.stats.items, "judged": result.stats.judged, "cached": result.stats.cached}


def _by_id(result: RunResult, frames: int | None = None) -> dict[str, Verdict]:
    return {v.item_id: v for v in result.verdicts.get(frames, [])}


def _traits(judge: Judge, queries: Sequence[Query]) -> JudgeTraits:
    clip = next((q for q in queries if q.video is not None), None)
    request = judge.media_request(clip) if clip is not None else None
    decodes = request is not None and (request.num_frames is not None or request.target_fps is not None)
    return JudgeTraits(judge.config.judge, decodes, judge.config.fps is not None)


def _scores(
    spec: Benchmark, queries: list[Query], verdicts: dict[str, Verdict], rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """The benchmark's own score of the verdicts, as ``mmjudge eval`` computes it (its warnings concern the
    scores, which ``mmjudge eval`` reports)."""
    records = spec.records.records_from_verdicts(queries, [verdicts[q.item_id] for q in queries], rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        scores = spec.metrics.score(**spec.records.score_inputs(records, rows))
    return scores if isinstance(scores, dict) else dict(scores)  # a Scores keeps how each interval was made


def run_robustness(
    benchmark: str,
    judge: str | Path | JudgeConfig,
    data_dir: str | Path,
    out_dir: str | Path,
    options: RobustnessOptions = _DEFAULT,
) -> dict[str, Any]:
    """Judge the benchmark's queries and every applicable probe's queries; return the report (not yet written).

    Args:
        benchmark: benchmark id.
        judge: registered judge name, judge config YAML path, or a :class:`JudgeConfig`.
        data_dir: built benchmark folder.
        out_dir: run folder; verdicts are cached in ``out_dir/cache`` (shared with ``mmjudge eval``).
        options: which probes, repeats, frame counts, seed and runner options.

    Returns:
        The ``robustness.json`` object (see :mod:`mmjudge.robustness._schema`).
    """
    return judge_robustness(benchmark, judge, data_dir, out_dir, options).report


def judge_robustness(
    benchmark: str,
    judge: str | Path | JudgeConfig,
    data_dir: str | Path,
    out_dir: str | Path,
    options: RobustnessOptions = _DEFAULT,
) -> Judged:
    """:func:`run_robustness`, with the items of each run that failed with an error."""
    errors: list[ItemErrors] = []
    spec = get_benchmark(benchmark)
    config = resolve_config(judge)
    base_judge = prepare_judge(benchmark, config)
    kind = base_judge.check_benchmark(benchmark)
    if kind is not spec.records.query_kinds[0]:
        raise ConfigError(
            f"{benchmark}'s robustness probes derive their items from queries asking "
            f"{kind_name(spec.records.query_kinds[0])!r}; judge {config.judge!r} answers {kind_name(kind)!r} "
            f"there, so no probe applies: score it with `mmjudge eval`"
        )
    probes = _selected(spec, options)
    run = dataclasses.replace(options.run, frames=(), swap=False)
    rows = rows_of_run(benchmark, data_dir, run.limit)
    queries = spec.records.queries(rows, QuerySource(Path(data_dir), media_root=run.media_root, kind=kind))
    base = _judge(errors, "benchmark items", benchmark, base_judge, queries, rows, out_dir, run)
    # Every rank takes part in every judging step (the runner shards and gathers); the main rank alone
    # holds the verdicts, so it alone measures.
    verdicts = _by_id(base)
    scores = _scores(spec, queries, verdicts, rows) if base.is_main else {}
    traits = _traits(base_judge, queries)
    context = _Context(
        spec, base_judge, Path(data_dir), Path(out_dir), run, options, rows, queries, kind, base.is_main,
        errors,
    )  # fmt: skip
    report: dict[str, Any] = {"probes": []}
    for probe in probes:
        report["probes"].append(_one_probe(probe, context, traits, verdicts, scores))
    if not options.probes or "repeat" in options.probes:  # listed as skipped without --repeats
        report["probes"].append(_repeat(context, verdicts))
    if not base.is_main:
        return Judged({"probes": []}, errors)
    from mmjudge.data.rows import dataset_hash
    from mmjudge.results import estimates_of

    shown = headline(benchmark, scores)
    recorded = {k: e.to_json() for k, e in estimates_of(benchmark, scores).items() if k in shown}
    report.update(
        schema_version=SCHEMA_VERSION, benchmark=benchmark, judge=config.display_name,
        fingerprint=fingerprint(config, base_judge.version), mmjudge_version=__version__,
        dataset={"folder": Path(data_dir).resolve().name, "hash": dataset_hash(data_dir)}, seed=options.seed,
        base=_cost(base), headline=shown, estimates=recorded, summary=summary_of(report["probes"]),
    )  # fmt: skip
    return Judged(report, errors)


def _selected(spec: Benchmark, options: RobustnessOptions) -> list[Probe]:

    known = [p.name for p in spec.probes] + ["repeat"]
    unknown = [p for p in options.probes if p not in known]
    if unknown:
        raise ConfigError(
            f"{spec.id} has no probe {unknown}; its probes: {known}; pass one of them (or none: all)"
        )
    return [p for p in spec.probes if not options.probes or p.name in options.probes]


def _entry(probe_name: str, title: str, description: str) -> dict[str, Any]:
    return {
        "name": probe_name, "title": title, "description": description, "status": "skipped", "reason": "",
        "effects": [], "details": {}, "variants": [], "cost": {"items": 0, "judged": 0, "cached": 0},
    }  # fmt: skip


@dataclass(frozen=True)
class _Context:
    """What every probe of one run shares."""

    spec: Benchmark
    judge: Judge
    data_dir: Path
    out_dir: Path
    run: RunOptions
    options: RobustnessOptions
    rows: list[dict[str, Any]]
    queries: list[Query]
    kind: type
    is_main: bool
    errors: list[ItemErrors]
    """Where each run notes its errored items."""

    def judged(
        self, label: str, judge: Judge, queries: list[Query], run: RunOptions | None = None
    ) -> RunResult:
        """:func:`run_queries` into the run's folder, noting its errored items under ``label``."""
        out, rows = self.out_dir, self.rows
        return _judge(self.errors, label, self.spec.id, judge, queries, rows, out, run or self.run)


def _one_probe(
    probe: Probe, ctx: _Context, traits: JudgeTraits, verdicts: dict[str, Verdict], scores: dict[str, Any]
) -> dict[str, Any]:
    spec, judge, rows, queries, run, options = (
        ctx.spec,
        ctx.judge,
        ctx.rows,
        ctx.queries,
        ctx.run,
        ctx.options,
    )
    entry = _entry(probe.name, probe.title, probe.description)
    reason = probe.applies(traits) if probe.applies else ""
    if reason:
        entry["reason"] = reason
        return entry
    cost = {"items": 0, "judged": 0, "cached": 0}
    if probe.swap:  # both orders: the forward queries are cache hits, the reversed ones this probe's cost
        source = QuerySource(ctx.data_dir, media_root=run.media_root, swap=True, kind=ctx.kind)
        queries = spec.records.queries(rows, source)
        result = ctx.judged(probe.name, judge, queries)
        verdicts, cost = _by_id(result), _cost(result)
        scores = _scores(spec, queries, verdicts, rows) if ctx.is_main else {}
    sweep: dict[int, dict[str, Verdict]] = {}
    if probe.frames:
        counts = tuple(options.frames or probe.frames)
        if len(counts) == 1:  # one count: the runner expects it in the config
            one = sharing_weights(judge, with_frames(judge.config, counts[0]))
            result = ctx.judged(f"{probe.name} frames={counts[0]}", one, queries)
            sweep = {counts[0]: _by_id(result)}
        else:
            result = ctx.judged(probe.name, judge, queries, dataclasses.replace(run, frames=counts))
            sweep = {int(n): _by_id(result, n) for n in counts}
        cost = _cost(result)
    fps_sweep: dict[float, dict[str, Verdict]] = {}
    if probe.fps and traits.own_sampling:  # a judge sampling at its own rate: its rate varied too
        for rate in probe.fps:
            one = sharing_weights(judge, dataclasses.replace(judge.config, fps=rate))
            result = ctx.judged(f"{probe.name} fps={rate:g}", one, queries)
            fps_sweep[rate] = _by_id(result)
            cost = {k: cost[k] + v for k, v in _cost(result).items()}
    variants = probe.variants(rows, queries) if probe.variants else []
    variant_verdicts: dict[str, Verdict] = {}
    if variants:
        result = ctx.judged(probe.name, judge, [v.query for v in variants])
        variant_verdicts = _by_id(result)
        cost = {k: cost[k] + v for k, v in _cost(result).items()}
    if not ctx.is_main:
        return entry
    data = ProbeData(
        rows, queries, verdicts, variants, variant_verdicts, sweep, scores, options.seed, fps_sweep
    )
    outcome = probe.measure(data)
    entry.update(
        status="ran", effects=[dataclasses.asdict(e) for e in outcome.effects], details=dict(outcome.details),
        variants=[{"item_id": v.query.item_id, "source": v.source, "change": dict(v.change)} for v in variants],
        cost=cost,
    )  # fmt: skip
    return entry


def _reseeded(judge: Judge, seed: int) -> Judge:
    """A copy of ``judge`` whose config has another seed."""
    return sharing_weights(judge, dataclasses.replace(judge.config, seed=seed))


def _repeat(ctx: _Context, verdicts: dict[str, Verdict]) -> dict[str, Any]:
    spec, judge, queries, rows, options = ctx.spec, ctx.judge, ctx.queries, ctx.rows, ctx.options
    from mmjudge.robustness._repeat import measure_repeats

    entry = _entry(
        "repeat", "Repeat stability",
        "The judge run again with seeds seed+1, ... under its own sampling settings: the share of items "
        "with exactly the same verdict in every run, and the spread of the headline score across runs.",
    )  # fmt: skip
    if options.repeats < 2:
        entry["reason"] = "needs at least 2 runs: pass --repeats N (N >= 2)"
        return entry
    runs = [verdicts]
    cost = {"items": 0, "judged": 0, "cached": 0}
    for r in range(1, options.repeats):
        seed = judge.config.seed + r
        result = ctx.judged(f"repeat seed={seed}", _reseeded(judge, seed), queries)
        runs.append(_by_id(result))
        cost = {k: cost[k] + v for k, v in _cost(result).items()}
    if not ctx.is_main:
        return entry
    headline_key = spec.metrics.headline[0] if spec.metrics.headline else ""
    per_run = [_scores(spec, queries, v, rows).get(headline_key) for v in runs]
    effects, details = measure_repeats([q.item_id for q in queries], runs, per_run, headline_key)
    seeds = [judge.config.seed + r for r in range(options.repeats)]
    entry.update(status="ran", effects=[dataclasses.asdict(e) for e in effects], details={**details, "seeds": seeds},
                 cost=cost)  # fmt: skip
    return entry
