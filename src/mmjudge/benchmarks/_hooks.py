"""The hooks a benchmark package's modules define, as protocols mypy checks.

A benchmark split into modules wires its specs from them by name (``DataSpec.from_modules``,
``RecordSpec.from_modules``, ``Presenters.from_modules``). Each ``from_modules`` parameter is typed by the
protocol of its module, and mypy checks a module object against a protocol structurally: a package whose
``queries`` module lacks ``build_queries``, or defines it with another signature, fails ``mypy`` where the
package passes the module (``RecordSpec.from_modules(queries, ...)``). At run time :func:`required` makes
the same check of presence, naming the first missing hook.

Each protocol lists the hooks a module must define, in wiring order; the optional ones (``KEY_FIELDS``,
``record_id``, ``OPTIONS``, ``sweep_series``, ...) are read by :func:`optional` when a module defines
them, since a protocol member cannot be optional.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from mmjudge.benchmarks._base import BoardRow, QuerySource, Record, Row, View
    from mmjudge.benchmarks._exports import ExportSpec
    from mmjudge.benchmarks._report_tables import BreakdownTable
    from mmjudge.data import BuiltDataset, RawSource
    from mmjudge.queries import Query, Verdict

__all__ = [
    "BuildModule",
    "ExportsModule",
    "LeaderboardModule",
    "QueriesModule",
    "RecordsModule",
    "ReportModule",
    "SampleModule",
]

M = TypeVar("M")


class BuildModule(Protocol):
    """A benchmark's ``build`` module: the raw-release builder (:attr:`DataSpec.build_tables`)."""

    def build_tables(
        self, source: Path, /, *, media_root: Path | None = ..., allow_missing_media: bool = ...
    ) -> BuiltDataset:
        """The dataset folder's tables from a raw release (further keyword options are the benchmark's)."""
        ...


class SampleModule(Protocol):
    """A benchmark's ``sample`` module: the synthetic sample writer (:attr:`DataSpec.write_raw`)."""

    def write_raw(self, raw_dir: str | Path, /, *, size: str = ..., seed: int = ...) -> RawSource:
        """Write the sample in the raw release's format."""
        ...


class QueriesModule(Protocol):
    """A benchmark's ``queries`` module: rows -> judge queries -> prediction records."""

    def build_queries(self, rows: Sequence[Row], source: QuerySource, /) -> list[Query]:
        """:attr:`RecordSpec.build_queries`."""
        ...

    def records_from_verdicts(
        self, queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Row], /
    ) -> list[dict[str, Any]]:
        """:attr:`RecordSpec.records_from_verdicts`."""
        ...


class RecordsModule(Protocol):
    """A benchmark's ``records`` module: the prediction-record schema, its ids and the scorer's inputs.

    Optional: ``KEY_FIELDS``, ``FIELD_VALUES``, ``record_id``, ``check_record``, ``missing_groups``.
    """

    def expected_ids(self, rows: Sequence[Row], records: Sequence[Record], /) -> list[str]:
        """:attr:`RecordSpec.expected_ids`."""
        ...

    def score_inputs(self, records: Sequence[Record], rows: Sequence[Row], /) -> dict[str, Any]:
        """:attr:`RecordSpec.score_inputs`."""
        ...

    @property
    def VALUE_FIELDS(self) -> Mapping[str, tuple[type, ...]]:
        """:attr:`RecordSpec.value_fields`."""
        ...


class LeaderboardModule(Protocol):
    """A benchmark's ``leaderboard`` module: the tab's views and figure.

    Optional: ``OPTIONS``, ``SIDE_SCORINGS``, ``VIEW_LABEL``, ``degenerate``.
    """

    @property
    def VIEWS(self) -> tuple[View, ...]:
        """:attr:`LeaderboardSpec.views`."""
        ...

    def figure(self, rows: Sequence[BoardRow], /) -> Any:
        """:attr:`LeaderboardSpec.figure`."""
        ...


class ReportModule(Protocol):
    """A benchmark's ``report`` module: the report's figure and breakdown tables. Optional: ``sweep_series``."""

    def plot(
        self, folder: Path, scores: Mapping[str, Any], records: Sequence[Record], rows: Sequence[Row], /
    ) -> tuple[Path, str]:
        """:attr:`Presenters.report_plot`."""
        ...

    def tables(self, scores: Mapping[str, Any], /) -> Sequence[BreakdownTable]:
        """:attr:`Presenters.report_tables`."""
        ...


class ExportsModule(Protocol):
    """A benchmark's ``exports`` module: the ``eval.yaml`` and lmms-eval tasks."""

    @property
    def EXPORTS(self) -> ExportSpec:
        """:attr:`Presenters.exports`."""
        ...


def hook_names(hooks: type) -> tuple[str, ...]:
    """The hooks a protocol lists, in order.

    >>> hook_names(QueriesModule)
    ('build_queries', 'records_from_verdicts')
    """
    return tuple(name for name in vars(hooks) if not name.startswith("_"))


def required(module: M, hooks: type) -> M:
    """``module``, once it defines every hook the protocol ``hooks`` lists (mypy checked the signatures).

    Raises:
        TypeError: naming the first hook ``module`` does not define.
    """
    for name in hook_names(hooks):
        if not hasattr(module, name):
            own = getattr(module, "__name__", repr(module))
            raise TypeError(
                f"benchmark module {own} defines no {name!r}; a benchmark package's "
                f"{own.rsplit('.', 1)[-1]} module must (see mmjudge.benchmarks.Benchmark)"
            )
    return module


def optional(module: object, **fields: str) -> dict[str, Any]:
    """The fields whose hook names ``module`` defines (field -> hook name), with their values."""
    return {f: getattr(module, name) for f, name in fields.items() if hasattr(module, name)}
