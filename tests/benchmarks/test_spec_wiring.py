"""How a benchmark's queries are built (``QuerySource``, ``RecordSpec.queries``) and how a split package wires
its specs from its modules by name (``RecordSpec.from_modules``, ``Presenters.from_modules``)."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from mmjudge.benchmarks import DataSpec, LeaderboardSpec, Presenters, QuerySource, RecordSpec, get_benchmark
from mmjudge.benchmarks.emoprefer.queries import EmoPreferPair
from mmjudge.benchmarks.emorealm.queries import EmoRealmQuestion
from mmjudge.errors import SchemaError
from mmjudge.queries import ChoiceQuery, PairQuery, ScoreQuery

EMOREALM_ROW = {"id": "q1", "video_path": "clips/a.mp4", "audio_path": "", "question": "Is she happy?",
                "choices": ["(A) yes", "(B) no"], "task": "emotion_reasoning"}  # fmt: skip
EMOPREFER_ROW = {"name": "s1", "video_path": "v/s1.mp4", "audio_path": None, "a1": "calm", "a2": "angry"}


def test_media_resolve_under_the_media_root_else_the_folder(tmp_path: Path) -> None:
    records = get_benchmark("emorealm").records
    [in_folder] = records.queries([EMOREALM_ROW], QuerySource(tmp_path / "data"))
    [gated] = records.queries([EMOREALM_ROW], QuerySource(tmp_path / "data", media_root=tmp_path / "DFEW"))
    assert isinstance(in_folder, EmoRealmQuestion)
    assert in_folder.video == tmp_path / "data" / "clips" / "a.mp4" and in_folder.audio is None
    assert gated.video == tmp_path / "DFEW" / "clips" / "a.mp4"
    with pytest.raises(SchemaError, match="escapes the root"):
        records.queries([{**EMOREALM_ROW, "video_path": "../a.mp4"}], QuerySource(tmp_path))


def test_the_first_kind_is_the_default_and_swap_adds_the_reversed_order(tmp_path: Path) -> None:
    records = get_benchmark("emoprefer").records
    forward = records.queries([EMOPREFER_ROW], QuerySource(tmp_path))
    both = records.queries([EMOPREFER_ROW], QuerySource(tmp_path, swap=True, kind=PairQuery))
    assert [type(q) for q in forward] == [EmoPreferPair]
    assert [(q.item_id, q.a1) for q in both] == [("s1", "calm"), ("s1::reversed", "angry")]


def test_a_kind_the_benchmark_does_not_ask_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"asks ChoiceQuery queries, not ScoreQuery; pick a judge"):
        get_benchmark("emorealm").records.queries([EMOREALM_ROW], QuerySource(tmp_path, kind=ScoreQuery))


def _module(name: str, **attrs: object) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def test_record_spec_reads_required_and_optional_hooks_by_name() -> None:
    def build(rows: object, source: object) -> list:
        return []

    queries = _module("pkg.queries", build_queries=build, records_from_verdicts=len)
    records = _module("pkg.records", expected_ids=list, score_inputs=dict, VALUE_FIELDS={"x": (str,)},
                      KEY_FIELDS=("side",), FIELD_VALUES={"side": ("left", "right")}, missing_groups=sorted)  # fmt: skip
    spec = RecordSpec.from_modules(queries, records, unit="items", query_kinds=(ChoiceQuery,), media=frozenset())
    assert (spec.build_queries, spec.records_from_verdicts, spec.expected_ids) == (build, len, list)
    assert spec.key_fields == ("side",) and spec.missing_groups is sorted
    assert spec.field_values == {"side": ("left", "right")}
    assert spec.record_id is None and spec.check_record is None and spec.noun == "cell"  # not defined: defaults
    del records.score_inputs
    with pytest.raises(TypeError, match=r"pkg\.records defines no 'score_inputs'; a benchmark package's records"):
        RecordSpec.from_modules(queries, records, unit="items", query_kinds=(ChoiceQuery,), media=frozenset())


def test_presenters_read_the_leaderboard_report_and_exports_modules() -> None:
    board = _module("pkg.leaderboard", VIEWS=(), figure=print, OPTIONS={"mode": "strict"})
    report = _module("pkg.report", plot=print, tables=list)
    exports = _module("pkg.exports", EXPORTS="tasks")
    present = Presenters.from_modules(board, report, exports)
    assert present.leaderboard == LeaderboardSpec(views=(), figure=print, options={"mode": "strict"})
    assert (present.report_plot, present.report_tables, present.sweep_series, present.exports) == (
        print, list, None, "tasks"
    )
    with pytest.raises(TypeError, match=r"pkg\.leaderboard defines no 'VIEWS'"):
        Presenters.from_modules(_module("pkg.leaderboard", figure=print), report, exports)


def test_data_spec_reads_the_builder_and_the_sample_writer() -> None:
    build, sample = _module("pkg.build", build_tables=dict), _module("pkg.sample", write_raw=list)
    spec = DataSpec.from_modules(build, sample, reference_config="all", sample_swap=True)
    assert spec == DataSpec(reference_config="all", build_tables=dict, write_raw=list, sample_swap=True)
    with pytest.raises(TypeError, match=r"pkg\.sample defines no 'write_raw'"):
        DataSpec.from_modules(build, _module("pkg.sample"), reference_config="all")


@pytest.mark.parametrize(
    ("benchmark", "options", "side"),
    [("mist", {"mode": "strict"}, {}), ("emorealm", {"mode": "strict"}, {"official": {"mode": "official"}}),
     ("isovrbench", {}, {}), ("emoprefer", {}, {})],
)  # fmt: skip
def test_the_registered_leaderboards_keep_their_ranked_and_side_scorings(benchmark: str, options: dict,
                                                                          side: dict) -> None:  # fmt: skip
    board = get_benchmark(benchmark).present.leaderboard
    assert dict(board.options) == options and dict(board.side_scorings) == side
    assert (board.degenerate is not None) == (benchmark == "mist")
    assert get_benchmark(benchmark).present.sweep_series is not None or benchmark != "isovrbench"
