"""Whether a model request's backend and frame options fit the benchmarks it asks for.

Checked when a request is queued, so a request that could only fail on the worker is refused at once
(the message names the benchmark, the backend, the item kinds the backend accepts and the backends
that accept the benchmark). The answers come from the registries: a judge's ``accepts`` (item kinds)
and a benchmark's ``records.item_kind`` with the media that kind carries (``kind.media``); no
benchmark id or backend name is listed here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from mmjudge.leaderboard.store import SubmissionRejected

__all__ = ["FRAME_KEYS", "accepting_backends", "backend_benchmarks", "check_request_fit"]

FRAME_KEYS = ("frames", "fps")
"""Request config keys that choose how many frames of a clip a judge sees; they need items with video."""


def backend_benchmarks(backend: str) -> list[str]:
    """The registered benchmarks whose item kind the registered judge ``backend`` accepts, in registry order.

    >>> backend_benchmarks("clip_score")
    ['isovrbench']
    """
    from mmjudge.benchmarks import benchmark_ids, get_benchmark
    from mmjudge.judges import get_judge

    judge = get_judge(backend)
    return [b for b in benchmark_ids() if judge.accepts_kind(get_benchmark(b).records.item_kind)]


def accepting_backends(benchmark: str, backends: Iterable[str]) -> list[str]:
    """The registered judges among ``backends`` that accept ``benchmark``'s item kind, sorted.

    >>> accepting_backends("mist", ["vlm_digit", "constant", "random"])
    ['constant', 'random']
    """
    from mmjudge.benchmarks import get_benchmark
    from mmjudge.judges import JUDGES, get_judge

    kind = get_benchmark(benchmark).records.item_kind
    registered = set(JUDGES.names())
    return sorted(b for b in backends if b in registered and get_judge(b).accepts_kind(kind))


def check_request_fit(
    backend: str, benchmarks: Sequence[str], config: Mapping[str, Any], *, requestable: Iterable[str]
) -> None:
    """Refuse a request whose backend does not accept a benchmark, or that sets frames for one without video.

    Args:
        backend: a registered judge backend (an unregistered name is not checked here: its kinds are unknown).
        benchmarks: registered benchmark ids.
        config: the request config (``frames``/``fps`` at its top level).
        requestable: backends open to requests (named in the message as alternatives).

    Raises:
        SubmissionRejected: naming the benchmark, the backend, the kinds it accepts and the backends that
            accept the benchmark; or naming the frame key and the benchmark whose items carry no video.

    >>> check_request_fit("vlm_digit", ["mist"], {}, requestable=["random", "vlm_digit"])
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: judge backend 'vlm_digit' cannot judge mist: it accepts items of kind ['clip with its prompt'], and mist asks a 'sentence with an optional image'; backends open to requests that judge mist: ['random']. Pick one of them, or leave mist out of this request
    """
    from mmjudge.judges import JUDGES

    if backend in JUDGES.names():
        for benchmark in benchmarks:
            _check_kind(backend, benchmark, requestable)
    _check_frames(benchmarks, config)


def _check_kind(backend: str, benchmark: str, requestable: Iterable[str]) -> None:
    from mmjudge.benchmarks import get_benchmark
    from mmjudge.judges import get_judge

    judge = get_judge(backend)
    kind = get_benchmark(benchmark).records.item_kind
    if judge.accepts_kind(kind):
        return
    accepted = sorted(_kind_name(k) for k in judge.accepts)
    others = accepting_backends(benchmark, requestable)
    raise SubmissionRejected(
        f"judge backend {backend!r} cannot judge {benchmark}: it accepts items of kind {accepted}, and "
        f"{benchmark} asks a {_kind_name(kind)!r}; backends open to requests that judge {benchmark}: "
        f"{others or 'none'}. Pick one of them, or leave {benchmark} out of this request"
    )


def _check_frames(benchmarks: Sequence[str], config: Mapping[str, Any]) -> None:
    from mmjudge.benchmarks import get_benchmark

    keys = [k for k in FRAME_KEYS if config.get(k) is not None]
    if not keys:
        return
    for benchmark in benchmarks:
        kind = get_benchmark(benchmark).records.item_kind
        if "video" not in getattr(kind, "media", frozenset()):
            raise SubmissionRejected(
                f"request key `{keys[0]}` chooses the frames of a clip, but {benchmark}'s items "
                f"({_kind_name(kind)!r}) carry no video; drop `{keys[0]}`, or request {benchmark} separately "
                "without it"
            )


def _kind_name(kind: type) -> str:
    return str(getattr(kind, "kind", kind.__name__))
