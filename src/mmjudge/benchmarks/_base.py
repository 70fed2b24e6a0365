"""The :class:`Benchmark` object: everything one benchmark is, in one typed, registered value.

Generic code (runner, scoring, prediction files, reports, leaderboard, demo, CLI) reads these fields
and never branches on a benchmark id. A small core says what the benchmark is, typed presenters how its
results are shown:

* :class:`DataSpec` -- the dataset configs, the raw-release builder and the sample writer;
* :class:`RecordSpec` -- the queries it asks a judge (kinds in order of preference, the media they need,
  the builder, verdicts -> records), the prediction-record schema, its id rule and coverage rule, and
  records + reference rows -> the scorer's arguments;
* :class:`MetricSpec` -- the scorer, its documented keys (:class:`ResultKey`: direction, CI), the headline
  keys, and the per-unit outcomes every rate and mean key reduces (compare, significance);
* :class:`Presenters` -- the leaderboard tab (:class:`LeaderboardSpec`: ranked scoring, side scorings,
  table views, the figure), the report plot and breakdown tables, what a frame sweep follows, the exports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from mmjudge.benchmarks._exports import ExportSpec
from mmjudge.benchmarks._hooks import (
    BuildModule,
    ExportsModule,
    LeaderboardModule,
    QueriesModule,
    RecordsModule,
    ReportModule,
    SampleModule,
    optional,
    required,
)
from mmjudge.benchmarks._probes import Probe
from mmjudge.benchmarks._report_tables import BreakdownTable, SweepSeries
from mmjudge.estimates import ci_keys
from mmjudge.queries import Query, Verdict
from mmjudge.stats import KeyOutcomes, Metric, Outcomes

__all__ = [
    "Benchmark",
    "BoardRow",
    "Column",
    "DataSpec",
    "LeaderboardSpec",
    "MetricSpec",
    "Presenters",
    "QuerySource",
    "RecordSpec",
    "ResultKey",
    "View",
]

Row = Mapping[str, Any]
"""One row of a built dataset config (a reference row: the gold labels a prediction is scored against)."""
Record = Mapping[str, Any]
"""One prediction record (see :mod:`mmjudge.predictions`)."""


@dataclass(frozen=True)
class ResultKey:
    """One documented, stable key of a scorer's result; generic code reads its direction and CI."""

    name: str
    """Key in the result dict, e.g. ``"accuracy/temporal_shuffle"`` (``<...>`` stands for one value)."""
    higher_is_better: bool
    """Direction of the score; ranking tables sort by it."""
    description: str
    """One line saying what the number is and its range."""

    @property
    def is_count(self) -> bool:
        """A raw count of the scored file (``n_correct/<task>``, a confusion cell), not a rate: its description
        says so ("a count", "(count)"). The leaderboard never publishes a submitted row's counts.

        >>> ResultKey("n_correct/<task>", True, "items answered correctly (count)").is_count
        True
        """
        return "count" in self.description.lower()

    def matches(self, key: str) -> bool:
        """Whether ``key`` is this key, a ``<placeholder>`` standing for one path segment.

        >>> ResultKey("kappa/<trio>", True, "").matches("kappa/blind")
        True
        """
        if "<" not in self.name:
            return key == self.name
        pattern = "".join(
            "[^/]+" if part.startswith("<") else re.escape(part) for part in re.split(r"(<[^>]+>)", self.name)
        )
        return re.fullmatch(pattern, key) is not None

    @classmethod
    def interval_ends(cls, name: str, higher_is_better: bool, about: str) -> tuple[ResultKey, ResultKey]:
        """The two documented CI keys of score key ``name`` (:func:`mmjudge.estimates.ci_keys`), ``about``
        continuing each description after "of <name>".

        >>> low, high = ResultKey.interval_ends("acc", True, " (0-100): Wilson")
        >>> low.name, high.description
        ('acc_ci_low', 'upper end of the 95% CI of acc (0-100): Wilson')
        """
        low, high = ci_keys(name)
        return (
            cls(low, higher_is_better, f"lower end of the 95% CI of {name}{about}"),
            cls(high, higher_is_better, f"upper end of the 95% CI of {name}{about}"),
        )


@dataclass(frozen=True)
class Column:
    """One leaderboard column: a result key as stored (the leaderboard computes nothing).

    The one column type: a benchmark's views list these, and the leaderboard reads each cell's value, interval
    and spread from it (``mmjudge.leaderboard.board.table``), its own columns (the file's coverage, robustness
    effects) declared the same way.
    """

    header: str
    """Column title."""
    key: str
    """The result key shown; its CI is ``<key>_ci_low``/``_ci_high`` and its direction the ResultKey's."""
    mode: str | None = None
    """Show ``key`` as scored in this scoring mode: from the ranked result when it was scored in that
    mode, else from the side scoring of that name (``None``: the ranked result, whatever its mode)."""
    text: bool = False
    """The column shows the key's value as text (a label such as a strategy name)."""
    out_of: str | None = None
    """Text column ``"<key>/<out_of>"`` of two stored counts (e.g. alt-tests passed / run)."""
    group: str = ""
    """The column group a leaderboard user shows or hides as one (e.g. a dimension, an arm); ``""``: always shown."""
    exact: bool = False
    """A count of the submitted file, not an estimate: shown without an interval or a spread (the leaderboard's
    coverage columns)."""


@dataclass(frozen=True)
class View:
    """One way of ranking a benchmark's table."""

    name: str
    """View name (the first view of a benchmark is its default)."""
    columns: tuple[Column, ...]
    """Score columns, in order."""
    rank_by: str | None = None
    """Key of the column the rows are ranked by (default: the benchmark's first headline key)."""


class BoardRow(Protocol):
    """What a leaderboard figure reads of a stored row (``mmjudge.leaderboard.StoredSubmission``)."""

    @property
    def kind(self) -> str:
        """``verified`` (scored on the server) or ``reported`` (published numbers)."""

    @property
    def tier(self) -> str:
        """``published``, ``run here``, ``submitted`` or ``baseline`` (the table's tier)."""

    @property
    def judge(self) -> str:
        """Judge display name."""

    @property
    def results(self) -> Mapping[str, Any]:
        """The stored result dict."""

    @property
    def rank(self) -> str:
        """The row's rank in the table (``"1"``, ``"2="`` for a tie, ``""`` when unranked)."""


@dataclass(frozen=True)
class LeaderboardSpec:
    """How the leaderboard ranks and shows a benchmark."""

    views: tuple[View, ...]
    """Table views; the first is the default."""
    figure: Callable[[Sequence[BoardRow]], Any]
    """The tab's matplotlib figure from the visible rows."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Scorer options of the ranked scoring (e.g. ``{"mode": "strict"}``)."""
    side_scorings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Further scorings of the same file stored beside the ranked one (label -> scorer options)."""
    view_label: str = "view"
    """Label of the view switch (shown only when there are several views)."""
    degenerate: Callable[[Mapping[str, Any]], str | None] | None = None
    """The companion check where a degenerate judge could win the headline: from a result dict, the reason
    the row is degenerate (shown, the row not ranked), or ``None``. E.g. MIST: a judge that never changes
    a label has the best change rate and no direction."""

    @classmethod
    def from_module(cls, module: LeaderboardModule) -> LeaderboardSpec:
        """The spec a benchmark's ``leaderboard`` module declares by name: ``VIEWS`` and ``figure``, and where
        they differ from the defaults ``OPTIONS``, ``SIDE_SCORINGS``, ``VIEW_LABEL`` and ``degenerate``."""
        module = required(module, LeaderboardModule)
        return cls(
            views=module.VIEWS,
            figure=module.figure,
            **optional(module, options="OPTIONS", side_scorings="SIDE_SCORINGS", view_label="VIEW_LABEL",
                       degenerate="degenerate"),
        )  # fmt: skip


@dataclass(frozen=True)
class DataSpec:
    """The benchmark's dataset folder: configs, the raw-release builder, the sample writer."""

    reference_config: str
    """Config whose ``test`` split holds the reference rows (the gold labels)."""
    build_tables: Callable[..., Any]
    """``build_tables(source, *, media_root, allow_missing_media, **options) -> BuiltDataset``."""
    write_raw: Callable[..., Any]
    """``write_raw(raw_dir, *, size, seed) -> RawSource``: the synthetic sample in the raw format."""
    sample_media_root: str | None = None
    """Gated-media root of the sample, relative to the sample folder (``None``: media in the folder)."""
    sample_swap: bool = False
    """The demo also judges every item in swapped order (``RunOptions.swap``)."""

    @classmethod
    def from_modules(
        cls, build: BuildModule, sample: SampleModule, *, reference_config: str, sample_media_root: str | None = None,
        sample_swap: bool = False,
    ) -> DataSpec:  # fmt: skip
        """The spec wired from a benchmark's ``build`` module (``build_tables``) and ``sample`` module
        (``write_raw``), checked by mypy against :class:`BuildModule` and :class:`SampleModule`."""
        build, sample = required(build, BuildModule), required(sample, SampleModule)
        return cls(
            reference_config=reference_config,
            build_tables=build.build_tables,
            write_raw=sample.write_raw,
            sample_media_root=sample_media_root,
            sample_swap=sample_swap,
        )


@dataclass(frozen=True)
class QuerySource:
    """Where a benchmark's queries come from and how they are asked: what :attr:`RecordSpec.build_queries`
    reads besides the reference rows."""

    data_dir: Path
    """The built dataset folder."""
    media_root: Path | None = None
    """Where gated media live (``None``: paths are relative to :attr:`data_dir`)."""
    swap: bool = False
    """Also ask every ordered item in swapped order (a benchmark without order ignores it)."""
    kind: type | None = None
    """The kind of query to build, one of the benchmark's :attr:`RecordSpec.query_kinds` (``None``: its first)."""

    @property
    def media_dir(self) -> Path:
        """The folder media paths are relative to: :attr:`media_root`, else :attr:`data_dir`."""
        return self.media_root if self.media_root is not None else self.data_dir

    def media(self, relpath: str | None) -> Path | None:
        """``relpath`` resolved under :attr:`media_dir` (:func:`mmjudge.data.resolve_media`); ``None`` when empty.

        >>> QuerySource(Path("folder")).media(None) is None
        True
        """
        from mmjudge.data.media_paths import resolve_media  # mmjudge.data loads pyarrow: not at CLI start-up

        return resolve_media(relpath, self.media_dir) if relpath else None


@dataclass(frozen=True)
class RecordSpec:
    """Prediction records: schema, id rule, coverage rule, and the way to and from judge queries."""

    unit: str
    """What one reference unit is called in messages, plural (``"pairs"``, ``"questions"``)."""
    query_kinds: tuple[type, ...]
    """The kinds of query (:data:`mmjudge.queries.KINDS`) a judge may be asked, in order of preference: a
    judge gets the first it answers (:meth:`mmjudge.judges.Judge.query_kind`)."""
    media: frozenset[str]
    """The media (:data:`mmjudge.queries.MEDIA`) a judge must read to answer faithfully; ``video`` in it says
    that frame settings apply."""
    build_queries: Callable[[Sequence[Row], QuerySource], list[Query]]
    """``build_queries(rows, source) -> queries`` of ``source.kind`` (always set: see :meth:`queries`) for the
    given reference rows."""
    records_from_verdicts: Callable[[Sequence[Query], Sequence[Verdict], Sequence[Row]], list[dict[str, Any]]]
    """Prediction records, in canonical order, from the queries' verdicts."""
    expected_ids: Callable[[Sequence[Row], Sequence[Record]], list[str]]
    """Record ids ``mmjudge eval`` writes for the rows (the records say which optional parts are there)."""
    score_inputs: Callable[[Sequence[Record], Sequence[Row]], dict[str, Any]]
    """The scorer's keyword arguments from complete records and the reference rows."""
    value_fields: Mapping[str, tuple[type, ...]]
    """Verdict fields and their JSON types; null is allowed only with ``no_judgment``."""
    key_fields: tuple[str, ...] = ()
    """String fields that place a record in the benchmark's grid; always required."""
    field_values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The values a key or verdict string field may take, where they form a closed set (MIST's
    ``prompt_strategy``, ``arm``, ``image_condition`` and ``label``): the reader refuses others and the JSON
    Schema lists them as enums."""
    record_id: Callable[[Record], str | None] | None = None
    """The id a record must carry, from its key fields (``None``: the id is the key itself)."""
    check_record: Callable[[Record], str] | None = None
    """A further check of a record's key fields (``""`` when fine)."""
    noun: str = "cell"
    """What one record is called in an id mismatch message (``"pair"``, ``"cell"``)."""
    missing_groups: Callable[[Sequence[str]], list[tuple[str, list[str]]]] | None = None
    """Split missing ids into labelled groups for the message (default: one group named by :attr:`unit`)."""
    sound: bool = False
    """The clips carry sound a judge can judge from (an audio file beside each clip, or the clip's own track):
    a judge that hears and does not look (it reads ``audio``, not ``video``: an audio-language model) is
    accepted in place of one that sees the clips, and each of its queries then needs its audio instead of
    frames (:func:`mmjudge.judges.media_needed`; a clip without sound fails alone, never judged blind)."""

    @classmethod
    def from_modules(
        cls, queries: QueriesModule, records: RecordsModule, *, unit: str, query_kinds: tuple[type, ...],
        media: frozenset[str], noun: str = "cell", sound: bool = False,
    ) -> RecordSpec:  # fmt: skip
        """The spec wired from a benchmark's ``queries`` module (``build_queries``, ``records_from_verdicts``)
        and ``records`` module (``expected_ids``, ``score_inputs``, ``VALUE_FIELDS``, and where it has them
        ``KEY_FIELDS``, ``FIELD_VALUES``, ``record_id``, ``check_record``, ``missing_groups``): the fields of the
        same names; mypy checks the modules against :class:`QueriesModule` and :class:`RecordsModule`."""
        queries, records = required(queries, QueriesModule), required(records, RecordsModule)
        return cls(
            unit=unit,
            query_kinds=query_kinds,
            media=media,
            noun=noun,
            sound=sound,
            build_queries=queries.build_queries,
            records_from_verdicts=queries.records_from_verdicts,
            expected_ids=records.expected_ids,
            score_inputs=records.score_inputs,
            value_fields=records.VALUE_FIELDS,
            **optional(records, key_fields="KEY_FIELDS", field_values="FIELD_VALUES", record_id="record_id",
                       check_record="check_record", missing_groups="missing_groups"),
        )  # fmt: skip

    def queries(self, rows: Sequence[Row], source: QuerySource) -> list[Query]:
        """The queries of ``source.kind`` (``None``: the first of :attr:`query_kinds`) for ``rows``.

        Raises:
            ValueError: ``source.kind`` is not one the benchmark asks.
        """
        kind = source.kind or self.query_kinds[0]
        if kind not in self.query_kinds:
            asked = ", ".join(k.__name__ for k in self.query_kinds)
            raise ValueError(f"this benchmark asks {asked} queries, not {kind.__name__}; pick a judge that answers one")
        return self.build_queries(rows, replace(source, kind=kind))


@dataclass(frozen=True)
class MetricSpec:
    """How a benchmark scores: the scorer, its documented keys, and the per-unit outcomes they reduce."""

    score: Callable[..., Mapping[str, Any]]
    """The core scoring function (what ``evaluate.load("metrics/<id>")`` calls)."""
    result_keys: tuple[ResultKey, ...]
    """Documented keys of ``score``'s result, each with ``higher_is_better``."""
    headline: tuple[str, ...] = ()
    """The few keys a summary shows; the first ranks the leaderboard (unless a view's ``rank_by`` says otherwise)."""
    modes: tuple[str, ...] = ()
    """Scoring modes ``score`` accepts as ``mode=`` (empty: one way of scoring)."""
    outcomes: Callable[..., tuple[Outcomes, Mapping[str, Metric]]] | None = None
    """``outcomes(**score_inputs, **options)``: the per-unit outcomes of ``score``'s arguments and the metric
    of each rate and mean key over them (the scorer's own definitions), which ``mmjudge compare`` and the
    leaderboard's significance column resample; ``None``: judges cannot be compared pairwise."""
    paired: tuple[str, ...] = ()
    """Keys compared pairwise (default: the headline keys)."""
    echoed_options: tuple[str, ...] = ()
    """Result keys that echo a scoring option (``tie_tolerance``, ``mode``): given back to :attr:`outcomes`."""

    @property
    def paired_keys(self) -> tuple[str, ...]:
        """Keys compared pairwise: :attr:`paired`, else the headline keys (none without outcomes)."""
        if self.outcomes is None:
            return ()
        return self.paired or self.headline

    def result_key(self, key: str) -> ResultKey:
        """The documented key ``key`` is an instance of; unknown keys raise ``KeyError`` naming the known ones."""
        for item in self.result_keys:
            if item.matches(key):
                return item
        raise KeyError(f"no result key {key!r}; known: {[k.name for k in self.result_keys]}")

    def is_count(self, key: str) -> bool:
        """Whether result ``key`` is a raw count (:attr:`ResultKey.is_count`); an undocumented key counts as one
        (what is not documented is not published)."""
        try:
            return self.result_key(key).is_count
        except KeyError:
            return True

    def higher_is_better(self, key: str) -> bool:
        """Direction of result ``key``; unknown keys raise ``KeyError`` naming the known ones."""
        return self.result_key(key).higher_is_better


@dataclass(frozen=True)
class Presenters:
    """How a benchmark's results are shown: the leaderboard tab, the report, a frame sweep, the exports."""

    leaderboard: LeaderboardSpec
    """Leaderboard views, scorings and figure."""
    report_plot: (
        Callable[[Path, Mapping[str, Any], Sequence[Record], Sequence[Row]], tuple[Path, str]] | None
    ) = None
    """Draw the report's figure into a folder; returns its path and caption."""
    report_tables: Callable[[Mapping[str, Any]], Sequence[BreakdownTable]] | None = None
    """The report's breakdown tables for a result dict, as result keys (the report reads the values)."""
    sweep_series: Callable[[Mapping[str, Any]], Sequence[SweepSeries]] | None = None
    """What a frame-count sweep follows, for a result dict (``None``: the headline keys)."""
    exports: ExportSpec = field(default_factory=ExportSpec)
    """The dataset's ``eval.yaml`` tasks and the lmms-eval tasks (``mmjudge export``)."""

    @classmethod
    def from_modules(
        cls, leaderboard: LeaderboardModule, report: ReportModule, exports: ExportsModule
    ) -> Presenters:
        """The presenters a benchmark's modules declare by name: the ``leaderboard`` module's spec
        (:meth:`LeaderboardSpec.from_module`), the ``report`` module's ``plot``, ``tables`` and (optional)
        ``sweep_series``, the ``exports`` module's ``EXPORTS`` (each module checked by mypy against its protocol)."""
        board = LeaderboardSpec.from_module(leaderboard)
        report, exports = required(report, ReportModule), required(exports, ExportsModule)
        return cls(
            leaderboard=board,
            report_plot=report.plot,
            report_tables=report.tables,
            exports=exports.EXPORTS,
            **optional(report, sweep_series="sweep_series"),
        )


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: registered under :attr:`id` (entry-point group ``mmjudge.benchmarks``).

    The core is what the benchmark *is*: its data, the queries it asks and the records they make, and how
    it scores; :attr:`present` says how its results are shown, :attr:`probes` how a judge's robustness on
    it is measured. A package split into modules wires :attr:`records` and :attr:`present` from them by
    name (:meth:`DataSpec.from_modules`, :meth:`RecordSpec.from_modules`, :meth:`Presenters.from_modules`).
    """

    id: str
    """Benchmark id: the one spelling used for folders, registry keys and prediction files."""
    title: str
    """Human-readable name."""
    data: DataSpec
    """Dataset folder, builder and sample writer."""
    records: RecordSpec
    """Judge queries and prediction records."""
    metrics: MetricSpec
    """The scorer, its result keys and outcomes."""
    present: Presenters
    """Leaderboard tab, report, frame sweep and exports."""
    probes: tuple[Probe, ...] = ()
    """Robustness probes that apply to the benchmark (``mmjudge robustness``; see :mod:`mmjudge.robustness`)."""
    short_title: str = ""
    """Tab title (default :attr:`title`)."""
    package: str = ""
    """The Python package holding the benchmark (its ``reported.json`` lives there)."""
    citation: str = ""
    """Where the benchmark comes from (paper), for cards and the leaderboard."""

    @property
    def tab_title(self) -> str:
        """The short title (tabs, messages)."""
        return self.short_title or self.title

    def key_outcomes(
        self, key: str, records: Sequence[Record], rows: Sequence[Row], scores: Mapping[str, Any]
    ) -> KeyOutcomes:
        """The outcomes of one key of a run (its records on these reference rows, scored as ``scores`` says).

        Raises:
            KeyError: the benchmark has no outcomes, or none for ``key``.
        """
        metrics = self.metrics
        if metrics.outcomes is None:
            raise KeyError(f"{self.id} declares no outcomes; its judges cannot be compared pairwise")
        options = {k: scores[k] for k in metrics.echoed_options if k in scores}
        table, by_key = metrics.outcomes(**self.records.score_inputs(records, rows), **options)
        if key not in by_key:
            raise KeyError(f"{self.id} has no outcome metric for {key!r}; it has {sorted(by_key)}")
        return KeyOutcomes.of(key, table, by_key[key])

    def reported(self) -> dict[str, Any]:
        """The published results shipped as ``reported.json`` in the benchmark's package (may be empty)."""
        if not self.package:
            return {}
        path = resources.files(self.package) / "reported.json"
        if not path.is_file():
            return {}
        return dict(json.loads(path.read_text(encoding="utf-8")))
