"""The TemporalBench release (``microsoft/TemporalBench`` on the Hub) as ``mmjudge build-dataset temporalbench``
reads it, and its questions parsed.

A QA file (``temporalbench_short_qa.json``, or ``temporalbench_long_qa.json``) is a JSON list; each item has
``idx``, ``video_name`` (the clip's path in the release folder, e.g. ``short_video/COIN/x.mp4``), ``question``
(``"Which caption best describes this video?\\nA. <caption>\\nB. <caption>\\nAnswer with the option's letter
..."``), ``GT`` (the right letter), the clip's source dataset as ``dataset`` (what the official ``get_qa_acc.py``
reads; the dataset card names it ``source_dataset``) and, in the short QA file, ``category``. The captions are the
question's lettered lines.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mmjudge.benchmarks._captions.build import CaptionQuestion
from mmjudge.data.release import RawRelease, SourceFile
from mmjudge.data.strict_read import schema_error

__all__ = ["FIELDS", "RELEASES", "SHORT_QA", "parse_question", "read_questions"]

SHORT_QA = "temporalbench_short_qa.json"
"""The file the IsoVRBench paper's numbers use (9,867 binary questions on 2,179 videos)."""
FIELDS = ("idx", "video_name", "question", "GT")
"""Fields every item must have."""
_OPTION = re.compile(r"^([A-Z])\.\s?(.*)$")


def parse_question(text: str) -> tuple[list[str], list[str]]:
    """The letters and captions of a question's lettered lines (``A. ...``), in order.

    >>> parse_question("Which caption best describes this video?\\nA. a cat jumps. \\nB. a cat sits.\\nAnswer ...")
    (['A', 'B'], ['a cat jumps.', 'a cat sits.'])
    """
    letters, captions = [], []
    for line in text.split("\n")[1:]:
        found = _OPTION.match(line.strip())
        if found:
            letters.append(found.group(1))
            captions.append(found.group(2).strip())
    return letters, captions


def read_questions(path: Path, items: list[dict[str, Any]]) -> list[CaptionQuestion]:
    """The release's items as questions (a message names the file, the item and the field at fault)."""
    questions = []
    for row, item in enumerate(items, start=1):
        where = f"{row} (idx {item.get('idx')!r})"
        for name in FIELDS:
            if not isinstance(item.get(name), str) or not item[name].strip():
                raise schema_error(path, row=where, column=name, expected="non-empty text", got=repr(item.get(name))[:80])
        letters, captions = parse_question(item["question"])
        if len(letters) < 2 or letters != [chr(ord("A") + k) for k in range(len(letters))]:
            raise schema_error(path, row=where, column="question", expected="two or more lines `A. <caption>`, "
                               "`B. <caption>` after the first line", got=repr(item["question"])[:120])  # fmt: skip
        gt = item["GT"].strip().upper()
        if gt not in letters:
            raise schema_error(path, row=where, column="GT", expected=f"one of {letters}", got=repr(item["GT"]))
        source = item.get("dataset") or item.get("source_dataset")
        questions.append(CaptionQuestion(
            id=item["idx"], video=item["video_name"], question=item["question"], captions=tuple(captions),
            answer=letters.index(gt), category=str(item.get("category") or "all"), where=where,
            extra={"source_dataset": "" if source is None else str(source)},
        ))  # fmt: skip
    return questions


RELEASES = (
    RawRelease(
        "TemporalBench release (`microsoft/TemporalBench`: QA JSON lists and the unzipped video folders)",
        (
            SourceFile(
                SHORT_QA,
                "JSON list of objects, UTF-8",
                FIELDS,
                note="the file passed as `--source` (or the release folder: then this file); "
                "`temporalbench_long_qa.json` reads the same way; `category`, `dataset`/`source_dataset` kept",
            ),
            SourceFile(
                "<video_name>",
                "video clip (`short_video.zip` / `long_video_part_*` of the release, unzipped)",
                needed=False,
                note="relative to `--media-root` (the release folder); checked only when it is given (never copied)",
            ),
        ),
        repo_id="microsoft/TemporalBench",
    ),
)
"""What ``build_tables`` reads."""
