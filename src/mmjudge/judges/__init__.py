"""Judges: the protocol (item kinds accepted, verdicts), configs, the registry and the backends.

>>> from mmjudge.judges import JudgeConfig
>>> JudgeConfig(judge="random").display_name
'random'
"""

from mmjudge.items import (
    ClipItem,
    DescriptionPairItem,
    Diagnostics,
    Item,
    LabelPrompt,
    QuestionItem,
    SentenceItem,
    Verdict,
)
from mmjudge.judges._base import Judge, NoOptions, judge_batch_checked, make_judge, with_frames
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

__all__ = [
    "JUDGES",
    "ClipItem",
    "DescriptionPairItem",
    "Diagnostics",
    "Item",
    "Judge",
    "JudgeConfig",
    "JudgeInput",
    "LabelPrompt",
    "MediaRequest",
    "NoOptions",
    "QuestionItem",
    "SentenceItem",
    "Verdict",
    "config_from_mapping",
    "fingerprint",
    "get_judge",
    "is_transient",
    "judge_batch_checked",
    "load_config",
    "looks_transient",
    "make_judge",
    "register_judge",
    "validate_options",
    "with_frames",
]
