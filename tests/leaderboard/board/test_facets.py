"""Rank, headline position, column groups, kind and judge-type filters, the cell format, the figures' order.

The rank rule is checked against scipy's ``rankdata(method="min")`` (standard competition ranking).
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from scipy.stats import rankdata

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import UnknownNameError
from mmjudge.leaderboard import StoredSubmission, SubmissionMeta, build_table
from mmjudge.leaderboard.board.facets import judge_type, ranks, row_tier, score_text, select
from mmjudge.leaderboard.board.plots import figure, ranked_rows
from mmjudge.leaderboard.board.table import DETAILS
from mmjudge.leaderboard.core.columns import views
from mmjudge.leaderboard.core.reported import reported_rows, seed_reported

from ..conftest import prediction_lines


def _reference_ranks(values: list[float | None], higher: bool) -> list[int | None]:
    """scipy's competition ranks ("min") of the numbers, best = 1; ``None`` stays unranked."""
    numbers = [(-v if higher else v) for v in values if v is not None]
    ranked = iter(rankdata(numbers, method="min").astype(int).tolist())
    return [None if v is None else next(ranked) for v in values]


@pytest.mark.parametrize("higher", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_ranks_match_scipy_competition_ranking(higher, seed) -> None:
    rng = random.Random(seed)
    values = [
        rng.choice([None, 50.0, 62.5, 62.5, 70.0, rng.uniform(0, 100)]) for _ in range(rng.randint(1, 30))
    ]
    places = ranks(values, higher)
    assert [p.number for p in places] == _reference_ranks(values, higher)
    for value, place in zip(values, places, strict=True):
        tied = value is not None and values.count(value) > 1
        assert place.text == ("—" if value is None else f"{place.number}{'=' if tied else ''}")


def test_ranks_edge_cases() -> None:
    assert ranks([]) == []
    assert [p.text for p in ranks([None, None])] == ["—", "—"]  # no prediction scored: nobody ranked
    assert [p.text for p in ranks([40.0])] == ["1"]  # a single row
    assert [p.text for p in ranks([5.0, 5.0, 5.0])] == ["1=", "1=", "1="]  # all tied
    assert [p.text for p in ranks([80.0, 75.0, 75.0, 60.0])] == ["1", "2=", "2=", "4"]
    assert [p.text for p in ranks([9.1, 12.2, 9.1], higher_is_better=False)] == ["1=", "3", "1="]


def _iso(
    row_id: int, average: float | None, kind: str = "verified", header: dict | None = None, **stored: Any
) -> StoredSubmission:
    results = (
        {}
        if average is None
        else {"average": average, "average_ci_low": average - 2, "average_ci_high": average + 2}
    )
    return StoredSubmission(
        "isovrbench", kind, f"j{row_id}", f"m{row_id}", "u", results, id=row_id, header=header, **stored
    )


def _header(backend: str, model: str | None) -> dict:
    return {"judge": backend, "provenance": {"judge_config": {"judge": backend, "model": model}}}


def test_the_table_ranks_ties_equal_and_unscored_rows_last() -> None:
    rows = [_iso(1, 60.0), _iso(2, None), _iso(3, 71.0), _iso(4, 60.0), _iso(5, 55.0)]
    table = build_table("isovrbench", rows)
    assert table.column("id") == [3, 1, 4, 5, 2]  # ties keep store order
    assert table.column("Rank") == [1, 2, 2, 4, None]
    assert [row[0] for row in table.display] == ["1", "2=", "2=", "4", "—"]
    assert table.datatypes[:3] == ["number", "str", "number"]  # the rank sorts as a number


def test_lower_is_better_headline_ranks_the_lowest_first() -> None:
    key = "change_rate/none_to_misleading/explicit"
    rows = [
        StoredSubmission("mist", "verified", f"j{v}", "m", "u", {key: v}, id=k)
        for k, v in enumerate([30.0, 10.0, 30.0])
    ]
    table = build_table("mist", rows)
    assert table.column("Judge") == ["j10.0", "j30.0", "j30.0"]
    assert [row[0] for row in table.display] == ["1", "2=", "2="]


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_rank_judge_and_headline_lead_every_view_and_details_trail(benchmark) -> None:
    spec = get_benchmark(benchmark)
    for view in views(benchmark):
        table = build_table(benchmark, [], view)
        chosen = next(v for v in spec.present.leaderboard.views if v.name == view)
        key = chosen.rank_by or spec.metrics.headline[0]
        header = next(c.header for c in chosen.columns if c.key == key)
        assert table.headers[:3] == ["Rank", "Judge", header] and table.rank_column == 2
        assert table.headers[-1] == "id" and table.groups[-1] == DETAILS
        assert table.groups[:3] == ["", "", ""]  # never hidden


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_every_score_column_belongs_to_a_group_the_reader_can_hide(benchmark) -> None:
    table = build_table(benchmark, [])
    groups = [g for g in dict.fromkeys(table.groups) if g]
    assert len(groups) >= 3 and all(table.groups[3:])
    for group in groups:
        hidden = select(table, groups=[g for g in groups if g != group])
        assert hidden.headers == [h for h, g in zip(table.headers, table.groups, strict=True) if g != group]
        assert hidden.headers[hidden.rank_column] == table.headers[table.rank_column]
    assert select(table, groups=[]).headers == table.headers[:3]
    with pytest.raises(UnknownNameError, match="column group"):
        select(table, groups=["no such group"])


def test_isovrbench_groups_are_its_dimensions() -> None:
    from mmjudge.benchmarks.isovrbench import DIMENSIONS

    table = build_table("isovrbench", [])
    motion = [h for h, g in zip(table.headers, table.groups, strict=True) if g == "motion"]
    assert motion == [f"motion: {iv}" for iv in DIMENSIONS["motion"]]


def _tier_rows() -> list[StoredSubmission]:
    published = [
        StoredSubmission(**{**r.__dict__, "id": 10 + k}) for k, r in enumerate(reported_rows("isovrbench"))
    ]
    return [
        *published,
        _iso(1, 58.0, header=_header("vlm_digit", "Qwen/Qwen3-VL-8B")),
        _iso(2, 51.0, header=_header("frame_smoothness", None), tier="run here", reference_line=True),
        _iso(3, 49.0, header={"judge": "j"}),  # an older header without provenance
    ]


def test_tier_and_judge_type_of_each_row() -> None:
    rows = {r.id: r for r in _tier_rows()}
    assert [row_tier(rows[i]) for i in (10, 1, 2, 3)] == ["published", "submitted", "baseline", "submitted"]
    table = build_table("isovrbench", list(rows.values()))
    types = dict(zip(table.column("id"), table.column("Type"), strict=True))
    assert [types[i] for i in (1, 2, 3)] == ["vlm_digit", "frame_smoothness", "unknown"]
    assert types[10] == "reward model"  # VideoReward's group in reported.json
    assert judge_type(StoredSubmission("mist", "reported", "x", "x", "paper", {})) == "published"


@pytest.mark.parametrize("tier", ["published", "submitted", "baseline"])
def test_the_tier_filter_leaves_only_that_tier_with_its_rank(tier) -> None:
    table = build_table("isovrbench", _tier_rows())
    chosen = select(table, tiers=[tier])
    assert chosen.values and set(chosen.column("Tier")) == {tier}
    ranks_of = dict(zip(table.column("id"), table.column("Rank"), strict=True))
    assert all(ranks_of[i] == r for i, r in zip(chosen.column("id"), chosen.column("Rank"), strict=True))
    assert select(table, tiers=[]).values == []
    with pytest.raises(UnknownNameError, match="tier"):
        select(table, tiers=["verified"])


def test_the_type_filter_and_hidden_details() -> None:
    table = build_table("isovrbench", _tier_rows())
    chosen = select(table, types=["vlm_digit", "prompted VLM judge"])
    assert set(chosen.column("Type")) == {"vlm_digit", "prompted VLM judge"} and len(chosen.values) == 3
    assert select(table, types=[]).values == table.values  # none chosen: every type
    brief = select(table, groups=[g for g in table.groups if g and g != DETAILS], tiers=["submitted"])
    assert "Tier" not in brief.headers and len(brief.values) == 2  # rows filtered before the column is hidden


def test_one_cell_format() -> None:
    assert score_text(62.5, (48.125, 75.0)) == "62.5 [48.1, 75.0]"
    assert score_text(67.2, spread=0.0, rounds=2) == "67.2 ± 0.00 (2 rounds)"
    assert score_text(73.3) == "73.3" and score_text(73.3, missing="(no CI)") == "73.3 (no CI)"
    assert score_text(math.inf, (0.0, 1.0)) == "inf [0.0, 1.0]"


def test_freshly_scored_rows_show_an_interval_in_every_estimate(board_factory, reference) -> None:
    """Today's scorers give every score column a CI or say why not: on the tiny reference rows many keys rest on
    fewer than 5 clusters, and such a cell shows ``(no CI)`` with the mark of its withheld-interval footnote."""
    board = board_factory()
    withheld = 0
    for benchmark in ("isovrbench", "emoprefer", "emorealm"):
        data = ("\n".join(prediction_lines(benchmark, reference[benchmark], seed=5)) + "\n").encode()
        stored = board.submit(data, SubmissionMeta("j", "m", "r"), "local")
        for view in views(benchmark):
            table = build_table(benchmark, [stored], view)
            cells = dict(zip(table.headers, table.display[0], strict=True))
            assert not [h for h, d in cells.items() if "(no CI)" in d and "†" not in d], (benchmark, view, cells)
            withheld += sum("(no CI)" in d for d in cells.values())
            scores = [
                h for h, g in zip(table.headers, table.groups, strict=True) if g not in (DETAILS, "coverage")
            ]
            numeric = [h for h in scores[2:] if table.datatypes[table.headers.index(h)] == "number"]
            assert all(cells[h] == "—" or "[" in cells[h] or "(no CI)" in cells[h] for h in numeric), (benchmark, view, cells)
    assert withheld  # the check above saw withheld intervals


def test_figures_follow_the_table_order_and_name_every_row(board_factory) -> None:
    rows = _tier_rows()
    table = build_table("isovrbench", rows)
    ordered = ranked_rows("isovrbench", rows)
    assert [r.judge for r in ordered] == table.column("Judge")
    assert [r.rank for r in ordered] == [d[0] for d in table.display]
    (legend,) = figure("isovrbench", rows).legends  # under the plot
    labels = [t.get_text() for t in legend.get_texts()]
    named = [label for label in labels if label.startswith("#")]
    tier_at = table.headers.index("Tier")
    marks = {"published": "p", "submitted": "s"}
    assert named == [f"#{d[0]} {d[1]} ({marks[d[tier_at]]})" for d in table.display if d[0][0].isdigit()]
    assert "j2 (baseline)" in labels  # a baseline is drawn, unranked
    only = figure("isovrbench", rows, tiers=["submitted"]).legends[0].get_texts()
    rank = dict(zip(table.column("id"), (d[0] for d in table.display), strict=True))[3]
    assert f"#{rank} j3 (s)" in [t.get_text() for t in only]  # its table rank


@pytest.mark.parametrize("benchmark", ["mist", "emoprefer"])
def test_published_marks_are_labelled_in_table_order(benchmark, board_factory) -> None:
    board = board_factory()
    seed_reported(board.store)
    rows = board.store.submissions(benchmark)
    table = build_table(benchmark, rows)
    fig = figure(benchmark, rows)
    (ax,) = fig.axes
    if benchmark == "mist":
        labels = [t.get_text() for t in fig.legends[0].get_texts()][1:]  # after "chance"
    else:
        ticks = sorted(ax.get_yticklabels(), key=lambda t: -t.get_position()[1])  # the first row at the top
        labels = [t.get_text() for t in ticks]
    assert labels == [f"#{d[0]} {d[1]} (p)" for d in table.display]
