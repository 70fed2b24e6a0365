"""The raw releases ``mmjudge build-dataset mist`` reads, from the builders' own constants (for the card)."""

from __future__ import annotations

from mmjudge.benchmarks.mist._admire import IMAGE_COLUMNS as ADMIRE_IMAGES
from mmjudge.benchmarks.mist._admire import TEXT_COLUMNS
from mmjudge.benchmarks.mist._release import HUMAN_COLUMNS, ITEM_COLUMNS, JUDGE_COLUMNS, OPTIONAL_ITEM_COLUMNS
from mmjudge.data.release import RawRelease, SourceFile

__all__ = ["ADMIRE_REPO", "RELEASES"]

ADMIRE_REPO = "UCSC-Admire/idiom-SFT-dataset-561-2024-12-06_00-40-30"
"""The AdMIRe (SemEval-2025 Task 1) release MIST's items are drawn from, as the MIST paper names it."""
_CSV = "CSV, UTF-8, header line"

RELEASES = (
    RawRelease(
        "(a) The AdMIRe source release (items rebuilt by the Appendix D procedure)",
        (
            SourceFile(
                "*.parquet",
                "parquet",
                (*TEXT_COLUMNS, *ADMIRE_IMAGES),
                note="one file, or a folder searched recursively; `image_1`..`image_5`: Hub image structs `{bytes, path}` or file names relative to "
                "`--media-root` (default: the source folder); other columns are ignored; `id` unique across files",
            ),
        ),
        repo_id=ADMIRE_REPO,
    ),
    RawRelease(
        "(b) A released MIST table (items, human labels, judge labels)",
        (
            SourceFile(
                "items.csv",
                _CSV,
                ITEM_COLUMNS,
                (*OPTIONAL_ITEM_COLUMNS, "image_sense", "cell_image"),
                note="`sentence` with one `**...**` pair; `image_sense`/`cell_image` are checked against the cell; "
                "other columns are kept as text",
            ),
            SourceFile(
                "human_labels.csv", _CSV, HUMAN_COLUMNS, note="one row per label; `label` in FF/WF/FL/LL"
            ),
            SourceFile(
                "judge_labels.csv", _CSV, JUDGE_COLUMNS, needed=False, note="long format, one row per label"
            ),
            SourceFile(
                "images/...",
                "image files",
                note="the files `aligned_image` / `misleading_image` name, relative to the folder or `--media-root`",
            ),
        ),
        unpublished="the MIST paper (arXiv 2609.37863) gives no Hub or GitHub id for its labelled table; ask its "
        "authors for these files, or rebuild the items (without human labels) from the AdMIRe release (a)",
    ),
)
"""What ``build_tables`` reads: (a) when the source is not a folder with ``items.csv``, else (b)."""
