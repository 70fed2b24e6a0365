"""What every judge inherits from :class:`mmjudge.judges.Judge`, checked over the whole registry."""

from __future__ import annotations

import dataclasses

import pytest

from mmjudge.errors import ConfigError
from mmjudge.judges import JUDGES, JudgeConfig, get_judge


def _needs(name: str) -> dict[str, object]:
    """The smallest config ``name`` accepts (a model name where it needs one)."""
    return {"model": "some-model"} if name == "openai_compatible" else {}


@pytest.mark.parametrize("name", JUDGES.names())
def test_a_judge_with_its_own_prompts_refuses_a_template_with_one_message(name: str) -> None:
    cls = get_judge(name)
    config = JudgeConfig(judge=name, prompt_template="Rate {prompt}.", **_needs(name))  # type: ignore[arg-type]
    if cls.own_prompts is None:
        assert cls(config).config.prompt_template == "Rate {prompt}."
        return
    with pytest.raises(ConfigError, match=rf"^{name} .* takes no `prompt_template`; remove it from the config$"):
        cls(config)


@pytest.mark.parametrize("name", JUDGES.names())
def test_option_defaults_are_recorded_only_where_the_judge_says(name: str) -> None:
    cls = get_judge(name)
    judge = cls(JudgeConfig(judge=name, **_needs(name)))  # type: ignore[arg-type]
    defaults = dataclasses.asdict(cls.Options())
    if cls.records_option_defaults:
        assert judge.config.options == defaults and defaults, name
    else:
        assert judge.config.options == {}, name
