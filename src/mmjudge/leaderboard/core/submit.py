"""What is about submissions alone, outside the service (:class:`~mmjudge.leaderboard.core.service.Leaderboard`):
the daily-limit policy as the Submit tab states it, and ``mmjudge demo`` output stored as baseline rows.
"""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

from mmjudge.errors import SchemaError
from mmjudge.leaderboard.core.service import Leaderboard
from mmjudge.leaderboard.core.validation import SubmissionMeta
from mmjudge.leaderboard.store import SubmissionRejected

__all__ = ["ingest_demo_output", "quota_text"]


def quota_text(limit: int) -> str:
    """The daily-limit policy in one sentence, as the Submit tab and the cards state it.

    >>> quota_text(5)[:66]
    'Each user may make 5 uploads and model requests in 24 hours: an up'
    """
    return (f"Each user may make {limit} uploads and model requests in 24 hours: an upload counts once; a model "
            "request counts once, when it is made, whatever its number of benchmarks; the rows the worker "
            "stores for a request are not uploads and do not count.")  # fmt: skip


def ingest_demo_output(board: Leaderboard, demo_dir: str | Path) -> list[str]:
    """Store ``demo_dir/<benchmark>/<judge>/predictions.jsonl`` (``mmjudge demo`` output) as baselines.

    Each file goes through :meth:`Leaderboard.submit` (submitter ``baseline``, model = judge name, a
    ``baseline`` row: shown in the table and the figure, never ranked; stored with tier ``run here`` and
    ``reference_line`` set), with the summary of the ``robustness.json`` beside it when there is one
    (validated; its benchmark and judge must match the folder's); files already stored (same sha256) are
    skipped before they are scored again, and other duplicates (same judge) when storing. What the scorer
    notes about a file (e.g. a MIST alt-test the sample is too small for) is part of that file's line, not a
    warning of the server. Returns one line per file saying what happened.
    """
    messages = []
    for path in sorted(Path(demo_dir).glob("*/*/predictions.jsonl")):
        benchmark, judge = path.parent.parent.name, path.parent.name
        if benchmark not in board.benchmarks_available():
            messages.append(f"{path}: skipped, no {benchmark} labels on this server")
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        known = next((s.id for s in board.store.submissions(benchmark) if s.sha256 == digest), None)
        if known is not None:
            messages.append(f"{path}: already stored as #{known}")
            continue
        meta = SubmissionMeta(judge=judge, model=judge, revision="demo", weights="open")
        try:
            summary = _robustness_summary(path.parent / "robustness.json", benchmark, judge)
            with warnings.catch_warnings(record=True) as caught:  # the scorer's notes, told with the file
                warnings.simplefilter("always", UserWarning)
                stored = board.submit(data, meta, "baseline", limited=False, source=str(path),
                                      robustness=summary, reference_line=True)  # fmt: skip
            notes = "".join(f"; note: {n}" for n in dict.fromkeys(str(w.message) for w in caught))
            messages.append(f"{path}: stored as #{stored.id}{notes}")
        except (SubmissionRejected, SchemaError) as exc:
            messages.append(f"{path}: skipped ({exc})")
    return messages


def _robustness_summary(path: Path, benchmark: str, judge: str) -> dict[str, float | None] | None:
    """The summary of a validated ``robustness.json`` of ``judge`` on ``benchmark`` (``None`` when absent)."""
    if not path.is_file():
        return None
    from mmjudge.robustness import read_report

    report = read_report(path)
    if (report["benchmark"], report["judge"]) != (benchmark, judge):
        raise SchemaError(
            f"{path} is the robustness report of {report['judge']!r} on {report['benchmark']!r}, expected "
            f"{judge!r} on {benchmark!r}; rerun `mmjudge robustness` into that folder"
        )
    return dict(report["summary"])
