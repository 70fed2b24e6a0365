"""What an exported lmms-eval task's ``utils.py`` calls: mmjudge's queries, prompts, parsers and scorer.

An exported task folder holds no logic of its own: its ``utils.py`` binds a :class:`TaskRuntime` (one
benchmark, one :class:`~mmjudge.benchmarks.LmmsTask`, one dataset) and exposes its methods under the
names the YAML files reference with ``!function``. Each lmms-eval doc is one judge query of the benchmark
(built by ``Benchmark.records.build_queries``, of the benchmark's first kind, from the dataset's reference
rows), so a model sees the prompt ``mmjudge eval`` would give a free-text judge; the aggregation turns the collected answers into verdicts,
then into prediction records (``records_from_verdicts``) and scores them with the benchmark's scorer
through ``score_inputs``, as ``mmjudge score`` and the ``evaluate`` modules do.

Reading an answer, by query kind: a clip's rating is the first digit 0-9 of the reply, rescaled to 0-100
(no digit: no judgment); a choice's reply as the benchmark scores it
(:func:`mmjudge.judges.free_text_verdict`): MIST's label parsed by the benchmark (no label: no judgment),
EmoPrefer's and EmoReAlM's reply kept raw for the benchmark's official parser.

Media: the dataset's own media (``media/`` in the folder) resolve against the folder; the media of a
benchmark whose media are gated (it keeps them outside the folder: ``DataSpec.sample_media_root`` is set)
resolve against the root its own environment variable names (:func:`media_env`, e.g.
``$MMJUDGE_MEDIA_ROOT_EMOREALM``: one root per benchmark, as MER2025 and DFEW are two releases); with the
variable unset, or naming no folder, the task is refused with the variable's name.
A Hub repo id as ``dataset_path`` is downloaded once with ``huggingface_hub.snapshot_download``.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from mmjudge.benchmarks import Benchmark, LmmsTask, QuerySource, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.judges import free_text_verdict
from mmjudge.judges.vlm_digit import DEFAULT_PROMPT
from mmjudge.queries import ChoiceQuery, Query, ScoreQuery, Verdict

__all__ = ["MEDIA_ENV", "TaskRuntime", "clip_rating", "dataset_folder", "media_env", "metric_name", "runtime"]

logger = logging.getLogger(__name__)

MEDIA_ENV = "MMJUDGE_MEDIA_ROOT"
"""Prefix of the environment variables naming the roots of gated media (:func:`media_env`)."""


def media_env(benchmark: str) -> str:
    """The environment variable naming the root of ``benchmark``'s gated media (one root per benchmark).

    >>> media_env("emorealm")
    'MMJUDGE_MEDIA_ROOT_EMOREALM'
    """
    return f"{MEDIA_ENV}_{benchmark.upper()}"


def gated_media_root(benchmark: str, environ: Mapping[str, str] | None = None) -> Path:
    """The folder :func:`media_env` names for ``benchmark``.

    Raises:
        ConfigError: the variable is unset or empty, or names no folder (the message names the variable).

    >>> gated_media_root("emorealm", {})
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: emorealm's media are gated (not in the dataset folder) and MMJUDGE_MEDIA_ROOT_EMOREALM is not set: set it to the folder the dataset's relative media paths point into (emorealm's own release), e.g. MMJUDGE_MEDIA_ROOT_EMOREALM=/data/emorealm-media, then run lmms-eval again
    """
    name = media_env(benchmark)
    value = (os.environ if environ is None else environ).get(name, "")
    if not value:
        raise ConfigError(
            f"{benchmark}'s media are gated (not in the dataset folder) and {name} is not set: set it to the folder "
            f"the dataset's relative media paths point into ({benchmark}'s own release), e.g. "
            f"{name}=/data/{benchmark}-media, then run lmms-eval again"
        )
    root = Path(value)
    if not root.is_dir():
        raise ConfigError(
            f"{name}={value!r} is not an existing folder: expected the root of {benchmark}'s gated media, the folder "
            "the dataset's relative media paths point into"
        )
    return root

_DIGIT = re.compile(r"[0-9]")


def metric_name(key: str) -> str:
    """The lmms-eval metric name of a result key (``/`` is not used in lmms-eval metric names).

    >>> metric_name("accuracy/temporal_shuffle")
    'accuracy_temporal_shuffle'
    """
    return key.replace("/", "_")


def clip_rating(text: str) -> float | None:
    """A clip's rating from a reply: its first digit 0-9 rescaled to 0-100, or ``None``.

    >>> clip_rating("I would say 9."), clip_rating("0"), clip_rating("great")
    (100.0, 0.0, None)
    """
    match = _DIGIT.search(text)
    return None if match is None else int(match.group()) * 100.0 / 9.0


def dataset_folder(dataset_path: str) -> Path:
    """A built folder as a local path: ``dataset_path`` itself when it is a folder, else the snapshot of
    the Hub dataset repo of that id."""
    path = Path(dataset_path).expanduser()
    if path.is_dir():
        return path
    if dataset_path.count("/") != 1:
        raise ConfigError(
            f"dataset_path {dataset_path!r}: expected a built mmjudge folder or a Hub dataset repo ORG/NAME"
        )
    from huggingface_hub import snapshot_download

    return Path(snapshot_download(dataset_path, repo_type="dataset"))


@functools.cache
def runtime(benchmark: str, task: str, dataset_path: str) -> TaskRuntime:
    """The one :class:`TaskRuntime` of a task in this process.

    lmms-eval executes ``utils.py`` afresh for every ``!function`` it resolves; sharing the runtime keeps
    one copy of the queries and scores the answers once for all of a task's metrics.
    """
    return TaskRuntime(benchmark, task, dataset_path)


class TaskRuntime:
    """The functions of one exported lmms-eval task (see the module docstring)."""

    def __init__(self, benchmark: str, task: str, dataset_path: str) -> None:
        self.spec: Benchmark = get_benchmark(benchmark)
        tasks = {t.name: t for t in self.spec.present.exports.lmms_tasks}
        if task not in tasks:
            raise ConfigError(f"{benchmark} has no lmms-eval task {task!r}; known: {sorted(tasks)}")
        self.task: LmmsTask = tasks[task]
        self.dataset_path = dataset_path

    # -- the queries -------------------------------------------------------------------------------
    @functools.cached_property
    def folder(self) -> Path:
        """The built dataset folder."""
        return dataset_folder(self.dataset_path)

    @functools.cached_property
    def rows(self) -> list[dict[str, Any]]:
        """The reference rows the queries are built from."""
        from mmjudge.scoring import load_reference_rows, load_rows

        if self.task.reference_config:
            return load_rows(self.folder, self.task.reference_config)
        return load_reference_rows(self.spec.id, self.folder)

    def _build(self, rows: Sequence[Mapping[str, Any]]) -> list[Query]:
        # gated media live outside the folder (the benchmark's sample keeps them apart too): never a path
        # under the dataset folder that does not exist, but the root the benchmark's variable names
        gated = self.spec.data.sample_media_root is not None
        root = gated_media_root(self.spec.id) if gated else None
        source = QuerySource(self.folder, media_root=root, swap=self.task.swap)
        queries = self.spec.records.queries(rows, source)
        return [q for q in queries if all(str(getattr(q, k, None)) == v for k, v in self.task.select.items())]

    @functools.cached_property
    def queries(self) -> dict[str, Query]:
        """The task's queries by id, in the benchmark's order."""
        return {query.item_id: query for query in self._build(self.rows)}

    # -- lmms-eval's per-doc functions ---------------------------------------------------------------
    def process_docs(self, dataset: Any) -> Any:
        """The task's docs (one per query), replacing the rows lmms-eval loaded."""
        import datasets

        del dataset
        links = self.task.doc_links(self.rows) if self.task.doc_links else {}
        docs = [
            {"item_id": i, "kind": query.kind, "prompt": self.prompt(query), "links": list(links.get(i, []))}
            for i, query in self.queries.items()
        ]
        return datasets.Dataset.from_list(docs)

    def prompt(self, query: Query) -> str:
        """The text a free-text judge is given for ``query``: the digit rating prompt of a clip, a choice's
        free-text prompt."""
        if isinstance(query, ScoreQuery):

            return DEFAULT_PROMPT.replace("{prompt}", query.prompt)
        return cast(ChoiceQuery, query).free_prompt()

    def doc_to_text(self, doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> str:
        """The doc's prompt, between the optional ``pre_prompt`` and ``post_prompt``."""
        kwargs = lmms_eval_specific_kwargs or {}
        return f"{kwargs.get('pre_prompt', '')}{doc['prompt']}{kwargs.get('post_prompt', '')}"

    def doc_to_visual(self, doc: Mapping[str, Any]) -> list[Any]:
        """The query's media: an RGB image, else a clip path (nothing for a text-only query)."""
        query = self.queries[str(doc["item_id"])]
        if query.image is not None:
            from PIL import Image

            with Image.open(query.image) as image:
                return [image.convert("RGB")]
        return [] if query.video is None else [str(query.video)]

    def doc_to_target(self, doc: Mapping[str, Any]) -> str:
        """The query's item id (the gold labels stay in the dataset, where the scorer reads them)."""
        return str(doc["item_id"])

    def process_results(self, doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The reply, under every metric of the task (each aggregation scores the whole set)."""
        reply = str(results[0]) if results else ""
        payload = {"item_id": str(doc["item_id"]), "reply": reply}
        return {metric_name(key): payload for key in self.task.keys}

    # -- aggregation -----------------------------------------------------------------------------------
    def verdict(self, query: Query, reply: str) -> Verdict:
        """The verdict a free-text reply gives for ``query`` (see the module docstring)."""
        if isinstance(query, ScoreQuery):
            rating = clip_rating(reply)
            if rating is None:
                # an answer without a rating (scored as no judgment), not a failure of the run
                error = f"no digit 0-9 in the reply {reply[:80]!r}"
                return Verdict(query.item_id, None, no_judgment=True, error=error)
            return Verdict(query.item_id, rating)

        return free_text_verdict(cast(ChoiceQuery, query), reply)

    def score(self, answers: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        """The benchmark's scores of the collected ``{"item_id", "reply"}`` answers.

        Units whose queries were not all answered (an lmms-eval ``--limit`` run) are left out, with a
        warning; no answered unit at all is an error.
        """
        replies = {str(a["item_id"]): str(a["reply"]) for a in answers}
        return dict(self._score(tuple(sorted(replies.items()))))

    @functools.lru_cache(maxsize=4)  # noqa: B019 -- one runtime per task; every metric scores the same answers
    def _score(self, replies: tuple[tuple[str, str], ...]) -> Mapping[str, Any]:
        answered = dict(replies)
        unknown = sorted(set(answered) - set(self.queries))
        if unknown:
            raise ConfigError(f"{self.task.name}: answers for unknown items {unknown[:5]}")
        rows = self.rows
        if len(answered) < len(self.queries):
            rows = [r for r in self.rows if all(i.item_id in answered for i in self._build([r]))]
            logger.warning(
                "%s: %d of %d items answered; scoring the %d of %d %s they complete",
                self.task.name, len(answered), len(self.queries), len(rows), len(self.rows), self.spec.records.unit,
            )  # fmt: skip
            if not rows:
                raise ConfigError(f"{self.task.name}: no {self.spec.records.unit} has all its items answered")
        queries = self._build(rows)
        verdicts = [self.verdict(query, answered[query.item_id]) for query in queries]
        records = self.spec.records.records_from_verdicts(queries, verdicts, rows)
        inputs = self.spec.records.score_inputs(records, rows)
        return self.spec.metrics.score(**inputs, **dict(self.task.score_options))

    def aggregation(self, key: str) -> Any:
        """The aggregation of result ``key``: scores the answers, returns the key's value (NaN when the
        scored units do not give it)."""

        def aggregate(items: list[Mapping[str, Any]]) -> float:
            value = self.score(items).get(key)  # absent when no scored unit has it (a --limit run)
            return math.nan if value is None else float(value)

        aggregate.__name__ = f"aggregate_{metric_name(key)}"
        return aggregate
