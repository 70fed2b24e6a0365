"""Judge queries and prediction records of a pairwise video preference benchmark.

A judge rates clips (:class:`~mmjudge.queries.ScoreQuery`, each distinct clip of the ``clips`` config once,
against its prompt); a pair's record takes the two clips' verdicts as given: ``score_a`` and ``score_b``, each a
number or one number per head (VideoReward's ``VQ``/``MQ``/``TA``/``overall``). Each aspect reads its head when
the record has it, else ``overall`` (a single-score judge's one score stands for every aspect). A pairwise judge
that sees both clips at once (:class:`~mmjudge.queries.ClipPairQuery`, asked only of judges that rate no clip)
is shown A first, as the release orders the pair (the human label names a side of that order); its answer
becomes 1 for the preferred clip and 0 for the other, 0.5 each for ``same``. A pair whose clip is missing gets
no query and a record without a judgment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmjudge.benchmarks._base import QuerySource
from mmjudge.benchmarks._pairwise.scoring import Aspect
from mmjudge.queries import ClipPairQuery, Query, ScoreQuery, Verdict

__all__ = ["VALUE_FIELDS", "build_queries", "expected_ids", "head_score", "long_inputs", "records_from_verdicts"]

VALUE_FIELDS: dict[str, tuple[type, ...]] = {"score_a": (int, float, dict), "score_b": (int, float, dict)}
"""Verdict fields: clip A's and clip B's score, a number or ``{head: number}`` (null with ``no_judgment``)."""
_MISSING = "a clip of the pair is missing from the media (media_missing)"


def build_queries(rows: Sequence[Mapping[str, Any]], source: QuerySource) -> list[Query]:
    """The distinct clips of ``rows`` to rate, in the ``clips`` config's order; for
    :class:`~mmjudge.queries.ClipPairQuery`, one query per pair whose clips are both there, in the order of ``rows``."""
    from mmjudge.data.rows import load_rows

    clips = load_rows(source.data_dir, "clips")
    if source.kind is ClipPairQuery:
        return [
            ClipPairQuery(
                item_id=str(row["pair_id"]),
                video=source.media(row["video_a"]),
                video_b=source.media(row["video_b"]),
                prompt=str(row["prompt"]),
                clips=(str(row["clip_id_a"]), str(row["clip_id_b"])),
            )
            for row in rows
            if row.get("clip_id_a") and row.get("clip_id_b")
        ]
    used = {str(r[k]) for r in rows for k in ("clip_id_a", "clip_id_b") if r.get(k)}
    return [
        ScoreQuery(item_id=str(c["clip_id"]), video=source.media(c["video_path"]), prompt=str(c["prompt"]))
        for c in clips
        if str(c["clip_id"]) in used
    ]


def records_from_verdicts(
    queries: Sequence[Query], verdicts: Sequence[Verdict], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per pair, in the order of ``rows``."""
    by_id = {v.item_id: v for v in verdicts}
    pairwise = bool(queries) and isinstance(queries[0], ClipPairQuery)
    return [_record(row, by_id, pairwise) for row in rows]


def _record(row: Mapping[str, Any], by_id: Mapping[str, Verdict], pairwise: bool) -> dict[str, Any]:
    record: dict[str, Any] = {"id": str(row["pair_id"])}
    wanted = [str(row["pair_id"])] if pairwise else [str(row.get("clip_id_a")), str(row.get("clip_id_b"))]
    found = [by_id.get(k) for k in wanted]
    failed = [v for v in found if v is None or v.no_judgment]
    if failed:
        error = _MISSING if failed[0] is None else failed[0].error
        record.update(score_a=None, score_b=None, no_judgment=True, error=error)
        return record
    if pairwise:
        answer = str(found[0].value)  # type: ignore[union-attr]
        score_a, score_b = {"first": (1.0, 0.0), "second": (0.0, 1.0), "same": (0.5, 0.5)}[answer]
        record.update(score_a=score_a, score_b=score_b, no_judgment=False)
        return record
    record.update(score_a=_plain(found[0].value), score_b=_plain(found[1].value), no_judgment=False)  # type: ignore[union-attr]
    return record


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): float(v) for k, v in value.items()}
    return float(value)


def expected_ids(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """Every pair id, in the folder's order.

    >>> expected_ids([{"pair_id": "p1"}, {"pair_id": "p2"}])
    ['p1', 'p2']
    """
    return [str(r["pair_id"]) for r in rows]


def head_score(value: Any, head: str) -> float | None:
    """A record's score at ``head`` (a per-head score without that head: its ``overall``; ``None`` stays ``None``).

    >>> head_score({"VQ": 1.0, "overall": 3.0}, "TA"), head_score(2, "VQ"), head_score(None, "VQ")
    (3.0, 2.0, None)
    """
    if value is None:
        return None
    if isinstance(value, dict):
        return float(value[head] if head in value else value["overall"])
    return float(value)


def long_inputs(
    records: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]], aspects: Sequence[Aspect]
) -> dict[str, Any]:
    """The shared scorers' long-format arguments: one entry per pair and aspect (aspect-major), the aspect's
    label from ``pref_<slug>`` (a pair without a label on an aspect is not scored on it), the clips' scores at its
    head, the pair's prompt as its cluster."""
    by_id = {str(r["id"]): r for r in records}
    out: dict[str, list[Any]] = {k: [] for k in ("preference", "score_a", "score_b", "aspect", "no_judgment",
                                                "pair_id", "cluster")}  # fmt: skip
    for aspect in aspects:
        for row in rows:
            if row.get(f"pref_{aspect.slug}") is None:
                continue
            record = by_id[str(row["pair_id"])]
            missing = bool(record.get("no_judgment"))
            out["preference"].append(row[f"pref_{aspect.slug}"])
            out["score_a"].append(None if missing else head_score(record.get("score_a"), aspect.head))
            out["score_b"].append(None if missing else head_score(record.get("score_b"), aspect.head))
            out["aspect"].append(aspect.name)
            out["no_judgment"].append(missing)
            out["pair_id"].append(str(row["pair_id"]))
            out["cluster"].append(str(row.get("prompt") or row["pair_id"]))
    return out
