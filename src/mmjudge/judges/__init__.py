"""Judges: the protocol, configs, items and (in their own modules) the registered backends.

>>> from mmjudge.judges import JudgeConfig
>>> JudgeConfig(judge="random").display_name
'random'
"""

from mmjudge.judges._base import Judge, NoOptions, judge_batch_checked, make_judge, with_frames
from mmjudge.judges._config import JudgeConfig, config_from_mapping, fingerprint, load_config
from mmjudge.judges._types import (
    ClipItem,
    Diagnostics,
    Item,
    JudgeInput,
    LabelItem,
    MediaRequest,
    PreferenceItem,
    QuestionItem,
    Verdict,
)

__all__ = [
    "ClipItem",
    "Diagnostics",
    "Item",
    "Judge",
    "JudgeConfig",
    "JudgeInput",
    "LabelItem",
    "MediaRequest",
    "NoOptions",
    "PreferenceItem",
    "QuestionItem",
    "Verdict",
    "config_from_mapping",
    "fingerprint",
    "judge_batch_checked",
    "load_config",
    "make_judge",
    "with_frames",
]
