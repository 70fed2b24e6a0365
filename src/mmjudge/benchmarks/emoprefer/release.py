"""The raw release ``mmjudge build-dataset emoprefer`` reads, from the builder's own constants (for the card)."""

from __future__ import annotations

from mmjudge.benchmarks.emoprefer.build import BASE_COLUMNS, MODEL_COLUMNS, PREFERENCES
from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["RELEASES"]

_CSV = "CSV, UTF-8, header line"
_ONE_OF = "one of `<stem>.csv` and `<stem>_with_modelnames.csv` is required"

RELEASES = (
    RawRelease(
        "EmoPrefer-Data release (CSV files of one stem, e.g. V1 or V2; `--option stem=NAME` picks one)",
        (
            SourceFile(
                "<stem>.csv",
                _CSV,
                BASE_COLUMNS,
                needed=False,
                note=f"{_ONE_OF}; `preference` in {', '.join(PREFERENCES)}; extra columns kept as text",
            ),
            SourceFile(
                "<stem>_with_modelnames.csv",
                _CSV,
                (*BASE_COLUMNS, *MODEL_COLUMNS),
                needed=False,
                note=f"{_ONE_OF}; read instead of `<stem>.csv` when present",
            ),
            SourceFile(
                "<stem>_reverse.csv",
                _CSV,
                BASE_COLUMNS,
                needed=False,
                note="a1/a2 swapped, label flipped; derived by swapping when absent",
            ),
            SourceFile(
                "video/{name}.mp4, audio/{name}.wav",
                "MP4 video, WAV audio (MER2025, gated)",
                needed=False,
                note="under `--media-root`; checked only when it is given (never copied)",
            ),
        ),
        unpublished="the EmoPrefer paper (arXiv 2507.04278) gives no Hub or GitHub id for EmoPrefer-Data; obtain "
        "the CSV files from its authors and the MER2025 clips from the MER2025 organisers (end-user licence)",
    ),
)
"""What ``build_tables`` reads."""
