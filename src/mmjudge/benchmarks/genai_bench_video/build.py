"""GenAI-Bench (video generation): the release's parquet of arena votes -> the ``pairs`` and ``clips`` configs.

``source`` is the parquet file (or a folder holding exactly one ``.parquet``, searched recursively: the Hub repo's
``video_generation/`` folder). Required columns ``prompt, left_model, right_model, left_video, right_video,
vote_type``; other columns are kept as text. The table has no id: pair ``k`` (from 0, in file order) is
``genai-<k>`` (the arena may hold several votes on one pair of clips). Left is A, right is B. A clip given as a URL
is looked up under the media root as ``<model>/<file name>``; a relative path as given. See
:mod:`mmjudge.benchmarks._pairwise.build` for the configs and the media modes.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import urlparse

import pyarrow as pa
import pyarrow.parquet as pq

from mmjudge.benchmarks._pairwise.build import PairRow, build_pairs
from mmjudge.benchmarks.genai_bench_video.release import RELEASES, REQUIRED
from mmjudge.benchmarks.genai_bench_video.scoring import ASPECTS, VOTES
from mmjudge.data.build import BuiltDataset
from mmjudge.data.media_paths import validate_relpath
from mmjudge.data.strict_read import check_allowed, require_columns, schema_error
from mmjudge.errors import ConfigError, SchemaError

__all__ = ["build_tables", "clip_path", "read_pairs"]


def build_tables(
    source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False, media: str = "copy"
) -> BuiltDataset:
    """Build ``pairs`` and ``clips`` from the release parquet (see the module doc)."""
    path = _parquet(Path(source))
    rows, extras = read_pairs(path)
    root = Path(media_root) if media_root is not None else path.parent
    return build_pairs(
        "genai_bench_video",
        rows,
        aspects=ASPECTS,
        extra_columns=extras,
        source=path,
        video_columns=("left_video", "right_video"),
        releases=RELEASES,
        root=root,
        media=media,
        allow_missing_media=allow_missing_media,
    )


def clip_path(value: str, model: str) -> str:
    """Where a clip is read, relative to the media root: a relative path as given, a URL as ``<model>/<file>``.

    >>> clip_path("https://host/videos/abc.mp4", "LaVie"), clip_path("LaVie/abc.mp4", "LaVie")
    ('LaVie/abc.mp4', 'LaVie/abc.mp4')
    """
    parsed = urlparse(value)
    if parsed.scheme and parsed.netloc:
        return validate_relpath(f"{model}/{PurePosixPath(parsed.path).name}")
    return validate_relpath(value)


def read_pairs(path: Path) -> tuple[list[PairRow], list[str]]:
    """The checked pairs of the parquet file and the names of its extra columns.

    Raises:
        SchemaError: a missing column, a vote outside the four, an empty prompt, model or clip, an unsafe path.
    """
    try:
        table = pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise schema_error(path, expected="a parquet file", got=str(exc)) from None
    require_columns(path, table.column_names, REQUIRED)
    data = {name: [None if v is None else str(v) for v in table.column(name).to_pylist()] for name in table.column_names}
    if not data["prompt"]:
        raise schema_error(path, expected="at least one vote", got="no rows")
    check_allowed(path, "vote_type", data["vote_type"], VOTES)
    extras = [c for c in table.column_names if c not in REQUIRED]
    rows = []
    for k in range(len(data["prompt"])):
        for column in REQUIRED:
            if not data[column][k]:
                raise schema_error(path, row=k + 1, column=column, expected="a non-empty value", got=repr(data[column][k]))
        sides = []
        for side in ("left", "right"):
            try:
                sides.append(clip_path(str(data[f"{side}_video"][k]), str(data[f"{side}_model"][k])))
            except SchemaError as exc:
                raise schema_error(path, row=k + 1, column=f"{side}_video", expected="a relative clip path or a URL",
                                   got=f"{data[f'{side}_video'][k]!r} ({exc})") from None  # fmt: skip
        rows.append(
            PairRow(
                pair_id=f"genai-{k:05d}",
                prompt=str(data["prompt"][k]),
                video_a=sides[0],
                video_b=sides[1],
                model_a=data["left_model"][k],
                model_b=data["right_model"][k],
                labels={"overall": str(data["vote_type"][k])},
                extras={c: data[c][k] for c in extras},
            )
        )
    return rows, extras


def _parquet(source: Path) -> Path:
    if source.is_file():
        if source.suffix != ".parquet":
            raise ConfigError(f"{source}: expected the release's .parquet of video votes, got {source.suffix!r}")
        return source
    found = sorted(source.rglob("*.parquet"))
    if len(found) != 1:
        raise ConfigError(
            f"{source}: expected exactly one .parquet of video votes (video_generation/test-*.parquet), found "
            f"{[str(p.relative_to(source)) for p in found]}; pass the file itself as --source"
        )
    return found[0]
