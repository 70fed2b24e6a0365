"""Whether a leaderboard row differs significantly from the best row: paired, from stored per-unit data.

At submission :func:`pack_paired` keeps, beside the scores, each headline key's per-unit data
(:class:`~mmjudge.stats.KeyOutcomes`: the scorer's own per-unit outcomes of the file's records on the
server's reference rows, and the key's metric), zlib-compressed JSON with the reference folder's dataset
hash. Data packed before outcomes (version 1, per-unit numerator/denominator or class codes) is read
into the same form. When a table is
built, :func:`significance_cells` compares every verified row that shares the best verified row's items
(same dataset hash, same units) with that row on the view's ranking key, through
:func:`mmjudge.comparison.compare_units` (the leaderboard computes no statistic itself), Holm-corrects
over the rows compared and says in one short text cell per row:

* ``"best"`` for the best verified row with paired data;
* ``"-3.1 [-5.0, -1.2] p=0.004 *"`` (row minus best, paired cluster-bootstrap CI, Holm p; ``*`` below
  0.05) or ``"n.s. -1.0 [-3.0, +1.0] p=0.41"``; with fewer than
  :data:`~mmjudge.comparison.FEW_CLUSTERS` clusters (videos, anchors, items) the cell ends
  ``"(12 clusters: optimistic)"``, because the percentile bootstrap under-covers there and its p is
  too small (:func:`cell_text`);
* ``"published numbers: no pairing"`` for reported rows, ``"no per-item data (stored before pairing)"``
  for rows stored before the store kept it, ``"other items"`` for rows scored on other reference rows,
  and every row of a benchmark without outcomes (:attr:`~mmjudge.benchmarks.MetricSpec.outcomes`) says so.

Comparisons are cached by the two rows' ids and file hashes (stored rows never change), so a table
render after the first costs a dictionary lookup per row.
"""

from __future__ import annotations

import base64
import json
import logging
import math
import threading
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks import Benchmark, get_benchmark
from mmjudge.comparison import FEW_CLUSTERS, KeyComparison, adjust, compare_units, format_difference
from mmjudge.errors import SchemaError
from mmjudge.leaderboard.store import StoredSubmission
from mmjudge.stats import KeyOutcomes, Outcomes, Ratio, WeightedF1

__all__ = ["N_RESAMPLES", "cell_text", "pack_paired", "significance_cells", "unpack_paired"]

N_RESAMPLES = 2000
"""Bootstrap resamples per comparison on the leaderboard (seed 0)."""
ALPHA = 0.05
"""Significance level of the Holm-corrected p-values."""
PAIRED_VERSION = 2
"""2: per key a :class:`~mmjudge.stats.KeyOutcomes` object; 1 (read, converted): the older per-unit data."""
UNPAIRED = "the benchmark declares no pairing"
BROKEN = "paired data unusable (see the log)"
REPORTED, BEFORE, OTHER, BEST = (
    "published numbers: no pairing",
    "no per-item data (stored before pairing)",
    "other items",
    "best",
)

logger = logging.getLogger(__name__)

_CACHE: dict[tuple[Any, ...], KeyComparison] = {}
_UNPACKED: dict[tuple[Any, ...], Any] = {}
_CACHE_LIMIT = 4096
_LOCK = threading.Lock()


def pack_paired(
    benchmark: str,
    records: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    results: Mapping[str, Any],
    dataset_hash: str,
) -> str:
    """The per-unit paired data of ``results``' headline keys, packed for the store (``""``: no pairing).

    >>> unpack_paired(pack_paired("mist", [], [], {}, "dataset-hash"))[0]
    'dataset-hash'
    """
    spec = get_benchmark(benchmark)
    keys = [k for k in spec.metrics.paired_keys if k in results]
    units = {k: spec.key_outcomes(k, records, rows, results).to_json() for k in keys}
    payload = {"version": PAIRED_VERSION, "dataset_hash": dataset_hash, "keys": units}
    text = json.dumps(payload, allow_nan=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpack_paired(packed: str) -> tuple[str, dict[str, KeyOutcomes]] | None:
    """``(dataset_hash, key -> KeyOutcomes)`` from :func:`pack_paired`'s text (either version); ``None`` for ``""``.

    Raises:
        SchemaError: the text is not packed paired data.

    >>> unpack_paired(pack_paired("mist", [], [], {}, "h"))
    ('h', {})
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
    if version not in (1, PAIRED_VERSION):
        raise SchemaError(f"stored paired data has version {version!r}, expected 1 or {PAIRED_VERSION}")
    read = KeyOutcomes.from_json if version == PAIRED_VERSION else _from_version_1
    try:
        return str(payload["dataset_hash"]), {k: read(v) for k, v in payload["keys"].items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaError(f"stored paired data (version {version}) is malformed: {type(exc).__name__}: {exc}") from exc


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
        metric: Any = Ratio("a", "b", by_stratum=bool(strata), strata=order, empty=params.get("empty", np.nan))
    elif data["statistic"] == "weighted_f1":
        metric = WeightedF1("a", "b", int(params["classes"]))
    else:
        raise ValueError(f"unknown version-1 statistic {data['statistic']!r}")
    return KeyOutcomes(str(data["key"]), outcomes, metric)


def significance_cells(
    benchmark: str, submissions: Sequence[StoredSubmission], key: str | None = None
) -> dict[int, str]:
    """Row id -> the significance cell of every visible row of ``benchmark`` (see the module docstring).

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
        return {s.id: UNPAIRED for s in rows}
    if key not in spec.metrics.paired_keys:
        return {s.id: f"{key} is not compared pairwise" for s in rows}
    cells = {s.id: REPORTED for s in rows if s.kind != "verified"}
    data: dict[int, tuple[str, KeyOutcomes]] = {}
    for sub in (s for s in rows if s.kind == "verified"):
        try:
            found = _units(sub, key)
        except SchemaError as exc:
            cells[sub.id] = _broken(sub, exc)
            continue
        if found is None:
            cells[sub.id] = BEFORE
        else:
            data[sub.id] = found
    cells.update(_against_best(spec, key, [s for s in rows if s.id in data], data))
    return cells


def _against_best(
    spec: Benchmark, key: str, rows: Sequence[StoredSubmission], data: Mapping[int, tuple[str, KeyOutcomes]]
) -> dict[int, str]:
    """The cells of the verified rows with paired data: ``best``, other items, or the Holm-corrected test."""
    best = _best(spec, key, rows)
    if best is None:
        return {}
    cells, compared = {best.id: BEST}, []
    best_hash, best_units = data[best.id]
    for sub in (s for s in rows if s.id != best.id):
        digest, units = data[sub.id]
        if digest != best_hash or set(units.outcomes.units) != set(best_units.outcomes.units):
            cells[sub.id] = OTHER
            continue
        try:
            compared.append((sub.id, _compare(spec, key, sub, units, best, best_units)))
        except SchemaError as exc:
            cells[sub.id] = _broken(sub, exc)
    for (row_id, _), result in zip(compared, adjust([c for _, c in compared]), strict=True):
        cells[row_id] = cell_text(result)
    return cells


def cell_text(result: KeyComparison) -> str:
    """The cell of one Holm-adjusted comparison with the best row (see the module docstring).

    >>> c = KeyComparison("overall", "a", "best", 50.0, 60.0, -10.0, -18.0, -2.0, 0.01, 400, 40, 2000, True,
    ...                   p_adjusted=0.02)
    >>> cell_text(c)
    '-10.00 [-18.00, -2.00] p=0.02 *'
    >>> import dataclasses
    >>> cell_text(dataclasses.replace(c, n_clusters=12, p_adjusted=0.3))
    'n.s. -10.00 [-18.00, -2.00] p=0.3 (12 clusters: optimistic)'
    """
    text = format_difference(result, ALPHA)
    if math.isnan(result.ci_low) or math.isnan(result.p_adjusted):
        return text  # undefined: the text is the comparison's own note
    text = text if result.significant(ALPHA) else f"n.s. {text}"
    return text if result.n_clusters >= FEW_CLUSTERS else f"{text} ({result.n_clusters} clusters: optimistic)"


def _broken(sub: StoredSubmission, exc: SchemaError) -> str:
    logger.warning("row #%s: its paired data cannot be used (%s)", sub.id, exc)
    return BROKEN


def _units(sub: StoredSubmission, key: str) -> tuple[str, KeyOutcomes] | None:
    cache_key = ("unpacked", sub.id, sub.sha256)
    with _LOCK:
        unpacked = _UNPACKED.get(cache_key, False)
    if unpacked is False:
        unpacked = unpack_paired(sub.paired)
        with _LOCK:
            if len(_UNPACKED) >= _CACHE_LIMIT:
                _UNPACKED.clear()
            _UNPACKED[cache_key] = unpacked
    if unpacked is None or key not in unpacked[1]:
        return None
    return unpacked[0], unpacked[1][key]


def _value(sub: StoredSubmission, key: str) -> float:
    value = sub.results.get(key)
    return math.nan if value is None or isinstance(value, (str, bool)) else float(value)


def _best(spec: Benchmark, key: str, rows: Sequence[StoredSubmission]) -> StoredSubmission | None:
    ranked = [s for s in rows if not math.isnan(_value(s, key))]
    if not ranked:
        return None
    sign = 1.0 if spec.metrics.higher_is_better(key) else -1.0
    return max(ranked, key=lambda s: (sign * _value(s, key), -s.id))


def _compare(
    spec: Benchmark,
    key: str,
    sub: StoredSubmission,
    units: KeyOutcomes,
    best: StoredSubmission,
    best_units: KeyOutcomes,
) -> KeyComparison:
    cache_key = (spec.id, key, sub.id, sub.sha256, best.id, best.sha256, N_RESAMPLES)
    with _LOCK:
        if cache_key in _CACHE:
            return _CACHE[cache_key]
    result = compare_units(
        units, best_units, labels=(sub.judge, best.judge), values=(_value(sub, key), _value(best, key)),
        higher_is_better=spec.metrics.higher_is_better(key), n_resamples=N_RESAMPLES, seed=0,
    )  # fmt: skip
    with _LOCK:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[cache_key] = result
    return result
