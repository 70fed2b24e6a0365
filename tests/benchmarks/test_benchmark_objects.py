"""The registered Benchmark objects: one per id, complete, and read by the generic layers.

The report's headline and the leaderboard's ranking column come from the same declaration; every
leaderboard column's direction is its result key's ``higher_is_better`` (MIST's direction is ranked
lower-is-better, as declared); a benchmark registers through the ``mmjudge.benchmarks`` group.
"""

from __future__ import annotations

import pytest

from mmjudge import registry
from mmjudge.benchmarks import BENCHMARKS, Benchmark, benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.judges import get_judge
from mmjudge.leaderboard import StoredSubmission, build_table
from mmjudge.leaderboard.core.columns import columns, higher_is_better, ranked_column, views
from mmjudge.queries import KINDS, MEDIA, ScoreQuery
from mmjudge.report import headline


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_each_benchmark_is_one_complete_object(benchmark: str) -> None:
    spec = get_benchmark(benchmark)
    assert isinstance(spec, Benchmark) and spec.id == benchmark
    assert spec.package == f"mmjudge.benchmarks.{benchmark}"
    assert spec.records.query_kinds and all(any(issubclass(k, base) for base in KINDS) for k in spec.records.query_kinds)
    assert spec.records.media <= set(MEDIA)
    assert spec.metrics.headline and all(spec.metrics.result_key(k) for k in spec.metrics.headline)
    assert spec.data.reference_config and spec.present.leaderboard.views and spec.present.report_plot is not None


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_leaderboard_ranks_by_the_report_headline(benchmark: str) -> None:
    spec = get_benchmark(benchmark)
    default = spec.present.leaderboard.views[0]
    first = spec.metrics.headline[0]
    scores = {key.name: 50.0 for key in spec.metrics.result_keys if "<" not in key.name}
    row = StoredSubmission(benchmark, "verified", "j", "m", "u", {**scores, "mode": "strict"}, id=1)
    table = build_table(benchmark, [row])
    ranked = next(c for c in default.columns if c.header == table.headers[table.rank_column])
    assert (default.rank_by or first) == ranked.key and table.rank_column == 2  # right after the judge
    assert first in headline(benchmark, scores)


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_column_directions_are_the_result_keys(benchmark: str) -> None:
    spec = get_benchmark(benchmark)
    for view in views(benchmark):
        declared = next(v for v in spec.present.leaderboard.views if v.name == view).columns
        assert columns(benchmark, view) == list(declared)  # the leaderboard reads the benchmark's own columns
        for col in declared:
            if not col.text:
                assert higher_is_better(benchmark, col) == spec.metrics.higher_is_better(col.key), (benchmark, col.key)


def test_mist_direction_is_ranked_lower_is_better() -> None:
    direction = next(c for c in columns("mist") if c.header == "direction (explicit)")
    assert higher_is_better("mist", direction) is False
    assert higher_is_better("mist", ranked_column("mist")) is False  # the change rate ranks the rows


def test_judges_answer_kinds_and_their_benchmarks_follow() -> None:
    assert get_judge("random").benchmarks == set(benchmark_ids())
    assert get_judge("frame_smoothness").benchmarks == {
        b for b in benchmark_ids() if ScoreQuery in get_benchmark(b).records.query_kinds
    }
    assert get_judge("label_choice").benchmarks == {"mist", "emoprefer", "emorealm"}
    assert get_judge("pairwise_describe").benchmarks == {"emoprefer"}
    assert get_judge("audio_visual").benchmarks == {"emoprefer", "emorealm"}  # MIST needs its image


def test_a_benchmark_from_an_entry_point_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    original = get_benchmark(benchmark_ids()[0])
    other = Benchmark("external", "External", original.data, original.records, original.metrics, original.present)

    class FakeEntryPoint:
        name = "external"

        @staticmethod
        def load() -> Benchmark:
            return other

    def fake_entry_points(group: str) -> list[FakeEntryPoint]:
        return [FakeEntryPoint()] if group == registry.BENCHMARK_ENTRY_POINT_GROUP else []

    monkeypatch.setattr(registry.metadata, "entry_points", fake_entry_points)
    reg: registry.Registry[Benchmark] = registry.Registry(
        "benchmark", {"first": "mmjudge.benchmarks.isovrbench:BENCHMARK"}, registry.BENCHMARK_ENTRY_POINT_GROUP
    )
    assert reg.names() == ["first", "external"]
    assert reg.get("external") is other and reg.get("first").id == "isovrbench"


def test_an_entry_point_that_is_not_a_benchmark_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BENCHMARKS._entries, "broken", object())
    with pytest.raises(ConfigError, match=r"must name a mmjudge\.benchmarks\.Benchmark"):
        get_benchmark("broken")
