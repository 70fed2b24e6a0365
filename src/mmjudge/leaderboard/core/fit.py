"""Whether a model request's backend and frame options fit the benchmarks it asks for.

Checked when a request is queued, so a request that could only fail on the worker is refused at once
(the message names the benchmark, the backend, what the backend answers and reads, and the backends that
judge the benchmark). The answers come from the registries: a judge's ``answers`` (query kinds),
``reads`` (media) and ``blind``, and a benchmark's ``records.query_kinds`` and ``records.media``
(:meth:`mmjudge.judges.Judge.query_kind`); no benchmark id or backend name is listed here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.judges import JUDGES, describe_kinds, describe_media, describe_needs, get_judge
from mmjudge.leaderboard.store import SubmissionRejected

__all__ = ["FRAME_KEYS", "accepting_backends", "backend_benchmarks", "check_request_fit"]

FRAME_KEYS = ("frames", "fps")
"""Request config keys that choose how many frames of a clip a judge sees; they need queries with video."""


def backend_benchmarks(backend: str) -> list[str]:
    """The registered benchmarks the registered judge ``backend`` can answer, in registry order.

    >>> backend_benchmarks("pairwise_describe")
    ['emoprefer']
    """

    judge = get_judge(backend)
    return [b for b in benchmark_ids() if judge.query_kind(b) is not None]


def accepting_backends(benchmark: str, backends: Iterable[str]) -> list[str]:
    """The registered judges among ``backends`` that can answer ``benchmark``, sorted.

    >>> accepting_backends("mist", ["vlm_digit", "constant", "random"])
    ['constant', 'random']
    """

    registered = set(JUDGES.names())
    return sorted(b for b in backends if b in registered and get_judge(b).query_kind(benchmark) is not None)


def check_request_fit(
    backend: str, benchmarks: Sequence[str], config: Mapping[str, Any], *, requestable: Iterable[str]
) -> None:
    """Refuse a request whose backend cannot answer a benchmark, or that sets frames for one without video.

    Args:
        backend: a registered judge backend (an unregistered name is not checked here: its kinds are unknown).
        benchmarks: registered benchmark ids.
        config: the request config (``frames``/``fps`` at its top level).
        requestable: backends open to requests (named in the message as alternatives).

    Raises:
        SubmissionRejected: naming the benchmark, the backend, what it answers and reads and the backends
            that judge the benchmark; or naming the frame key and the benchmark whose queries carry no video.

    >>> check_request_fit("vlm_digit", ["mist"], {}, requestable=["random", "vlm_digit"])
    Traceback (most recent call last):
    ...
    mmjudge.leaderboard.store.SubmissionRejected: judge backend 'vlm_digit' cannot judge mist: it answers ['a clip to rate against its prompt'] and reads ['video'], and mist asks ['a choice among labels'] and needs ['image']; backends open to requests that judge mist: ['random']. Pick one of them, or leave mist out of this request
    """

    if backend in JUDGES.names():
        for benchmark in benchmarks:
            _check_kind(backend, benchmark, requestable)
    _check_frames(benchmarks, config)


def _check_kind(backend: str, benchmark: str, requestable: Iterable[str]) -> None:

    judge = get_judge(backend)
    if judge.query_kind(benchmark) is not None:
        return
    records = get_benchmark(benchmark).records
    others = accepting_backends(benchmark, requestable)
    raise SubmissionRejected(
        f"judge backend {backend!r} cannot judge {benchmark}: it answers {describe_kinds(judge.answers)} and reads "
        f"{describe_media(judge.reads, judge.blind)}, and {benchmark} asks {describe_kinds(records.query_kinds)} and "
        f"needs {describe_needs(records)}; backends open to requests that judge {benchmark}: "
        f"{others or 'none'}. Pick one of them, or leave {benchmark} out of this request"
    )


def _check_frames(benchmarks: Sequence[str], config: Mapping[str, Any]) -> None:

    keys = [k for k in FRAME_KEYS if config.get(k) is not None]
    if not keys:
        return
    for benchmark in benchmarks:
        media = get_benchmark(benchmark).records.media
        if "video" not in media:
            raise SubmissionRejected(
                f"request key `{keys[0]}` chooses the frames of a clip, but {benchmark}'s queries "
                f"(media {sorted(media)}) carry no video; drop `{keys[0]}`, or request {benchmark} separately "
                "without it"
            )
