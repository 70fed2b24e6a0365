"""The samples of the pairwise video preference benchmarks: the same arguments write the same bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from mmjudge.benchmarks import get_benchmark


def _digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


@pytest.mark.parametrize("benchmark", ["videogen_rewardbench", "genai_bench_video", "mj_bench_video"])
def test_the_sample_is_the_same_in_every_run(benchmark, tmp_path):
    write = get_benchmark(benchmark).data.write_raw
    write(tmp_path / "one", size="small", seed=0)
    write(tmp_path / "two", size="small", seed=0)
    first, second = _digests(tmp_path / "one"), _digests(tmp_path / "two")
    assert first and first == second
