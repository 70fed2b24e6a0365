"""IsoVRBench for pairwise reward models: one two-clip query per pair, both clips decoded, answers back to pairs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from mmjudge.benchmarks import QuerySource, get_benchmark
from mmjudge.benchmarks.isovrbench.queries import chosen_shown_first, pair_scores
from mmjudge.benchmarks.isovrbench.scoring import score
from mmjudge.judges import Judge, JudgeConfig, JudgeInput, MediaRequest
from mmjudge.media.video import read_frames, video_info
from mmjudge.queries import ClipPairQuery, Query, ScoreQuery, Verdict
from mmjudge.runner.decode import decode_query, frame_indices
from mmjudge.scoring import load_reference_rows


class _Brighter(Judge):
    """Prefers the brighter clip; checks that both clips arrive, decoded as the request asks."""

    answers: ClassVar[frozenset[type]] = frozenset({ClipPairQuery})
    reads: ClassVar[frozenset[str]] = frozenset({"video"})
    default_frames: ClassVar[int | None] = 4

    def media_request(self, query: Query | None = None) -> MediaRequest:
        return MediaRequest(num_frames=4)

    def judge_batch(self, inputs: Sequence[JudgeInput]) -> list[Verdict]:
        verdicts = []
        for x in inputs:
            assert isinstance(x.query, ClipPairQuery) and x.other is not None
            assert x.frames is not None and x.other.frames is not None and len(x.other.frame_indices) == 4
            first, second = float(x.frames.mean()), float(x.other.frames.mean())
            verdicts.append(
                Verdict(
                    x.query.item_id, "same" if first == second else "first" if first > second else "second"
                )
            )
        return verdicts


@pytest.fixture(scope="module")
def pairs(sample_data: Path) -> tuple[list[dict], list[Query], Path]:
    spec = get_benchmark("isovrbench")
    data_dir = sample_data / "isovrbench"
    rows = load_reference_rows("isovrbench", data_dir)
    queries = spec.records.queries(rows, QuerySource(data_dir, kind=ClipPairQuery))
    return rows, queries, data_dir


def test_a_pairwise_judge_is_asked_one_query_per_pair_and_a_rater_still_rates_clips(pairs) -> None:
    rows, queries, _ = pairs
    assert _Brighter.query_kind("isovrbench") is ClipPairQuery
    from mmjudge.judges.random_judge import RandomJudge

    assert RandomJudge.query_kind("isovrbench") is ScoreQuery  # a clip rater keeps its kind
    assert [q.item_id for q in queries] == [str(r["pair_id"]) for r in rows]
    for query, row in zip(queries, rows, strict=True):
        chosen, rejected = str(row["clip_id_chosen"]), str(row["clip_id_rejected"])
        expected = (chosen, rejected) if chosen_shown_first(str(row["pair_id"])) else (rejected, chosen)
        assert query.clips == expected and query.video != query.video_b
    shown_first = [chosen_shown_first(str(r["pair_id"])) for r in rows]
    assert any(shown_first) and not all(shown_first)  # both orders occur on the sample


@pytest.mark.parametrize("share", [False, True])
def test_both_clips_are_decoded_with_the_one_request(pairs, share: bool) -> None:
    _, queries, _ = pairs
    query = queries[0]
    assert isinstance(query, ClipPairQuery) and query.video_b is not None
    request = MediaRequest(num_frames=4)
    decoded = decode_query(query, [request], share=share)
    assert decoded.error is None
    x = decoded.input(0)
    assert x.other is not None and x.other.query is query
    info = video_info(query.video_b)
    expected = frame_indices(info.num_frames, info.fps, request)
    assert list(x.other.frame_indices) == expected
    assert np.array_equal(x.other.frames, read_frames(query.video_b, np.asarray(expected)))
    assert list(x.frame_indices) == frame_indices(
        video_info(query.video).num_frames, video_info(query.video).fps, request
    )


def test_a_broken_second_clip_fails_the_pair_loudly(pairs, tmp_path: Path) -> None:
    _, queries, _ = pairs
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"not a video")
    query = queries[0]
    decoded = decode_query(
        ClipPairQuery(query.item_id, query.video, broken, query.prompt, query.clips),
        [MediaRequest(num_frames=4)],
    )
    assert decoded.error is not None and decoded.inputs is None


@pytest.mark.parametrize(
    ("answer", "first_is_chosen", "expected"),
    [("first", True, (1.0, 0.0)), ("second", True, (0.0, 1.0)), ("first", False, (0.0, 1.0)),
     ("second", False, (1.0, 0.0)), ("same", True, (0.5, 0.5))],
)  # fmt: skip
def test_an_answer_becomes_the_pairs_scores(
    answer: str, first_is_chosen: bool, expected: tuple[float, float]
) -> None:
    assert pair_scores(answer, first_is_chosen) == expected
    with pytest.raises(ValueError, match="'first', 'second' or 'same'"):
        pair_scores("Video 1", True)


def test_a_pairwise_run_scores_as_table_2_counts(pairs, tmp_path: Path) -> None:
    """Accuracy is the share of pairs whose preferred clip is the chosen one, ties and no judgments wrong."""
    from mmjudge.runner import RunOptions
    from mmjudge.runner.runner import run_queries

    rows, queries, _ = pairs
    judge = _Brighter(JudgeConfig(judge="brighter"))
    result = run_queries("isovrbench", judge, queries, rows, tmp_path, RunOptions())
    verdicts = {v.item_id: v for v in result.verdicts[None]}
    assert not any(v.errored for v in verdicts.values())
    spec = get_benchmark("isovrbench")
    records = spec.records.records_from_verdicts(queries, [verdicts[q.item_id] for q in queries], rows)
    scores = score(**spec.records.score_inputs(records, rows))
    right = {}
    for query, row in zip(queries, rows, strict=True):
        answer = verdicts[query.item_id].value
        preferred = query.clips[0] if answer == "first" else query.clips[1] if answer == "second" else None
        right.setdefault(str(row["intervention"]), []).append(preferred == str(row["clip_id_chosen"]))
    for intervention, hits in right.items():
        assert scores[f"accuracy/{intervention}"] == pytest.approx(100 * np.mean(hits))
