"""Where each leaderboard row may rank, and whether another row is significantly better: paired, simultaneous,
from the per-unit data stored with each row.

At submission :func:`pack_paired` keeps, beside the scores, each headline key's per-unit data
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

A family whose rows share fewer than :data:`~mmjudge.estimates.MIN_CLUSTERS` independent clusters gets no
rank sets (both cells say why); under :data:`~mmjudge.estimates.FEW_CLUSTERS` both cells end ``†`` (thin; the
table's caption gives the count). Other rows: ``"published numbers: no pairing"`` (reported rows), ``"no
per-item data (stored before pairing)"`` (rows stored before the store kept it), ``"other items"`` (a row
alone on its items while other rows share theirs), and every row of a benchmark without outcomes
(:attr:`~mmjudge.benchmarks.MetricSpec.outcomes`) says so; their rank cell is ``—``.

Rank sets are cached by the key and the family's row ids and file hashes (stored rows never change), so a
table render after the first costs a dictionary lookup per family.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import math
import threading
import zlib
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from mmjudge.benchmarks import Benchmark, get_benchmark
from mmjudge.errors import SchemaError
from mmjudge.estimates import FEW_CLUSTERS, MIN_CLUSTERS, Estimate, interval_text, number_text, thin_note
from mmjudge.leaderboard.store import StoredSubmission
from mmjudge.stats import KeyOutcomes, Outcomes, RankSet, RankSets, Ratio, WeightedF1, rank_sets

__all__ = [
    "N_RESAMPLES", "THIN", "RowRank", "board_ranks", "pack_paired", "significance_cells", "stored_estimates",
    "unpack_paired",
]  # fmt: skip

N_RESAMPLES = 2000
"""Bootstrap resamples of a family's rank sets (seed 0)."""
CONFIDENCE = 0.95
"""Family-wise coverage of the rank sets (a star: significant at ``1 - CONFIDENCE``)."""
TOLERANCE = 1e-9
"""Largest relative gap allowed between a row's stored score and its stored outcomes' value."""
PAIRED_VERSION = 3
"""3: per key a :class:`~mmjudge.stats.KeyOutcomes` object and the scorer's estimates; 2 (read): the same
without the estimates; 1 (read, converted): the older per-unit data."""
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


class _Packed(NamedTuple):
    digest: str
    keys: dict[str, KeyOutcomes]
    estimates: dict[str, Estimate]


_RANKS: dict[tuple[Any, ...], RankSets] = {}
_UNPACKED: dict[tuple[Any, ...], _Packed | None] = {}
_LAYOUTS: dict[tuple[Any, ...], str] = {}
_CACHE_LIMIT = 4096
_LOCK = threading.Lock()


def pack_paired(
    benchmark: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    results: Mapping[str, Any],
    dataset_hash: str,
) -> str:
    """The per-unit paired data of ``results``' headline keys and the scorer's estimates of every score (from
    a :class:`~mmjudge.benchmarks.Scores`; none from a plain dict), packed for the store.

    >>> unpack_paired(pack_paired("mist", [], [], {}, "dataset-hash"))[0]
    'dataset-hash'
    """
    from mmjudge.results import estimates_of

    spec = get_benchmark(benchmark)
    keys = [k for k in spec.metrics.paired_keys if k in results]
    units = {k: spec.key_outcomes(k, records, rows, results).to_json() for k in keys}
    made = {k: e.to_json() for k, e in estimates_of(benchmark, results).items() if e.method != "not recorded"}
    payload = {"version": PAIRED_VERSION, "dataset_hash": dataset_hash, "keys": units, "estimates": made}
    text = json.dumps(payload, allow_nan=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpack_paired(packed: str) -> tuple[str, dict[str, KeyOutcomes]] | None:
    """``(dataset_hash, key -> KeyOutcomes)`` from :func:`pack_paired`'s text (any version); ``None`` for ``""``.

    Raises:
        SchemaError: the text is not packed paired data.

    >>> unpack_paired(pack_paired("mist", [], [], {}, "h"))
    ('h', {})
    """
    read = _read(packed)
    return None if read is None else (read.digest, read.keys)


def _read(packed: str) -> _Packed | None:
    if not packed:
        return None
    try:
        payload = json.loads(zlib.decompress(base64.b64decode(packed)))
    except (ValueError, zlib.error) as exc:
        raise SchemaError(
            f"stored paired data is not packed JSON ({exc}); expected pack_paired's output"
        ) from exc
    version = payload.get("version")
    if version not in (1, 2, PAIRED_VERSION):
        raise SchemaError(f"stored paired data has version {version!r}, expected 1 to {PAIRED_VERSION}")
    read = KeyOutcomes.from_json if version != 1 else _from_version_1
    try:
        keys = {k: read(v) for k, v in payload["keys"].items()}
        estimates = {k: Estimate.from_json(v) for k, v in (payload.get("estimates") or {}).items()}
        return _Packed(str(payload["dataset_hash"]), keys, estimates)
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaError(
            f"stored paired data (version {version}) is malformed: {type(exc).__name__}: {exc}"
        ) from exc


def _from_version_1(data: Mapping[str, Any]) -> KeyOutcomes:
    """Version 1's per-unit data (``statistic`` ``ratio``: numerator and denominator per unit, optionally
    per stratum and averaged; ``weighted_f1``: gold and predicted class per unit) as outcomes."""
    import numpy as np

    values = np.asarray(data["values"], dtype=np.float64).reshape(len(data["units"]), 2)
    strata = tuple(str(s) for s in data.get("strata") or ())
    outcomes = Outcomes(tuple(str(u) for u in data["units"]), tuple(str(c) for c in data["clusters"]),
                        {"a": values[:, 0], "b": values[:, 1]}, strata)  # fmt: skip
    params = {str(k): (np.nan if v is None else float(v)) for k, v in (data.get("params") or {}).items()}
    if data["statistic"] == "ratio":
        order = tuple(dict.fromkeys(strata)) if strata else None
        metric: Any = Ratio(
            "a", "b", by_stratum=bool(strata), strata=order, empty=params.get("empty", np.nan)
        )
    elif data["statistic"] == "weighted_f1":
        metric = WeightedF1("a", "b", int(params["classes"]))
    else:
        raise ValueError(f"unknown version-1 statistic {data['statistic']!r}")
    return KeyOutcomes(str(data["key"]), outcomes, metric)


def stored_estimates(sub: StoredSubmission) -> dict[str, Estimate]:
    """How the scorer made each of ``sub``'s intervals, as stored with its paired data (empty for rows stored
    before version 3, rows without paired data, and rows whose paired data cannot be read)."""
    try:
        read = _unpacked(sub)
    except SchemaError:
        return {}
    return dict(read.estimates) if read is not None else {}


def significance_cells(
    benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None
) -> dict[int, str]:
    """Row id -> the test cell of every visible row of ``benchmark`` (:func:`board_ranks`' ``cell``)."""
    return {row_id: ranked.cell for row_id, ranked in board_ranks(benchmark, submissions, key).items()}


def board_ranks(
    benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None
) -> dict[int, RowRank]:
    """Row id -> the rank set and test cell of every visible row of ``benchmark`` (see the module docstring).

    A row whose stored paired data cannot be read, or does not reproduce its stored score, says so (and a
    warning is logged); the table is built all the same.

    Args:
        benchmark: benchmark id.
        submissions: stored rows (other benchmarks' and hidden ones are left out).
        key: the ranking key (default: the benchmark's first headline key).
    """
    spec = get_benchmark(benchmark)
    key = key or (spec.metrics.headline[0] if spec.metrics.headline else "")
    rows = [s for s in submissions if s.benchmark == benchmark and not s.hidden]
    if spec.metrics.outcomes is None:
        return {s.id: _plain(UNPAIRED) for s in rows}
    if key not in spec.metrics.paired_keys:
        return {s.id: _plain(f"{key} is not compared pairwise") for s in rows}
    out = {s.id: _plain(REPORTED) for s in rows if s.kind != "verified"}
    families: dict[str, list[tuple[StoredSubmission, KeyOutcomes]]] = {}
    for sub in (s for s in rows if s.kind == "verified"):
        try:
            found = _units(sub, key)
            if found is not None:
                _check_value(found[1], _value(sub, key))
        except SchemaError as exc:
            out[sub.id] = _broken(sub, exc)
            continue
        if found is None:
            out[sub.id] = _plain(BEFORE)
        else:
            families.setdefault(_layout(sub, key, *found), []).append((sub, found[1]))
    for members in families.values():
        if len(members) == 1 and len(families) > 1:
            out[members[0][0].id] = _plain(OTHER)
        else:
            out.update(_family(spec, key, sorted(members, key=lambda m: m[0].id)))
    return out


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
    try:
        sets = _rank_sets(spec, key, members)
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


def _unpacked(sub: StoredSubmission) -> _Packed | None:
    cache_key = ("unpacked", sub.id, sub.sha256, len(sub.paired))
    with _LOCK:
        found = _UNPACKED.get(cache_key, False)
    if found is not False:
        return found  # type: ignore[return-value]
    read = _read(sub.paired)
    with _LOCK:
        if len(_UNPACKED) >= _CACHE_LIMIT:
            _UNPACKED.clear()
        _UNPACKED[cache_key] = read
    return read


def _units(sub: StoredSubmission, key: str) -> tuple[str, KeyOutcomes] | None:
    read = _unpacked(sub)
    if read is None or key not in read.keys:
        return None
    return read.digest, read.keys[key]


def _layout(sub: StoredSubmission, key: str, digest: str, units: KeyOutcomes) -> str:
    """What a family shares: the dataset hash, the metric, and each unit's cluster and stratum (hashed once
    per row)."""
    cache_key = ("layout", sub.id, sub.sha256, key)
    with _LOCK:
        if cache_key in _LAYOUTS:
            return _LAYOUTS[cache_key]
    o = units.outcomes
    strata = o.strata or ("",) * len(o.units)
    triples = sorted(zip(o.units, o.clusters, strata, strict=True))
    text = json.dumps([digest, units.metric.to_json(), triples], separators=(",", ":"))
    layout = hashlib.sha256(text.encode("utf-8")).hexdigest()
    with _LOCK:
        if len(_LAYOUTS) >= _CACHE_LIMIT:
            _LAYOUTS.clear()
        _LAYOUTS[cache_key] = layout
    return layout


def _value(sub: StoredSubmission, key: str) -> float:
    value = sub.results.get(key)
    return math.nan if value is None or isinstance(value, (str, bool)) else float(value)


def _check_value(units: KeyOutcomes, value: float) -> None:
    """The stored outcomes must give the stored score (the last bits aside)."""
    own = units.value()
    if math.isnan(own) and math.isnan(value):
        return
    if math.isnan(own) or math.isnan(value) or abs(own - value) > TOLERANCE * max(1.0, abs(value)):
        raise SchemaError(f"{units.key}: the row's score is {value!r} but its stored outcomes give {own!r}")


def _rank_sets(
    spec: Benchmark, key: str, members: Sequence[tuple[StoredSubmission, KeyOutcomes]]
) -> RankSets:
    cache_key = (spec.id, key, tuple((sub.id, sub.sha256) for sub, _ in members), N_RESAMPLES, CONFIDENCE)
    with _LOCK:
        if cache_key in _RANKS:
            return _RANKS[cache_key]
    result = rank_sets([units for _, units in members], higher_is_better=spec.metrics.higher_is_better(key),
                       n_resamples=N_RESAMPLES, confidence=CONFIDENCE, seed=0)  # fmt: skip
    with _LOCK:
        if len(_RANKS) >= _CACHE_LIMIT:
            _RANKS.clear()
        _RANKS[cache_key] = result
    return result
