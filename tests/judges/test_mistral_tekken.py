"""Checkpoints whose only tokenizer is a mistral-common ``tekken.json`` (MIST's Mistral-Small-3.2-24B).

A tiny random Mistral-3 carrying ``tekken.json`` and no other tokenizer file (:mod:`tiny_tekken`). transformers
5's Pixtral processor reads it with ``TokenizersBackend``, which keeps the vocabulary but names no ``<s>`` /
``</s>`` / ``<pad>`` and has no chat template, so every MIST item failed. The judges load it through
transformers' Mistral conversion (``convert_tekken_tokenizer``): its tokens at tekken's ranks, the chat
template from a ``chat_template.jinja`` beside the file or, with mistral-common installed, the one mistral-common
writes; without either the checkpoint is refused with the fix named.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_tekken import MISTRAL_CONTROL_TOKENS, build_mistral3_tekken

from mmjudge.errors import ConfigError
from mmjudge.judges import JudgeConfig, make_judge
from mmjudge.judges.tiny._templates import MISTRAL3_CHAT_TEMPLATE


@pytest.fixture(scope="module")
def tekken_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_mistral3_tekken(tmp_path_factory.mktemp("mistral3-tekken"))


def _with_template(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "with-template"
    shutil.copytree(folder, copy)
    (copy / "chat_template.jinja").write_text(MISTRAL3_CHAT_TEMPLATE, encoding="utf-8")
    return copy


def _judge(folder: Path) -> object:
    judge = make_judge(JudgeConfig(judge="label_choice", model=str(folder), local_files_only=True, dtype="float32"))
    judge.check_model()
    judge.load("cpu")
    return judge


def test_the_checkpoint_carries_only_tekken_json(tekken_only: Path) -> None:
    names = {p.name for p in tekken_only.iterdir()}
    assert "tekken.json" in names and not names & {"tokenizer.json", "tokenizer_config.json", "chat_template.jinja"}


def test_the_tokenizer_names_mistral_tokens_at_tekken_ranks(tekken_only: Path, tmp_path: Path) -> None:
    judge = _judge(_with_template(tekken_only, tmp_path))
    tokenizer = judge.processor.tokenizer  # type: ignore[attr-defined]
    ranks = {token: rank for rank, token in enumerate(MISTRAL_CONTROL_TOKENS)}
    assert (tokenizer.bos_token, tokenizer.eos_token, tokenizer.pad_token) == ("<s>", "</s>", "<pad>")
    assert [tokenizer.convert_tokens_to_ids(t) for t in ("<s>", "</s>", "<pad>", "[IMG]", "[INST]")] == [
        ranks[t] for t in ("<s>", "</s>", "<pad>", "[IMG]", "[INST]")
    ]
    assert judge.model.config.image_token_index == ranks["[IMG]"]  # type: ignore[attr-defined]
    messages = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "Rate 7."}]}]
    text = judge.processor.apply_chat_template(messages, tokenize=False)  # type: ignore[attr-defined]
    assert "[INST][IMG]Rate 7.[/INST]" in text


def test_mmjudge_eval_runs_mist_on_a_tekken_checkpoint_with_a_template(
    tekken_only: Path, sample_data: Path, tmp_path: Path
) -> None:
    from mmjudge.runner import RunOptions, run_judge

    config = JudgeConfig(judge="label_choice", model=str(_with_template(tekken_only, tmp_path)),
                         local_files_only=True, dtype="float32", options={"max_reasoning_tokens": 2})  # fmt: skip
    result = run_judge("mist", config, sample_data / "mist", tmp_path / "out", RunOptions(limit=1, progress=False))
    [verdicts] = result.verdicts.values()
    failed = [(v.item_id, v.error) for v in verdicts if v.errored]
    assert verdicts and not failed, failed[:2]


def test_without_a_template_or_mistral_common_the_checkpoint_is_refused_naming_the_fix(
    tekken_only: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from transformers.integrations.mistral import tokenizer as mistral

    monkeypatch.setattr(mistral, "is_mistral_common_available", lambda *a, **k: False)
    with pytest.raises(ConfigError, match=r"tekken\.json.*pip install 'mmjudge\[mistral\]'.*chat_template\.jinja"):
        _judge(tekken_only)


def test_with_mistral_common_its_own_template_encodes_as_mistral_common_does(tekken_only: Path) -> None:
    """The chat mistral-common writes for the file gives the token ids of mistral-common's own encoding."""
    pytest.importorskip("mistral_common")
    from mistral_common.protocol.instruct.messages import TextChunk, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    judge = _judge(tekken_only)
    processor = judge.processor  # type: ignore[attr-defined]
    text = "Which label fits? Answer FF, WF, FL or LL: 7"
    rendered = processor.apply_chat_template([{"role": "user", "content": [{"type": "text", "text": text}]}],
                                             tokenize=False, add_generation_prompt=True)  # fmt: skip
    ours = processor.tokenizer(rendered, add_special_tokens=False)["input_ids"]
    official = MistralTokenizer.from_file(str(tekken_only / "tekken.json")).encode_chat_completion(
        ChatCompletionRequest(messages=[UserMessage(content=[TextChunk(text=text)])])
    )
    assert ours == official.tokens
