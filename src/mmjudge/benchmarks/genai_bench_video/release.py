"""The raw release ``mmjudge build-dataset genai_bench_video`` reads (for the card)."""

from __future__ import annotations

from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["RELEASES", "REQUIRED"]

REQUIRED = ("prompt", "left_model", "right_model", "left_video", "right_video", "vote_type")
"""Columns the builder refuses the table without (the ones VideoScore2's script reads)."""

RELEASES = (
    RawRelease(
        "GenAI-Bench, config `video_generation` (the arena's video votes, one parquet file) and the clips",
        (
            SourceFile(
                "video_generation/test-*.parquet (or any `.parquet` given as `--source`)",
                "parquet",
                REQUIRED,
                note="`vote_type` in leftvote, rightvote, tievote, bothbad_vote; every other column kept as text",
            ),
            SourceFile(
                "the clips named by `left_video` / `right_video`",
                "MP4 video",
                note="a relative path is read under `--media-root`; a URL as `<model>/<file name>` there (the key "
                "VideoScore2's script gives a clip: model and file name)",
            ),
        ),
        repo_id="TIGER-Lab/GenAI-Bench",
    ),
)
"""What ``build_tables`` reads."""
