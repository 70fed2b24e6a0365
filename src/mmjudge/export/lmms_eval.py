"""Export the benchmarks as lmms-eval task folders (``mmjudge export lmms-eval --out DIR``).

One folder ``<DIR>/mmjudge_<benchmark>/`` per benchmark, in lmms-eval's layout: ``_default_template_yaml``
(dataset, output type, generation settings, the per-doc functions shared by every task), a group YAML
``_mmjudge_<benchmark>.yaml`` listing the tasks, one YAML per task (``Benchmark.present.exports.lmms_tasks``: its
config, its ``process_docs`` and one metric per result key, aggregated with ``!function utils.<...>``), a
``utils.py`` that binds :class:`mmjudge.export.lmms_runtime.TaskRuntime` -- so items, prompts, answer
parsing and scoring are mmjudge's own, and an lmms-eval number equals ``evaluate.load("metrics/<id>")`` on
the same answers -- and a ``README.md`` saying what runs and what cannot.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

from mmjudge._version import __version__
from mmjudge.benchmarks import Benchmark, LmmsTask, benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.export.lmms_runtime import media_env, metric_name

__all__ = ["FOLDER_PREFIX", "GENERATION_KWARGS", "datasets_from_args", "write_lmms_tasks"]

FOLDER_PREFIX = "mmjudge_"
"""Task folders and groups are named ``mmjudge_<benchmark>``."""

GENERATION_KWARGS = {"max_new_tokens": 512, "temperature": 0.0, "do_sample": False}
"""Greedy decoding; room for the reasoning of MIST's chain-of-thought prompts."""

_LOGITS_NOTE = (
    "Judges that read logits or reward heads cannot run through lmms-eval, whose `generate_until` tasks "
    "see only generated text: the expected digit under the next-token distribution (`vlm_digit`, "
    "`openai_compatible` on IsoVRBench), reward heads (`video_reward`), CLIP scores (`clip_score`) and "
    "constrained label choice by log-likelihood (`label_choice`). Run them with `mmjudge eval`."
)


def datasets_from_args(pairs: Sequence[str], data_root: str | Path | None) -> dict[str, str]:
    """Benchmark id -> dataset path from ``--data ID=PATH_OR_REPO`` items and ``--data-root DIR``.

    A local folder becomes an absolute path; anything else is taken as a Hub dataset repo id.
    """
    chosen: dict[str, str] = {}
    if data_root is not None:
        root = Path(data_root)
        for benchmark in benchmark_ids():  # the built folders of the benchmarks that declare lmms-eval tasks
            if (root / benchmark / "README.md").is_file() and get_benchmark(benchmark).present.exports.lmms_tasks:
                chosen[benchmark] = str((root / benchmark).resolve())
    for item in pairs:
        benchmark, sep, path = item.partition("=")
        if not sep or not path:
            raise ConfigError(f"--data {item!r}: expected BENCHMARK=PATH_OR_REPO, e.g. emorealm=built/emorealm")
        if benchmark not in benchmark_ids():
            raise ConfigError(f"--data {item!r}: unknown benchmark {benchmark!r}; expected one of {benchmark_ids()}")
        chosen[benchmark] = str(Path(path).resolve()) if Path(path).is_dir() else path
    if not chosen:
        raise ConfigError(
            "no dataset given: pass --data BENCHMARK=PATH_OR_REPO (repeatable) or --data-root DIR holding "
            "built folders named by benchmark id"
        )
    return chosen


def write_lmms_tasks(out: str | Path, datasets: Mapping[str, str], *, overwrite: bool = False) -> list[Path]:
    """Write one task folder per benchmark of ``datasets`` (id -> built folder or Hub repo) into ``out``."""
    out = Path(out)
    written = []
    for benchmark, dataset_path in datasets.items():
        spec = get_benchmark(benchmark)
        if not spec.present.exports.lmms_tasks:
            raise ConfigError(f"{benchmark} declares no lmms-eval tasks (Benchmark.present.exports.lmms_tasks)")
        folder = out / f"{FOLDER_PREFIX}{benchmark}"
        if folder.exists():
            if not overwrite:
                raise ConfigError(f"{folder} already exists: choose another --out or pass --overwrite")
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        _write_folder(folder, spec, dataset_path)
        written.append(folder)
    return written


def _write_folder(folder: Path, spec: Benchmark, dataset_path: str) -> None:
    group = f"{FOLDER_PREFIX}{spec.id}"
    (folder / "_default_template_yaml").write_text(_template(spec, dataset_path), encoding="utf-8")
    (folder / f"_{group}.yaml").write_text(
        yaml.safe_dump({"group": group, "task": [t.name for t in spec.present.exports.lmms_tasks]}, sort_keys=False),
        encoding="utf-8",
    )
    for task in spec.present.exports.lmms_tasks:
        (folder / f"{task.name}.yaml").write_text(_task_yaml(spec, task), encoding="utf-8")
    (folder / "utils.py").write_text(_utils(spec, dataset_path), encoding="utf-8")
    (folder / "README.md").write_text(_readme(spec, dataset_path), encoding="utf-8")


def _template(spec: Benchmark, dataset_path: str) -> str:
    plain = {
        "dataset_path": dataset_path,
        "dataset_kwargs": {} if Path(dataset_path).is_dir() else {"token": True},
        "test_split": "test",
        "output_type": "generate_until",
        "generation_kwargs": dict(GENERATION_KWARGS),
        "lmms_eval_specific_kwargs": {"default": {"pre_prompt": "", "post_prompt": ""}},
        "metadata": {"version": __version__, "generator": f"mmjudge {__version__}", "benchmark": spec.id},
    }
    return yaml.safe_dump(plain, sort_keys=False)


def _task_yaml(spec: Benchmark, task: LmmsTask) -> str:

    prefix = _identifier(task.name)
    lines = [
        f"task: {task.name}",
        f"dataset_name: {task.config}",
        "include: _default_template_yaml",
        f"process_docs: !function utils.{prefix}_process_docs",
        f"doc_to_visual: !function utils.{prefix}_doc_to_visual",
        f"doc_to_text: !function utils.{prefix}_doc_to_text",
        f"doc_to_target: !function utils.{prefix}_doc_to_target",
        f"process_results: !function utils.{prefix}_process_results",
        "metric_list:",
    ]
    for key in task.keys:
        lines += [
            f"  - metric: {metric_name(key)}",
            f"    aggregation: !function utils.{prefix}_agg_{metric_name(key)}",
            f"    higher_is_better: {str(spec.metrics.higher_is_better(key)).lower()}",
        ]
    return "\n".join(lines) + "\n"


def _identifier(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)


def _utils(spec: Benchmark, dataset_path: str) -> str:

    lines = [
        f'"""lmms-eval functions of the mmjudge {spec.id} tasks (written by `mmjudge export lmms-eval`, mmjudge {__version__}).',
        "",
        "Every function is a method of mmjudge.export.lmms_runtime.TaskRuntime: the items, prompts, answer",
        "parsing and scoring are mmjudge's own. Needs `pip install 'mmjudge[metrics]'` where lmms-eval runs;",
        "gated media resolve against $MMJUDGE_MEDIA_ROOT_<BENCHMARK> (e.g. $MMJUDGE_MEDIA_ROOT_EMOREALM).",
        '"""',
        "",
        "from mmjudge.export.lmms_runtime import runtime",
        "",
        f"DATASET_PATH = {dataset_path!r}",
        "",
    ]
    for task in spec.present.exports.lmms_tasks:
        prefix = _identifier(task.name)
        lines += [
            f"_{prefix} = runtime({spec.id!r}, {task.name!r}, DATASET_PATH)",
            *(
                f"{prefix}_{name} = _{prefix}.{name}"
                for name in ("process_docs", "doc_to_visual", "doc_to_text", "doc_to_target", "process_results")
            ),
            *(f"{prefix}_agg_{metric_name(key)} = _{prefix}.aggregation({key!r})" for key in task.keys),
            "",
        ]
    return "\n".join(lines)


def _readme(spec: Benchmark, dataset_path: str) -> str:

    rows = "\n".join(
        f"| `{t.name}` | `{t.config}` | {t.description} | {', '.join(f'`{metric_name(k)}`' for k in t.keys)} |"
        for t in spec.present.exports.lmms_tasks
    )
    media = (
        f"Gated media (not in the dataset) resolve against `${media_env(spec.id)}`: set it to the folder the "
        "dataset's relative media paths point into (unset, the tasks are refused with its name). "
        if spec.data.sample_media_root
        else "The media travel inside the dataset folder. "
    )
    return f"""# {spec.title} as lmms-eval tasks (mmjudge {__version__})

Written by `mmjudge export lmms-eval`. Group `{FOLDER_PREFIX}{spec.id}`; dataset `{dataset_path}`.

```bash
pip install lmms-eval 'mmjudge[metrics]' 'filelock<4'   # lmms-eval 0.7.3 imports filelock._api, gone in filelock 4
lmms-eval --model <model> --tasks {FOLDER_PREFIX}{spec.id} --include_path <this folder's parent>
```

| task | config | docs | metrics |
|---|---|---|---|
{rows}

Each doc is one judge item of mmjudge (its prompt is the one `mmjudge eval` gives a free-text judge);
`utils.py` calls `mmjudge.export.lmms_runtime`, whose aggregation rebuilds mmjudge's prediction records
from the answers and scores them with `mmjudge.benchmarks.{spec.id}.score`, the function
`evaluate.load("metrics/{spec.id}")` calls: on the same answers the numbers are equal. Percentages. {media}
A run with `--limit` is scored on the units whose items were all answered (a warning says how many).

{spec.present.exports.lmms_note}

{_LOGITS_NOTE}
"""
