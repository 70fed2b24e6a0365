"""Tables and plots: the paper's breakdown, CIs, ranking, views, reported rows, figures."""

from __future__ import annotations

import math

import pytest

from mmjudge.benchmarks.isovrbench import HUMAN_ACCURACY, INTERVENTIONS
from mmjudge.leaderboard import StoredSubmission, build_table
from mmjudge.leaderboard.plots import figure
from mmjudge.leaderboard.reference import missing_reference, reference_rows
from mmjudge.leaderboard.tables import INFO_HEADERS


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
        decided_accuracy=average + 1,
    )
    results.update(extra)
    return StoredSubmission("isovrbench", "verified", f"j{row_id}", f"m{row_id}", "u", results, id=row_id)


def test_isovrbench_breakdown_ranking_and_views() -> None:
    table = build_table("isovrbench", [_iso(1, 55.0), _iso(2, 71.25), _iso(3, 60.0, hidden_note=1)])
    assert table.headers[: len(INFO_HEADERS)] == list(INFO_HEADERS)
    assert (
        table.headers[len(INFO_HEADERS)] == "motion: temporal_shuffle"
        and "text: attribute_edit" in table.headers
    )
    assert table.headers[table.headline] == "Average"
    assert [r[0] for r in table.values] == [2, 3, 1]
    assert table.display[0][table.headline] == "71.2\n[69.2, 73.2]"
    decided = build_table("isovrbench", [_iso(1, 55.0)], view="decided")
    assert decided.headers[decided.headline] == "Decided acc. (pooled)"
    assert decided.values[0][len(INFO_HEADERS)] == 56.0
    assert decided.display[0][len(INFO_HEADERS)].endswith("(no CI)")
    with pytest.raises(ValueError, match="view"):
        build_table("isovrbench", [], view="ties_right")


def test_hidden_and_other_benchmark_rows_are_left_out() -> None:
    hidden = StoredSubmission("isovrbench", "verified", "j", "m", "u", {"average": 1.0}, id=9, hidden=True)
    other = StoredSubmission("emoprefer", "verified", "j", "m", "u", {"waf_2class": 1.0}, id=8)
    assert build_table("isovrbench", [hidden, other]).values == []


def test_reported_human_row_is_the_paper_row() -> None:
    (human,) = reference_rows("isovrbench")
    assert human.kind == "reported" and "Table 2" in human.source
    assert {iv: human.results[f"accuracy/{iv}"] for iv in INTERVENTIONS} == dict(HUMAN_ACCURACY)
    assert human.results["average"] == pytest.approx(sum(HUMAN_ACCURACY.values()) / 8)
    stored = StoredSubmission(**{**human.__dict__, "id": 1})
    table = build_table("isovrbench", [stored])
    assert table.display[0][table.headline] == "96.4\n(published, no CI)"
    assert "not available" in missing_reference("mist") and reference_rows("mist") == []


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval written out: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return 100 * (centre - half) / (1 + z * z / n), 100 * (centre + half) / (1 + z * z / n)


def test_mist_change_rates_get_wilson_intervals_and_rank_lower_first() -> None:
    base = {"change_rate/none_to_misleading/silent": 0.25, "change_rate/none_to_misleading/silent/n": 80,
            "direction/silent": 0.6, "direction/silent/n_changed": 20,
            "alt_test/informed/acc/cot/silent/passed": True, "alt_test/informed/acc/cot/explicit/passed": False}  # fmt: skip
    worse = dict(base, **{"change_rate/none_to_misleading/silent": 0.5})
    rows = [StoredSubmission("mist", "verified", "worse", "m1", "u", worse, id=1),
            StoredSubmission("mist", "verified", "better", "m2", "u", base, id=2)]  # fmt: skip
    table = build_table("mist", rows)
    assert table.headers[table.headline] == "change none→misleading (silent)"
    assert [r[2] for r in table.values] == ["better", "worse"]
    low, high = _wilson(20, 80)
    assert table.display[0][table.headline] == f"25.0\n[{low:.1f}, {high:.1f}]"
    column = table.headers.index("direction (silent)")
    low, high = _wilson(12, 20)
    assert table.display[0][column] == f"60.0\n[{low:.1f}, {high:.1f}]"
    assert table.values[0][table.headers.index("alt-test informed (ACC, passed)")] == "1/2"


def test_emorealm_columns_and_missing_values() -> None:
    row = StoredSubmission("emorealm", "verified", "j", "m", "u", {"overall": 40.0, "mode": "official"}, id=1)
    table = build_table("emorealm", [row])
    assert table.headers[table.headline] == "Average (strict)"
    assert table.values[0][table.headline] is None  # an official-mode row has no strict number
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
    assert [r[2] for r in table.values] == ["honest", "gamed"]
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
        assert table.headers[-2:] == ["Coverage %", "No judgment %"], benchmark
        assert table.values[0][-2:] == [100.0, 9.575]
        reported = build_table(
            benchmark, [StoredSubmission(benchmark, "reported", "j", "m", "u", results, id=2)]
        )
        assert reported.display[0][-2:] == ["—", "—"]


def test_isovrbench_figure_spans_judges_and_marks_humans() -> None:
    rows = [_iso(1, 55.0), _iso(2, 71.0)]
    fig = figure("isovrbench", rows)
    (ax,) = fig.axes
    spans = [c for c in ax.collections if c.__class__.__name__ == "LineCollection"]
    assert len(spans) == len(INTERVENTIONS)
    segment = spans[0].get_segments()[0]
    assert sorted(segment[:, 1]) == [55.0, 71.0]
    stars = [c for c in ax.collections if c.get_label() == "human"]
    assert len(stars) == 1 and stars[0].get_offsets()[0][1] == HUMAN_ACCURACY[INTERVENTIONS[0]]


@pytest.mark.parametrize("benchmark", ["mist", "emoprefer", "emorealm"])
def test_every_tab_has_a_figure_even_when_empty(benchmark) -> None:
    assert len(figure(benchmark, []).axes) == 1
