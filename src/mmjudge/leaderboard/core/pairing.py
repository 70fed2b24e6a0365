"""What the significance column reads of a row: its pairing summary, and its per-unit outcomes kept compact.

A verified row stores its paired data packed (:func:`pack_paired`: zlib JSON
of every paired key's per-unit outcomes, units as strings). Reading it takes time, and held as Python string
tuples per row it cost a board of 2,000-pair rows about 3 MiB per row, so a render reads it only where it must:

- :func:`pairing_of` summarises the packed data once, when the row is stored (the store's ``pairing``
  column): per key the *layout* of the family the row ranks in (a hash of the dataset, the metric and each
  unit's cluster and stratum) or why the data cannot be used, and the scorer's estimates. Grouping rows into
  families, the thin marks of the score cells and the check that the outcomes give the stored score read it;
- :func:`compact_outcomes` reads the packed data itself only where a family's rank sets must be computed
  (none stored for its rows): each key's columns as the smallest exact numpy arrays, the units, clusters and
  strata as tuples shared by every row of the same layout.

Nothing here is kept between calls: the bounded least-recently-used caches (:class:`LRU`) of the summaries
read, the compact outcomes and the shared unit ids belong to one server's rank keeper
(:class:`~mmjudge.leaderboard.board.significance.RankCache`), so two servers in one process share none.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np

from mmjudge.benchmarks import get_benchmark
from mmjudge.errors import SchemaError
from mmjudge.estimates import Estimate
from mmjudge.stats import KeyOutcomes, Outcomes, Ratio, WeightedF1

__all__ = [
    "LRU", "PAIRED_VERSION", "PAIRING_VERSION", "KeyPairing", "Packed", "Pairing", "SharedUnits", "compact_outcomes",
    "pack_paired", "packed_key", "pairing_of", "read_packed", "read_pairing", "unpack_paired",
]  # fmt: skip

PAIRED_VERSION = 3
"""3: per key a :class:`~mmjudge.stats.KeyOutcomes` object and the scorer's estimates; 2 (read): the same
without the estimates; 1 (read, converted): the older per-unit data."""
PAIRING_VERSION = 1
"""Version of :func:`pairing_of`'s summary (another version is made again from the packed data)."""
TOLERANCE = 1e-9
"""Largest relative gap allowed between a row's stored score and its stored outcomes' value."""

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A thread-safe mapping of at most ``limit`` items that drops the least recently used one when full.

    >>> cache: LRU[str, int] = LRU(2)
    >>> cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
    1
    >>> cache.get("b") is None, cache.get("a"), len(cache)
    (True, 1, 2)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        """The item (now the most recently used), or ``None``."""
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key``, dropping the least recently used items past :attr:`limit`."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The item under ``key``, else ``make()`` kept under it (made outside the lock: two threads missing the
        same key at once may both make it, and the later one is kept).

        >>> cache: LRU[str, int] = LRU(2)
        >>> cache.get_or_make("a", lambda: 1), cache.get_or_make("a", lambda: 2)
        (1, 1)
        """
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def clear(self) -> None:
        """Drop every item."""
        with self._lock:
            self._items.clear()


class Packed(NamedTuple):
    """Packed paired data, read."""

    digest: str
    """The reference folder's dataset hash."""
    keys: dict[str, KeyOutcomes]
    """Each paired key's outcomes."""
    estimates: dict[str, Estimate]
    """How the scorer made each interval (none before version 3)."""


class KeyPairing(NamedTuple):
    """One key of a row's pairing summary."""

    layout: str
    """The hash its family shares (``""`` when the data cannot be used)."""
    error: str
    """Why the data cannot be used (``""`` when it can)."""


class Pairing(NamedTuple):
    """A row's pairing summary (:func:`pairing_of`)."""

    keys: dict[str, KeyPairing]
    """The paired keys the row holds data for."""
    estimates: dict[str, Estimate]
    """The scorer's estimates stored with the data."""
    error: str
    """Why the packed data cannot be read at all (``""`` when it can)."""


def read_packed(packed: str) -> Packed | None:
    """The packed text read (any version); ``None`` for ``""``.

    Raises:
        SchemaError: the text is not packed paired data.
    """
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
        return Packed(str(payload["dataset_hash"]), keys, estimates)
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaError(
            f"stored paired data (version {version}) is malformed: {type(exc).__name__}: {exc}"
        ) from exc


def _from_version_1(data: Mapping[str, Any]) -> KeyOutcomes:
    """Version 1's per-unit data (``statistic`` ``ratio``: numerator and denominator per unit, optionally
    per stratum and averaged; ``weighted_f1``: gold and predicted class per unit) as outcomes."""
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


def pairing_of(packed: str, results: Mapping[str, Any]) -> str:
    """The pairing summary of a row's packed paired data and stored ``results`` (``""`` without paired data).

    >>> read_pairing(pairing_of(pack_paired("mist", [], [], {}, "h"), {}))
    Pairing(keys={}, estimates={}, error='')
    """
    try:
        read = read_packed(packed)
    except SchemaError as exc:
        return _dumps({"version": PAIRING_VERSION, "keys": {}, "estimates": {}, "error": str(exc)})
    if read is None:
        return ""
    keys = {key: _key_pairing(read.digest, units, results.get(key)) for key, units in read.keys.items()}
    estimates = {k: e.to_json() for k, e in read.estimates.items()}
    return _dumps({"version": PAIRING_VERSION, "keys": keys, "estimates": estimates, "error": ""})


def _dumps(payload: Mapping[str, Any]) -> str:
    return json.dumps(payload, allow_nan=False, separators=(",", ":"))


def _key_pairing(digest: str, units: KeyOutcomes, value: Any) -> dict[str, str]:
    try:
        _check_value(units, _number(value))
    except SchemaError as exc:
        return {"layout": "", "error": str(exc)}
    return {"layout": layout_of(digest, units), "error": ""}


def layout_of(digest: str, units: KeyOutcomes) -> str:
    """What a family shares: the dataset hash, the metric, and each unit's cluster and stratum, hashed."""
    o = units.outcomes
    strata = o.strata or ("",) * len(o.units)
    triples = sorted(zip(o.units, o.clusters, strata, strict=True))
    text = json.dumps([digest, units.metric.to_json(), triples], separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _number(value: Any) -> float:
    return float("nan") if value is None or isinstance(value, (str, bool)) else float(value)


def _check_value(units: KeyOutcomes, value: float) -> None:
    """The stored outcomes must give the stored score (the last bits aside)."""
    own = units.value()
    if np.isnan(own) and np.isnan(value):
        return
    if np.isnan(own) or np.isnan(value) or abs(own - value) > TOLERANCE * max(1.0, abs(value)):
        raise SchemaError(f"{units.key}: the row's score is {value!r} but its stored outcomes give {own!r}")


def read_pairing(text: str) -> Pairing:
    """:func:`pairing_of`'s summary read (a caller reading it often keeps it: ``RankCache`` of the board does).

    Raises:
        SchemaError: the text is not a pairing summary of this version.
    """
    try:
        payload = json.loads(text)
        if payload.get("version") != PAIRING_VERSION:
            raise ValueError(f"version {payload.get('version')!r}, expected {PAIRING_VERSION}")
        keys = {str(k): KeyPairing(str(v["layout"]), str(v["error"])) for k, v in payload["keys"].items()}
        estimates = {str(k): Estimate.from_json(v) for k, v in payload["estimates"].items()}
        return Pairing(keys, estimates, str(payload["error"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SchemaError(f"stored pairing summary is malformed: {type(exc).__name__}: {exc}") from exc


class SharedUnits(NamedTuple):
    """The unit ids, clusters and strata of one layout, held once for every row of it."""

    units: tuple[str, ...]
    """The units."""
    clusters: tuple[str, ...]
    """Each unit's cluster."""
    strata: tuple[str, ...]
    """Each unit's stratum (empty without strata)."""


def packed_key(row_id: int, sha256: str | None, packed: str) -> tuple[Any, ...]:
    """What a row's packed data is cached under: its id, its file's hash and a hash of the text itself."""
    return (row_id, sha256, len(packed), hashlib.sha256(packed.encode("ascii")).digest())


def compact_outcomes(packed: str, shared: LRU[tuple[Any, ...], SharedUnits] | None = None) -> dict[str, KeyOutcomes]:
    """Each paired key's outcomes of a row's packed data as the smallest exact arrays; with ``shared``, the unit
    ids, clusters and strata are the same tuples for every row of a layout that ``shared`` still holds.

    Raises:
        SchemaError: the text is not packed paired data.
    """
    read = read_packed(packed)
    return {} if read is None else {k: _compact(v, shared) for k, v in read.keys.items()}


def _compact(units: KeyOutcomes, shared: LRU[tuple[Any, ...], SharedUnits] | None) -> KeyOutcomes:
    o = units.outcomes
    key = (o.units, o.clusters, o.strata)
    def make() -> SharedUnits:
        return SharedUnits(o.units, o.clusters, o.strata)

    held = make() if shared is None else shared.get_or_make(key, make)
    columns = {name: _smallest(o.column(name)) for name in o.columns}
    kept = Outcomes(held.units, held.clusters, columns, held.strata, o.unit, o.cluster_name)
    return KeyOutcomes(units.key, kept, units.metric)


def _smallest(values: np.ndarray) -> np.ndarray:
    """``values`` in the smallest of int8, float32 and float64 that holds each of them exactly (read back as
    float64 by :meth:`~mmjudge.stats.Outcomes.column`).

    >>> _smallest(np.array([0.0, 1.0])).dtype, _smallest(np.array([0.5, np.nan])).dtype
    (dtype('int8'), dtype('float32'))
    """
    for dtype in (np.int8, np.float32):
        with np.errstate(invalid="ignore", over="ignore"):
            cast = values.astype(dtype)
        if np.array_equal(cast.astype(np.float64), values, equal_nan=True):
            return cast
    return values


def pack_paired(
    benchmark: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    results: Mapping[str, Any],
    dataset_hash: str,
    side: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """The per-unit paired data of ``results``' headline keys and the scorer's estimates of every score (from
    a :class:`~mmjudge.benchmarks.Scores`; none from a plain dict), packed for the store; ``side``: the row's side
    scorings (label -> scores, e.g. an official mode), whose estimates are kept as ``<label>:<key>``, the name
    a board column in that mode reads.

    >>> unpack_paired(pack_paired("mist", [], [], {}, "dataset-hash"))[0]
    'dataset-hash'
    """
    from mmjudge.results import estimates_of

    spec = get_benchmark(benchmark)
    keys = [k for k in spec.metrics.paired_keys if k in results]
    units = {k: spec.key_outcomes(k, records, rows, results).to_json() for k in keys}
    scorings = [("", results), *((f"{label}:", scores) for label, scores in (side or {}).items())]
    made = {prefix + k: e.to_json() for prefix, scores in scorings for k, e in estimates_of(benchmark, scores).items()
            if e.method != "not recorded"}  # fmt: skip
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
    read = read_packed(packed)
    return None if read is None else (read.digest, read.keys)
