"""How long the worker lets one ``mmjudge eval`` run of a model request take.

Without a limit a request could hold a GPU for days: a sampled ``videoscore2`` run at temperature 2.0 and
``max_new_tokens: 4096`` generates 4,096 tokens for every clip. Each run (one benchmark of a request) gets a
wall-time budget derived from what the request asks and the benchmark's size, a generous bound on the pace of the
papers' protocols on one GPU:

    budget = START_S + calls * (CALL_S + frames * FRAME_S + new_tokens * TOKEN_S) / ranks

where ``calls`` is the number of records the run writes (one judge call each), ``frames`` the frames per clip the
config asks for (the judge's default, else :data:`DEFAULT_FRAMES`), ``new_tokens`` the sum of the token limits of
the backend's options (``max_new_tokens``, ``max_answer_tokens``, ...: every generation may run to its limit), and
``ranks`` the GPUs the run is spread over. The worker's ``--max-run-hours`` (``MMJUDGE_MAX_RUN_HOURS``) caps every
budget. A run past its budget is stopped (its whole process group) and the request fails with the reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, NamedTuple

from mmjudge.judges import get_judge, validate_options

__all__ = ["CALL_S", "DEFAULT_FRAMES", "DEFAULT_MAX_RUN_HOURS", "FRAME_S", "START_S", "TOKEN_S", "Budget", "run_budget"]

START_S = 1800.0
"""Seconds to download and load the weights before the first call."""
CALL_S = 2.0
"""Seconds of one judge call besides its frames and generated tokens (prompt, decoding the media, one forward)."""
FRAME_S = 0.25
"""Seconds per frame of a call (decoding, resizing and encoding it)."""
TOKEN_S = 0.05
"""Seconds per generated token (20 tokens a second, a slow decode of a large model on one GPU)."""
DEFAULT_FRAMES = 16
"""Frames per call when neither the config nor the judge says."""
DEFAULT_MAX_RUN_HOURS = 48.0
"""The cap on every budget when the worker is given none."""


class Budget(NamedTuple):
    """One run's wall-time budget."""

    seconds: float
    """How long the run may take."""
    why: str
    """How it was derived (shown when the run is stopped)."""


def _tokens(config: Mapping[str, Any]) -> int:
    """The sum of the token limits of the backend's options, defaults included (``0`` for a judge without)."""

    options_type = get_judge(str(config["judge"])).Options
    options = validate_options(options_type, dict(config.get("options") or {}), source="request options")
    if not dataclasses.is_dataclass(options):
        return 0
    values = (getattr(options, f.name) for f in dataclasses.fields(options) if f.name.endswith("_tokens"))
    return sum(v for v in values if isinstance(v, int) and not isinstance(v, bool))


def _frames(config: Mapping[str, Any]) -> int:

    given = config.get("frames")
    default = get_judge(str(config["judge"])).default_frames
    return int(given or default or DEFAULT_FRAMES)


def run_budget(config: Mapping[str, Any], calls: int, *, ranks: int = 1,
               max_hours: float = DEFAULT_MAX_RUN_HOURS) -> Budget:  # fmt: skip
    """The budget of a run of the judge config ``config`` writing ``calls`` records over ``ranks`` GPUs.

    >>> run_budget({"judge": "random"}, 100).seconds
    2400.0
    >>> run_budget({"judge": "videoscore2", "options": {"max_new_tokens": 4096}}, 8000, max_hours=24).why
    "capped at the worker's 24 h (the estimate was 1,688,200 s: 1,800 s to load + 8,000 calls × 210.8 s)"
    """
    frames, tokens = _frames(config), _tokens(config)
    per_call = CALL_S + frames * FRAME_S + tokens * TOKEN_S
    estimate = START_S + calls * per_call / max(ranks, 1)
    shown = f"{START_S:,.0f} s to load + {calls:,} calls × {per_call:.1f} s" + (f" / {ranks} GPUs" if ranks > 1 else "")
    cap = max_hours * 3600.0
    if estimate > cap:
        return Budget(cap, f"capped at the worker's {max_hours:g} h (the estimate was {estimate:,.0f} s: {shown})")
    return Budget(estimate, f"{estimate:,.0f} s: {shown}")
