"""The TempCompass release (``llyx97/TempCompass`` on GitHub, videos on the Hub as ``lmms-lab/TempCompass``) as
``mmjudge build-dataset tempcompass`` reads it, and its caption-matching questions parsed.

``questions/caption_matching.json`` maps a video id to its temporal dimensions (``action``, ``direction``,
``speed``, ``order``, ``attribute_change``), each a list of ``{"question", "answer"}``. A question's first line
asks; each further line is one option, ``<label>: <caption>`` (``Option 1``, ``Sentence A``, ``Caption B``, ...);
the answer is the right option's whole line. The clip is ``videos/<video id>.mp4``. ``meta_info.json``, when it
is beside ``questions/``, gives each dimension's fine-grained aspect (``eval_dim.<dimension>.type``; ``order``
for the order dimension, as the official ``print_result`` reads it), kept as the ``aspect`` column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mmjudge.benchmarks._captions.build import CaptionQuestion
from mmjudge.data.release import RawRelease, SourceFile
from mmjudge.data.strict_read import schema_error

__all__ = ["CAPTION_MATCHING", "DIMENSIONS", "META_INFO", "RELEASES", "parse_options", "read_questions"]

CAPTION_MATCHING = "questions/caption_matching.json"
"""The questions file, relative to the release folder."""
META_INFO = "meta_info.json"
"""The per-video aspects, relative to the release folder (optional)."""
DIMENSIONS = ("action", "direction", "speed", "order", "attribute_change")
"""The temporal dimensions, in the official ``print_result``'s order."""


def parse_options(question: str) -> list[tuple[str, str]]:
    """``(line, caption)`` of each option line of ``question`` (a caption is what follows the first ``": "``).

    >>> parse_options("Which caption matches the video better?\\nCaption A: A man jumps.\\nCaption B: A man sits.")
    [('Caption A: A man jumps.', 'A man jumps.'), ('Caption B: A man sits.', 'A man sits.')]
    """
    options = []
    for line in question.split("\n")[1:]:
        _, sep, caption = line.partition(": ")
        options.append((line, caption.strip() if sep else ""))
    return options


def _aspect(meta: dict[str, Any] | None, video: str, dimension: str) -> str:
    if dimension == "order" or meta is None:
        return "order" if dimension == "order" else ""
    found = ((meta.get(video) or {}).get("eval_dim") or {}).get(dimension) or {}
    return str(found.get("type") or "")


def read_questions(path: Path, data: dict[str, Any], meta: dict[str, Any] | None = None) -> list[CaptionQuestion]:
    """The questions of ``caption_matching.json`` (a message names the file, the video, dimension and question)."""
    questions = []
    for video, dimensions in data.items():
        if not isinstance(dimensions, dict):
            raise schema_error(path, row=f"video {video!r}", expected="an object of dimensions", got=repr(dimensions)[:80])
        for dimension, items in dimensions.items():
            if dimension not in DIMENSIONS:
                raise schema_error(path, row=f"video {video!r}", column=dimension, expected=f"one of {list(DIMENSIONS)}",
                                   got=repr(dimension))  # fmt: skip
            if not isinstance(items, list):
                raise schema_error(path, row=f"video {video!r}", column=dimension, expected="a list of questions",
                                   got=repr(items)[:80])  # fmt: skip
            for k, item in enumerate(items):
                where = f"video {video!r}, {dimension} question {k}"
                for name in ("question", "answer"):
                    if not isinstance(item, dict) or not isinstance(item.get(name), str) or not item[name].strip():
                        got = repr(item.get(name) if isinstance(item, dict) else item)[:80]
                        raise schema_error(path, row=where, column=name, expected="non-empty text", got=got)
                options = parse_options(item["question"])
                lines = [line.strip() for line, _ in options]
                answer = item["answer"].strip()
                if answer not in lines:
                    raise schema_error(path, row=where, column="answer", expected=f"one of the option lines {lines}",
                                       got=repr(item["answer"])[:120])  # fmt: skip
                questions.append(CaptionQuestion(
                    id=f"{video}/{dimension}/{k}", video=f"videos/{video}.mp4", question=item["question"],
                    captions=tuple(caption for _, caption in options), answer=lines.index(answer), category=dimension,
                    where=where, extra={"aspect": _aspect(meta, video, dimension)},
                ))  # fmt: skip
    return questions


RELEASES = (
    RawRelease(
        "TempCompass release (the GitHub repository's `questions/` and `meta_info.json`; videos from the Hub)",
        (
            SourceFile(
                CAPTION_MATCHING,
                "JSON object: video id -> dimension -> list of objects, UTF-8",
                ("question", "answer"),
                note="under the folder passed as `--source` (the release folder); `question`: the asking line, then "
                "one `<label>: <caption>` line per option; `answer`: the right option's line",
            ),
            SourceFile(
                META_INFO,
                "JSON object, UTF-8",
                needed=False,
                note="read when present: each dimension's fine-grained aspect (`eval_dim.<dimension>.type`)",
            ),
            SourceFile(
                "videos/<video id>.mp4",
                "video clip (the release's `videos`, from `lmms-lab/TempCompass`)",
                needed=False,
                note="relative to `--media-root` (the release folder); checked only when it is given (never copied)",
            ),
        ),
        repo_id="llyx97/TempCompass",
        host="github",
    ),
)
"""What ``build_tables`` reads."""
