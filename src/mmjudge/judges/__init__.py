"""Judges: the protocol (query kinds answered, media read, verdicts), configs, the registry and the backends.

>>> from mmjudge.judges import JudgeConfig
>>> JudgeConfig(judge="random").display_name
'random'
"""

from mmjudge.judges._base import (
    Judge,
    NoOptions,
    describe_kinds,
    describe_media,
    describe_needs,
    free_text_verdict,
    judge_batch_checked,
    make_judge,
    media_needed,
    missing_media,
    with_frames,
)
from mmjudge.judges._config import (
    JudgeConfig,
    config_from_mapping,
    fingerprint,
    load_config,
    validate_options,
)
from mmjudge.judges._failures import is_transient, looks_transient
from mmjudge.judges._registry import JUDGES, get_judge, register_judge
from mmjudge.judges._types import JudgeInput, MediaRequest
from mmjudge.queries import ChoiceQuery, Diagnostics, LabelPrompt, PairQuery, Query, ScoreQuery, Verdict

__all__ = [
    "JUDGES",
    "ChoiceQuery",
    "Diagnostics",
    "Judge",
    "JudgeConfig",
    "JudgeInput",
    "LabelPrompt",
    "MediaRequest",
    "NoOptions",
    "PairQuery",
    "Query",
    "ScoreQuery",
    "Verdict",
    "config_from_mapping",
    "describe_kinds",
    "describe_media",
    "describe_needs",
    "fingerprint",
    "free_text_verdict",
    "get_judge",
    "is_transient",
    "judge_batch_checked",
    "load_config",
    "looks_transient",
    "make_judge",
    "media_needed",
    "missing_media",
    "register_judge",
    "validate_options",
    "with_frames",
]
