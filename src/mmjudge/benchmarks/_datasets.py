"""Dataset folders by benchmark id: build one from a raw release, or write the synthetic samples."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._exports import FRAMEWORK, eval_yaml_document
from mmjudge.benchmarks._registry import benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError

__all__ = ["build_dataset", "write_benchmark_eval_yaml", "write_sample_data"]


def build_dataset(
    benchmark: str, source: str | Path, out: str | Path, *, eval_yaml: bool = False, **options: Any
) -> Path:
    """Build the Hub-ready folder of ``benchmark`` from its raw release at ``source``.

    The keyword options are those of :func:`mmjudge.data.build.build_folder` (``media_root``,
    ``allow_missing_media``, ``overwrite``, ``card_template``, ``card_notes``) and the benchmark's own
    build options. With ``eval_yaml`` the folder also gets the benchmark's ``eval.yaml`` (see
    :func:`write_benchmark_eval_yaml`). An unknown id raises :class:`~mmjudge.errors.UnknownNameError`
    listing the known ones.
    """
    from mmjudge.data.build import build_folder

    spec = get_benchmark(benchmark)
    folder = build_folder(benchmark, spec.data.build_tables, source, out, **options)
    if eval_yaml:
        write_benchmark_eval_yaml(benchmark, folder)
    return folder


def write_benchmark_eval_yaml(benchmark: str, folder: str | Path) -> Path:
    """Write ``benchmark``'s ``eval.yaml`` into a built ``folder`` and say in its card why it is not
    pushed by default (the ``evaluation_framework`` key must first be accepted by the Hub)."""
    from mmjudge.data.eval_yaml import add_card_note, write_eval_yaml

    spec = get_benchmark(benchmark)
    if not spec.present.exports.eval_tasks:
        raise ConfigError(f"{benchmark} declares no eval tasks (Benchmark.present.exports.eval_tasks): no eval.yaml to write")
    document = eval_yaml_document(spec.title, spec.present.exports.description, spec.present.exports.eval_tasks)
    path = write_eval_yaml(folder, document)
    add_card_note(Path(folder) / "README.md", FRAMEWORK)
    return path


def write_sample_data(
    out: str | Path,
    *,
    size: str = "small",
    seed: int = 0,
    benchmarks: Sequence[str] | None = None,
    overwrite: bool = False,
) -> dict[str, Path]:
    """Write the synthetic sample of the benchmarks (default: all, in registry order) and build each.

    See :func:`mmjudge.data.sample.write_samples`; an unknown id is refused before anything is written.

    >>> write_sample_data("/tmp/nowhere", benchmarks=["no_such_benchmark"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: unknown benchmark ids ['no_such_benchmark']; expected some of (...)
    """
    from mmjudge.data.sample import write_samples

    known = benchmark_ids()
    ids = list(known if benchmarks is None else benchmarks)
    unknown = [b for b in ids if b not in known]
    if unknown:
        raise ConfigError(f"unknown benchmark ids {unknown}; expected some of {known}")
    writers = {b: (get_benchmark(b).data.write_raw, get_benchmark(b).data.build_tables) for b in ids}
    return write_samples(out, writers, size=size, seed=seed, overwrite=overwrite)
