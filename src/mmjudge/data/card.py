"""Dataset card of a built folder: YAML front matter (``configs:``, ``dataset_info``) and a body.

The body comes from the benchmark's card template, shipped as package data in its package
(``mmjudge/benchmarks/<id>/card.md``, read by :func:`read_template` with :mod:`importlib.resources`) and
carried by the builder in :attr:`~mmjudge.data.build.BuiltDataset.card_template`. Its own front matter
(``license``, ``task_categories``, ``pretty_name``) is kept and the generated keys are added:
``configs``, ``dataset_info`` and ``size_categories`` (from the default config's row count). A dataset
without a template, or a template missing from the install, is refused, never given a bare card.
``${name}`` placeholders are filled by :class:`string.Template`: ``${benchmark}``, ``${configs_table}``,
``${features}``, ``${media_note}``, ``${total_rows}``, ``${card_notes}``, ``${video_note}``
(:data:`VIDEO_NOTE`), ``${raw_release}`` (the builder's :func:`mmjudge.data.release.release_section`) and
every key of ``card_context``. ``license: other`` needs ``license_name`` and ``license_link``; a link to a
file of the folder (``LICENSE.md``) is written from the body's ``## Licence`` section.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from mmjudge._deps import require
from mmjudge.data.images import image_columns
from mmjudge.errors import ConfigError, MissingFileError

if TYPE_CHECKING:
    import pyarrow as pa

    from mmjudge.data.build import BuiltDataset, SplitSummary

__all__ = [
    "CARD_TEMPLATE",
    "VIDEO_NOTE",
    "card_files",
    "card_metadata",
    "read_template",
    "render_card",
    "size_category",
    "split_front_matter",
]

CARD_TEMPLATE = "card.md"
"""File name of a benchmark's card template inside its package."""

VIDEO_NOTE = (
    "Video and audio stay relative path strings, not `datasets.Video` / `datasets.Audio` features, so the Hub "
    "viewer shows the paths, not the clips. With the stack mmjudge pins (datasets 5.2.0, torch 2.14.1), decoding a "
    "`datasets.Video()` value raises `ImportError: To support decoding videos, please install 'torchcodec'`; "
    "torchcodec is not a dependency, and its 0.17.0 wheel, installed aside to check, fails to load with "
    "`Could not load libtorchcodec`: it needs a system FFmpeg 4 to 9 (`libavutil.so.56` to `.61`), and PyAV's "
    "bundled FFmpeg is not one it finds."
)
"""``${video_note}``: why clips are paths (checked on the pinned stack; see the README)."""

_SIZE_BUCKETS = ("n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M", "100M<n<1B",
                 "1B<n<10B", "10B<n<100B", "100B<n<1T")  # fmt: skip
"""The Hub's ``size_categories`` values, each ten times the previous; above them, ``n>1T``."""

_LICENCE_HEADING = re.compile(r"^## Licen[cs]e\b.*$", re.MULTILINE)


def read_template(package: str, name: str = CARD_TEMPLATE) -> str:
    """The card template ``name`` shipped as package data in ``package``.

    Raises:
        MissingFileError: the file is not in the installed package, so the card would lose its license,
            task categories and description.

    >>> read_template("mmjudge.benchmarks.mist").startswith("---\\npretty_name: MIST")
    True
    >>> read_template("mmjudge.benchmarks.mist", "no_such_card.md")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.MissingFileError: the dataset card template no_such_card.md of mmjudge.benchmarks.mist is ...
    """
    resource = resources.files(package) / name
    if not resource.is_file():
        raise MissingFileError(
            f"the dataset card template {name} of {package} is not in this install (looked in {resource}): "
            "the package was installed without its package data, and a card without it would lose its "
            "license, task categories and description. Reinstall mmjudge from a wheel or sdist that ships it "
            "(`pip install --force-reinstall mmjudge`, or `pip install -e .` in a checkout)."
        )
    return resource.read_text(encoding="utf-8")


def size_category(num_rows: int) -> str:
    """The Hub's ``size_categories`` bucket of a dataset with ``num_rows`` rows.

    >>> size_category(16), size_category(999), size_category(1_000), size_category(2_500_000)
    ('n<1K', 'n<1K', '1K<n<10K', '1M<n<10M')
    """
    if num_rows < 0:
        raise ValueError(f"expected a row count >= 0, got {num_rows}")
    bound = 1_000
    for bucket in _SIZE_BUCKETS:
        if num_rows < bound:
            return bucket
        bound *= 10
    return "n>1T"


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
    """The full ``README.md`` text of a built folder (``template``: a file replacing the builder's template)."""
    return card_files(built, summaries, template=template)["README.md"]


def card_files(
    built: BuiltDataset, summaries: Sequence[SplitSummary], *, template: str | Path | None = None
) -> dict[str, str]:
    """The card files of a built folder: ``README.md``, and the license file its ``license_link`` names
    when that is a file of the folder (the body's ``## Licence`` section).

    Raises:
        ConfigError: no template, or ``license: other`` without ``license_name`` and ``license_link``.
    """
    meta, body = split_front_matter(_template_text(built, template))
    meta.update(card_metadata(summaries))
    default = [s.num_rows for s in summaries if s.config == summaries[0].config] if summaries else [0]
    meta["size_categories"] = [size_category(sum(default))]
    _check_license(built.benchmark, meta)
    filled = re.sub(r"\n{3,}", "\n\n", string.Template(body).safe_substitute(_context(built, summaries)))
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    files = {"README.md": f"---\n{front}---\n{filled}"}
    link = str(meta.get("license_link", ""))
    if link and "://" not in link:
        files[link] = _license_text(built.benchmark, meta, filled, link)
    return files


def _context(built: BuiltDataset, summaries: Sequence[SplitSummary]) -> dict[str, str]:
    context = {key: _as_text(value) for key, value in built.card_context.items()}
    context.setdefault("benchmark", built.benchmark)
    context.setdefault("configs_table", _configs_table(built, summaries))
    context.setdefault("features", _features(summaries))
    context.setdefault("media_note", _media_note(built))
    context.setdefault("total_rows", str(sum(s.num_rows for s in summaries)))
    context.setdefault("card_notes", "")
    context.setdefault("video_note", VIDEO_NOTE)
    context.setdefault("raw_release", "")
    return context


def _template_text(built: BuiltDataset, template: str | Path | None) -> str:
    if template is None:
        if not built.card_template:
            raise ConfigError(
                f"{built.benchmark}: the builder gave no card template (BuiltDataset.card_template is empty) "
                "and none was passed; a card without one would lack license, task categories and "
                "description. Set card_template=read_template('<your package>') in the builder."
            )
        return built.card_template
    path = Path(template)
    if not path.is_file():
        raise ConfigError(f"card template {path} does not exist: expected a markdown file")
    return path.read_text(encoding="utf-8")


def _check_license(benchmark: str, meta: dict[str, Any]) -> None:
    if "license" not in meta:
        raise ConfigError(f"{benchmark}: the card template's front matter has no `license`; add one")
    missing = [key for key in ("license_name", "license_link") if not meta.get(key)]
    if meta["license"] == "other" and missing:
        raise ConfigError(
            f"{benchmark}: the card template says `license: other` but lacks {missing}; the Hub expects an "
            "id for the terms and a link to them (a URL, or LICENSE.md written from the `## Licence` section)"
        )


def _license_text(benchmark: str, meta: dict[str, Any], body: str, link: str) -> str:
    heading = _LICENCE_HEADING.search(body)
    if "/" in link or heading is None:
        raise ConfigError(
            f"{benchmark}: license_link {link!r} names a file of the folder, so it must be a plain file name "
            "and the card body needs a `## Licence ...` section to write into it"
        )
    end = body.find("\n## ", heading.end())
    section = body[heading.end() : end if end >= 0 else len(body)].strip()
    title = meta.get("pretty_name") or benchmark
    return f"# Terms of {title}\n\nLicense id on the Hub: `{meta['license_name']}`.\n\n{section}\n"


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
