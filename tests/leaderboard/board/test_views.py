"""The leaderboard's views as the handlers answer them (no browser): a column sort keeps the rows without a
rank below the ranked ones, the figure draws the rows the filter text leaves, the request form offers the
benchmarks of the judge it shows, the figures' text is sized for a phone, and each tier has one name.

The same behaviours in real Chromium: ``test_browser_views.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmjudge.leaderboard import SubmissionMeta
from mmjudge.leaderboard.app.ui import Handlers, build_app
from mmjudge.leaderboard.board.facets import SHOWN_TIERS
from mmjudge.leaderboard.core.reported import seed_reported

from ..conftest import prediction_bytes

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def board(board_factory, reference):
    """Published IsoVRBench rows, one submitted row and one baseline (a weight-free judge, not ranked)."""
    made = board_factory()
    seed_reported(made.store)
    rows = reference["isovrbench"]
    made.submit(prediction_bytes("isovrbench", rows, seed=31), SubmissionMeta("vlm judge", "org/vlm", "r1"), "local")
    made.submit(prediction_bytes("isovrbench", rows, seed=32), SubmissionMeta("random floor", "random", "r1"),
                "baseline", reference_line=True)  # fmt: skip
    return made


def _column(value: dict, header: str) -> list:
    at = value["headers"].index(header)
    return [row[at] for row in value["data"]]


@pytest.mark.parametrize("descending", [True, False])
def test_a_sort_keeps_the_rows_without_a_rank_below_the_ranked_ones(board, descending) -> None:
    handlers = Handlers(board)
    order = json.dumps({"column": "Average", "descending": descending})
    value = handlers.table_value("isovrbench", None, None, None, None, order)
    ranks, averages = _column(value, "Rank"), _column(value, "Average")
    ranked = [a for r, a in zip(ranks, averages, strict=True) if r is not None]
    assert ranked == sorted(ranked, reverse=descending)
    assert ranks[-1] is None and _column(value, "Judge")[-1] == "random floor"  # the baseline stays below
    assert _column(value, "Tier")[-1] == "baseline"
    unsorted = handlers.table_value("isovrbench", None, None, None, None, "")
    assert _column(unsorted, "id") == _column(handlers.table_value("isovrbench"), "id")  # rank order


def _legend(fig) -> list[str]:
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    return [t.get_text() for legend in legends if legend is not None for t in legend.get_texts()]


def test_the_figure_draws_the_rows_the_filter_text_leaves(board) -> None:
    handlers = Handlers(board)
    every = [label for label in _legend(handlers.plot("isovrbench")) if "judge" in label or "(p)" in label]
    assert any("VideoReward" in label for label in every) and any("vlm judge" in label for label in every)
    kept = _legend(handlers.plot("isovrbench", None, None, None, None, "", "vlm JUDGE"))
    assert any("vlm judge" in label for label in kept) and not any("VideoReward" in label for label in kept)
    # the filter box searches the columns shown: with the details hidden, the model's name finds nothing
    groups = [g for g in dict.fromkeys(handlers.table("isovrbench").groups) if g and g != "details"]
    hidden = _legend(handlers.plot("isovrbench", None, groups, None, None, "", "org/vlm"))
    assert not any("vlm judge" in label for label in hidden)


def test_the_figure_follows_the_sort(board) -> None:
    handlers = Handlers(board)
    order = json.dumps({"column": "Judge", "descending": False})
    labels = [label for label in _legend(handlers.plot("isovrbench", None, None, None, None, order)) if "(p)" in label]
    names = [label.split(" ", 1)[1].rsplit(" (", 1)[0] for label in labels]
    assert names == sorted(names, key=str.lower)


def test_figure_text_is_readable_on_a_phone(board, reference) -> None:
    """Every figure's legend sits under the plot at 11 pt in a 6-inch figure: on a 390 px phone the page
    shows it about 372 px wide, so the legend's text is over 9 px (it was about 2.6 px)."""
    from mmjudge.benchmarks._figures import BOARD_FONT, BOARD_WIDTH

    handlers = Handlers(board)
    for benchmark in ("isovrbench", "emoprefer", "emorealm", "mist"):
        fig = handlers.plot(benchmark)
        assert fig.get_size_inches()[0] == BOARD_WIDTH and fig.legends, benchmark
        for legend in fig.legends:
            assert {t.get_fontsize() for t in legend.get_texts()} == {BOARD_FONT}
        for ax in fig.axes:
            assert ax.get_legend() is None  # not beside or over the plot
            assert min(t.get_fontsize() for t in ax.get_xticklabels() + ax.get_yticklabels()) >= BOARD_FONT
        shown_px = BOARD_FONT * fig.dpi / 72 * 372 / (BOARD_WIDTH * fig.dpi)
        assert shown_px > 9.0


def _component(app, elem_id: str):
    return next(b for b in app.blocks.blocks.values() if getattr(b, "elem_id", None) == elem_id)


def test_the_request_form_offers_the_benchmarks_of_the_judge_it_shows(board) -> None:
    from mmjudge.judges import get_judge
    from mmjudge.leaderboard.core.fit import backend_benchmarks

    app = build_app(board)
    backend = _component(app, "request-backend").value
    offered = [value for _, value in _component(app, "request-benchmarks").choices]
    assert backend == "audio_language"  # the first registered backend open to requests
    assert offered == backend_benchmarks(backend) == ["emoprefer", "emorealm"]
    assert set(offered) == set(get_judge(backend).benchmarks)


def test_each_tier_has_one_name_everywhere(board, tmp_path) -> None:
    """``published``, ``run here``, ``submitted``, ``baseline``: the filter, the table, the results file and
    the docs say the same; the store keeps its values (a baseline is a ``run here`` row, ``reference_line``)."""
    from mmjudge.leaderboard.app._tab import LEGEND
    from mmjudge.leaderboard.app.startup import about_text

    assert SHOWN_TIERS == ("published", "run here", "submitted", "baseline")
    [stored] = [s for s in board.store.submissions("isovrbench") if s.reference_line]
    assert (stored.tier, stored.kind) == ("run here", "verified")  # stored values unchanged
    handlers = Handlers(board)
    record = json.loads(Path(handlers.results_file(stored.id)).read_text())
    assert record["run"]["leaderboard"]["tier"] == "baseline"
    docs = {"legend": LEGEND, "about": about_text(), "docs": (REPO / "docs" / "leaderboard.md").read_text(),
            "Space card": (REPO / "spaces" / "leaderboard" / "README.md").read_text()}  # fmt: skip
    for where, text in docs.items():
        assert "reference line" not in text.lower(), where
        assert "`baseline`" in text or "**baseline**" in text, where
