"""The raw release ``mmjudge build-dataset videogen_rewardbench`` reads (for the card)."""

from __future__ import annotations

from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["LABEL_COLUMNS", "OPTIONAL", "RELEASES", "REQUIRED"]

LABEL_COLUMNS = ("VQ", "MQ", "TA", "Overall")
"""The four human label columns, each ``A``, ``B`` or ``same``."""
REQUIRED = ("path_A", "path_B", "A_model", "B_model", "prompt", *LABEL_COLUMNS)
"""Columns the builder refuses the table without."""
OPTIONAL = ("fps_A", "num_frames_A", "fps_B", "num_frames_B")
"""Columns VideoAlign's evaluation reads beside them; kept as text (other columns too)."""

RELEASES = (
    RawRelease(
        "VideoGen-RewardBench (one CSV of A/B pairs and the clips it names)",
        (
            SourceFile(
                "videogen-rewardbench.csv (or any `.csv` given as `--source`)",
                "CSV, UTF-8, header line",
                REQUIRED,
                OPTIONAL,
                note="labels in A, B, same; every other column is kept as text",
            ),
            SourceFile(
                "the clips named by `path_A` / `path_B`",
                "MP4 video",
                note="relative to `--media-root` (default: the CSV's folder, where the release unzips them); "
                "`--option media=reference` checks them without copying the 13.4 GB",
            ),
        ),
        repo_id="KwaiVGI/VideoGen-RewardBench",
    ),
)
"""What ``build_tables`` reads."""
