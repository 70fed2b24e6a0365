"""Dataset card of a built folder: YAML front matter (``configs:``, ``dataset_info``) and a body.

The body comes from the template ``dataset_scripts/<id>/README.md`` (its own front matter, e.g.
``license`` and ``task_categories``, is kept and the generated keys are added). ``${name}``
placeholders are filled by :class:`string.Template`: ``${benchmark}``, ``${configs_table}``,
``${features}``, ``${media_note}``, ``${total_rows}``, ``${card_notes}``, ``${video_note}``
(:data:`VIDEO_NOTE`), ``${raw_release}`` (the builder's :func:`mmjudge.data.sources.release_section`) and
every key of ``card_context``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from mmjudge._deps import require
from mmjudge.data.images import image_columns
from mmjudge.errors import ConfigError

if TYPE_CHECKING:
    import pyarrow as pa

    from mmjudge.data.build import BuiltDataset, SplitSummary

__all__ = ["VIDEO_NOTE", "card_metadata", "render_card", "split_front_matter"]

VIDEO_NOTE = (
    "Video and audio stay relative path strings, not `datasets.Video` / `datasets.Audio` features, so the Hub "
    "viewer shows the paths, not the clips. With the stack mmjudge pins (datasets 5.2.0, torch 2.14.1), decoding a "
    "`datasets.Video()` value raises `ImportError: To support decoding videos, please install 'torchcodec'`; "
    "torchcodec is not a dependency, and its 0.17.0 wheel, installed aside to check, fails to load with "
    "`Could not load libtorchcodec`: it needs a system FFmpeg 4 to 9 (`libavutil.so.56` to `.61`), and PyAV's "
    "bundled FFmpeg is not one it finds."
)
"""``${video_note}``: why clips are paths (checked on the pinned stack; see the README)."""

_DEFAULT_BODY = """# ${benchmark}

Built by `mmjudge build-dataset ${benchmark}`.

## Configs

${configs_table}

## Features

${features}

## Media

${media_note}
"""


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Split a markdown file into its YAML front matter (a dict) and the body.

    >>> split_front_matter("---\\nlicense: mit\\n---\\n# Title\\n")
    ({'license': 'mit'}, '# Title\\n')
    >>> split_front_matter("# No front matter\\n")
    ({}, '# No front matter\\n')
    """
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---\n", 4)
    if end < 0:
        raise ConfigError("card template starts with '---' but has no closing '---' line")
    meta = yaml.safe_load(text[4:end]) or {}
    if not isinstance(meta, dict):
        raise ConfigError(f"card front matter must be a mapping, got {type(meta).__name__}")
    return meta, text[end + 5 :]


def card_metadata(summaries: Sequence[SplitSummary]) -> dict[str, Any]:
    """The generated YAML keys: ``configs`` (first one default) and ``dataset_info`` per config."""
    datasets = require("datasets", "metrics", purpose="writing dataset_info features")
    configs: dict[str, list[SplitSummary]] = {}
    for summary in summaries:
        configs.setdefault(summary.config, []).append(summary)
    entries = []
    infos = {}
    for index, (name, splits) in enumerate(configs.items()):
        entry: dict[str, Any] = {
            "config_name": name,
            "data_files": [{"split": s.split, "path": s.path} for s in splits],
        }
        if index == 0:
            entry["default"] = True
        entries.append(entry)
        split_dict = datasets.SplitDict()
        for s in splits:
            split_dict.add(datasets.SplitInfo(name=s.split, num_examples=s.num_rows))
        features = datasets.Features.from_arrow_schema(splits[0].schema)
        infos[name] = datasets.DatasetInfo(features=features, splits=split_dict)
    meta: dict[str, Any] = {"configs": entries}
    datasets.info.DatasetInfosDict(infos).to_dataset_card_data(meta)
    if isinstance(meta["dataset_info"], list):
        order = list(configs)
        meta["dataset_info"].sort(key=lambda info: order.index(info["config_name"]))
    return meta


def render_card(
    built: BuiltDataset, summaries: Sequence[SplitSummary], *, template: str | Path | None = None
) -> str:
    """The full ``README.md`` text of a built folder."""
    meta, body = split_front_matter(_template_text(built.benchmark, template))
    meta.update(card_metadata(summaries))
    context = {key: _as_text(value) for key, value in built.card_context.items()}
    context.setdefault("benchmark", built.benchmark)
    context.setdefault("configs_table", _configs_table(built, summaries))
    context.setdefault("features", _features(summaries))
    context.setdefault("media_note", _media_note(built))
    context.setdefault("total_rows", str(sum(s.num_rows for s in summaries)))
    context.setdefault("card_notes", "")
    context.setdefault("video_note", VIDEO_NOTE)
    context.setdefault("raw_release", "")
    filled = re.sub(r"\n{3,}", "\n\n", string.Template(body).safe_substitute(context))
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{front}---\n{filled}"


def _template_text(benchmark: str, template: str | Path | None) -> str:
    if template is None:
        default = Path(__file__).resolve().parents[3] / "dataset_scripts" / benchmark / "README.md"
        return default.read_text(encoding="utf-8") if default.is_file() else _DEFAULT_BODY
    path = Path(template)
    if not path.is_file():
        raise ConfigError(f"card template {path} does not exist: expected a markdown file")
    return path.read_text(encoding="utf-8")


def _as_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _configs_table(built: BuiltDataset, summaries: Sequence[SplitSummary]) -> str:
    descriptions = {c.name: c.description for c in built.configs}
    lines = ["| config | split | rows | description |", "|---|---|---|---|"]
    for s in summaries:
        lines.append(f"| `{s.config}` | {s.split} | {s.num_rows} | {descriptions.get(s.config, '')} |")
    return "\n".join(lines)


def _features(summaries: Sequence[SplitSummary]) -> str:
    blocks, seen = [], set()
    for s in summaries:
        if s.config in seen:
            continue
        seen.add(s.config)
        images = set(image_columns(s.schema))
        cols = ", ".join(
            f"`{f.name}` ({'image' if f.name in images else _type_name(f.type)})" for f in s.schema
        )
        blocks.append(f"- `{s.config}`: {cols}")
    return "\n".join(blocks)


def _type_name(arrow_type: pa.DataType) -> str:
    return str(arrow_type).replace("large_", "")


def _media_note(built: BuiltDataset) -> str:
    if built.media_root_required:
        return (
            "Media paths in the rows are relative to a media root you obtain separately (gated "
            "media are not redistributed); resolve them with `mmjudge.data.resolve_media(path, root)`."
        )
    images = sorted({c for config in built.configs for c in config.image_columns})
    if built.media_files and images:
        return (
            f"{len(built.media_files)} media files are included under `media/`. "
            f"{', '.join(f'`{c}`' for c in images)} are `datasets.Image` features: each value holds the image's "
            "bytes (so `load_dataset` and the Hub viewer show it) and its `path` relative to this folder (the "
            "file under `media/`); a row whose file was missing at build time holds the path with no bytes."
        )
    if built.media_files:
        return f"{len(built.media_files)} media files are included under `media/`; row paths are relative to this folder."
    return "This dataset has no media files."
