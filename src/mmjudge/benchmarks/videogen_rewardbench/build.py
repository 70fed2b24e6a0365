"""VideoGen-RewardBench: the release's CSV of A/B pairs -> the ``pairs`` and ``clips`` configs.

``source`` is the CSV (or a folder holding exactly one ``.csv``). Columns ``path_A, path_B, A_model, B_model,
prompt, VQ, MQ, TA, Overall`` are required (labels ``A``, ``B`` or ``same``), every other column is kept as text.
The table has no id: a pair's id is ``vgrb-`` + a hash of ``path_A``, ``path_B`` and ``prompt`` (the id an A/B row
got when IsoVRBench's builder still read this layout). The A/B order is kept as released: the labels name a side of
it, and ``same`` stays ``same``. Clip paths are relative to ``media_root`` (default: the CSV's folder). See
:mod:`mmjudge.benchmarks._pairwise.build` for the configs and the media modes.

This is mmjudge's one reader of the A/B layout: ``mmjudge build-dataset isovrbench`` refuses such a table and
names this benchmark.
"""

from __future__ import annotations

from pathlib import Path

from mmjudge.benchmarks._pairwise.build import PairRow, build_pairs, pair_id_of
from mmjudge.benchmarks.videogen_rewardbench.release import LABEL_COLUMNS, RELEASES, REQUIRED
from mmjudge.benchmarks.videogen_rewardbench.scoring import ASPECTS, LABELS
from mmjudge.data.build import BuiltDataset
from mmjudge.data.media_paths import validate_relpath
from mmjudge.data.strict_read import check_allowed, read_csv_strings, schema_error
from mmjudge.errors import ConfigError, SchemaError

__all__ = ["build_tables", "read_pairs"]


def build_tables(
    source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False, media: str = "copy"
) -> BuiltDataset:
    """Build ``pairs`` and ``clips`` from the release CSV (see the module doc)."""
    path = _csv(Path(source))
    rows, extras = read_pairs(path)
    root = Path(media_root) if media_root is not None else path.parent
    return build_pairs(
        "videogen_rewardbench",
        rows,
        aspects=ASPECTS,
        extra_columns=extras,
        source=path,
        video_columns=("path_A", "path_B"),
        releases=RELEASES,
        root=root,
        media=media,
        allow_missing_media=allow_missing_media,
    )


def read_pairs(path: Path) -> tuple[list[PairRow], list[str]]:
    """The checked pairs of the CSV and the names of its extra columns.

    Raises:
        SchemaError: a missing column, a label outside ``A``/``B``/``same``, an empty or unsafe path, a repeated pair.
    """
    table = read_csv_strings(path, required=REQUIRED).to_pydict()
    for column in LABEL_COLUMNS:
        check_allowed(path, column, table[column], tuple(LABELS))
    extras = [c for c in table if c not in REQUIRED]
    rows = []
    for k in range(len(table["prompt"])):
        a, b = _clip(path, k, "path_A", table["path_A"][k]), _clip(path, k, "path_B", table["path_B"][k])
        prompt = table["prompt"][k]
        if not prompt:
            raise schema_error(path, row=k + 1, column="prompt", expected="a non-empty prompt", got="''")
        rows.append(
            PairRow(
                pair_id=pair_id_of("vgrb", a, b, prompt),
                prompt=prompt,
                video_a=a,
                video_b=b,
                model_a=table["A_model"][k] or None,
                model_b=table["B_model"][k] or None,
                labels={a.slug: table[a.name][k] for a in ASPECTS},
                extras={c: table[c][k] for c in extras},
            )
        )
    return rows, extras


def _clip(path: Path, k: int, column: str, value: str) -> str:
    try:
        return validate_relpath(value)
    except SchemaError as exc:
        raise schema_error(path, row=k + 1, column=column, expected="a clip path relative to the media root",
                           got=f"{value!r} ({exc})") from None  # fmt: skip


def _csv(source: Path) -> Path:
    if source.is_file():
        if source.suffix != ".csv":
            raise ConfigError(f"{source}: expected the release's .csv of A/B pairs, got {source.suffix!r}")
        return source
    found = sorted(source.glob("*.csv"))
    if len(found) != 1:
        raise ConfigError(
            f"{source}: expected exactly one .csv of A/B pairs (videogen-rewardbench.csv), found "
            f"{[p.name for p in found]}; pass the file itself as --source"
        )
    return found[0]
