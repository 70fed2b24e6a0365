"""The runner's process place without torch: one process runs weight-free judges; several need the extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mmjudge.errors import MissingDependencyError
from mmjudge.runner.dist import init_dist, launched_world

_LAUNCHER_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE")


@pytest.fixture
def without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import torch`` and ``import accelerate`` fail as they do without the ``judges`` extra."""
    for name in ("torch", "accelerate"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in _LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)


def test_a_single_process_without_torch_runs_on_the_cpu(without_torch: None) -> None:
    dist = init_dist()
    assert (dist.rank, dist.world, dist.device, dist.state, dist.is_main) == (0, 1, "cpu", None, True)
    assert dist.shard(["a", "b"]) == ["a", "b"] and dist.gather([1]) == [1]
    dist.barrier()


def test_several_processes_without_torch_name_the_install_command(
    without_torch: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(MissingDependencyError) as caught:
        init_dist()
    assert "a run over 2 processes" in str(caught.value)
    assert "pip install 'mmjudge[judges]'" in str(caught.value)


def test_launched_world_reads_the_launchers_variables() -> None:
    assert launched_world({}) == 1
    assert launched_world({"WORLD_SIZE": "1"}) == 1
    assert launched_world({"WORLD_SIZE": "8", "LOCAL_RANK": "3"}) == 8
    assert launched_world({"OMPI_COMM_WORLD_SIZE": "4"}) == 4
    assert launched_world({"WORLD_SIZE": ""}) == 1


def test_a_weight_free_judge_runs_its_queries_without_torch(
    sample_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner's single-process path (shards, cache, gather) with torch absent; the queries are read
    first, as ``datasets`` imports torch whenever ``sys.modules`` names it."""
    from mmjudge.runner import RunOptions, load_queries, prepare_judge, resolve_config, run_queries

    options = RunOptions(media_root=sample_data / "raw" / "emorealm" / "DFEW", progress=False)
    queries, rows = load_queries("emorealm", sample_data / "emorealm", options)
    judge = prepare_judge("emorealm", resolve_config("random"))
    for name in ("torch", "accelerate"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in _LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)
    result = run_queries("emorealm", judge, queries, rows, tmp_path / "run", options)
    assert result.stats is not None and result.stats.world == 1
    verdicts = [v for per in result.verdicts.values() for v in per]
    assert len(verdicts) == len(queries) > 0 and not any(v.errored for v in verdicts)
