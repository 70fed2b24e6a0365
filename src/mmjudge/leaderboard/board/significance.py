"""Where each leaderboard row may rank, and whether another row is significantly better: paired, simultaneous,
from the per-unit data stored with each row.

At submission :func:`~mmjudge.leaderboard.core.pairing.pack_paired` keeps, beside the scores, each headline key's per-unit data
(:class:`~mmjudge.stats.KeyOutcomes`: the scorer's own per-unit outcomes of the file's records on the
server's reference rows, and the key's metric) and the scorer's record of how each score's interval was made
(:class:`~mmjudge.estimates.Estimate`: method, units, independent clusters), zlib-compressed JSON with the
reference folder's dataset hash. Data packed by earlier versions (1: per-unit numerator/denominator or class
codes; 2: outcomes without the estimates) is read into the same form.

When a table is built, :func:`board_ranks` puts the verified rows with paired data into *families*: rows
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
under a hash of the family (its rows and their files, the resamples, the level): :meth:`Leaderboard.submit
<mmjudge.leaderboard.Leaderboard.submit>` stores them for the board the new row joins, and a render given the
store reads them. Rows added or hidden since make another family and another hash: that render computes the
family's rank sets once, from the rows' outcomes kept compact
(:func:`~mmjudge.leaderboard.core.pairing.compact_outcomes`), and stores them. A row stored before the summary was
kept gets it at its first render (written back). Within a process both are cached (least recently used first
out), so a render after the first costs a dictionary lookup per family.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

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
    compact_outcomes,
    pairing_of,
    read_pairing,
)
from mmjudge.leaderboard.store import Store, StoredSubmission
from mmjudge.stats import KeyOutcomes, RankSet, RankSets, rank_sets

__all__ = [
    "N_RESAMPLES", "THIN", "RowRank", "board_ranks", "pairing", "significance_cells", "stored_estimates",
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


_FAMILIES: LRU[str, dict[int, RowRank]] = LRU(256)
"""Family hash -> its rows' cells (this process's)."""
_FALLBACK: LRU[tuple[Any, ...], str] = LRU(2048)
"""The pairing summaries made at render for rows stored without one."""


def pairing(sub: StoredSubmission) -> Pairing | None:
    """``sub``'s pairing summary: as stored, or made from its paired data for a row stored without one
    (``None`` without paired data).

    Raises:
        SchemaError: the stored summary is malformed.
    """
    if sub.pairing:
        return read_pairing(sub.pairing)
    if not sub.paired:
        return None
    cache_key = (sub.id, sub.sha256, len(sub.paired), hashlib.sha256(sub.paired.encode("ascii")).digest())
    text = _FALLBACK.get(cache_key)
    if text is None:
        text = pairing_of(sub.paired, sub.results)
        _FALLBACK.put(cache_key, text)
    return read_pairing(text)


def stored_estimates(sub: StoredSubmission) -> dict[str, Estimate]:
    """How the scorer made each of ``sub``'s intervals, as stored with its paired data (empty for rows stored
    before version 3, rows without paired data, and rows whose paired data cannot be read)."""
    try:
        read = pairing(sub)
    except SchemaError:
        return {}
    return dict(read.estimates) if read is not None else {}


def significance_cells(
    benchmark: str,
    submissions: Sequence[StoredSubmission],
    key: str | None = None,
    *,
    store: Store | None = None,
) -> dict[int, str]:
    """Row id -> the test cell of every visible row of ``benchmark`` (:func:`board_ranks`' ``cell``)."""
    return {
        row_id: ranked.cell
        for row_id, ranked in board_ranks(benchmark, submissions, key, store=store).items()
    }


def board_ranks(
    benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None, *, store: Store | None = None,
    latest: bool = False,
) -> dict[int, RowRank]:  # fmt: skip
    """Row id -> the rank set and test cell of every visible row of ``benchmark`` (see the module docstring).

    A row whose stored paired data cannot be read, or does not reproduce its stored score, says so (and a
    warning is logged); the table is built all the same.

    Args:
        benchmark: benchmark id.
        submissions: stored rows (other benchmarks' and hidden ones are left out).
        key: the ranking key (default: the benchmark's first headline key).
        store: the store the rows come from: the families' cells are read from it, those it lacks are
            computed once and written to it, as are the pairing summaries of rows stored without one.
        latest: the rows are the board as a row was just stored: the store drops the cells of the families
            these replace.
    """
    spec = get_benchmark(benchmark)
    key = key or (spec.metrics.headline[0] if spec.metrics.headline else "")
    rows = [s for s in submissions if s.benchmark == benchmark and not s.hidden]
    if spec.metrics.outcomes is None:
        return {s.id: _plain(UNPAIRED) for s in rows}
    if key not in spec.metrics.paired_keys:
        return {s.id: _plain(f"{key} is not compared pairwise") for s in rows}
    out = {s.id: _plain(REPORTED) for s in rows if s.kind != "verified"}
    families: dict[str, list[StoredSubmission]] = {}
    verified = [s for s in rows if s.kind == "verified"]
    for sub in verified:
        try:
            found = pairing(sub)
        except SchemaError as exc:
            out[sub.id] = _broken(sub, exc)
            continue
        entry = None if found is None else found.keys.get(key)
        if found is not None and found.error:
            out[sub.id] = _broken(sub, SchemaError(found.error))
        elif entry is None:
            out[sub.id] = _plain(BEFORE)
        elif entry.error:
            out[sub.id] = _broken(sub, SchemaError(entry.error))
        else:
            families.setdefault(entry.layout, []).append(sub)
    if store is not None:
        store.set_pairing({s.id: found_text for s in verified if (found_text := _made_here(s))})
    ranked = {layout: sorted(members, key=lambda m: m.id) for layout, members in families.items()}
    signatures = {layout: _signature(spec, key, layout, members) for layout, members in ranked.items()}
    stored = _stored_cells(store, benchmark, key, signatures.values())
    for layout, members in ranked.items():
        if len(members) == 1 and len(families) > 1:
            out[members[0].id] = _plain(OTHER)
        else:
            cells = _cells(spec, key, members, signatures[layout], stored)
            out.update(cells)
            if store is not None and signatures[layout] not in stored and _keep(cells):
                store.put_rank_cells(
                    benchmark, key, layout, signatures[layout], _dump_cells(cells), latest=latest
                )
    return out


def _made_here(sub: StoredSubmission) -> str:
    """The pairing summary this process made for a row stored without one (``""`` otherwise)."""
    if sub.pairing or not sub.paired:
        return ""
    cache_key = (sub.id, sub.sha256, len(sub.paired), hashlib.sha256(sub.paired.encode("ascii")).digest())
    return _FALLBACK.get(cache_key) or ""


def _signature(spec: Benchmark, key: str, layout: str, members: Sequence[StoredSubmission]) -> str:
    """The hash a family's cells are kept under: everything they depend on."""
    text = json.dumps([RANKS_VERSION, spec.id, key, layout, [[s.id, s.sha256] for s in members], N_RESAMPLES,
                       CONFIDENCE], separators=(",", ":"))  # fmt: skip
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _stored_cells(store: Store | None, benchmark: str, key: str, signatures: Any) -> dict[str, str]:
    wanted = [s for s in signatures if _FAMILIES.get(s) is None]
    return {} if store is None or not wanted else store.rank_cells(benchmark, key, wanted)


def _cells(
    spec: Benchmark, key: str, members: Sequence[StoredSubmission], signature: str, stored: Mapping[str, str]
) -> dict[int, RowRank]:
    """The cells of one family: from this process's cache, the store, or computed (and cached)."""
    found = _FAMILIES.get(signature)
    if found is None and signature in stored:
        found = _load_cells(stored[signature])
    if found is None:
        try:
            loaded = [(sub, compact_outcomes(sub.id, sub.sha256, sub.paired)[key]) for sub in members]
        except (SchemaError, KeyError) as exc:  # not expected: the summary was made from the same data
            return {sub.id: _broken(sub, SchemaError(str(exc))) for sub in members}
        found = _family(spec, key, loaded)
    if _keep(found):
        _FAMILIES.put(signature, found)
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
