"""pairwise_describe: EmoPrefer S1-S4 with a tiny random VLM (and a tiny random text LLM for S3/S4)
loaded through the real loading path; the raw answer is the value, the official parser's label is
in the diagnostics; the steps each strategy runs; batch-of-many equals batch-of-one; runs through the
runner on the sample data. Random weights prove the plumbing, not the scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mmjudge.benchmarks.emoprefer import EmoPreferPair, parse_response, prompts
from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, JudgeInput, make_judge
from mmjudge.media.synthetic import moving_texture_clip
from mmjudge.predictions import read_predictions
from mmjudge.runner import RunOptions, evaluate_judge

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny_text_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Qwen2 causal LM with the shared tiny tokenizer and the Qwen chat template."""
    import torch
    from tiny_models import PAD_TOKEN, QWEN_CHAT_TEMPLATE, build_tokenizer
    from transformers import Qwen2Config, Qwen2ForCausalLM

    tokenizer = build_tokenizer()
    tokenizer.chat_template = QWEN_CHAT_TEMPLATE
    config = Qwen2Config(
        vocab_size=512,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        pad_token_id=tokenizer.convert_tokens_to_ids(PAD_TOKEN),
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
    )
    torch.manual_seed(1)
    out = tmp_path_factory.mktemp("tiny-text-lm")
    Qwen2ForCausalLM(config).eval().save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def _config(vlm: Path, strategy: str, text_lm: Path | None = None, **extra: Any) -> JudgeConfig:
    options: dict[str, Any] = {
        "strategy": strategy,
        "max_answer_tokens": 5,
        "max_description_tokens": 6,
        "max_reasoning_tokens": 7,
    }
    if text_lm is not None:
        options["text_model"] = str(text_lm)
    return JudgeConfig(
        judge="pairwise_describe",
        model=str(vlm),
        local_files_only=True,
        dtype="float32",
        options=options,
        **extra,
    )


def _inputs() -> list[JudgeInput]:
    clip = moving_texture_clip(6, 56, 84, seed=4)
    pairs = [
        ("calm and content", "furious"),
        ("sad, tearful", "neutral face"),
        ("surprised", "surprised, then happy"),
    ]
    return [
        JudgeInput(
            EmoPreferPair(f"n{k}", f"n{k}", Path("v.mp4"), None, a1, a2, "forward"),
            frames=clip[k : k + 4],
            frame_indices=(0, 6, 12, 18),
            fps=24.0,
        )
        for k, (a1, a2) in enumerate(pairs)
    ]


@pytest.fixture(scope="module")
def judges(tiny_qwen2_vl: Path, tiny_text_lm: Path) -> dict[str, Any]:
    out = {}
    for strategy in ("S1", "S2", "S3", "S4"):
        judge = make_judge(
            _config(tiny_qwen2_vl, strategy, tiny_text_lm if strategy in ("S3", "S4") else None)
        )
        judge.load("cpu")
        out[strategy] = judge
    return out


@pytest.mark.parametrize("strategy", ["S1", "S2", "S3", "S4"])
def test_value_is_the_raw_answer_and_the_parsed_label_is_kept(judges: dict[str, Any], strategy: str) -> None:
    verdicts = judges[strategy].judge_batch(_inputs())
    for verdict in verdicts:
        extra = verdict.diagnostics.extra
        assert isinstance(verdict.value, str) and not verdict.no_judgment
        assert verdict.diagnostics.raw_text == verdict.value
        assert verdict.diagnostics.latency_s is not None and verdict.diagnostics.latency_s > 0
        assert extra["parsed"] == parse_response(verdict.value) and extra["strategy"] == strategy
        assert ("description" in extra) == (strategy != "S1")
        assert ("reasoning" in extra) == (strategy == "S4")


class _Recorder:
    """Wraps an LM's ``ask``/``generate`` to record what each step was asked."""

    def __init__(self, lm: Any, log: list[tuple[str, Any]], name: str) -> None:
        self.lm, self.log, self.name = lm, log, name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.lm, attr)

    def generate(self, encodings: Any, max_new_tokens: int) -> list[str]:
        self.log.append((f"{self.name}.generate", max_new_tokens))
        return list(self.lm.generate(encodings, max_new_tokens))

    def ask(self, texts: Any, max_new_tokens: int) -> list[str]:
        self.log.append((f"{self.name}.ask", (list(texts), max_new_tokens)))
        return list(self.lm.ask(texts, max_new_tokens))


@pytest.mark.parametrize(
    ("strategy", "steps"),
    [
        ("S1", ["vlm.generate"]),
        ("S2", ["vlm.generate", "vlm.ask"]),
        ("S3", ["vlm.generate", "text.ask"]),
        ("S4", ["vlm.generate", "text.ask", "text.ask"]),
    ],
)
def test_each_strategy_runs_its_steps_with_the_right_model(
    judges: dict[str, Any], strategy: str, steps: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    judge, log = judges[strategy], []
    monkeypatch.setattr(judge, "vlm", _Recorder(judge.vlm, log, "vlm"))
    if judge.text_lm is not None:
        monkeypatch.setattr(judge, "text_lm", _Recorder(judge.text_lm, log, "text"))
    x = _inputs()[0]
    [verdict] = judge.judge_batch([x])
    assert [name for name, _ in log] == steps
    extra = verdict.diagnostics.extra
    if strategy == "S1":
        assert log[0][1] == 5
        return
    assert log[0][1] == 6  # the description
    texts, budget = log[1][1]
    assert texts == [
        prompts.compare(extra["description"], "calm and content", "furious", reason=strategy == "S4")
    ]
    assert budget == (7 if strategy == "S4" else 5)
    if strategy == "S4":
        assert log[2][1] == ([prompts.extract(extra["reasoning"])], 5)


@pytest.mark.parametrize("strategy", ["S1", "S4"])
def test_batch_of_many_equals_batch_of_one(judges: dict[str, Any], strategy: str) -> None:
    inputs = _inputs()
    many = judges[strategy].judge_batch(inputs)
    for x, verdict in zip(inputs, many, strict=True):
        [one] = judges[strategy].judge_batch([x])
        assert one.value == verdict.value and one.diagnostics.extra == verdict.diagnostics.extra


def test_s3_and_s4_need_a_text_model() -> None:
    for strategy in ("S3", "S4"):
        with pytest.raises(ConfigError, match="text_model"):
            make_judge(JudgeConfig(judge="pairwise_describe", model="m", options={"strategy": strategy}))
    with pytest.raises(ConfigError, match="strategy"):
        make_judge(JudgeConfig(judge="pairwise_describe", model="m", options={"strategy": "S5"}))
    with pytest.raises(ConfigError, match="mist"):
        make_judge(JudgeConfig(judge="pairwise_describe", model="m")).check_benchmark("mist")


def test_a_missing_text_model_folder_is_a_config_error(tiny_qwen2_vl: Path, tmp_path: Path) -> None:
    judge = make_judge(_config(tiny_qwen2_vl, "S3", tmp_path / "no-such-model"))
    with pytest.raises(ConfigError, match="no-such-model"):
        judge.load("cpu")


def test_s1_runs_through_mmjudge_eval_on_the_sample_data(
    sample_data: Path, tiny_qwen2_vl: Path, tmp_path: Path
) -> None:
    import dataclasses

    import yaml

    from mmjudge.cli import main

    config = _config(tiny_qwen2_vl, "S1", frames=4, batch_size=4)
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({k: v for k, v in dataclasses.asdict(config).items() if v is not None}))
    out = tmp_path / "out"
    root = sample_data / "raw" / "emoprefer" / "MER2025"
    args = ["eval", "--benchmark", "emoprefer", "--judge", str(path), "--data", str(sample_data / "emoprefer"),
            "--media-root", str(root), "--out", str(out), "--swap", "--limit", "2", "--decode-workers", "0",
            "--no-progress"]  # fmt: skip
    assert main(args) == 0
    records = read_predictions(out / "predictions.jsonl", benchmark="emoprefer").records
    assert len(records) == 4 and not any(r["no_judgment"] for r in records)
    assert {r["order"] for r in records} == {"forward", "reversed"}
    assert (out / "results.json").is_file()


def test_s3_runs_through_the_runner_on_the_sample_data(
    sample_data: Path, tiny_qwen2_vl: Path, tiny_text_lm: Path, tmp_path: Path
) -> None:
    config = _config(tiny_qwen2_vl, "S3", tiny_text_lm, frames=4, batch_size=4)
    options = RunOptions(
        limit=2, swap=True, media_root=sample_data / "raw" / "emoprefer" / "MER2025", progress=False
    )
    [output] = evaluate_judge("emoprefer", config, sample_data / "emoprefer", tmp_path / "out", options)
    records = read_predictions(output.predictions, benchmark="emoprefer").records
    assert len(records) == 4 and not any(r["no_judgment"] for r in records)
    assert all(isinstance(r["prediction"], str) for r in records)
    assert output.scores and output.results.is_file()


def test_a_pair_without_frames_fails_alone(judges: dict[str, Any]) -> None:
    inputs = _inputs()
    verdicts = judges["S1"].judge_batch([inputs[0], JudgeInput(inputs[1].query), inputs[2]])
    assert [v.no_judgment for v in verdicts] == [False, True, False]
    assert "no video frames" in str(verdicts[1].error)


def test_option_defaults_are_written_into_the_config() -> None:
    judge = make_judge(JudgeConfig(judge="pairwise_describe", model="m"))
    assert judge.config.options["strategy"] == "S1"
    assert (
        judge.fingerprint
        == make_judge(
            JudgeConfig(judge="pairwise_describe", model="m", options={"strategy": "S1"})
        ).fingerprint
    )
