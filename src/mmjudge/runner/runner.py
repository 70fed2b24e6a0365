"""The judge runner: canonical queries -> (sharded, cached, resumable) judging -> verdicts.

:func:`run_judge` judges every query of a built benchmark folder once per run. Queries are built the same
way on every rank (the benchmark's ``records.build_queries``, of the kind the judge answers); the ones
without a cached verdict are
split between the ranks (``accelerate``'s ``split_between_processes``; padding repeats are judged once),
decoded ahead of the judge by a pool of single-thread worker processes, judged in batches, appended to
the rank's cache file (fsynced after each judge call) and gathered. A run killed at any point and started again
with the same output folder judges only what is not cached yet. A frame-count sweep decodes each clip
once and judges it once per count. :func:`mmjudge.runner.evaluate_judge` adds scoring and writes
``predictions.jsonl``, ``results.json`` and ``report.md`` (one folder per frame count in a sweep).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmjudge.benchmarks import QuerySource, get_benchmark
from mmjudge.judges import Judge, JudgeConfig, fingerprint, is_transient, load_config, make_judge, with_frames
from mmjudge.queries import Query, Verdict
from mmjudge.runner.cache import MediaHasher, VerdictCache, cache_key, media_paths
from mmjudge.runner.decode import Decoded, Prefetcher
from mmjudge.runner.dist import Dist, dedupe_in_order, init_dist
from mmjudge.runner.failures import ItemErrors, item_errors

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunOptions:
    """How to run a judge over a benchmark."""

    frames: tuple[int, ...] = ()
    """Frame counts: empty keeps the config's setting, one value overrides it, several make a sweep."""
    decode_workers: int = 0
    """Decode worker processes (0: decode in the judging process, no overlap)."""
    swap: bool = False
    """Also judge every query in swapped order, for benchmarks whose queries have one (EmoPrefer's a1/a2)."""
    limit: int | None = None
    """Only the first N reference rows (pairs, items, questions) and the queries they need."""
    batch_size: int | None = None
    """Queries per ``judge_batch`` call (default: the config's ``batch_size``)."""
    media_root: Path | None = None
    """Root of gated media (e.g. MER2025, DFEW); default: the data folder."""
    video_backend: str | None = None
    """Video decoder backend (default ``$MMJUDGE_VIDEO_BACKEND`` or PyAV)."""
    progress: bool = True
    """Show a tqdm bar on the main rank."""


@dataclass
class RunStats:
    """Counts and timings of one run (timings vary between runs: they go to ``results.json`` only)."""

    items: int = 0
    """Queries in the run (unique clips when pairs share clips); ``items`` in ``results.json``'s stats."""
    cached: int = 0
    """(query, frame setting) verdicts found in the cache at start."""
    judged: int = 0
    """(query, frame setting) verdicts judged by this run, all ranks."""
    failed: int = 0
    """No-judgment verdicts among all verdicts of the run (errored ones and answers without a label)."""
    errored: int = 0
    """Among them, verdicts that failed with an error (:attr:`Verdict.errored`: unreadable or missing media,
    the model raised), as opposed to answers without a label; ``mmjudge eval`` exits non-zero on them."""
    first_errors: list[str] = field(default_factory=list)
    """The first distinct error messages of the errored verdicts (at most three), in query order."""
    transient: int = 0
    """Among them, transient failures (connection, timeout, 5xx, out of memory): not cached, so a rerun
    into the same output folder judges those queries again."""
    retried: int = 0
    """Transient failures found in the cache at start (not loaded, judged again)."""
    world: int = 1
    """Processes."""
    wall_s: float = 0.0
    """Seconds from start to gathered verdicts (main rank)."""
    loop_s: float = 0.0
    """Seconds in the decode-and-judge loop (main rank); ``judge_s / loop_s`` is how busy the judge was."""
    judge_s: float = 0.0
    """Seconds inside ``judge_batch`` (main rank)."""
    decode_s: float = 0.0
    """Seconds spent decoding the main rank's queries (in workers when ``decode_workers > 0``)."""
    wait_s: float = 0.0
    """Seconds the main rank's judge waited for decoded queries."""


@dataclass
class RunResult:
    """Verdicts of a run, per frame setting, in canonical query order (complete on the main rank only)."""

    benchmark: str
    """Benchmark id."""
    config: JudgeConfig
    """The resolved config (before any frame override)."""
    queries: list[Query]
    """Canonical queries."""
    rows: list[dict[str, Any]]
    """Reference rows (after ``limit``)."""
    configs: dict[int | None, JudgeConfig]
    """Frame count (``None``: the config's own setting) -> the config judged with."""
    judge_version: str
    """The backend's ``version``."""
    verdicts: dict[int | None, list[Verdict]] = field(default_factory=dict)
    """Frame count -> one verdict per query (main rank; empty elsewhere)."""
    stats: RunStats = field(default_factory=RunStats)
    """Counts and timings."""
    is_main: bool = True
    """Whether this process is rank 0."""


def resolve_config(judge: str | Path | JudgeConfig) -> JudgeConfig:
    """A config from a registered name, a YAML path, or a config.

    >>> resolve_config("random").judge
    'random'
    """
    if isinstance(judge, JudgeConfig):
        return judge
    text = str(judge)
    if text.endswith((".yaml", ".yml")) or Path(text).is_file():
        return load_config(text)
    return JudgeConfig(judge=text)


def prepare_judge(benchmark: str, config: JudgeConfig) -> Judge:
    """Instantiate the backend, check it judges ``benchmark`` (unknown names list the registered ones) and
    check its model (a family without a profile, options that cannot work with it) before the run."""
    judge = make_judge(config)
    judge.check_benchmark(benchmark)
    judge.check_model()
    return judge


def load_queries(
    benchmark: str, data_dir: str | Path, options: RunOptions, kind: type | None = None
) -> tuple[list[Query], list[dict[str, Any]]]:
    """Canonical queries of ``kind`` (default: the benchmark's first) and reference rows (the first
    ``options.limit`` rows and the queries they need; :func:`~mmjudge.scoring.rows_of_run`)."""
    from mmjudge.scoring import rows_of_run

    spec = get_benchmark(benchmark)
    rows = rows_of_run(benchmark, data_dir, options.limit)
    source = QuerySource(Path(data_dir), media_root=options.media_root, swap=options.swap, kind=kind)
    queries = spec.records.queries(rows, source)
    return queries, rows


@dataclass(frozen=True)
class PreparedRun:
    """Everything a run needs before it writes anything: the checked judge, its queries and reference rows."""

    benchmark: str
    """Benchmark id."""
    judge: Judge
    """The instantiated, checked judge (not loaded yet), with a single ``options.frames`` value applied."""
    queries: list[Query]
    """Canonical queries of the kind the judge answers."""
    rows: list[dict[str, Any]]
    """Reference rows (after ``options.limit``)."""
    options: RunOptions
    """The options the queries and rows were built with (the run uses the same)."""
    started: float
    """``time.perf_counter()`` when preparing began (a run's ``wall_s`` counts from there)."""


def prepare_run(
    benchmark: str, judge: str | Path | JudgeConfig, data_dir: str | Path, options: RunOptions = RunOptions()
) -> PreparedRun:
    """Resolve and check the judge, then read the rows and build the queries, once: bad input (unknown
    judge, bad config, a folder that is not a built benchmark, a bad ``limit``) fails here, before a run
    touches its output folder. :func:`run_prepared` then judges it."""
    started = time.perf_counter()
    config = resolve_config(judge)
    if len(options.frames) == 1:
        config = with_frames(config, options.frames[0])
    base = prepare_judge(benchmark, config)
    queries, rows = load_queries(benchmark, data_dir, options, base.check_benchmark(benchmark))
    return PreparedRun(benchmark, base, queries, rows, options, started)


def _variants(base: Judge, frames: tuple[int, ...]) -> dict[int | None, Judge]:
    """One judge per frame count sharing the loaded weights (shallow copies with their own config)."""
    if len(frames) <= 1:
        return {None: base}
    out: dict[int | None, Judge] = {}
    for count in frames:
        variant = copy.copy(base)
        variant.config = with_frames(base.config, count)
        variant.fingerprint = fingerprint(variant.config, variant.version)
        out[count] = variant
    return out


def run_judge(
    benchmark: str,
    judge: str | Path | JudgeConfig,
    data_dir: str | Path,
    out_dir: str | Path,
    options: RunOptions = RunOptions(),
) -> RunResult:
    """Judge every query of a built benchmark folder, resuming from ``out_dir/cache``.

    Args:
        benchmark: benchmark id.
        judge: registered judge name, judge config YAML path, or a :class:`JudgeConfig`.
        data_dir: built benchmark folder.
        out_dir: run folder; verdicts are cached in ``out_dir/cache/rank<k>.jsonl``.
        options: frames, decode workers, swap, limit, batch size, media root.

    Returns:
        The verdicts per frame setting (complete on the main rank).
    """
    return run_prepared(prepare_run(benchmark, judge, data_dir, options), out_dir)


def run_prepared(prepared: PreparedRun, out_dir: str | Path) -> RunResult:
    """Judge a :func:`prepare_run` result's queries, resuming from ``out_dir/cache``."""
    p = prepared
    return run_queries(p.benchmark, p.judge, p.queries, p.rows, out_dir, p.options, started=p.started)


def run_queries(
    benchmark: str,
    base: Judge,
    queries: list[Query],
    rows: list[dict[str, Any]],
    out_dir: str | Path,
    options: RunOptions = RunOptions(),
    *,
    started: float | None = None,
) -> RunResult:
    """Judge the given ``queries`` with a prepared judge, through the same cache, shards and decode pool.

    :func:`run_judge` calls it with the benchmark's canonical queries; derived queries (e.g. the robustness
    probes' variants) go through here too, so they share the cache of ``out_dir``. ``base`` is loaded
    once, the first time a call has something to judge (its weights are reused by later calls).
    ``options.frames`` with one value must already be applied to ``base.config`` (see :func:`with_frames`).
    """
    started = time.perf_counter() if started is None else started
    config = base.config
    variants = _variants(base, options.frames)
    dist = init_dist()
    cache = VerdictCache(Path(out_dir) / "cache", rank=dist.rank)
    keys = _keys(queries, variants)
    mine, cached = _my_share(queries, keys, cache, dist)
    stats = RunStats(items=len(queries), cached=cached, world=dist.world, retried=cache.retried)
    if mine:
        _load_once(base, dist.device)
        variants = _variants(base, options.frames)  # the copies share what load() set up
    lookup = {i.item_id: i for i in queries}
    new = _judge_queries([lookup[i] for i in mine], variants, keys, cache, options, dist, stats)
    gathered = dist.gather(new)
    configs = {n: v.config for n, v in variants.items()}
    result = RunResult(benchmark, config, queries, rows, configs, base.version, is_main=dist.is_main)
    stats.judged = len(gathered)
    if dist.is_main:
        result.verdicts = _collect(gathered, queries, keys, cache)
        _count_failures(result, stats, out_dir)
    stats.wall_s = time.perf_counter() - started
    result.stats = stats
    dist.barrier()
    return result


def _my_share(
    queries: Sequence[Query], keys: dict[int | None, dict[str, str]], cache: VerdictCache, dist: Dist
) -> tuple[list[str], int]:
    """The ids of the queries this rank judges (those with a setting not cached yet, sharded across ranks, in
    canonical order) and how many verdicts the cache already holds."""
    todo = [i.item_id for i in queries if any(per[i.item_id] not in cache for per in keys.values())]
    cached = sum(k in cache for per in keys.values() for k in per.values())
    dist.barrier()  # every rank has read the cache before any rank appends to it
    return dedupe_in_order(list(dist.shard(todo)), todo), cached


def _collect(
    gathered: list[tuple[str, Verdict]],
    queries: Sequence[Query],
    keys: dict[int | None, dict[str, str]],
    cache: VerdictCache,
) -> dict[int | None, list[Verdict]]:
    """Main rank: cache every rank's new verdicts; each setting's verdicts in the order of ``queries``."""
    for key, verdict in gathered:
        cache.remember(key, verdict)
    return {n: [cache.get(per[i.item_id]) for i in queries] for n, per in keys.items()}


def _count_failures(result: RunResult, stats: RunStats, out_dir: str | Path) -> None:
    """Main rank: count the run's failed, transient and errored verdicts into ``stats`` and warn about them."""
    verdicts = [v for per in result.verdicts.values() for v in per]
    stats.failed = sum(v.no_judgment for v in verdicts)
    stats.transient = sum(v.transient for v in verdicts)
    errors = item_errors(verdicts)
    stats.errored, stats.first_errors = errors.errored, list(errors.messages)
    for one in (e for e in setting_errors(result) if e.errored):
        logger.warning("%s", one.describe())
    if stats.transient:
        logger.warning(
            "%d of %d verdicts failed for a transient reason (connection, timeout, 5xx, out of memory); "
            "they count as no_judgment in this run's files and are judged again when you rerun into %s",
            stats.transient, len(verdicts), out_dir,
        )  # fmt: skip


def setting_errors(result: RunResult, label: str = "") -> list[ItemErrors]:
    """The errored verdicts of each frame setting of a run (main rank), ``label`` (a probe's name) first.

    ``setting`` reads ``"<label> frames=<n>"`` in a sweep, else ``label``.
    """
    return [
        item_errors(per, " ".join(filter(None, (label, f"frames={n}" if n is not None else ""))))
        for n, per in result.verdicts.items()
    ]


def sharing_weights(base: Judge, config: JudgeConfig) -> Judge:
    """A judge with another config (its own fingerprint) that shares ``base``'s weights.

    Whichever of the two :func:`run_queries` loads first loads ``base``; the other then takes its loaded
    state, so weights are loaded once however many configs (seeds, sampling rates) are judged.
    """
    other = copy.copy(base)
    other.config = config
    other.fingerprint = fingerprint(config, other.version)
    other._mmjudge_shares = getattr(base, "_mmjudge_shares", base)  # type: ignore[attr-defined]
    return other


def _load_once(judge: Judge, device: str) -> None:
    """Load ``judge`` (or the judge it shares weights with) once per device, across ``run_queries`` calls."""
    root = getattr(judge, "_mmjudge_shares", judge)
    if getattr(root, "_mmjudge_loaded_on", None) != device:
        root.load(device)
        root._mmjudge_loaded_on = device  # type: ignore[union-attr]
    if root is not judge:
        config, own = judge.config, judge.fingerprint
        judge.__dict__.update(root.__dict__)  # the loaded state (weights, processor, device)
        judge.config, judge.fingerprint, judge._mmjudge_shares = config, own, root  # type: ignore[attr-defined]


def _keys(queries: Sequence[Query], variants: dict[int | None, Judge]) -> dict[int | None, dict[str, str]]:
    hasher = MediaHasher()
    hasher.prime(p for query in queries for p in media_paths(query))
    return {
        n: {i.item_id: cache_key(v.fingerprint, i, v.media_request(i), hasher) for i in queries}
        for n, v in variants.items()
    }


def _judge_queries(
    queries: list[Query],
    variants: dict[int | None, Judge],
    keys: dict[int | None, dict[str, str]],
    cache: VerdictCache,
    options: RunOptions,
    dist: Dist,
    stats: RunStats,
) -> list[tuple[str, Verdict]]:
    """Decode ahead, judge in batches, cache each verdict; return the new (key, verdict) pairs."""
    from tqdm.auto import tqdm

    batch_size = options.batch_size or next(iter(variants.values())).config.batch_size
    new: list[tuple[str, Verdict]] = []
    jobs = ((i, [v.media_request(i) for v in variants.values()]) for i in queries)
    bar = tqdm(total=len(queries), desc="judging", unit="query", disable=not (dist.is_main and options.progress))
    started = time.perf_counter()
    made_ahead = [v.model_inputs for v in variants.values()]  # the judges' processor calls, in the workers
    with Prefetcher(options.decode_workers, backend=options.video_backend, model_inputs=made_ahead) as prefetcher:
        for batch in _timed_batches(prefetcher.map(jobs), batch_size, stats):
            for position, (count, variant) in enumerate(variants.items()):
                todo = [d for d in batch if keys[count][d.query.item_id] not in cache]
                done = [(keys[count][v.item_id], v) for v in _judge_batch(variant, todo, position, stats)]
                cache.put_many(done)
                new.extend(done)
            bar.update(len(batch))
    bar.close()
    stats.loop_s = time.perf_counter() - started
    return new


def _timed_batches(decoded: Iterator[Decoded], size: int, stats: RunStats) -> Iterator[list[Decoded]]:
    batch: list[Decoded] = []
    while True:
        waited = time.perf_counter()
        item = next(decoded, None)
        stats.wait_s += time.perf_counter() - waited
        if item is not None:
            stats.decode_s += item.seconds
            batch.append(item)
        if batch and (item is None or len(batch) >= size):
            yield batch
            batch = []
        if item is None:
            return


def _judge_batch(judge: Judge, batch: list[Decoded], position: int, stats: RunStats) -> list[Verdict]:
    """Verdicts for ``batch``: decode failures and model errors become ``no_judgment``."""
    ready = [d for d in batch if d.error is None]
    verdicts = {
        d.query.item_id: Verdict.failed(d.query.item_id, str(d.error), transient=_out_of_memory(str(d.error)))
        for d in batch
        if d.error is not None
    }
    if ready:
        inputs = [d.input(position) for d in ready]
        started = time.perf_counter()
        for verdict in _call_judge(judge, inputs):
            verdicts[verdict.item_id] = verdict
        stats.judge_s += time.perf_counter() - started
    return [verdicts[d.query.item_id] for d in batch]


def _call_judge(judge: Judge, inputs: list[Any]) -> list[Verdict]:
    try:
        verdicts = judge.judge_batch(inputs)
    except Exception as exc:  # a model error is a per-query failure
        if len(inputs) > 1:  # isolate the failing query (or queries)
            return [v for one in inputs for v in _call_judge(judge, [one])]
        logger.warning("judge %s failed on %s: %s", judge.config.judge, inputs[0].query.item_id, exc)
        error = f"{type(exc).__name__}: {exc}"
        return [Verdict.failed(inputs[0].query.item_id, error, transient=is_transient(exc))]
    expected = [i.query.item_id for i in inputs]
    if [v.item_id for v in verdicts] != expected:
        raise RuntimeError(
            f"judge {judge.config.judge!r} returned verdicts for {[v.item_id for v in verdicts][:3]}..., "
            f"expected one per input in order: {expected[:3]}..."
        )
    return verdicts


def _out_of_memory(error: str) -> bool:
    """A decode failure is the query's (unreadable media) unless the decoder ran out of memory."""
    return "MemoryError" in error or "out of memory" in error.lower()


__all__ = [
    "PreparedRun",
    "RunOptions",
    "RunResult",
    "RunStats",
    "load_queries",
    "prepare_judge",
    "prepare_run",
    "resolve_config",
    "run_judge",
    "run_prepared",
    "run_queries",
    "setting_errors",
    "sharing_weights",
]
