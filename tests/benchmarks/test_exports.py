"""Each benchmark's exports (``Benchmark.exports``) name documented result keys and well-formed tasks."""

from __future__ import annotations

import re

import pytest

from mmjudge.benchmarks import benchmark_ids, get_benchmark

BUILTIN = ("isovrbench", "mist", "emoprefer", "emorealm")


@pytest.mark.parametrize("benchmark", BUILTIN)
def test_eval_tasks_are_documented_keys_with_one_headline(benchmark):
    spec = get_benchmark(benchmark)
    tasks = spec.present.exports.eval_tasks
    assert [t for t in tasks if t.main] == [spec.present.exports.main_task()]
    assert spec.present.exports.main_task().key == spec.metrics.headline[0]  # the leaderboard's ranking key
    ids = [t.id for t in tasks]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[a-z0-9_]+", i) for i in ids)
    for task in tasks:
        spec.metrics.result_key(task.key)  # raises KeyError for an undocumented key
    assert spec.present.exports.description


@pytest.mark.parametrize("benchmark", BUILTIN)
def test_lmms_tasks_are_documented_keys_and_named_after_the_benchmark(benchmark):
    spec = get_benchmark(benchmark)
    assert spec.present.exports.lmms_tasks
    for task in spec.present.exports.lmms_tasks:
        assert task.name.startswith(f"{benchmark}_") and task.keys
        for key in task.keys:
            spec.metrics.result_key(key)


def test_lmms_task_names_are_unique_across_benchmarks():
    names = [t.name for b in benchmark_ids() for t in get_benchmark(b).present.exports.lmms_tasks]
    assert len(names) == len(set(names))
    assert not {f"mmjudge_{b}" for b in benchmark_ids()} & set(names)  # group names stay free
