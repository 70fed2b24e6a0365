"""Tables and plots: the paper's breakdown, CIs, ranking, views, reported rows, figures."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mmjudge.benchmarks.isovrbench import HUMAN_ACCURACY, INTERVENTIONS
from mmjudge.leaderboard import StoredSubmission, build_table
from mmjudge.leaderboard.board.grid import Cell, Role, Table, TableColumn
from mmjudge.leaderboard.board.plots import figure
from mmjudge.leaderboard.board.table import DETAIL_HEADERS
from mmjudge.leaderboard.core.reported import reported_rows


def _iso(row_id: int, average: float, **extra) -> StoredSubmission:
    results = {f"accuracy/{iv}": average for iv in INTERVENTIONS}
    results.update({f"accuracy/{iv}_ci_low": average - 5 for iv in INTERVENTIONS})
    results.update({f"accuracy/{iv}_ci_high": average + 5 for iv in INTERVENTIONS})
    results.update({f"decided_accuracy/{iv}": average + 1 for iv in INTERVENTIONS})
    results.update(
        average=average,
        average_ci_low=average - 2,
        average_ci_high=average + 2,
        tie_rate=3.0,
        decided_average=average + 1,
        decided_average_ci_low=average - 1,
        decided_average_ci_high=average + 3,
        decided_accuracy_pooled=average + 2,
    )
    results.update(extra)
    return StoredSubmission("isovrbench", "verified", f"j{row_id}", f"m{row_id}", "u", results, id=row_id)


def test_isovrbench_breakdown_ranking_and_views() -> None:
    table = build_table("isovrbench", [_iso(1, 55.0), _iso(2, 71.25), _iso(3, 60.0, hidden_note=1)])
    assert table.headers[:4] == ["Rank", "Judge", "Average", "motion: temporal_shuffle"]
    assert table.rank_column == 2 and "text: attribute_edit" in table.headers
    assert table.headers[-len(DETAIL_HEADERS) :] == list(DETAIL_HEADERS)
    assert table.column("id") == [2, 3, 1] and table.column("Rank") == [1, 2, 3]
    assert table.display[0][table.rank_column] == "71.2 [69.2, 73.2]"
    decided = build_table("isovrbench", [_iso(1, 55.0)], view="decided")
    assert decided.headers[decided.rank_column] == "Decided avg. (Table 5)"  # the mean of the eight, not pooled
    assert decided.values[0][decided.rank_column] == 56.0
    assert decided.display[0][decided.rank_column] == "56.0 [54.0, 58.0]"
    assert decided.values[0][3] == 56.0
    assert decided.display[0][3] == "56.0 (no CI)"  # a verified estimate stored without its interval
    with pytest.raises(ValueError, match="view"):
        build_table("isovrbench", [], view="ties_right")


def test_hidden_and_other_benchmark_rows_are_left_out() -> None:
    hidden = StoredSubmission("isovrbench", "verified", "j", "m", "u", {"average": 1.0}, id=9, hidden=True)
    other = StoredSubmission("emoprefer", "verified", "j", "m", "u", {"waf_2class": 1.0}, id=8)
    assert build_table("isovrbench", [hidden, other]).values == []


def _stored(benchmark: str) -> list[StoredSubmission]:
    return [StoredSubmission(**{**r.__dict__, "id": k + 1}) for k, r in enumerate(reported_rows(benchmark))]


def test_reported_rows_show_the_published_numbers_without_a_ci() -> None:
    table = build_table("isovrbench", _stored("isovrbench"))
    assert table.values[0][1] == "VideoReward" and table.values[0][table.rank_column] == 73.3
    assert (
        table.display[0][table.rank_column] == "73.3"
    )  # as printed; the legend says a reported number stands alone
    decided = build_table("isovrbench", _stored("isovrbench"), view="decided")
    ranked = [(row[1], row[decided.rank_column]) for row in decided.values]
    assert ranked[:2] == [("VideoReward", 73.6), ("VisionReward", 71.3)]  # Table 5's order
    assert ranked[-2:] == [("GPT-4.1", None), ("Qwen3-VL-8B", None)]  # not in Table 5: no decided numbers
    emo = build_table("emoprefer", _stored("emoprefer"))
    top = emo.display[0]
    assert emo.values[0][1] == "Qwen2.5-Omni" and top[emo.rank_column] == "67.2 ± 0.00 (2 rounds)"
    assert emo.values[0][emo.headers.index("strategy")] == "S2"
    gpt4o = next(d for d, v in zip(emo.display, emo.values, strict=True) if v[1] == "GPT-4o")
    assert gpt4o[emo.rank_column] == "59.3 ± 0.08 (2 rounds)"


def test_mist_columns_read_the_stored_intervals_and_rank_lower_first() -> None:
    base = {"change_rate/none_to_misleading/explicit": 25.0, "change_rate/none_to_misleading/explicit/n": 80,
            "change_rate/none_to_misleading/explicit_ci_low": 17.0, "change_rate/none_to_misleading/explicit_ci_high": 35.5,
            "direction/explicit": 60.0, "direction/explicit/n_changed": 20,
            "alt_test/informed/explicit/n_passed": 1, "alt_test/informed/explicit/n_tests": 24}  # fmt: skip
    worse = dict(base, **{"change_rate/none_to_misleading/explicit": 50.0})
    rows = [StoredSubmission("mist", "verified", "worse", "m1", "u", worse, id=1),
            StoredSubmission("mist", "verified", "better", "m2", "u", base, id=2)]  # fmt: skip
    table = build_table("mist", rows)
    assert table.headers[table.rank_column] == "change none→misleading (explicit)"  # Table 6's column
    assert table.column("Judge") == ["better", "worse"]
    assert table.display[0][table.rank_column] == "25.0 [17.0, 35.5]"  # the scorer's interval, as stored
    column = table.headers.index("direction (explicit)")
    assert table.display[0][column] == "60.0 (no CI)"  # a count beside it is not turned into an interval
    assert table.values[0][table.headers.index("alt-test informed (explicit): passed")] == "1/24"
    published = build_table("mist", _stored("mist"))
    best = published.values[0]
    assert best[1] == "GPT-5.2" and best[published.rank_column] == 9.1
    assert best[published.headers.index("direction (explicit)")] == 28.0


@pytest.mark.parametrize("module", ["board.table", "board.plots"])
def test_the_leaderboard_computes_no_interval(module) -> None:
    """Tables and figures import no statistics: every interval is a key the scorer stored."""
    import importlib

    path = Path(importlib.import_module(f"mmjudge.leaderboard.{module}").__file__)
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert not {name for name in imported if name.startswith(("statsmodels", "scipy", "mmjudge.stats"))}


def test_emorealm_columns_and_missing_values() -> None:
    row = StoredSubmission("emorealm", "verified", "j", "m", "u", {"overall": 40.0, "mode": "official"}, id=1)
    table = build_table("emorealm", [row])
    assert table.headers[table.rank_column] == "Average (strict)"
    assert table.values[0][table.rank_column] is None  # an official-mode row has no strict number
    assert table.values[0][table.headers.index("Average (official)")] == 40.0
    mode = table.headers.index("mode")
    assert table.values[0][mode] == "official" and table.datatypes[mode] == "str"
    assert table.display[0][table.headers.index("reasoning_basic_audio")] == "—"


def test_emorealm_is_ranked_strict_with_the_official_average_beside_it() -> None:
    """Issue 11 item 7: marking wrong answers no_judgment lifts the official average, not the ranked one."""
    honest = StoredSubmission("emorealm", "verified", "honest", "m1", "u", {"overall": 30.0, "mode": "strict"},
                              side_results={"official": {"overall": 30.0, "mode": "official"}}, id=1)  # fmt: skip
    gamed = StoredSubmission("emorealm", "verified", "gamed", "m2", "u", {"overall": 28.0, "mode": "strict"},
                             side_results={"official": {"overall": 40.0, "mode": "official"}}, id=2)  # fmt: skip
    table = build_table("emorealm", [gamed, honest])
    assert table.column("Judge") == ["honest", "gamed"]
    official = table.headers.index("Average (official)")
    assert [r[official] for r in table.values] == [30.0, 40.0]


def test_every_table_shows_coverage_and_no_judgment_rate() -> None:
    """Issue 11 item 6: coverage and no_judgment rate are columns of every benchmark."""
    coverage = {"expected": 4000, "present": 4000, "no_judgment": 383, "coverage": 100.0,
                "no_judgment_rate": 9.575}  # fmt: skip
    for benchmark, results in (("isovrbench", {"average": 50.0}), ("mist", {}), ("emoprefer", {}),
                               ("emorealm", {"overall": 1.0, "mode": "strict"})):  # fmt: skip
        row = StoredSubmission(benchmark, "verified", "j", "m", "u", results, coverage=coverage, id=1)
        table = build_table(benchmark, [row])
        files = slice(-len(DETAIL_HEADERS) - 2, -len(DETAIL_HEADERS))
        assert table.headers[files] == ["Coverage %", "No judgment %"], benchmark
        assert table.values[0][files] == [100.0, 9.575]
        assert table.display[0][files] == ["100.0", "9.6"]  # exact counts of the file: no interval
        reported = build_table(
            benchmark, [StoredSubmission(benchmark, "reported", "j", "m", "u", results, id=2)]
        )
        assert reported.display[0][files] == ["—", "—"]


def test_isovrbench_figure_spans_the_published_judges_and_marks_humans() -> None:
    published = _stored("isovrbench")
    fig = figure("isovrbench", [*published, _iso(99, 55.0)])
    (ax,) = fig.axes
    spans = [c for c in ax.collections if c.get_gid() == "span"]
    assert len(spans) == len(INTERVENTIONS)
    for span, iv in zip(spans, INTERVENTIONS, strict=True):
        values = [r.results[f"accuracy/{iv}"] for r in published]
        assert sorted(span.get_segments()[0][:, 1]) == [min(values), max(values)]
    # temporal shuffle spans the eleven published judges, 11.9 (LiFT) to 60.8 (VideoReward), as in Table 2
    assert sorted(spans[0].get_segments()[0][:, 1]) == [11.9, 60.8]
    stars = [c for c in ax.collections if c.get_label() == "human (45 pairs)"]
    assert [c.get_offsets()[0][1] for c in stars] == [HUMAN_ACCURACY[iv] for iv in INTERVENTIONS]
    assert any(line.get_label().endswith(" j99 (s)") for line in ax.containers)  # labelled with its rank


@pytest.mark.parametrize("benchmark", ["mist", "emoprefer", "emorealm"])
def test_every_tab_has_a_figure_even_when_empty(benchmark) -> None:
    assert len(figure(benchmark, []).axes) == 1


def test_a_filtered_sorted_table_exports_each_row_with_its_own_interval() -> None:
    """Rows keep their cells together: filtering by tier, dropping column groups and sorting never pair one row's
    score with another row's interval (the table once kept the intervals in a list of their own, which the tier
    filter left unfiltered)."""
    from dataclasses import replace

    from mmjudge.leaderboard.board.arrange import Order, arrange
    from mmjudge.leaderboard.board.facets import select

    rows = [replace(_iso(1, 55.0), tier="run here"), replace(_iso(2, 71.25), tier="submitted"),
            replace(_iso(3, 60.0), tier="submitted")]  # fmt: skip
    table = build_table("isovrbench", rows)  # the run-here row first, then the submitted ones
    kept = select(table, groups=[], tiers=["submitted"])
    assert [(r["Judge"], r["Average low"]) for r in kept.export_frame().to_dict("records")] == [
        ("j2", 69.25), ("j3", 58.0)
    ]  # fmt: skip  # (this export used to fail: "All arrays must be of the same length")
    shown = arrange(kept, Order("Average", False))
    records = shown.export_frame().to_dict("records")
    assert [(r["Judge"], r["Average"], r["Average low"], r["Average high"]) for r in records] == [
        ("j3", 60.0, 58.0, 62.0), ("j2", 71.25, 69.25, 73.25)
    ]  # fmt: skip  # (j3 used to be exported with j2's interval)
    assert shown.headers == ["Rank", "Judge", "Average"]  # the groups left out: the headline stays
    assert [c.interval for c in shown.cells(Role.SCORE)] == [(58.0, 62.0), (69.25, 73.25)]
    with pytest.raises(KeyError, match="no id column"):
        shown.cells(Role.ID)  # a role the shown table lacks says so, never another column's cells


def test_a_table_refuses_a_row_without_one_cell_per_column() -> None:
    with pytest.raises(ValueError, match="one cell per column"):
        Table("b", (TableColumn("Judge", Role.JUDGE),), ((Cell("a", "a"), Cell("b", "b")),))
