"""EmoPrefer-Data: description-pair preferences from the release's CSV trio.

Raw layout (``source`` is a folder, or one of its CSV files): ``<stem>.csv`` with
``name, a1, a2, preference``; ``<stem>_reverse.csv`` (a1/a2 swapped, label flipped); and/or
``<stem>_with_modelnames.csv`` with ``name, model1, a1, model2, a2, preference``. ``preference`` is one
of ``a1``, ``a2``, ``same``. Extra columns (the V2 per-annotator labels) are kept as text. Media are
the gated MER2025 clips: rows hold ``video/{name}.mp4`` and ``audio/{name}.wav`` relative to the media
root the user supplies; nothing is copied.

Configs: ``pairs`` (from ``_with_modelnames`` when present, so it carries ``model1``/``model2``, else
from ``<stem>.csv``) and ``pairs_reversed`` (from ``_reverse``, or derived by swapping when that
file is absent). One split, ``test``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.compute as pc

from mmjudge.data.build import BuiltConfig, BuiltDataset
from mmjudge.data.card import read_template
from mmjudge.data.media_paths import mark_missing_media, validate_relpath
from mmjudge.data.strict_read import check_allowed, check_unique, read_csv_strings, schema_error
from mmjudge.errors import ConfigError, SchemaError

__all__ = ["PREFERENCES", "EmoPreferFiles", "build_tables", "find_files", "read_pairs", "reverse_pairs"]

PREFERENCES = ("a1", "a2", "same")
"""Allowed values of ``preference``."""
BASE_COLUMNS = ("name", "a1", "a2", "preference")
MODEL_COLUMNS = ("model1", "model2")


class EmoPreferFiles(NamedTuple):
    """The CSV files of one EmoPrefer release stem (``None`` where absent)."""

    base: Path | None
    """``<stem>.csv``."""
    reverse: Path | None
    """``<stem>_reverse.csv``."""
    modelnames: Path | None
    """``<stem>_with_modelnames.csv``."""


def find_files(source: Path, stem: str | None = None) -> EmoPreferFiles:
    """Locate the CSV trio in ``source`` (a folder, or one file whose siblings are used).

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for n in ("emoprefer.csv", "emoprefer_reverse.csv"): _ = (d / n).write_text("x")
    >>> [p.name if p else None for p in find_files(d)]
    ['emoprefer.csv', 'emoprefer_reverse.csv', None]
    """
    folder = source if source.is_dir() else source.parent
    if stem is None and source.is_file():
        stem = _stem_of(source.name)
    stems = sorted({_stem_of(p.name) for p in folder.glob("*.csv")})
    if stem is None:
        if len(stems) != 1:
            raise ConfigError(
                f"{folder}: expected the CSV files of one release (<stem>.csv, <stem>_reverse.csv, "
                f"<stem>_with_modelnames.csv), found stems {stems}; pass stem=... (--option stem=NAME)"
            )
        stem = stems[0]
    files = EmoPreferFiles(
        *(_existing(folder / f"{stem}{suffix}.csv") for suffix in ("", "_reverse", "_with_modelnames"))
    )
    if files.base is None and files.modelnames is None:
        raise ConfigError(
            f"{folder}: expected {stem}.csv or {stem}_with_modelnames.csv (columns name,a1,a2,preference), "
            f"found {sorted(p.name for p in folder.glob('*.csv'))}"
        )
    return files


def _stem_of(name: str) -> str:
    base = name.removesuffix(".csv")
    for suffix in ("_reverse", "_with_modelnames"):
        base = base.removesuffix(suffix)
    return base


def _existing(path: Path) -> Path | None:
    return path if path.is_file() else None


def read_pairs(path: Path, *, with_models: bool = False) -> pa.Table:
    """Read one EmoPrefer CSV: check it and add ``video_path`` / ``audio_path``.

    Columns come out as ``name, [model1, model2,] a1, a2, preference, video_path, audio_path`` then
    any extra columns of the file, all text.
    """
    required = (*BASE_COLUMNS, *MODEL_COLUMNS) if with_models else BASE_COLUMNS
    table = read_csv_strings(path, required=required)
    names = [n.strip() for n in table.column("name").to_pylist()]
    for row, name in enumerate(names, start=1):
        if not name:
            raise schema_error(path, row=row, column="name", expected="a sample name", got="an empty value")
        try:
            validate_relpath(f"video/{name}.mp4")
        except SchemaError as exc:
            raise schema_error(
                path, row=row, column="name", expected="a plain file stem", got=str(exc)
            ) from None
    check_unique(path, "name", names)
    preference = [p.strip().lower() for p in table.column("preference").to_pylist()]
    check_allowed(path, "preference", preference, PREFERENCES, ids=names)
    columns: dict[str, Any] = {"name": names}
    for column in (*MODEL_COLUMNS,) if with_models else ():
        columns[column] = pc.utf8_trim_whitespace(table.column(column))
    columns.update({"a1": table.column("a1"), "a2": table.column("a2"), "preference": preference})
    columns["video_path"] = [f"video/{n}.mp4" for n in names]
    columns["audio_path"] = [f"audio/{n}.wav" for n in names]
    for extra in table.column_names:
        if extra not in columns:
            columns[extra] = table.column(extra)
    return pa.table(columns)


def reverse_pairs(table: pa.Table) -> pa.Table:
    """Swap a1/a2 (and model1/model2) and flip the label, as the release's ``_reverse`` file does.

    >>> t = pa.table({"name": ["s"], "a1": ["x"], "a2": ["y"], "preference": ["a1"]})
    >>> reverse_pairs(t).to_pylist()
    [{'name': 's', 'a1': 'y', 'a2': 'x', 'preference': 'a2'}]
    """
    swap = {"a1": "a2", "a2": "a1", "model1": "model2", "model2": "model1"}
    flipped = [{"a1": "a2", "a2": "a1"}.get(p, p) for p in table.column("preference").to_pylist()]
    columns = {}
    for name in table.column_names:
        source = swap.get(name, name) if swap.get(name) in table.column_names else name
        columns[name] = flipped if name == "preference" else table.column(source)
    return pa.table(columns)


def build_tables(
    source: Path,
    *,
    media_root: Path | None = None,
    allow_missing_media: bool = False,
    stem: str | None = None,
) -> BuiltDataset:
    """Build the ``pairs`` and ``pairs_reversed`` configs of EmoPrefer-Data (see the module doc)."""
    files = find_files(Path(source), stem)
    forward_file = files.modelnames or files.base
    assert forward_file is not None  # find_files guarantees one of them
    forward = read_pairs(forward_file, with_models=forward_file == files.modelnames)
    reverse = read_pairs(files.reverse) if files.reverse is not None else reverse_pairs(forward)
    if files.reverse is not None:
        _warn_if_not_mirrored(forward, reverse, files.reverse)
    if "model1" in forward.column_names and "model1" not in reverse.column_names:
        reverse = _swapped_models(reverse, forward)
    missing = 0
    if media_root is not None:
        forward, missing = mark_missing_media(
            forward, media_root, allow_missing=allow_missing_media, source=forward_file, id_column="name"
        )
        reverse, _ = mark_missing_media(
            reverse,
            media_root,
            allow_missing=True,
            source=files.reverse or forward_file,
            id_column="name",
            warn=False,
        )
    counts = {p: forward.column("preference").to_pylist().count(p) for p in PREFERENCES}
    return BuiltDataset(
        benchmark="emoprefer",
        card_template=read_template("mmjudge.benchmarks.emoprefer"),
        configs=[
            BuiltConfig("pairs", {"test": forward}, f"description pairs from `{forward_file.name}`"),
            BuiltConfig(
                "pairs_reversed",
                {"test": reverse},
                f"a1/a2 swapped, label flipped (from `{files.reverse.name}`)"
                if files.reverse
                else "a1/a2 swapped, label flipped (derived: no `_reverse` file in the source)",
            ),
        ],
        media_root_required=True,
        card_context={
            "num_pairs": forward.num_rows,
            "preference_counts": ", ".join(f"{k}: {v}" for k, v in counts.items()),
            "source_files": ", ".join(f"`{p.name}`" for p in files if p is not None),
            "media_missing_count": missing,
            "media_checked": "yes" if media_root is not None else "no (no media root given)",
            "raw_release": _release_section(),
        },
    )


def _release_section() -> str:
    """The card's list of what this builder reads (imported here: ``release`` reads this module's constants)."""
    from mmjudge.benchmarks.emoprefer.release import RELEASES
    from mmjudge.data.release import release_section

    return release_section(RELEASES)


def _warn_if_not_mirrored(forward: pa.Table, reverse: pa.Table, path: Path) -> None:
    """Warn when the ``_reverse`` file is not the forward file with a1/a2 swapped and labels flipped."""
    import warnings

    expected = {r["name"]: (r["a1"], r["a2"], r["preference"]) for r in reverse_pairs(forward).to_pylist()}
    actual = {r["name"]: (r["a1"], r["a2"], r["preference"]) for r in reverse.to_pylist()}
    differ = sorted(n for n in expected.keys() & actual.keys() if expected[n] != actual[n])
    only = sorted(expected.keys() ^ actual.keys())
    if differ or only:
        warnings.warn(
            f"{path}: {len(differ)} rows are not the forward pair with a1/a2 swapped and the label flipped "
            f"(first: {differ[:5]}), {len(only)} names are in only one of the two files (first: {only[:5]}); "
            "pairs_reversed is built from the file as it is",
            UserWarning,
            stacklevel=3,
        )


def _swapped_models(reverse: pa.Table, forward: pa.Table) -> pa.Table:
    """Give the ``_reverse`` rows the forward file's model names, swapped (null for unknown names)."""
    models = dict(
        zip(forward.column("name").to_pylist(), forward.select(["model1", "model2"]).to_pylist(), strict=True)
    )
    names = reverse.column("name").to_pylist()
    first = [models[n]["model2"] if n in models else None for n in names]
    second = [models[n]["model1"] if n in models else None for n in names]
    return reverse.add_column(1, "model1", pa.array(first, pa.string())).add_column(
        2, "model2", pa.array(second, pa.string())
    )
