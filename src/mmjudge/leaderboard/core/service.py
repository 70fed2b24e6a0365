"""The leaderboard service: validate -> score on the server against the labels it holds -> store atomically.

:class:`Leaderboard` is the service behind the Space and the worker: submissions, model requests and hiding
rows go through it. It never computes a score itself: :func:`mmjudge.scoring.score_predictions` calls the
same core ``evaluate.load("metrics/<id>")`` calls (with the benchmark's leaderboard scoring options,
``Benchmark.present.leaderboard.options``), so the stored number equals the metric's on the same file.
Scoring happens before the single store transaction, so a crash while scoring leaves the store unchanged.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import SchemaError
from mmjudge.leaderboard.core.columns import ROBUSTNESS, ranking_key
from mmjudge.leaderboard.core.ladder import paired_margin
from mmjudge.leaderboard.core.pairing import pack_paired, pairing_of
from mmjudge.leaderboard.core.policy import ENDPOINT_MODEL, HUB_MODEL
from mmjudge.leaderboard.core.queue import RequestSpec, enqueue, validate_request
from mmjudge.leaderboard.core.revisions import pin_date, pin_revision
from mmjudge.leaderboard.core.settings import Settings
from mmjudge.leaderboard.core.validation import SubmissionMeta, record_cap, validate_file, validate_meta
from mmjudge.leaderboard.store import (
    RUN_HERE,
    SUBMITTED,
    LadderRule,
    Lease,
    NewSubmission,
    Store,
    StoredSubmission,
    SubmissionRejected,
)

__all__ = ["LOCAL_USER", "BoardChanged", "Leaderboard", "QueuedRequest", "Settings"]

LOCAL_USER = "local"
"""Submitter name in no-auth mode."""

RowsFn = Callable[[str, Path], Sequence[Mapping[str, Any]]]
ScoreFn = Callable[..., dict[str, Any]]


class BoardChanged(Protocol):
    """Told the benchmark whose board changed (a row stored or hidden): keeps what is derived from the board
    current (the rank cells: :class:`~mmjudge.leaderboard.board.ranks.RankRefresher` in the background, or
    :class:`~mmjudge.leaderboard.board.ranks.InlineRanks`; both are the tables' rank source too, and own the
    server's caches)."""

    def __call__(self, benchmark: str) -> None: ...

    def wait(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        """Block until nothing is pending for ``benchmark`` (default: any); ``False`` on timeout."""
        ...


class QueuedRequest(NamedTuple):
    """A model request as :meth:`Leaderboard.request_model` queued it."""

    id: int
    """Its id in the queue."""
    spec: RequestSpec
    """What was queued: the model, its pinned revision, the backend, config and benchmarks."""
    asked: str
    """The revision as asked for (before pinning)."""
    model_source: str
    """What the model names (:attr:`~mmjudge.leaderboard.core.policy.BackendRules.model_source`)."""


def _default_rows(benchmark: str, folder: Path) -> list[dict[str, Any]]:
    """The reference rows the server keeps for scoring: without embedded image bytes (MIST's two images
    per item would otherwise stay in memory for the server's lifetime; scoring reads labels only)."""
    from mmjudge.data.images import without_image_bytes
    from mmjudge.scoring import load_reference_rows

    return without_image_bytes(load_reference_rows(benchmark, folder))


def _default_score(predictions: Any, rows: Any, **options: Any) -> dict[str, Any]:
    from mmjudge.scoring import score_predictions

    return score_predictions(predictions, rows, **options)


class Leaderboard:
    """Store + labels + policy; every UI handler and the worker go through here.

    Args:
        store: the SQLite store.
        settings: policy and the data root.
        rows_fn: loads a benchmark's reference rows from its folder (default
            :func:`mmjudge.scoring.load_reference_rows`); cached per benchmark.
        score_fn: scores a parsed file against rows (default :func:`mmjudge.scoring.score_predictions`).
        on_change: told the benchmark after a row is stored or hidden (:class:`BoardChanged`); the layer
            above sets it (:func:`~mmjudge.leaderboard.app.startup.open_leaderboard`: the rank cells in the
            background; the worker: inline). The app's tables read the rank cells it stored and ask it for those
            the store lacks (:func:`~mmjudge.leaderboard.board.ranks.keeper_of`: without one, an inline keeper
            stores them when a table asks).
    """

    def __init__(self, store: Store, settings: Settings | None = None, *, rows_fn: RowsFn | None = None,
                 score_fn: ScoreFn | None = None, on_change: BoardChanged | None = None) -> None:  # fmt: skip
        self.store = store
        self.on_change = on_change
        self.settings = settings or Settings()
        self._rows_fn = rows_fn or _default_rows
        self._score_fn = score_fn or _default_score
        self._rows: dict[str, Sequence[Mapping[str, Any]]] = {}
        self._hashes: dict[str, str] = {}
        self._lock = threading.Lock()

    def benchmarks_available(self) -> list[str]:
        """Benchmarks whose labels the server holds (a folder under the data root)."""
        root = self.settings.data_root
        return [b for b in benchmark_ids() if root is not None and (root / b).is_dir()]

    def reference_rows(self, benchmark: str) -> Sequence[Mapping[str, Any]]:
        """The reference rows of ``benchmark`` (loaded once)."""
        with self._lock:
            if benchmark not in self._rows:
                root = self.settings.data_root
                if root is None or not (root / benchmark).is_dir():
                    raise SchemaError(
                        f"this leaderboard holds no {benchmark} labels (expected a built folder "
                        f"{root}/{benchmark}); submissions are accepted for {self.benchmarks_available()}"
                    )
                self._rows[benchmark] = self._rows_fn(benchmark, root / benchmark)
            return self._rows[benchmark]

    def dataset_hash(self, benchmark: str) -> str:
        """Hash of the server's ``benchmark`` folder (computed once), stored with a row's paired data."""
        from mmjudge.data.rows import dataset_hash

        self.reference_rows(benchmark)  # refuses a benchmark without labels, as a submission does
        with self._lock:
            if benchmark not in self._hashes:
                root = self.settings.data_root
                assert root is not None
                self._hashes[benchmark] = dataset_hash(root / benchmark)
            return self._hashes[benchmark]

    def scored_on(self, benchmark: str) -> dict[str, Any]:
        """The set a row scored here is scored on: label source name, the folder's content hash, and its size
        in the benchmark's record unit (``Benchmark.records.unit``: the records ``mmjudge eval`` writes without
        optional parts, e.g. MIST's grid cells, not its items)."""
        from mmjudge.scoring import expected_ids

        name = self.settings.label_names.get(benchmark) or f"{benchmark} labels (local folder)"
        units = len(expected_ids(benchmark, self.reference_rows(benchmark)))
        return {"dataset": name, "revision": self.dataset_hash(benchmark), "units": units}

    def ladder_rule(self, benchmark: str, *, margin: float | None = None) -> LadderRule | None:
        """The Ladder of ``benchmark``'s submitted rows in private-label mode (``None`` with public labels);
        with ``margin``, the Ladder of a laddered request's rows (recorded when it was queued) in any mode; the rule
        is :attr:`Settings.ladder`'s (parameter-free: :func:`~mmjudge.leaderboard.core.ladder.paired_margin`)."""
        if margin is None and not self.settings.private_labels:
            return None
        key = ranking_key(benchmark)
        step = self.settings.ladder_margin if margin is None else margin
        free = functools.partial(paired_margin, key) if self.settings.ladder == "free" else None
        return LadderRule(key, get_benchmark(benchmark).metrics.higher_is_better(key), step, free)

    def submitter(self, username: str | None) -> str:
        """The submitter name: the logged-in username, ``local`` in no-auth mode.

        Raises:
            SubmissionRejected: login required and no user.
        """
        if username:
            return username
        if self.settings.require_login:
            raise SubmissionRejected(
                "please sign in with Hugging Face first (API calls without a login are refused)"
            )
        return LOCAL_USER

    def is_admin(self, username: str | None) -> bool:
        """Whether ``username`` is one of the configured admins."""
        return bool(username) and username in self.settings.admins

    def submit(self, data: bytes, meta: SubmissionMeta, submitter: str, *, limited: bool = True,
               source: str = "predictions.jsonl", lease: Lease | None = None,
               robustness: Mapping[str, float | None] | None = None,
               reference_line: bool = False, ladder_margin: float | None = None) -> StoredSubmission:  # fmt: skip
        """Validate, score and store a prediction file as a ``verified`` row.

        The file must cover every record ``mmjudge eval`` writes for the benchmark; the row keeps the
        file's coverage and ``no_judgment`` counts, the scorings of :attr:`Settings.side_scores` and the
        per-unit paired data of the headline keys (:mod:`mmjudge.leaderboard.board.significance`).

        Args:
            data: the file's bytes.
            meta: submitter metadata.
            submitter: username (see :meth:`submitter`).
            limited: whether the configured daily limit (:attr:`Settings.daily_limit`) applies; ``False``
                for the server's own rows (worker, demo loader).
            source: the file name used in messages.
            lease: a worker's hold on the model request this row belongs to (checked when storing).
            robustness: the summary of a ``mmjudge robustness`` run of the same judge made on this server
                (stored as ``side_results["robustness"]``; never taken from an upload).
            reference_line: the operator's own weight-free baseline (:func:`~mmjudge.leaderboard.core.submit.ingest_demo_output`; shown as
                tier ``baseline``), stored ``run here`` and never ranked. The tier is the server's: ``run
                here`` with a ``lease`` or for a baseline, else ``submitted``; nothing in the file changes it.
                With a ``lease`` it marks the row of a weight-free request (a baseline, never ranked).
            ladder_margin: a worker storing a row of a request a non-admin made in private-label mode: the row
                goes under its submitter's Ladder with this margin (:attr:`ModelRequest.ladder_margin`), and its
                public view is its Ladder score only (``laddered``).

        Raises:
            SchemaError: the file is invalid or does not cover the benchmark's items.
            SubmissionRejected: bad metadata, duplicate, or the daily limit.
            LeaseLost: ``lease`` no longer holds its request.
        """
        from mmjudge.scoring import coverage

        meta = validate_meta(meta)
        checked = validate_file(data, max_bytes=self.settings.max_bytes, source=source,
                                max_records=record_cap(self.reference_rows))  # fmt: skip
        header = checked.predictions.header
        rows = self.reference_rows(header.benchmark)
        options = dict(self.settings.score_options.get(header.benchmark, {}))
        results = self._score_fn(checked.predictions, rows, **options)
        side = {
            label: self._score_fn(checked.predictions, rows, **dict(extra))
            for label, extra in self.settings.side_scores.get(header.benchmark, {}).items()
        }
        paired = pack_paired(header.benchmark, checked.predictions.records, rows, results,
                             self.dataset_hash(header.benchmark), side)  # fmt: skip
        if robustness:
            side[ROBUSTNESS] = dict(robustness)
        row = NewSubmission(
            benchmark=header.benchmark, kind="verified", judge=meta.judge, model=meta.model,
            submitter=submitter, results=results, revision=meta.revision, link=meta.link,
            license=meta.license, weights=meta.weights, sha256=checked.sha256, header=header.to_record(),
            coverage=coverage(checked.predictions, rows).as_dict(), side_results=side or None,
            paired=paired, pairing=pairing_of(paired, results),
            tier=RUN_HERE if lease is not None or reference_line else SUBMITTED, reference_line=reference_line,
            scored_on=self.scored_on(header.benchmark), laddered=ladder_margin is not None,
        )  # fmt: skip
        limit = self.settings.daily_limit if limited else None
        ladder = self.ladder_rule(header.benchmark) if row.tier == SUBMITTED else None
        if ladder_margin is not None:
            ladder = self.ladder_rule(header.benchmark, margin=ladder_margin)
        row_id = self.store.insert_submission(row, daily_limit=limit, lease=lease, ladder=ladder)
        stored = self.store.get_submission(row_id)
        assert stored is not None
        self._changed(stored.benchmark)
        return stored

    def _changed(self, benchmark: str) -> None:
        if self.on_change is not None:
            self.on_change(benchmark)

    def settle(self, benchmark: str | None = None, timeout: float | None = None) -> bool:
        """Wait until what :attr:`on_change` derives from ``benchmark``'s board (default: every board) is
        current; ``False`` when ``timeout`` seconds passed first."""
        return True if self.on_change is None else self.on_change.wait(benchmark, timeout)

    def request_model(self, model: str, revision: str, backend: str, config: Mapping[str, Any] | str | None,
                      benchmarks: Iterable[str], username: str | None, *, now: float | None = None) -> QueuedRequest:  # fmt: skip
        """Check a model request (:func:`~mmjudge.leaderboard.core.queue.validate_request`), pin it, and queue it PENDING.

        A Hub model is pinned to the commit its revision names now (:func:`~mmjudge.leaderboard.core.revisions.pin_revision`),
        an API model to the date (:func:`~mmjudge.leaderboard.core.revisions.pin_date`); a weight-free backend names no
        model. With private labels a weight-free backend is an admin's only, and a non-admin's request records the
        Ladder margin, so that its rows show only the Ladder score, as uploads do: a requester chooses the model,
        its settings and its seed, so exact scores would tell the labels as an upload's would.

        Raises:
            SubmissionRejected: not signed in (login required), the request is refused, a duplicate, or past
                the daily limit; nothing is queued.
        """
        submitter = self.submitter(username)
        admin = self.is_admin(submitter)
        local = not self.settings.require_login  # a local admin may name a model folder
        spec = validate_request(model, revision, backend or "", config, benchmarks, allow_local_paths=local and admin,
                                admin=admin, rules=self.settings.request_rules,
                                private_labels=self.settings.private_labels,
                                remote_code=self.settings.remote_code)  # fmt: skip
        asked = spec.revision
        source = self.settings.request_rules[spec.backend].model_source
        if source == HUB_MODEL:
            spec = pin_revision(spec, self.settings.resolve_revision)
        elif source == ENDPOINT_MODEL:
            spec = pin_date(spec, now)
        if self.settings.private_labels and not admin:
            spec = replace(spec, ladder_margin=self.settings.ladder_margin)
        request_id = enqueue(self.store, spec, submitter, daily_limit=self.settings.daily_limit, now=now)
        return QueuedRequest(request_id, spec, asked, source)

    def hide(self, submission_id: int, username: str | None, hidden: bool = True) -> None:
        """Hide a submission (admins only); the row stays in the store.

        Raises:
            SubmissionRejected: not an admin, or no such row.
        """
        if not username or username not in self.settings.admins:
            raise SubmissionRejected(f"only admins can hide submissions; {username!r} is not one")
        if not self.store.set_hidden(submission_id, hidden):
            raise SubmissionRejected(f"there is no submission #{submission_id}")
        stored = self.store.get_submission(submission_id)
        if stored is not None:
            self._changed(stored.benchmark)
