"""Weight-free baseline judges: frame_smoothness, sharpness, random, constant.

Formulas are checked against step-by-step references written out here; judges are driven through
``judge_batch`` on ``JudgeInput`` s built from generated clips and from the sample data.
"""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mmjudge.benchmarks.emoprefer import EmoPreferPair
from mmjudge.benchmarks.emorealm import EmoRealmQuestion
from mmjudge.benchmarks.isovrbench.interventions import frame_hold, temporal_shuffle
from mmjudge.benchmarks.mist import MistCell
from mmjudge.errors import ConfigError, MediaError, SchemaError, UnknownNameError
from mmjudge.judges import JudgeConfig, JudgeInput, ScoreQuery, judge_batch_checked, load_config, make_judge
from mmjudge.judges.frame_smoothness import SmoothnessOptions, frame_differences, smoothness
from mmjudge.judges.random_judge import choice_letters
from mmjudge.judges.sharpness import laplacian_variance
from mmjudge.media.synthetic import moving_texture_clip

REPO = Path(__file__).resolve().parents[2]
BASELINES = ("frame_smoothness", "sharpness", "random", "constant")


def _clip_input(item_id: str, frames: np.ndarray | None, indices: tuple[int, ...] = ()) -> JudgeInput:
    item = ScoreQuery(item_id, Path(f"{item_id}.mp4"), "a prompt")
    return JudgeInput(item, frames=frames, frame_indices=indices, fps=16.0)


def _judge(backend: str, **config: Any) -> Any:
    return make_judge(JudgeConfig(judge=backend, **config))


@pytest.fixture(scope="module")
def anchor() -> np.ndarray:
    return moving_texture_clip(41, 32, 48, seed=3, pan=(0.5, 2.0), num_objects=2, object_speed=3.0)


# --------------------------------------------------------------------------- configs and registry


def test_unknown_judge_lists_baselines() -> None:
    with pytest.raises(UnknownNameError) as info:
        make_judge(JudgeConfig(judge="smoothness"))
    assert all(name in str(info.value) for name in BASELINES)


def test_no_majority_judge_is_registered() -> None:
    with pytest.raises(UnknownNameError):
        make_judge(JudgeConfig(judge="majority"))


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("frame_smoothness", {"spike_z": 0}, "spike_z=0"),
        ("frame_smoothness", {"peak_quantile": 1.5}, "peak_quantile=1.5"),
        ("frame_smoothness", {"hold_floor": "1"}, "'hold_floor' expects float"),
        ("frame_smoothness", {"spikes": 3}, "unknown key 'spikes'"),
        ("sharpness", {"blur": 1}, "unknown key 'blur'"),
        ("random", {"include_same": "yes"}, "'include_same' expects bool"),
        ("constant", {"answer": " "}, "`answer` must be a non-empty label"),
        ("constant", {"label": "LL"}, "unknown key 'label'; known keys: ['answer']"),  # no per-benchmark options
        ("constant", {"majority": True}, "unknown key 'majority'"),
    ],
)
def test_bad_options_are_refused(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        _judge(name, options=options)


@pytest.mark.parametrize(
    ("name", "allowed", "refused"),
    [
        ("frame_smoothness", "isovrbench", "mist"),
        ("sharpness", "isovrbench", "emorealm"),
        ("constant", "emoprefer", "isovrbench"),
    ],
)
def test_check_benchmark(name: str, allowed: str, refused: str) -> None:
    judge = _judge(name)
    judge.check_benchmark(allowed)
    with pytest.raises(ConfigError, match=refused):
        judge.check_benchmark(refused)
    if name == "constant":
        for benchmark in ("mist", "emoprefer", "emorealm"):
            judge.check_benchmark(benchmark)
    for benchmark in ("isovrbench", "mist", "emoprefer", "emorealm"):
        _judge("random").check_benchmark(benchmark)


def test_media_requests() -> None:
    clip = ScoreQuery("c", Path("c.mp4"), "p")
    label = MistCell(
        "i::zero_shot::silent::aligned", "i", "s", "c", Path("i.png"), "zero_shot", "silent", "aligned"
    )
    assert _judge("frame_smoothness").media_request(clip).num_frames == 256
    dense = _judge("frame_smoothness", fps=16.0).media_request(clip)
    assert dense.num_frames is None and dense.target_fps == 16.0
    assert _judge("sharpness").media_request(clip).num_frames == 8
    assert _judge("sharpness", frames=4, max_pixels=50_000).media_request(clip).max_pixels == 50_000
    for name in ("random", "constant"):
        request = _judge(name).media_request(label)
        assert request.num_frames is None and request.target_fps is None and not request.image
    assert _judge("random").media_request(clip).num_frames is None


# --------------------------------------------------------------------------- frame_smoothness


def _reference_smoothness(frames: np.ndarray, o: SmoothnessOptions) -> float:
    """The card's formula, step by step in plain Python."""
    f = frames.astype(float)
    d = [float(np.mean(np.abs(f[t + 1] - f[t]))) for t in range(len(f) - 1)]
    q = float(np.percentile(d, 100 * o.peak_quantile))
    tau = max(o.hold_floor, o.hold_ratio * q)
    penalties = []
    moving = [x for x in d if x > tau]
    m = statistics.median(moving) if moving else 0.0
    mad = statistics.median([abs(x - m) for x in moving]) if moving else 0.0
    scale = max(1.4826 * mad, o.scale_floor * m)
    for x in d:
        if x > tau:
            z = (x - m) / scale
            penalties.append(min(1.0, max(0.0, z / o.spike_z - 1.0)))
        else:
            penalties.append(min(1.0, max(0.0, 1.0 - x / tau)))
    return 1.0 - sum(penalties) / len(d)


def test_smoothness_matches_written_out_formula(anchor: np.ndarray) -> None:
    rng = np.random.default_rng(0)
    clips = [anchor, anchor[[0, 1, 2, 2, 2, 9, 10, 11, 30, 31, 32, 33]], rng.integers(0, 256, (9, 6, 5, 3))]
    options = [SmoothnessOptions(), SmoothnessOptions(hold_floor=3.0, spike_z=2.0, scale_floor=0.1)]
    for clip in clips:
        for o in options:
            got = smoothness(clip.astype(np.uint8), options=o).score
            assert got == pytest.approx(_reference_smoothness(clip.astype(np.uint8), o), abs=1e-12)


def test_frame_differences_are_exact() -> None:
    clip = np.zeros((2, 1, 1, 3), dtype=np.uint8)
    clip[0] = 250  # a wrapping uint8 subtraction would give 6
    assert frame_differences(clip).tolist() == [250.0]
    rng = np.random.default_rng(4)
    frames = rng.integers(0, 256, (5, 7, 9, 3), dtype=np.uint8)
    widened = [np.abs(frames[t + 1].astype(np.int64) - frames[t]).sum() / frames[t].size for t in range(4)]
    assert frame_differences(frames).tolist() == widened


def test_smoothness_prefers_anchor_over_shuffle_and_hold(anchor: np.ndarray) -> None:
    rng = np.random.default_rng(1)
    base = smoothness(anchor)
    shuffled = smoothness(temporal_shuffle(anchor, rng=rng).frames)
    held = smoothness(frame_hold(anchor, kept=(6, 8), rng=rng).frames)
    assert base.score == 1.0 and base.hold_penalty == 0.0 and base.spike_penalty == 0.0
    assert shuffled.spike_penalty > 0 and shuffled.score < base.score
    assert held.hold_penalty > 0 and held.score < shuffled.score


@pytest.mark.parametrize("seed", range(6))
def test_smoothness_prefers_anchor_across_generated_clips(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pan = (float(rng.uniform(-1, 1)), float(rng.choice([-1, 1]) * rng.uniform(0.2, 4.0)))
    clip = moving_texture_clip(81, 48, 80, seed=seed, pan=pan, num_objects=int(rng.integers(0, 4)))
    anchor_score = smoothness(clip).score
    assert anchor_score > smoothness(temporal_shuffle(clip, rng=rng).frames).score
    assert anchor_score > smoothness(frame_hold(clip, rng=rng).frames).score


def test_smoothness_penalises_duplicated_run_and_shuffled_segment(anchor: np.ndarray) -> None:
    order = list(range(len(anchor)))
    duplicated = order[:15] + [15] * 6 + order[21:]
    swapped = order[:10] + order[25:35] + order[10:25] + order[35:]
    base = smoothness(anchor).score
    dup = smoothness(anchor[duplicated])
    assert dup.score < base and dup.hold_penalty == pytest.approx(5.0, abs=0.5)
    assert smoothness(anchor[swapped]).score < base


def test_static_clip_scores_zero() -> None:
    static = np.full((10, 8, 8, 3), 77, dtype=np.uint8)
    assert smoothness(static).score == 0.0


def test_repeated_sample_positions_are_not_holds(anchor: np.ndarray) -> None:
    indices = (0, 0, 1, 2, 3, 4, 4, 5, 6)
    frames = anchor[list(indices)]
    result = smoothness(frames, indices)
    assert result.steps == 6 and result.hold_penalty == 0.0
    assert smoothness(frames).hold_penalty == 2.0  # without indices the repeats count as holds


def test_smoothness_too_few_frames_fails(anchor: np.ndarray) -> None:
    with pytest.raises(MediaError, match="at least 3 frames"):
        smoothness(anchor[:2])
    judge = _judge("frame_smoothness")
    inputs = [_clip_input("two", anchor[:2], (0, 1)), _clip_input("none", None), _clip_input("ok", anchor)]
    short, missing, ok = judge_batch_checked(judge, inputs)
    assert short.no_judgment and short.value is None and "at least 3 frames" in (short.error or "")
    assert missing.no_judgment and "no frames" in (missing.error or "")
    assert not ok.no_judgment and ok.value == 1.0 and ok.diagnostics.extra["steps"] == 40


def test_frame_judges_refuse_other_kinds() -> None:
    question = JudgeInput(EmoRealmQuestion("q", None, None, "?", ("(A) Yes",), "modality_agreement"))
    for name in ("frame_smoothness", "sharpness"):
        with pytest.raises(SchemaError, match=r"answers \['a clip to rate against its prompt'\], got queries asking \['a choice among labels'\]"):
            judge_batch_checked(_judge(name), [question])


# --------------------------------------------------------------------------- sharpness


def _reference_laplacian_variance(frame: np.ndarray) -> float:
    grey = 0.299 * frame[..., 0].astype(float) + 0.587 * frame[..., 1] + 0.114 * frame[..., 2]
    p = np.pad(grey, 1, mode="symmetric")  # scipy's "reflect" (d c b a | a b c d)
    lap = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * p[1:-1, 1:-1]
    return float(np.var(lap))


def test_sharpness_matches_numpy_kernel(anchor: np.ndarray) -> None:
    frames = anchor[::10]
    expected = [_reference_laplacian_variance(f) for f in frames]
    np.testing.assert_allclose(laplacian_variance(frames), expected, rtol=1e-12)
    [verdict] = _judge("sharpness").judge_batch([_clip_input("c", frames)])
    assert verdict.value == pytest.approx(np.mean(expected), rel=1e-12)


def test_sharpness_prefers_sharp_over_blurred(anchor: np.ndarray) -> None:
    from scipy import ndimage

    blurred = ndimage.gaussian_filter(anchor.astype(float), sigma=(0, 1.5, 1.5, 0)).round().astype(np.uint8)
    sharp, soft = _judge("sharpness").judge_batch([_clip_input("a", anchor), _clip_input("b", blurred)])
    assert sharp.value > soft.value > 0


def test_sharpness_without_frames_fails() -> None:
    [v] = _judge("sharpness").judge_batch([_clip_input("c", None)])
    assert v.no_judgment and v.value is None and "no frames" in (v.error or "")
    [v] = _judge("sharpness").judge_batch([_clip_input("c", np.zeros((0, 4, 4, 3), dtype=np.uint8))])
    assert v.no_judgment


# --------------------------------------------------------------------------- batching invariance


def _items(n: int) -> list[JudgeInput]:
    out: list[JudgeInput] = []
    for i in range(n):
        out.append(
            JudgeInput(
                MistCell(f"m{i}::cot::silent::none", f"m{i}", "s", "c", None, "cot", "silent", "none")
            )
        )
        out.append(JudgeInput(EmoPreferPair(f"p{i}", f"p{i}", None, None, "x", "y", "forward")))
        choices = ("(A) Yes", "(B) No") if i % 2 else ("(A) joy", "(B) fear", "(C) anger", "(D) sadness")
        out.append(JudgeInput(EmoRealmQuestion(f"q{i}", None, None, "?", choices, "reasoning_basic_audio")))
    return out


@pytest.mark.parametrize("name", BASELINES)
def test_batch_of_many_equals_batch_of_one(name: str, anchor: np.ndarray) -> None:
    if name in ("frame_smoothness", "sharpness"):
        rng = np.random.default_rng(2)
        inputs = [
            _clip_input("a", anchor),
            _clip_input("s", temporal_shuffle(anchor, rng=rng).frames),
            _clip_input("h", frame_hold(anchor, kept=(6, 8), rng=rng).frames),
        ]
    else:
        inputs = _items(5) + ([_clip_input("c", None)] if name == "random" else [])
    judge = _judge(name)
    together = [(v.item_id, v.value) for v in judge_batch_checked(judge, inputs)]
    alone = [(v.item_id, v.value) for x in inputs for v in judge.judge_batch([x])]
    backwards = [(v.item_id, v.value) for v in judge.judge_batch(inputs[::-1])][::-1]
    fresh = [(v.item_id, v.value) for v in _judge(name).judge_batch(inputs)]
    assert together == alone == backwards == fresh


# --------------------------------------------------------------------------- random


def test_random_depends_on_seed_and_id_only() -> None:
    inputs = _items(30)
    seed0 = [v.value for v in _judge("random", seed=0).judge_batch(inputs)]
    seed0_again = [v.value for v in _judge("random", seed=0, batch_size=7, name="other").judge_batch(inputs)]
    seed1 = [v.value for v in _judge("random", seed=1).judge_batch(inputs)]
    assert seed0 == seed0_again and seed0 != seed1
    same_id = EmoRealmQuestion("q0", Path("v.mp4"), None, "other text", ("(A) w", "(B) x", "(C) y", "(D) z"), "t")
    assert _judge("random").judge_batch([JudgeInput(same_id)])[0].value == seed0[2]


def test_random_answers_are_uniform_over_the_answer_set() -> None:
    from scipy import stats

    judge = _judge("random", seed=5)
    inputs = _items(600)
    values = [v.value for v in judge.judge_batch(inputs)]
    labels = Counter(values[0::3])
    prefs = Counter(values[1::3])
    mcq = Counter(values[2::6])
    yes_no = Counter(values[5::6])
    assert set(labels) == {"FF", "WF", "FL", "LL"} and set(prefs) == {"a1", "a2", "same"}
    assert set(mcq) == {"A", "B", "C", "D"} and set(yes_no) == {"A", "B"}
    for counts in (labels, prefs, mcq, yes_no):
        assert stats.chisquare(list(counts.values())).pvalue > 1e-3
    clips = [v.value for v in judge.judge_batch([_clip_input(f"c{i}", None) for i in range(2000)])]
    assert all(isinstance(x, float) and 0.0 <= x < 1.0 for x in clips)
    assert stats.kstest(clips, "uniform").pvalue > 1e-3


def test_random_without_same() -> None:
    prefs = [
        JudgeInput(EmoPreferPair(f"p{i}", f"p{i}", None, None, "x", "y", "forward")) for i in range(200)
    ]
    values = {v.value for v in _judge("random", options={"include_same": False}).judge_batch(prefs)}
    assert values == {"a1", "a2"}


def test_choice_letters() -> None:
    assert choice_letters(["(A) Yes", "(B) No"]) == ["A", "B"]
    assert choice_letters(["C: calm", "d. sad", "plain"]) == ["C", "D", "C"]
    [empty] = _judge("random").judge_batch([JudgeInput(EmoRealmQuestion("q", None, None, "?", (), "x"))])
    assert empty.no_judgment and "offers no labels" in (empty.error or "")
    with pytest.raises(SchemaError, match="offers no labels"):
        _judge("random").draw(EmoRealmQuestion("q", None, None, "?", (), "x"), np.random.default_rng(0))


# --------------------------------------------------------------------------- constant


def test_constant_answers() -> None:
    judge = _judge("constant", options={"answer": "C"})
    values = [v.value for v in judge.judge_batch(_items(4))]
    assert values == ["C"] * 12  # given to every query, offered or not (the scorer judges it)
    defaults = [v.value for v in _judge("constant").judge_batch(_items(1))]
    assert defaults == ["FF", "a1", "A"]  # each query's first label: MIST, EmoPrefer, EmoReAlM
    [empty] = _judge("constant").judge_batch([JudgeInput(EmoRealmQuestion("q", None, None, "?", (), "x"))])
    assert empty.no_judgment and "offers no labels" in (empty.error or "")
    with pytest.raises(SchemaError, match="got queries asking \\['a clip to rate against its prompt'\\]"):
        judge_batch_checked(judge, [_clip_input("c", None)])


# --------------------------------------------------------------------------- sample data


def _decode(judge: Any, item: ScoreQuery) -> JudgeInput:
    """What the runner hands a judge: the frames of ``judge.media_request(item)``."""
    from mmjudge.media.resize import resize_max_pixels
    from mmjudge.media.video import read_frames, sample_indices, video_info

    request = judge.media_request(item)
    info = video_info(item.video)
    num = request.num_frames if request.target_fps is None else None
    indices = sample_indices(info.num_frames, info.fps, num=num, target_fps=request.target_fps)
    frames = read_frames(item.video, indices)
    if request.max_pixels is not None:
        frames = resize_max_pixels(frames, request.max_pixels)
    return JudgeInput(item, frames=frames, frame_indices=tuple(indices), fps=info.fps)


def test_frame_smoothness_on_sample_data(sample_data: Path) -> None:
    from mmjudge.benchmarks import get_benchmark
    from mmjudge.predictions import PredictionFile, PredictionHeader
    from mmjudge.runner import RunOptions, load_queries
    from mmjudge.scoring import score_predictions

    judge = make_judge(load_config(REPO / "judges" / "frame_smoothness" / "config.yaml"))
    items, rows = load_queries("isovrbench", sample_data / "isovrbench", RunOptions())
    verdicts = judge_batch_checked(judge, [_decode(judge, item) for item in items])  # type: ignore[arg-type]
    assert not any(v.no_judgment for v in verdicts)
    by_id = {v.item_id: v.value for v in verdicts}
    temporal = [r for r in rows if r["intervention"] in ("temporal_shuffle", "frame_hold")]
    assert temporal and all(by_id[r["clip_id_chosen"]] > by_id[r["clip_id_rejected"]] for r in temporal)
    records = get_benchmark("isovrbench").records.records_from_verdicts(items, verdicts, rows)
    header = PredictionHeader("isovrbench", "frame_smoothness", judge.fingerprint)
    result = score_predictions(PredictionFile(header, records), rows, n_resamples=0)
    assert result["accuracy/temporal_shuffle"] == 100.0 and result["accuracy/frame_hold"] == 100.0
