"""The raw releases ``mmjudge build-dataset isovrbench`` reads, from the builder's own constants (for the card)."""

from __future__ import annotations

from mmjudge.benchmarks.isovrbench._rows import NATIVE_REQUIRED, OPTIONAL
from mmjudge.benchmarks.isovrbench.pair_files import SUFFIXES
from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["RELEASES"]

_TABLE = f"{{test,train,validation}}{{{','.join(SUFFIXES)}}}"
_WHERE = "one such file as `--source` (one split, `test` unless `--option split=...`), or a folder of them"
_FORMAT = "CSV (UTF-8, header line), parquet or JSON Lines"
_CLIPS = SourceFile(
    "clip files",
    "video clips",
    note="the paths in the table, relative to `--media-root` (default: the source folder)",
)
_UNPUBLISHED = (
    "the IsoVRBench paper (Li et al. 2026) gives no Hub or GitHub id and no release format; pass a pair table "
    "in this layout"
)

RELEASES = (
    RawRelease(
        "IsoVRBench pair table",
        (
            SourceFile(
                _TABLE,
                _FORMAT,
                NATIVE_REQUIRED,
                OPTIONAL,
                note=f"{_WHERE}; other columns are kept; an A/B table (`path_A`, `path_B`) is refused: it is "
                "VideoGen-RewardBench's layout, built as `videogen_rewardbench`",
            ),
            _CLIPS,
        ),
        unpublished=_UNPUBLISHED,
    ),
)
"""What ``build_tables`` reads: the pair table only (an A/B table is ``videogen_rewardbench``'s release, and refused)."""
