"""Where each leaderboard row may rank, and whether another row is significantly better: paired, simultaneous,
from the per-unit data stored with each row.

At submission :func:`~mmjudge.leaderboard.core.pairing.pack_paired` keeps, beside the scores, each headline key's per-unit data
(:class:`~mmjudge.stats.KeyOutcomes`: the scorer's own per-unit outcomes of the file's records on the
server's reference rows, and the key's metric) and the scorer's record of how each score's interval was made
(:class:`~mmjudge.estimates.Estimate`: method, units, independent clusters), zlib-compressed JSON with the
reference folder's dataset hash. Data packed by earlier versions (1: per-unit numerator/denominator or class
codes; 2: outcomes without the estimates) is read into the same form.

:func:`group_rows` puts the verified rows with paired data into *families*: rows
scored on the same items (same dataset hash, the same units in the same clusters and strata, the same
metric). The rows of a family are ranked together on the view's ranking key by
:func:`mmjudge.stats.rank_sets` (one paired cluster bootstrap for every row, a max-|t| critical value over all
pairs: the leaderboard computes no statistic itself), and each row gets two short cells:

* its **rank set** at family-wise 95% (``"1–3"``: the ranks it may hold among the family's rows);
* its **test** cell: ``"best"`` for the family's top row, ``"-3.10 [-5.00, -1.20] *"`` (row minus the top
  row, with the difference's simultaneous 95% interval; ``*``: some row of the family is significantly
  better, i.e. the rank set starts after 1) or ``"n.s. -1.00 [-3.00, +1.00]"``.

A family whose rows share fewer than :data:`~mmjudge.estimates.MIN_CLUSTERS` independent clusters, or so few
that no test can reach ``p < 0.05`` (:func:`~mmjudge.estimates.no_test_reaches`, the rule ``mmjudge compare``
reads: 5 clusters), gets no rank sets (both cells say why); under :data:`~mmjudge.estimates.FEW_CLUSTERS` both cells end ``†`` (thin; the
table's caption gives the count). Other rows: ``"published numbers: no pairing"`` (reported rows), ``"no
per-item data (stored before pairing)"`` (rows stored before the store kept it), ``"other items"`` (a row
alone on its items while other rows share theirs), and every row of a benchmark without outcomes
(:attr:`~mmjudge.benchmarks.MetricSpec.outcomes`) says so; their rank cell is ``—``.

What does not depend on the other rows is made once, when a row is stored: its pairing summary
(:func:`~mmjudge.leaderboard.core.pairing.pairing_of`: per key its family's layout, or why its data cannot be used;
the scorer's estimates), in the store's ``pairing`` column. A family's cells are stored too (``rank_cells``),
under a hash of the family (its rows and their files, the resamples, the level), by the server's rank keeper
(:mod:`~mmjudge.leaderboard.board.ranks`) when :meth:`Leaderboard.submit <mmjudge.leaderboard.Leaderboard.submit>`
or ``hide`` tells it the board changed (:func:`store_board_ranks`: the family's rank sets computed once, from the
rows' outcomes kept compact, :func:`~mmjudge.leaderboard.core.pairing.compact_outcomes`). A table only reads them
(:func:`read_ranks`); the rows whose cells the store lacks (rows added or hidden since, a row stored before the
summary was kept) are the keeper's to compute and store, which the table asks it to do. :func:`board_ranks`
computes the cells of rows in hand, storing nothing. What is kept in memory between calls (the families' cells,
the summaries, the compact outcomes) is one server's :class:`RankCache`, owned by its rank keeper, so a render
after the first costs a dictionary lookup per family.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from mmjudge.benchmarks import Benchmark, get_benchmark
from mmjudge.errors import SchemaError
from mmjudge.estimates import (
    DIFFERENCE_RANGE,
    FEW_CLUSTERS,
    MIN_CLUSTERS,
    Estimate,
    interval_text,
    no_test_reaches,
    number_text,
    thin_note,
)
from mmjudge.leaderboard.core.pairing import (
    LRU,
    Pairing,
    SharedUnits,
    compact_outcomes,
    packed_key,
    pairing_of,
    read_pairing,
)
from mmjudge.leaderboard.store import Store, StoredSubmission
from mmjudge.stats import KeyOutcomes, RankSet, RankSets, rank_sets

__all__ = [
    "N_RESAMPLES", "THIN", "ComputedRanks", "Family", "Grouped", "RankCache", "RankSource", "RowRank", "StoredCells",
    "board_ranks", "group_rows", "pairing", "read_ranks", "significance_cells", "store_board_ranks",
    "stored_estimates",
]  # fmt: skip

N_RESAMPLES = 2000
"""Bootstrap resamples of a family's rank sets (seed 0)."""
CONFIDENCE = 0.95
"""Family-wise coverage of the rank sets (a star: significant at ``1 - CONFIDENCE``)."""
RANKS_VERSION = 3
"""Version of the stored family cells (another version makes them again; 2: differences clipped to
:data:`~mmjudge.estimates.DIFFERENCE_RANGE`; 3: no rank sets where no test can reach the level,
:func:`~mmjudge.estimates.no_test_reaches`)."""
THIN = "†"
"""Ends a cell resting on fewer than :data:`~mmjudge.estimates.FEW_CLUSTERS` independent clusters."""
UNPAIRED = "the benchmark declares no pairing"
BROKEN = "paired data unusable (see the log)"
UNDEFINED = "the key is undefined for this row"
NO_RANK = "—"
REPORTED, BEFORE, OTHER, BEST = (
    "published numbers: no pairing",
    "no per-item data (stored before pairing)",
    "other items",
    "best",
)

logger = logging.getLogger(__name__)


class RowRank(NamedTuple):
    """One row's rank set and test cell (:func:`board_ranks`)."""

    rank: RankSet | None
    """Its rank set among its family's rows (``None``: no rank set)."""
    rank_text: str
    """The rank cell: ``"1–3"`` (``"1–3 †"`` when thin), ``"—"``, or why there is none."""
    cell: str
    """The test cell (module docstring)."""
    thin: str
    """:func:`~mmjudge.estimates.thin_note` of the family's clusters (``""`` when not thin)."""
    method: str = ""
    """How the rank set was made (:attr:`mmjudge.stats.RankSets.method`; ``""`` without one)."""


class RankCache:
    """What one server keeps in memory of its boards, least recently used first out: the rank cells of each
    family (by its hash), the pairing summaries read (by their text) and made for rows stored without one, and
    the rows' outcomes kept compact with their unit ids shared.

    One per server, owned by its rank keeper (:class:`~mmjudge.leaderboard.board.ranks.RankKeeper`) and passed
    to everything that reads or computes the rank cells; nothing of it is module state, so two servers in one
    process share none of it.

    >>> cache = RankCache()
    >>> len(cache.families), len(RankCache().families)
    (0, 0)
    """

    def __init__(self, *, families: int = 256, rows: int = 1024, summaries: int = 2048, layouts: int = 64) -> None:
        self.families: LRU[str, dict[int, RowRank]] = LRU(families)
        """Family hash -> its rows' cells."""
        self.outcomes: LRU[tuple[Any, ...], dict[str, KeyOutcomes]] = LRU(rows)
        """:func:`~mmjudge.leaderboard.core.pairing.packed_key` of a row -> its compact outcomes."""
        self.shared: LRU[tuple[Any, ...], SharedUnits] = LRU(layouts)
        """The unit ids, clusters and strata shared by the rows of one layout."""
        self.pairings: LRU[str, Pairing] = LRU(summaries)
        """A stored pairing summary's text -> the summary read."""
        self.made: LRU[tuple[Any, ...], str] = LRU(summaries)
        """:func:`~mmjudge.leaderboard.core.pairing.packed_key` of a row stored without a summary -> the one made."""

    def read(self, text: str) -> Pairing:
        """:func:`~mmjudge.leaderboard.core.pairing.read_pairing`, kept."""
        return self.pairings.get_or_make(text, lambda: read_pairing(text))

    def summary(self, sub: StoredSubmission) -> str:
        """The pairing summary made from ``sub``'s paired data (``sub`` was stored without one), kept."""
        return self.made.get_or_make(packed_key(sub.id, sub.sha256, sub.paired),
                                     lambda: pairing_of(sub.paired, sub.results))

    def compact(self, sub: StoredSubmission) -> dict[str, KeyOutcomes]:
        """``sub``'s outcomes kept compact (:func:`~mmjudge.leaderboard.core.pairing.compact_outcomes`), kept."""
        return self.outcomes.get_or_make(packed_key(sub.id, sub.sha256, sub.paired),
                                         lambda: compact_outcomes(sub.paired, self.shared))


class RankSource(Protocol):
    """Where a table's significance column gets its cells: a server's rank keeper (the cells the store holds,
    :class:`~mmjudge.leaderboard.board.ranks.RankKeeper`) or, for rows not in a store, :class:`ComputedRanks`."""

    cache: RankCache
    """The cache the source reads through (a table reads the rows' pairing summaries through it too)."""

    def ranks(self, benchmark: str, rows: Sequence[StoredSubmission], key: str) -> dict[int, RowRank]:
        """Row id -> the cells of every one of ``rows`` (compared on ``key``)."""
        ...


class ComputedRanks:
    """A rank source for rows that are not read from a store (a table built from rows in hand): every family's
    cells are computed from the rows' outcomes (:func:`board_ranks`), nothing is stored."""

    def __init__(self, cache: RankCache | None = None) -> None:
        self.cache = cache or RankCache()

    def ranks(self, benchmark: str, rows: Sequence[StoredSubmission], key: str) -> dict[int, RowRank]:
        """:func:`board_ranks` of ``rows``."""
        return board_ranks(benchmark, rows, key, cache=self.cache)


def pairing(sub: StoredSubmission, cache: RankCache | None = None, *, make: bool = True) -> Pairing | None:
    """``sub``'s pairing summary: as stored or, with ``make``, made from its paired data for a row stored without
    one (``None`` without paired data, or without a stored summary and ``make`` false); read through ``cache``.

    Raises:
        SchemaError: the stored summary is malformed.
    """
    cache = cache or RankCache(families=0, rows=0, summaries=0, layouts=0)
    if sub.pairing:
        return cache.read(sub.pairing)
    if not sub.paired or not make:
        return None
    return cache.read(cache.summary(sub))


def stored_estimates(sub: StoredSubmission, cache: RankCache | None = None) -> dict[str, Estimate]:
    """How the scorer made each of ``sub``'s intervals, as its stored pairing summary holds them (empty for rows
    stored before version 3, rows without paired data, rows whose summary is not stored yet and rows whose paired
    data cannot be read)."""
    try:
        read = pairing(sub, cache, make=False)
    except SchemaError:
        return {}
    return dict(read.estimates) if read is not None else {}


def significance_cells(
    benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None
) -> dict[int, str]:
    """Row id -> the test cell of every visible row of ``benchmark`` (:func:`board_ranks`' ``cell``)."""
    return {row_id: ranked.cell for row_id, ranked in board_ranks(benchmark, submissions, key).items()}


class Family(NamedTuple):
    """The verified rows of a board scored on the same items, ranked together."""

    layout: str
    """What they share (:func:`~mmjudge.leaderboard.core.pairing.layout_of`)."""
    signature: str
    """The hash its cells are kept under: everything they depend on."""
    members: tuple[StoredSubmission, ...]
    """Its rows, by id."""


class Grouped(NamedTuple):
    """A board's rows put into families (:func:`group_rows`)."""

    cells: dict[int, RowRank]
    """The cells of the rows ranked in no family (reported, older, unusable, alone on other items)."""
    families: tuple[Family, ...]
    """The families whose cells are read or computed."""
    waiting: tuple[StoredSubmission, ...]
    """Rows with paired data whose summary is not stored yet (only when summaries are not made)."""


def group_rows(benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None, *,
               cache: RankCache | None = None, make: bool = True) -> Grouped:  # fmt: skip
    """``benchmark``'s visible rows (of ``submissions``) put into families on ``key`` (default: the first headline
    key); ``make``: a row stored without a pairing summary gets one made from its paired data (else it waits
    for the rank keeper to store it: :attr:`Grouped.waiting`)."""
    spec = get_benchmark(benchmark)
    key = key or _headline(spec)
    rows = [s for s in submissions if s.benchmark == benchmark and not s.hidden]
    unranked = _unranked(spec, key)
    if unranked:
        return Grouped({s.id: _plain(unranked) for s in rows}, (), ())
    cells = {s.id: _plain(REPORTED) for s in rows if s.kind != "verified"}
    verified = [s for s in rows if s.kind == "verified"]
    waiting = () if make else tuple(filter(_unsummarised, verified))
    layouts = _layouts([s for s in verified if make or not _unsummarised(s)], key, cache, cells)
    return Grouped(cells, _families(spec, key, layouts, cells), waiting)


def _unsummarised(sub: StoredSubmission) -> bool:
    """Whether ``sub`` has paired data but no stored pairing summary (stored before the store kept them)."""
    return bool(sub.paired) and not sub.pairing


def _layouts(verified: Sequence[StoredSubmission], key: str, cache: RankCache | None,
             cells: dict[int, RowRank]) -> dict[str, list[StoredSubmission]]:  # fmt: skip
    """Layout -> the ``verified`` rows ranked in it; a row ranked in none gets its cell in ``cells``."""
    layouts: dict[str, list[StoredSubmission]] = {}
    for sub in verified:
        layout, cell = _place(sub, key, cache)
        if cell is None:
            layouts.setdefault(layout, []).append(sub)
        else:
            cells[sub.id] = cell
    return layouts


def _unranked(spec: Benchmark, key: str) -> str:
    """Why no row of ``spec``'s board is ranked on ``key`` (``""`` when rows can be)."""
    if spec.metrics.outcomes is None:
        return UNPAIRED
    return "" if key in spec.metrics.paired_keys else f"{key} is not compared pairwise"


def _families(spec: Benchmark, key: str, layouts: Mapping[str, Sequence[StoredSubmission]],
              cells: dict[int, RowRank]) -> tuple[Family, ...]:  # fmt: skip
    """The families of rows by layout; a row alone on its items while other rows share theirs gets its cell in
    ``cells`` instead."""
    families = []
    for layout, members in layouts.items():
        if len(members) == 1 and len(layouts) > 1:
            cells[members[0].id] = _plain(OTHER)
        else:
            ordered = tuple(sorted(members, key=lambda m: m.id))
            families.append(Family(layout, _signature(spec, key, layout, ordered), ordered))
    return tuple(families)


def _place(sub: StoredSubmission, key: str, cache: RankCache | None) -> tuple[str, RowRank | None]:
    """A verified row's family layout on ``key``, or the cell saying why it is in none."""
    try:
        found = pairing(sub, cache)
    except SchemaError as exc:
        return "", _broken(sub, exc)
    if found is None:
        return "", _plain(BEFORE)
    if found.error:
        return "", _broken(sub, SchemaError(found.error))
    entry = found.keys.get(key)
    if entry is None:
        return "", _plain(BEFORE)
    if entry.error:
        return "", _broken(sub, SchemaError(entry.error))
    return entry.layout, None


class StoredCells(NamedTuple):
    """What the store holds of a board's rank cells (:func:`read_ranks`)."""

    cells: dict[int, RowRank]
    """Row id -> its cells, for the rows whose cells are stored (or need none)."""
    missing: tuple[int, ...]
    """The rows whose cells the store does not hold yet."""


def read_ranks(benchmark: str, submissions: Sequence[StoredSubmission], key: str, *, store: Store,
               cache: RankCache) -> StoredCells:  # fmt: skip
    """The rank cells of ``benchmark``'s rows as ``store`` holds them, read through ``cache``; nothing is computed
    or written (a row's missing cells are the rank keeper's to store: :func:`store_board_ranks`)."""
    grouped = group_rows(benchmark, submissions, key, cache=cache, make=False)
    cells = dict(grouped.cells)
    known = _known(store, benchmark, key, grouped.families, cache)
    missing = [s.id for s in grouped.waiting]
    for family in grouped.families:
        if family.signature in known:
            cells.update(known[family.signature])
        else:
            missing.extend(s.id for s in family.members)
    return StoredCells(cells, tuple(missing))


def _known(store: Store, benchmark: str, key: str, families: Sequence[Family],
           cache: RankCache) -> dict[str, dict[int, RowRank]]:  # fmt: skip
    """Family hash -> cells, of those ``families`` whose cells ``cache`` holds or ``store`` holds (kept in
    ``cache``)."""
    known = {f.signature: c for f in families if (c := cache.families.get(f.signature)) is not None}
    wanted = [f.signature for f in families if f.signature not in known]
    for signature, text in (store.rank_cells(benchmark, key, wanted) if wanted else {}).items():
        loaded = _load_cells(text)
        if loaded is not None and _keep(loaded):
            cache.families.put(signature, loaded)
            known[signature] = loaded
    return known


def store_board_ranks(store: Store, benchmark: str, submissions: Sequence[StoredSubmission], key: str, *,
                      cache: RankCache, latest: bool = False) -> dict[int, RowRank]:  # fmt: skip
    """Compute and store what :func:`read_ranks` reads of ``benchmark``'s rows on ``key``: the pairing summaries
    of rows stored without one, and the cells of every family the store lacks; returns every row's cells.

    ``latest``: the rows are the board as it is now: the store drops the cells of the families these replace.
    """
    grouped = group_rows(benchmark, submissions, key, cache=cache)
    store.set_pairing({s.id: text for s in submissions if (text := _made_here(s, cache))})
    spec = get_benchmark(benchmark)
    stored = store.rank_cells(benchmark, key, [f.signature for f in grouped.families]) if grouped.families else {}
    cells = dict(grouped.cells)
    for family in grouped.families:
        found = _load_cells(stored[family.signature]) if family.signature in stored else None
        if found is None:
            found = _computed(spec, key, family, cache)
            if _keep(found):
                store.put_rank_cells(benchmark, key, family.layout, family.signature, _dump_cells(found), latest=latest)
        cells.update(found)
    return cells


def board_ranks(benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None, *,
                cache: RankCache | None = None) -> dict[int, RowRank]:  # fmt: skip
    """Row id -> the rank set and test cell of every visible row of ``benchmark`` (see the module docstring),
    computed from the rows' outcomes (through ``cache``; nothing is read from or written to a store).

    A row whose stored paired data cannot be read, or does not reproduce its stored score, says so (and a
    warning is logged); the table is built all the same.

    Args:
        benchmark: benchmark id.
        submissions: stored rows (other benchmarks' and hidden ones are left out).
        key: the ranking key (default: the benchmark's first headline key).
        cache: what is kept between calls (default: nothing).
    """
    cache = cache or RankCache()
    spec = get_benchmark(benchmark)
    grouped = group_rows(benchmark, submissions, key, cache=cache)
    cells = dict(grouped.cells)
    for family in grouped.families:
        cells.update(_computed(spec, key or _headline(spec), family, cache))
    return cells


def _made_here(sub: StoredSubmission, cache: RankCache) -> str:
    """The pairing summary ``cache`` made for a row stored without one (``""`` otherwise)."""
    if sub.pairing or not sub.paired:
        return ""
    return cache.made.get(packed_key(sub.id, sub.sha256, sub.paired)) or ""


def _headline(spec: Benchmark) -> str:
    return spec.metrics.headline[0] if spec.metrics.headline else ""


def _signature(spec: Benchmark, key: str, layout: str, members: Sequence[StoredSubmission]) -> str:
    """The hash a family's cells are kept under: everything they depend on."""
    text = json.dumps([RANKS_VERSION, spec.id, key, layout, [[s.id, s.sha256] for s in members], N_RESAMPLES,
                       CONFIDENCE], separators=(",", ":"))  # fmt: skip
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _computed(spec: Benchmark, key: str, family: Family, cache: RankCache) -> dict[int, RowRank]:
    """The cells of one family: as ``cache`` holds them, or computed from the rows' outcomes (and kept)."""
    found = cache.families.get(family.signature)
    if found is not None:
        return found
    try:
        loaded = [(sub, cache.compact(sub)[key]) for sub in family.members]
    except (SchemaError, KeyError) as exc:  # not expected: the summary was made from the same data
        return {sub.id: _broken(sub, SchemaError(str(exc))) for sub in family.members}
    found = _family(spec, key, loaded)
    if _keep(found):
        cache.families.put(family.signature, found)
    return found


def _keep(cells: Mapping[int, RowRank]) -> bool:
    """Whether to store a family's cells (not when the ranking failed: a later render says why again)."""
    return all(c.cell != BROKEN for c in cells.values())


def _dump_cells(cells: Mapping[int, RowRank]) -> str:
    rows = {str(i): [None if c.rank is None else list(c.rank), c.rank_text, c.cell, c.thin, c.method]
            for i, c in cells.items()}  # fmt: skip
    return json.dumps(rows, separators=(",", ":"), ensure_ascii=False)


def _load_cells(text: str) -> dict[int, RowRank] | None:
    """:func:`_dump_cells`' text read (``None`` when malformed: the family is computed again)."""
    try:
        rows = json.loads(text)
        return {int(i): RowRank(None if r[0] is None else RankSet(int(r[0][0]), int(r[0][1])), str(r[1]), str(r[2]),
                                str(r[3]), str(r[4])) for i, r in rows.items()}  # fmt: skip
    except (ValueError, TypeError, IndexError, KeyError, AttributeError):
        logger.warning("stored rank cells are malformed; computing them again")
        return None


def _plain(cell: str) -> RowRank:
    return RowRank(None, NO_RANK, cell, "")


def _family(
    spec: Benchmark, key: str, members: Sequence[tuple[StoredSubmission, KeyOutcomes]]
) -> dict[int, RowRank]:
    """The rank sets and test cells of one family's rows (ordered by id)."""
    outcomes = members[0][1].outcomes
    n_clusters = outcomes.n_clusters
    what = outcomes.unit if outcomes.independent else outcomes.cluster_name
    thin = thin_note(n_clusters, what)
    if n_clusters < MIN_CLUSTERS:
        why = f"{n_clusters} {what}{'' if n_clusters == 1 else 's'} (at least {MIN_CLUSTERS} needed)"
        return {sub.id: RowRank(None, f"no rank set: {why}", f"no test: {why}", thin) for sub, _ in members}
    if no_test_reaches(n_clusters, 1.0 - CONFIDENCE):  # compare's rule: no star where no test can reach alpha
        why = f"{n_clusters} {what}s (no test at this size can reach p < {1.0 - CONFIDENCE:.2g})"
        return {sub.id: RowRank(None, f"no rank set: {why}", f"no test: {why}", thin) for sub, _ in members}
    try:
        sets = rank_sets([units for _, units in members], higher_is_better=spec.metrics.higher_is_better(key),
                         n_resamples=N_RESAMPLES, confidence=CONFIDENCE, seed=0)  # fmt: skip
    except SchemaError as exc:  # not expected: the layout groups rows the ranking can pair
        return {sub.id: _broken(sub, exc) for sub, _ in members}
    mark = f" {THIN}" if n_clusters < FEW_CLUSTERS else ""
    top = _top(sets, spec.metrics.higher_is_better(key))
    out = {}
    for j, (sub, _) in enumerate(members):
        ranked = sets.sets[j]
        if ranked is None:
            out[sub.id] = RowRank(None, NO_RANK, UNDEFINED, thin)
            continue
        cell = BEST if j == top else _test_text(sets, j, top)
        out[sub.id] = RowRank(ranked, ranked.text() + mark, cell + mark, thin, sets.method)
    return out


def _top(sets: RankSets, higher_is_better: bool) -> int:
    """Index of the family's best value (the first, by id, among equal ones; -1 when none is defined)."""
    sign = 1.0 if higher_is_better else -1.0
    defined = [(sign * v, -j) for j, v in enumerate(sets.values) if not math.isnan(v)]
    return -max(defined)[1] if defined else -1


def _test_text(sets: RankSets, row: int, top: int) -> str:
    """``"-3.10 [-5.00, -1.20] *"`` or ``"n.s. -1.00 [-3.00, +1.00]"``: the row minus the top row, with its
    simultaneous interval; the star when some row is significantly better (and how many when the interval with
    the top row holds 0).

    >>> import numpy as np
    >>> s = RankSets((60.0, 50.0), (RankSet(1, 1), RankSet(2, 2)), (0, 1), (1, 0), 2.5, 0.95, 100, 100, 40, 40,
    ...              "m", np.array([[0.0, 2.0], [2.0, 0.0]]))
    >>> _test_text(s, 1, 0)
    '-10.00 [-15.00, -5.00] *'
    """
    difference, low, high = sets.interval(row, top)
    low, high = max(low, DIFFERENCE_RANGE[0]), min(high, DIFFERENCE_RANGE[1])  # NaN stays NaN
    text = f"{number_text(difference, 2, style='signed')} {interval_text(low, high, 2, style='signed')}"
    if not sets.worse_than_best(row):
        return f"n.s. {text}"
    better = sets.better[row]
    return (
        f"{text} *" if high < 0 or low > 0 else f"{text} * ({better} row{'' if better == 1 else 's'} better)"
    )


def _broken(sub: StoredSubmission, exc: SchemaError) -> RowRank:
    logger.warning("row #%s: its paired data cannot be used (%s)", sub.id, exc)
    return _plain(BROKEN)
