"""Building Hub-ready dataset folders, sample data and media path resolution.

``build_folder(benchmark, build_tables, source, out)`` turns a raw release into a folder that
``datasets.load_dataset(folder, config)`` reads with no loading script (``mmjudge.benchmarks.build_dataset``
looks the builder up by benchmark id); ``resolve_media`` joins the
relative media paths stored in rows to a root, refusing paths that escape it.
"""

from __future__ import annotations

from mmjudge.data.build import BatchStream, BuiltConfig, BuiltDataset, SplitSummary, build_folder
from mmjudge.data.card import read_template
from mmjudge.data.images import image_path
from mmjudge.data.media_paths import check_media, resolve_media
from mmjudge.data.push import plan_push, push_dataset
from mmjudge.data.raw import RawSource

__all__ = [
    "BatchStream",
    "BuiltConfig",
    "BuiltDataset",
    "RawSource",
    "SplitSummary",
    "build_folder",
    "check_media",
    "image_path",
    "plan_push",
    "push_dataset",
    "read_template",
    "resolve_media",
]
