"""The raw release ``mmjudge build-dataset mj_bench_video`` reads (for the card)."""

from __future__ import annotations

from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["OPTIONAL", "RELEASES", "REQUIRED"]

REQUIRED = ("caption", "video_0_path", "video_1_path", "overall_preference")
"""Fields the builder refuses an item without."""
OPTIONAL = ("category_preference",)
"""Read when present: the per-aspect labels (an object; an aspect without a label is not scored for the pair)."""

RELEASES = (
    RawRelease(
        "MJ-Bench-Video (`test.json`, a JSON list of pairs, and the clips under `videos/`)",
        (
            SourceFile(
                "test.json (or any `.json` given as `--source`)",
                "JSON list of objects",
                REQUIRED,
                OPTIONAL,
                note="labels Video 1 better, Video 2 better, Same, Hard to judge; other fields kept as JSON text",
            ),
            SourceFile(
                "the clips named by `video_0_path` / `video_1_path`",
                "MP4 video",
                note="relative to `--media-root` (default: `videos/` beside the JSON, the release's layout)",
            ),
        ),
        repo_id="MJ-Bench/MJ-BENCH-VIDEO",
    ),
)
"""What ``build_tables`` reads."""
