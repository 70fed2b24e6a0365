"""The submissions table: the rows a board shows, how one is inserted (tier, lease, duplicates, daily limit,
Ladder) and read back, and the shipped reported rows kept in step.

:class:`~mmjudge.leaderboard.store.Store` (:mod:`._store`) calls these inside its transactions; the queue's
inserts (:mod:`._requests`) share the daily limit and lease checks.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from mmjudge._text import text_key
from mmjudge.errors import MmjudgeError
from mmjudge.leaderboard.store._sql import Connection

if TYPE_CHECKING:
    from mmjudge.leaderboard.store._store import Store

__all__ = [
    "SUBMISSION_COLUMNS",
    "TIERS",
    "LadderRule",
    "Lease",
    "LeaseLost",
    "NewSubmission",
    "StoredSubmission",
    "SubmissionRejected",
    "check_daily_limit",
    "check_lease",
    "insert_row",
    "read_submission",
    "sync_reported",
    "visible_submissions",
]


class SubmissionRejected(MmjudgeError, ValueError):
    """A submission or model request was refused (duplicate, daily limit, bad metadata or file)."""

    __module__ = "mmjudge.leaderboard.store"  # its public home, as tracebacks name it


class LeaseLost(MmjudgeError):
    """A worker tried to store or finish a request it no longer holds (its lease ran out and another
    worker claimed it, or the request ended)."""

    __module__ = "mmjudge.leaderboard.store"


@dataclass(frozen=True)
class Lease:
    """A worker's hold on a claimed request: valid while the request is RUNNING under this worker and
    attempt (a later claim increments ``attempt``, which fences out the earlier holder)."""

    request_id: int
    """The claimed request."""
    worker: str
    """The worker holding it."""
    attempt: int
    """The request's ``attempts`` count when this worker claimed it."""


PUBLISHED, RUN_HERE, SUBMITTED = "published", "run here", "submitted"
TIERS: tuple[str, ...] = (PUBLISHED, RUN_HERE, SUBMITTED)
"""A row's provenance, most trusted first (see :attr:`NewSubmission.tier`)."""


PairedMargin = Callable[[str, str], float | None]
"""The parameter-free Ladder's margin: from the packed paired data of a new row and of the row that set its
submitter's best shown score, the standard error of their paired difference (``None`` when the two cannot be
paired)."""


@dataclass(frozen=True)
class LadderRule:
    """Private-label feedback (the Ladder, Blum & Hardt 2015): a submitter's new score is shown only when it
    beats that submitter's best shown score on the benchmark by more than ``margin``, rounded to a multiple
    of ``margin``; otherwise the best shown score is shown again.

    With ``paired_margin`` it is the parameter-free Ladder (the paper's Section 4, Algorithm 2; its code's
    ``FreeLadder``): the margin is the standard error of the paired difference between the new row and the row
    that set the best shown score (a one-sided paired test at one standard error), and an accepted score is
    shown as scored. Where the two rows cannot be paired (no paired data, other items) the fixed ``margin``
    applies, rounding included."""

    key: str
    """The result key the feedback is on (the headline)."""
    higher_is_better: bool
    """Its direction."""
    margin: float
    """The margin and rounding step, in the key's units (points for a percentage)."""
    paired_margin: PairedMargin | None = None
    """The parameter-free Ladder's margin (:data:`PairedMargin`); ``None``: the fixed margin."""

    def shown(self, score: float | None, best: float | None, se: float | None = None) -> float | None:
        """The score shown for a submission scoring ``score`` after a best shown score ``best``; ``se``: the
        parameter-free margin of this submission (the standard error of its paired difference with the row that
        set ``best``; a first score, ``best`` ``None``, is accepted whatever it is), which replaces the fixed margin
        and its rounding.

        >>> rule = LadderRule("accuracy", True, 1.0)
        >>> rule.shown(71.26, None), rule.shown(71.9, 71.0), rule.shown(72.4, 71.0)
        (71.0, 71.0, 72.0)
        >>> LadderRule("error", False, 0.5).shown(9.1, 10.0)
        9.0
        >>> rule.shown(71.26, 71.0, se=0.2), rule.shown(71.16, 71.0, se=0.2)
        (71.26, 71.0)
        """
        if score is None or math.isnan(score):
            return best
        sign = 1.0 if self.higher_is_better else -1.0
        margin = self.margin if se is None else se
        if best is None or sign * (score - best) > margin:
            return score if se is not None else round(score / self.margin) * self.margin
        return best


@dataclass(frozen=True)
class NewSubmission:
    """A scored submission ready to be stored."""

    benchmark: str
    """Benchmark id."""
    kind: str
    """``verified`` (scored here from predictions) or ``reported`` (published numbers)."""
    judge: str
    """Judge display name."""
    model: str
    """Model repo id, local path or, for weight-free judges, the judge name."""
    submitter: str
    """Username of the submitter (``local`` in no-auth mode)."""
    results: Mapping[str, Any]
    """The result dict of ``mmjudge.benchmarks.<id>.score`` (or the published numbers)."""
    revision: str = ""
    """Model revision."""
    link: str = ""
    """Link to the model or paper."""
    license: str = ""
    """Model license."""
    weights: str = "unknown"
    """``open``, ``closed`` or ``unknown``."""
    sha256: str | None = None
    """Content hash of the submitted prediction file (``None`` for reported rows)."""
    header: Mapping[str, Any] | None = None
    """The prediction file's header record."""
    source: str = ""
    """Where reported numbers come from (paper, table)."""
    coverage: Mapping[str, Any] | None = None
    """The file's coverage (``expected``, ``present``, ``no_judgment`` counts; ``None`` for reported rows)."""
    side_results: Mapping[str, Mapping[str, Any]] | None = None
    """Secondary scorings of the same file by label (e.g. EmoReAlM's ``official`` mode beside strict)."""
    paired: str = ""
    """Per-unit paired data of the headline keys, packed (:mod:`mmjudge.leaderboard.board.significance`);
    ``""`` for reported rows and rows stored before the store kept it."""
    tier: str = ""
    """Provenance (:data:`TIERS`): ``published`` (a paper table), ``run here`` (the server's worker ran the
    model, or the operator's own baselines), ``submitted`` (uploaded predictions). Set by the server, never
    read from a file; empty: ``published`` for a reported row, else ``submitted``."""
    reference_line: bool = False
    """A weight-free baseline the operator stored (``mmjudge demo``): shown as a reference, never ranked."""
    scored_on: Mapping[str, Any] | None = None
    """The data the row was scored on: ``dataset`` (label repo or folder name), ``revision`` (a commit or the
    folder's content hash) and ``units`` (how many); ``None`` when unknown (rows stored before the store kept it)."""
    ladder: float | None = None
    """Private-label mode: the score shown for this submission (the Ladder's rounded best of its submitter)."""
    laddered: bool = False
    """A ``run here`` row of a request a non-admin made in private-label mode: with private labels its public view
    is its Ladder score only, as a submitted row's is."""
    pairing: str = ""
    """The summary of :attr:`paired` the significance column reads (:mod:`mmjudge.leaderboard.board.significance`): per
    headline key the family layout or why the data cannot be used, and the scorer's estimates; ``""`` without
    paired data, and for rows stored before the store kept it (made and written back by the rank keeper when a table
    first asks for the row's cells)."""

    def __post_init__(self) -> None:
        if not self.tier:
            object.__setattr__(self, "tier", PUBLISHED if self.kind == "reported" else SUBMITTED)


@dataclass(frozen=True)
class StoredSubmission(NewSubmission):
    """A submission as read back from the store."""

    id: int = 0
    """Row id."""
    created_at: float = 0.0
    """Unix time of the insert."""
    hidden: bool = False
    """Hidden by an admin (kept in the store, left out of tables)."""
    request_id: int | None = None
    """The model request that stored this row, if any."""


SUBMISSION_COLUMNS = (
    "benchmark, kind, judge, model, submitter, results, revision, link, license, weights, sha256, "
    "header, source, id, created_at, hidden, request_id, coverage, side_results, paired, tier, reference_line, "
    "scored_on, ladder, laddered, pairing"
)
"""The columns a stored row is read with, in :func:`read_submission`'s order."""


def insert_row(conn: Connection, row: NewSubmission, *, daily_limit: int | None = None, now: float | None = None,
               lease: Lease | None = None, ladder: LadderRule | None = None) -> int:  # fmt: skip
    """:meth:`Store.insert_submission` inside the caller's serialized write transaction ``conn``."""
    now = time.time() if now is None else now
    if row.tier not in TIERS or (row.kind == "reported") != (row.tier == PUBLISHED):
        raise ValueError(f"a {row.kind} row cannot have tier {row.tier!r}: reported rows are {PUBLISHED!r}, "
                         f"verified rows {RUN_HERE!r} or {SUBMITTED!r}")  # fmt: skip
    if lease is not None:
        check_lease(conn, lease)
    _check_duplicates(conn, row)
    if daily_limit is not None:
        check_daily_limit(conn, row.submitter, daily_limit, now)
    if ladder is not None:
        best = _best_shown(conn, row, ladder)
        # the parameter-free Ladder shows a first score as scored (its code starts from an infinite loss)
        se = None if ladder.paired_margin is None else 0.0 if best is None else _paired_margin(conn, row, ladder, best)
        row = replace(row, ladder=ladder.shown(_number(row.results.get(ladder.key)), best, se))
    return conn.insert(
        "INSERT INTO submissions (benchmark, kind, judge, model, submitter, results, revision, link, "
        "license, weights, sha256, header, source, created_at, request_id, coverage, side_results, paired, "
        "tier, reference_line, scored_on, ladder, laddered, pairing) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            row.benchmark, row.kind, row.judge, row.model, row.submitter,
            json.dumps(dict(row.results), allow_nan=True), row.revision, row.link, row.license,
            row.weights, row.sha256, json.dumps(dict(row.header or {})), row.source, now,
            None if lease is None else lease.request_id, json.dumps(dict(row.coverage or {})),
            json.dumps({k: dict(v) for k, v in (row.side_results or {}).items()}, allow_nan=True), row.paired,
            row.tier, int(row.reference_line), json.dumps(dict(row.scored_on or {})), row.ladder, int(row.laddered),
            row.pairing,
        ),
    )  # fmt: skip


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _best_shown(conn: Connection, row: NewSubmission, ladder: LadderRule) -> float | None:
    """The best Ladder score shown so far to ``row``'s submitter on its benchmark (hidden rows included)."""
    order = "MAX" if ladder.higher_is_better else "MIN"
    found = conn.execute(
        f"SELECT {order}(ladder) FROM submissions WHERE submitter = ? AND benchmark = ? AND ladder IS NOT NULL",
        (row.submitter, row.benchmark),
    ).fetchone()
    return None if found is None or found[0] is None else float(found[0])


def _paired_margin(conn: Connection, row: NewSubmission, ladder: LadderRule, best: float) -> float | None:
    """The parameter-free margin of ``row``: :attr:`LadderRule.paired_margin` of its paired data and that of the
    row that set ``best`` (its submitter's first row on the benchmark showing it); ``None`` without one."""
    found = conn.execute(
        "SELECT paired FROM submissions WHERE submitter = ? AND benchmark = ? AND ladder = ? ORDER BY id LIMIT 1",
        (row.submitter, row.benchmark, best),
    ).fetchone()
    if found is None or not found[0] or not row.paired or ladder.paired_margin is None:
        return None
    return ladder.paired_margin(row.paired, str(found[0]))


def _recent(conn: Connection, submitter: str, now: float) -> int:
    """What ``submitter`` used of the daily limit in the 24 hours before ``now``: each upload, and each model
    request once, when it was made (whatever its number of benchmarks); the rows a worker stores for a
    request (they carry its ``request_id``) are not uploads and do not count again."""
    since = now - 86400.0
    n_sub = conn.execute(
        "SELECT COUNT(*) FROM submissions WHERE submitter = ? AND created_at >= ? AND kind = 'verified' "
        "AND request_id IS NULL",
        (submitter, since),
    ).fetchone()[0]
    n_req = conn.execute(
        "SELECT COUNT(*) FROM requests WHERE submitter = ? AND created_at >= ?", (submitter, since)
    ).fetchone()[0]
    return int(n_sub) + int(n_req)


def check_lease(conn: Connection, lease: Lease) -> None:
    """Refuse (``LeaseLost``) unless ``lease`` still holds its request (call inside a write transaction; the
    request's row stays locked until it ends, so no claim can take the request before the caller commits)."""
    found = conn.execute(
        f"SELECT status, worker, attempts FROM requests WHERE id = ?{conn.dialect.for_update}", (lease.request_id,)
    ).fetchone()
    if found is None or tuple(found) != ("RUNNING", lease.worker, lease.attempt):
        now = "gone" if found is None else f"{found[0]}, worker {found[1]!r}, attempt {found[2]}"
        raise LeaseLost(
            f"request #{lease.request_id} is no longer held by worker {lease.worker!r} (attempt "
            f"{lease.attempt}); it is now {now}: nothing was stored"
        )


def check_daily_limit(conn: Connection, submitter: str, limit: int, now: float) -> None:
    """Refuse when ``submitter`` made ``limit`` submissions plus model requests in the 24 hours before ``now``
    (call inside the write transaction that adds the new one)."""
    if limit == 0:
        raise SubmissionRejected("this leaderboard takes no uploads or model requests (its daily limit is 0)")
    used = _recent(conn, submitter, now)
    if used >= limit:
        raise SubmissionRejected(
            f"{submitter!r} already made {used} submissions in the last 24 hours (limit {limit}); "
            "try again tomorrow"
        )


def _check_duplicates(conn: Connection, row: NewSubmission) -> None:
    if row.sha256 is not None:
        found = conn.execute(
            "SELECT id, benchmark, model FROM submissions WHERE sha256 = ?", (row.sha256,)
        ).fetchone()
        if found:
            raise SubmissionRejected(
                f"this file (sha256 {row.sha256[:12]}...) was already submitted: row #{found[0]} "
                f"({found[1]}, model {found[2]!r})"
            )
    if row.kind == "verified":
        key = (text_key(row.model), text_key(row.revision))
        cursor = conn.execute(
            "SELECT id, model, revision FROM submissions WHERE kind = 'verified' AND benchmark = ? AND tier = ? "
            "ORDER BY id",
            (row.benchmark, row.tier),
        )
        for found_id, model, revision in cursor:
            if (text_key(model), text_key(revision)) == key:
                raise SubmissionRejected(
                    f"model {row.model!r} at revision {row.revision!r} already has a {row.tier} {row.benchmark} "
                    f"row: #{found_id} ({model!r} at {revision!r}); submit a new revision instead"
                )


def read_submission(found: tuple[Any, ...]) -> StoredSubmission:
    """The row read with :data:`SUBMISSION_COLUMNS`, as a :class:`StoredSubmission`."""
    (benchmark, kind, judge, model, submitter, results, revision, link, license_, weights, sha256,
     header, source, row_id, created_at, hidden, request_id, coverage, side_results, paired, tier, reference_line,
     scored_on, ladder, laddered, pairing) = found  # fmt: skip
    return StoredSubmission(
        benchmark=benchmark, kind=kind, judge=judge, model=model, submitter=submitter,
        results=json.loads(results), revision=revision, link=link, license=license_, weights=weights,
        sha256=sha256, header=json.loads(header), source=source, coverage=json.loads(coverage) or None,
        side_results=json.loads(side_results) or None, id=int(row_id), created_at=float(created_at),
        hidden=bool(hidden), request_id=None if request_id is None else int(request_id), paired=str(paired or ""),
        tier=str(tier), reference_line=bool(reference_line), scored_on=json.loads(scored_on) or None,
        ladder=None if ladder is None else float(ladder), laddered=bool(laddered), pairing=str(pairing or ""),
    )  # fmt: skip


def sync_reported(store: Store, shipped: Mapping[tuple[str, str, str], NewSubmission], submitter: str) -> int:
    """Insert the ``shipped`` reported rows (by benchmark, judge, source) that the store lacks and hide the
    stored ones of ``submitter`` no longer shipped (hidden, not deleted); returns how many were inserted.

    One serialized transaction: processes opening a new shared store at once add each row once.
    """
    with store.transaction() as conn:
        found = conn.execute(
            "SELECT id, benchmark, judge, source, submitter, hidden FROM submissions WHERE kind = 'reported'"
        ).fetchall()
        existing = set()
        for row_id, benchmark, judge, source, row_submitter, hidden in found:
            key = (benchmark, judge, source)
            existing.add(key)
            if row_submitter == submitter and key not in shipped and not hidden:
                conn.execute("UPDATE submissions SET hidden = 1 WHERE id = ?", (row_id,))
        missing = [row for key, row in shipped.items() if key not in existing]
        for row in missing:
            insert_row(conn, row)
    return len(missing)


def visible_submissions(conn: Connection) -> list[StoredSubmission]:
    """Every row the tables show (hidden rows left out), oldest first, read in ``conn``."""
    return [
        read_submission(r) for r in conn.execute(f"SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE hidden = 0 ORDER BY id")
    ]
