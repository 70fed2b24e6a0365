"""The raw release ``mmjudge build-dataset emorealm`` reads, from the builder's own constants (for the card)."""

from __future__ import annotations

from mmjudge.benchmarks.emorealm.build import FIELDS, TASKS
from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["RELEASES"]

RELEASES = (
    RawRelease(
        "EmoReAlM release (one JSON list, `emorealm_v1.json`)",
        (
            SourceFile(
                "emorealm_v1.json",
                "JSON list of objects, UTF-8",
                FIELDS,
                note=f"the file passed as `--source`; `task` in {', '.join(TASKS)}; `choices` a list like `(A) ...`; `answer` a letter; "
                "extra fields kept",
            ),
            SourceFile(
                "<video>, <video> with the suffix .wav",
                "video clip and WAV audio (DFEW, gated)",
                needed=False,
                note="relative to `--media-root`; checked only when it is given (never copied)",
            ),
        ),
        unpublished="the AVERE paper (arXiv 2602.07054) gives no Hub or GitHub id for EmoReAlM; obtain "
        "`emorealm_v1.json` from its authors and the DFEW clips under the DFEW agreement",
    ),
)
"""What ``build_tables`` reads."""
