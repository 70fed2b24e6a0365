"""label_choice: the label trie, both choice rules against written-out references (hand-built and
random logits), a constructed case where they disagree, a tiny random VLM loaded through the real
loading path (log-likelihood and greedy steps recomputed by hand from one unpadded forward pass,
batch-of-many equals batch-of-one, valid labels only), and full runs through the runner on the
sample data. Random weights prove the plumbing, not the scores."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmjudge.benchmarks.emoprefer import EmoPreferPair
from mmjudge.benchmarks.emorealm import EmoRealmQuestion
from mmjudge.benchmarks.mist import MistCell
from mmjudge.benchmarks.mist.prompts import ANSWER_PREFIX, MIST_LABELS
from mmjudge.errors import ConfigError, SchemaError
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge
from mmjudge.judges._constrained import LabelTrie, decode_greedy, decode_loglik, log_softmax
from mmjudge.judges.random_judge import choice_letters
from mmjudge.media.synthetic import moving_texture_clip
from mmjudge.predictions import read_predictions
from mmjudge.runner import RunOptions, evaluate_judge, run_judge

REPO = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------- pure rules


def _table_fn(table: dict[tuple[int, ...], dict[int, float]], vocab: int) -> Any:
    """Log-probs from a table of next-token probabilities per prefix (missing tokens: ~0)."""

    def fn(rows: Any) -> np.ndarray:
        return np.log([[table[p].get(t, 1e-12) for t in range(vocab)] for _, p in rows])

    return fn


def test_trie_refuses_labels_that_are_not_prefix_free() -> None:
    with pytest.raises(SchemaError, match="is a prefix of"):
        LabelTrie({"A": (1,), "AB": (1, 2)})
    with pytest.raises(SchemaError, match="tokenise to the same tokens"):
        LabelTrie({"A": (1, 2), "a": (1, 2)})
    with pytest.raises(SchemaError, match="no tokens"):
        LabelTrie({"A": ()})


def test_greedy_and_loglik_disagree_on_a_constructed_case() -> None:
    # root: 'a' (shared by a1, a2) 0.6, 'same' 0.4; after 'a': 1 and 2 at 0.3 / 0.7 of 'a''s mass... split evenly
    trie = LabelTrie({"a1": (5, 1), "a2": (5, 2), "same": (9,)})
    fn = _table_fn({(): {5: 0.6, 9: 0.4}, (5,): {1: 0.5, 2: 0.5}}, 10)
    [greedy], [loglik] = decode_greedy([trie], fn), decode_loglik([trie], fn)
    # greedy: argmax at the root is 'a' (0.6), then a tie between 1 and 2 goes to the lower id: a1
    assert (greedy.label, greedy.method, greedy.tokens) == ("a1", "greedy_trie", (5, 1))
    assert greedy.logprob == pytest.approx(math.log(0.6 * 0.5))
    # loglik: a1 = a2 = 0.3 < same = 0.4
    assert (loglik.label, loglik.method) == ("same", "loglik")
    assert loglik.logliks == pytest.approx({"a1": math.log(0.3), "a2": math.log(0.3), "same": math.log(0.4)})
    assert greedy.valid_mass == pytest.approx(1.0) and loglik.valid_mass == pytest.approx(1.0)


def test_masking_ignores_tokens_outside_the_labels() -> None:
    trie = LabelTrie({"FF": (3,), "LL": (4,)})
    fn = _table_fn({(): {0: 0.7, 3: 0.1, 4: 0.2}}, 5)  # the unconstrained argmax (token 0) is no label
    [choice] = decode_greedy([trie], fn)
    assert choice.label == "LL" and choice.valid_mass == pytest.approx(0.3)


@st.composite
def _label_sets(draw: st.DrawFn) -> dict[str, tuple[int, ...]]:
    seqs = draw(
        st.lists(
            st.lists(st.integers(0, 7), min_size=1, max_size=3).map(tuple),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    prefix_free = [s for s in seqs if not any(o != s and o[: len(s)] == s for o in seqs)]
    return {f"L{k}": s for k, s in enumerate(prefix_free)}


def _random_node_fn(seed: int, vocab: int = 8) -> tuple[Any, dict[tuple[int, ...], np.ndarray]]:
    cache: dict[tuple[int, ...], np.ndarray] = {}
    rng = np.random.default_rng(seed)

    def fn(rows: Any) -> np.ndarray:
        for _, prefix in rows:
            if prefix not in cache:
                cache[prefix] = log_softmax(rng.normal(scale=3.0, size=(1, vocab)))[0]
        return np.stack([cache[p] for _, p in rows])

    return fn, cache


@settings(max_examples=150, deadline=None)
@given(labels=_label_sets(), seed=st.integers(0, 2**32 - 1))
def test_both_rules_return_a_valid_label_and_match_the_reference(
    labels: dict[str, tuple[int, ...]], seed: int
) -> None:
    fn, table = _random_node_fn(seed)
    trie = LabelTrie(labels)
    [greedy], [loglik] = decode_greedy([trie], fn), decode_loglik([trie], fn)
    assert greedy.label in labels and labels[greedy.label] == greedy.tokens
    assert loglik.label in labels and labels[loglik.label] == loglik.tokens
    # reference greedy: at each node the best allowed next token, until a label is complete
    prefix: tuple[int, ...] = ()
    while prefix not in labels.values():
        allowed = sorted(
            {s[len(prefix)] for s in labels.values() if s[: len(prefix)] == prefix and len(s) > len(prefix)}
        )
        prefix = (*prefix, max(allowed, key=lambda t: (table[prefix][t], -t)))
    assert greedy.tokens == prefix
    # reference loglik: the sum of the token log-probs of each label's continuation
    sums = {k: sum(table[s[:d]][s[d]] for d in range(len(s))) for k, s in labels.items()}
    assert loglik.logliks == pytest.approx(sums)
    assert sums[loglik.label] == pytest.approx(max(sums.values()))
    assert sums[greedy.label] <= sums[loglik.label] + 1e-12
    first = sorted({s[0] for s in labels.values()})
    assert loglik.valid_mass == pytest.approx(float(np.exp(table[()][first]).sum()))


def test_items_with_different_label_sets_share_one_batch() -> None:
    tries = [LabelTrie({"A": (1,), "B": (2,)}), LabelTrie({"a1": (5, 1), "a2": (5, 2), "same": (9,)})]
    calls: list[int] = []
    fn, _ = _random_node_fn(0, vocab=10)

    def counting(rows: Any) -> np.ndarray:
        calls.append(len(rows))
        return fn(rows)

    decode_loglik(tries, counting)
    assert calls == [3]  # the root of each item and the shared 'a' node, in one call
    calls.clear()
    decode_greedy(tries, counting)
    assert calls[0] == 2 and len(calls) <= 2


# --------------------------------------------------------------------------- tiny model


def _inputs() -> list[JudgeInput]:
    from PIL import Image

    clip = moving_texture_clip(6, 56, 84, seed=1)
    image = Image.fromarray(moving_texture_clip(1, 56, 56, seed=2)[0])
    sentence, compound = "The tax bill became a **hot potato** for the council.", "hot potato"

    def cell(strategy: str, arm: str, condition: str) -> MistCell:
        img = None if condition == "none" else Path("image.png")
        return MistCell(
            f"i1::{strategy}::{arm}::{condition}", "i1", sentence, compound, img, strategy, arm, condition
        )

    indices = (0, 1, 2, 3, 4, 5)
    return [
        JudgeInput(cell("zero_shot", "explicit", "aligned"), image=image),
        JudgeInput(cell("few_shot", "none", "none")),
        JudgeInput(cell("cot", "silent", "misleading"), image=image),
        JudgeInput(
            EmoPreferPair("n1", "n1", Path("v.mp4"), None, "happy and calm", "angry", "forward"),
            frames=clip,
            frame_indices=indices,
            fps=24.0,
        ),
        JudgeInput(
            EmoRealmQuestion(
                "q1",
                Path("v.mp4"),
                None,
                "Is the person happy?",
                ("(A) Yes", "(B) No", "(C) Unsure"),
                "modality_agreement",
            ),
            frames=clip,
            frame_indices=indices,
            fps=24.0,
        ),
    ]


def _config(model: Path, method: str, **extra: Any) -> JudgeConfig:
    options = {"method": method, "max_reasoning_tokens": 6}
    return JudgeConfig(judge="label_choice", model=str(model), local_files_only=True, dtype="float32",
                       options=options, **extra)  # fmt: skip


@pytest.fixture(scope="module")
def judges(tiny_qwen2_vl: Path) -> dict[str, Any]:
    out = {}
    for method in ("greedy_trie", "loglik"):
        judge = make_judge(_config(tiny_qwen2_vl, method))
        judge.load("cpu")
        out[method] = judge
    return out


def _full_logprobs(judge: Any, x: JudgeInput, continuation: list[int]) -> np.ndarray:
    """Log-softmax at every position of one unpadded sequence: prompt + continuation (reference)."""
    import torch

    from mmjudge.judges._chat import encode_chat
    from mmjudge.judges.label_choice import build_prompt

    prompt = build_prompt(x.query)
    enc = encode_chat(judge.processor, prompt.text, images=[x.image] if x.image is not None else [],
                      frames=x.frames, frame_indices=x.frame_indices, fps=x.fps)  # fmt: skip
    n = enc["input_ids"].shape[1]
    enc["input_ids"] = torch.cat([enc["input_ids"], torch.tensor([continuation])], dim=1)
    for key in ("attention_mask", "mm_token_type_ids"):
        fill = 1 if key == "attention_mask" else 0
        enc[key] = torch.cat([enc[key], torch.full((1, len(continuation)), fill)], dim=1)
    with torch.inference_mode():
        logits = judge.model(**enc).logits[0].double()
    return torch.log_softmax(logits, dim=-1)[n - 1 :].numpy()  # row j predicts continuation[j]


@pytest.mark.parametrize("position", [0, 1, 3, 4])
def test_loglik_equals_a_hand_computation_from_the_logits(judges: dict[str, Any], position: int) -> None:
    judge = judges["loglik"]
    x = _inputs()[position]
    [verdict] = judge.judge_batch([x])
    prefix = (
        judge.tokenizer.encode(ANSWER_PREFIX, add_special_tokens=False)
        if isinstance(x.query, MistCell)
        else []
    )
    expected = {}
    for label in verdict.diagnostics.extra["labels"]:
        tokens = judge.tokenizer.encode(label, add_special_tokens=False)
        rows = _full_logprobs(judge, x, [*prefix, *tokens])
        expected[label] = sum(rows[len(prefix) + j, t] for j, t in enumerate(tokens))
    assert verdict.diagnostics.extra["logliks"] == pytest.approx(expected, abs=1e-5)
    assert verdict.value == max(expected, key=lambda k: expected[k])
    first = {judge.tokenizer.encode(k, add_special_tokens=False)[0] for k in expected}
    root = _full_logprobs(judge, x, prefix)[len(prefix)] if prefix else _full_logprobs(judge, x, [0])[0]
    assert verdict.diagnostics.valid_mass == pytest.approx(float(np.exp(root[sorted(first)]).sum()), abs=1e-6)


@pytest.mark.parametrize("position", [0, 3])
def test_greedy_steps_equal_a_hand_walk(judges: dict[str, Any], position: int) -> None:
    judge = judges["greedy_trie"]
    x = _inputs()[position]
    [verdict] = judge.judge_batch([x])
    labels = {
        k: judge.tokenizer.encode(k, add_special_tokens=False) for k in verdict.diagnostics.extra["labels"]
    }
    prefix = (
        judge.tokenizer.encode(ANSWER_PREFIX, add_special_tokens=False)
        if isinstance(x.query, MistCell)
        else []
    )
    chosen: list[int] = []
    while chosen not in labels.values():
        allowed = sorted(
            {s[len(chosen)] for s in labels.values() if s[: len(chosen)] == chosen and len(s) > len(chosen)}
        )
        row = _full_logprobs(judge, x, [*prefix, *chosen, 0])[len(prefix) + len(chosen)]
        chosen.append(max(allowed, key=lambda t: (row[t], -t)))
    assert verdict.diagnostics.extra["label_tokens"] == chosen
    assert verdict.diagnostics.extra["method"] == "greedy_trie"


@pytest.mark.parametrize("method", ["greedy_trie", "loglik"])
def test_batch_of_many_equals_batch_of_one(judges: dict[str, Any], method: str) -> None:
    judge, inputs = judges[method], _inputs()
    many = judge.judge_batch(inputs)
    for x, verdict in zip(inputs, many, strict=True):
        [one] = judge.judge_batch([x])
        assert one.value == verdict.value and one.item_id == verdict.item_id
        assert one.diagnostics.extra["logliks"] == pytest.approx(
            verdict.diagnostics.extra["logliks"], abs=1e-5
        )
        assert one.diagnostics.valid_mass == pytest.approx(verdict.diagnostics.valid_mass, abs=1e-6)
        assert one.diagnostics.raw_text == verdict.diagnostics.raw_text


def test_cot_reasons_freely_then_answers_under_the_constraint(judges: dict[str, Any]) -> None:
    x = _inputs()[2]
    for judge in judges.values():
        [verdict] = judge.judge_batch([x])
        extra = verdict.diagnostics.extra
        assert "reasoning" in extra and "free_label" in extra
        assert verdict.diagnostics.raw_text.endswith(f'\n{ANSWER_PREFIX}{verdict.value}"}}')
        assert verdict.value in MIST_LABELS


@pytest.mark.parametrize("family", ["tiny_qwen2_vl", "tiny_qwen2_5_vl", "tiny_qwen3_vl"])
def test_only_valid_labels_on_every_family(request: pytest.FixtureRequest, family: str) -> None:
    judge = make_judge(_config(request.getfixturevalue(family), "greedy_trie"))
    judge.load("cpu")
    inputs = _inputs()
    valid = [MIST_LABELS] * 3 + [("a1", "a2", "same"), ("A", "B", "C")]
    for verdict, allowed in zip(judge.judge_batch(inputs), valid, strict=True):
        assert not verdict.no_judgment and verdict.value in allowed
        assert 0.0 < verdict.diagnostics.valid_mass <= 1.0
        assert verdict.diagnostics.latency_s is not None and verdict.diagnostics.latency_s > 0


# --------------------------------------------------------------------------- configs and runs


@pytest.mark.parametrize(
    ("options", "extra", "message"),
    [
        ({"method": "beam"}, {}, "method"),
        ({"frames_as": "gif"}, {}, "frames_as"),
        ({"max_reasoning_tokens": 0}, {}, "max_reasoning_tokens"),
        ({}, {"prompt_template": "{question}"}, "prompt_template"),
    ],
)
def test_bad_config_is_refused(options: dict[str, Any], extra: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_judge(JudgeConfig(judge="label_choice", model="m", options=options, **extra))


def test_refuses_isovrbench() -> None:
    with pytest.raises(ConfigError, match="isovrbench"):
        make_judge(JudgeConfig(judge="label_choice", model="m")).check_benchmark("isovrbench")


def _write_config(path: Path, config: JudgeConfig) -> Path:
    import dataclasses

    import yaml

    path.write_text(yaml.safe_dump({k: v for k, v in dataclasses.asdict(config).items() if v is not None}))
    return path


def test_runs_through_mmjudge_eval_on_the_mist_sample(
    sample_data: Path, tiny_qwen2_vl: Path, tmp_path: Path
) -> None:
    from mmjudge.cli import main

    config = _write_config(tmp_path / "config.yaml", _config(tiny_qwen2_vl, "greedy_trie", batch_size=8))
    out = tmp_path / "out"
    args = ["eval", "--benchmark", "mist", "--judge", str(config), "--data", str(sample_data / "mist"),
            "--out", str(out), "--limit", "1", "--decode-workers", "0", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    records = read_predictions(out / "predictions.jsonl", benchmark="mist").records
    assert len(records) == 20 and not any(r["no_judgment"] for r in records)
    assert {r["label"] for r in records} <= set(MIST_LABELS)
    assert {(r["prompt_strategy"], r["arm"], r["image_condition"]) for r in records} == {
        (s, a, c) for s in ("zero_shot", "few_shot", "cot", "few_shot_cot")
        for c, a in [("none", "none"), ("aligned", "explicit"), ("aligned", "silent"),
                     ("misleading", "explicit"), ("misleading", "silent")]
    }  # fmt: skip
    assert (out / "results.json").is_file() and (out / "report.md").is_file()
    assert '"method": "greedy_trie"' in (out / "results.json").read_text(encoding="utf-8")


def test_runs_through_the_runner_on_the_emoprefer_sample(
    sample_data: Path, tiny_qwen2_vl: Path, tmp_path: Path
) -> None:
    config = _config(tiny_qwen2_vl, "greedy_trie", frames=4, batch_size=8)
    root = sample_data / "raw" / "emoprefer" / "MER2025"
    options = RunOptions(limit=2, swap=True, media_root=root, progress=False)
    [output] = evaluate_judge("emoprefer", config, sample_data / "emoprefer", tmp_path / "out", options)
    records = read_predictions(output.predictions, benchmark="emoprefer").records
    assert len(records) == 4 and not any(r["no_judgment"] for r in records)
    assert {r["prediction"] for r in records} <= {"a1", "a2", "same"}
    assert output.scores and output.results.is_file()


def test_runs_through_the_runner_on_the_emorealm_sample(
    sample_data: Path, tiny_qwen2_vl: Path, tmp_path: Path
) -> None:
    # run_judge, not evaluate_judge: the EmoReAlM scorer currently refuses the sample's
    # modality_agreement questions whose choices are emotions (reported to the lead)
    config = _config(tiny_qwen2_vl, "loglik", frames=4, batch_size=8)
    options = RunOptions(limit=4, media_root=sample_data / "raw" / "emorealm" / "DFEW", progress=False)
    result = run_judge("emorealm", config, sample_data / "emorealm", tmp_path / "out", options)
    [verdicts] = result.verdicts.values()
    assert len(verdicts) == 4
    for item, verdict in zip(result.queries, verdicts, strict=True):
        assert isinstance(item, EmoRealmQuestion) and not verdict.no_judgment
        assert verdict.value in choice_letters(item.choices)
        assert verdict.diagnostics.extra["method"] == "loglik"


def test_inputs_without_their_media_fail_alone(judges: dict[str, Any]) -> None:
    inputs = _inputs()
    blind = [
        JudgeInput(inputs[0].query),  # an aligned MIST cell whose image did not load
        JudgeInput(inputs[3].query),  # an EmoPrefer pair without frames
    ]
    verdicts = judges["loglik"].judge_batch([blind[0], inputs[1], blind[1], inputs[4]])
    assert [v.no_judgment for v in verdicts] == [True, False, True, False]
    assert all("MediaError" in str(v.error) for v in verdicts if v.no_judgment)
    assert verdicts[1].value in MIST_LABELS and verdicts[3].value in ("A", "B", "C")


def test_frames_as_images_gives_valid_labels_and_batch_invariance(tiny_qwen2_5_vl: Path) -> None:
    judge = make_judge(
        JudgeConfig(
            judge="label_choice",
            model=str(tiny_qwen2_5_vl),
            local_files_only=True,
            dtype="float32",
            options={"method": "loglik", "frames_as": "images"},
        )
    )
    judge.load("cpu")
    inputs = _inputs()[3:]
    many = judge.judge_batch(inputs)
    assert all(
        v.value in allowed for v, allowed in zip(many, [("a1", "a2", "same"), ("A", "B", "C")], strict=True)
    )
    for x, verdict in zip(inputs, many, strict=True):
        [one] = judge.judge_batch([x])
        assert one.value == verdict.value
        assert one.diagnostics.extra["logliks"] == pytest.approx(
            verdict.diagnostics.extra["logliks"], abs=1e-5
        )


def test_option_defaults_are_written_into_the_config() -> None:
    judge = make_judge(JudgeConfig(judge="label_choice", model="m"))
    assert judge.config.options["method"] == "greedy_trie"  # so results.json names the method used
    explicit = make_judge(JudgeConfig(judge="label_choice", model="m", options={"method": "greedy_trie"}))
    assert judge.fingerprint == explicit.fingerprint
    assert make_judge(
        JudgeConfig(judge="label_choice", model="m", options={"method": "loglik"})
    ).fingerprint != (judge.fingerprint)
