"""EmoReAlM (AVERE): audiovisual emotion reasoning questions from the release's JSON list.

Raw layout: ``source`` is the JSON list file (``emorealm_v1.json``); each item has ``id, video,
task, question, choices, answer``. ``video`` is relative to the DFEW clip root (``media_root``, gated:
never copied); the audio track is the same path with ``.wav``. ``choices`` is a list of strings like
``"(A) happy"``; ``answer`` is a letter (``"A"`` or ``"(A)"``, stored as ``"A"``). Extra fields are
kept (as JSON text when they are not strings).

Configs: ``all`` (default) and one per ``task`` present, in the order of :data:`TASKS`. One split,
``test``. Derived columns: ``is_yes_no`` (the two choices read Yes/No), ``num_choices``,
``video_path``, ``audio_path``, and ``media_missing`` when a media root was checked.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from mmjudge.data.build import BuiltConfig, BuiltDataset
from mmjudge.data.card import read_template
from mmjudge.data.media_paths import mark_missing_media, validate_relpath
from mmjudge.data.strict_read import check_allowed, check_unique, read_json_list, schema_error
from mmjudge.errors import SchemaError

__all__ = ["FIELDS", "TASKS", "build_tables", "is_yes_no", "normalize_items"]

TASKS = (
    "reasoning_basic_audio",
    "reasoning_basic_video",
    "reasoning_stress_audio",
    "reasoning_stress_video",
    "modality_agreement",
)
"""The five ``task`` values of the release."""
FIELDS = ("id", "video", "task", "question", "choices", "answer")
"""Fields every item must have."""

_LETTER = re.compile(r"^\s*[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*$")
_CHOICE_PREFIX = re.compile(r"^\s*[\(\[]?\s*[A-Za-z]\s*[\)\]\.:]\s*")


def is_yes_no(choices: list[str]) -> bool:
    """True when the choices are exactly Yes and No (after their letter prefixes).

    >>> is_yes_no(["(A) Yes", "(B) No"]), is_yes_no(["(A) happy", "(B) sad", "(C) angry"])
    (True, False)
    """
    texts = {_CHOICE_PREFIX.sub("", c).strip().rstrip(".").lower() for c in choices}
    return len(choices) == 2 and texts == {"yes", "no"}


def normalize_items(path: Path, items: list[dict[str, Any]]) -> pa.Table:
    """Check every item and return the ``all`` table with the derived columns."""
    ids = []
    for row, item in enumerate(items, start=1):
        for field in FIELDS:
            if field not in item or item[field] is None:
                raise schema_error(
                    path,
                    row=f"{row} (id {item.get('id')!r})",
                    column=field,
                    expected="a value",
                    got="nothing",
                )
        ids.append(str(item["id"]))
    check_unique(path, "id", ids)
    tasks = [item["task"] for item in items]
    check_allowed(path, "task", tasks, TASKS, ids=ids)
    columns: dict[str, list[Any]] = {k: [] for k in ("id", "video", "task", "question", "choices", "answer")}
    columns.update({"is_yes_no": [], "num_choices": [], "video_path": [], "audio_path": []})
    for row, (item, item_id) in enumerate(zip(items, ids, strict=True), start=1):
        where = f"{row} (id {item_id!r})"
        video = _video(path, where, item["video"])
        choices = _choices(path, where, item["choices"])
        columns["id"].append(item_id)
        columns["video"].append(item["video"])
        columns["task"].append(item["task"])
        columns["question"].append(_text(path, where, "question", item["question"]))
        columns["choices"].append(choices)
        columns["answer"].append(_answer(path, where, item["answer"], len(choices)))
        columns["is_yes_no"].append(is_yes_no(choices))
        columns["num_choices"].append(len(choices))
        columns["video_path"].append(video)
        columns["audio_path"].append(str(PurePosixPath(video).with_suffix(".wav")))
    table = pa.table(columns, schema=_schema())
    for name, values in _extras(items).items():
        table = table.append_column(name, pa.array(values, pa.string()))
    return table


def _schema() -> pa.Schema:
    text = pa.string()
    fields = [("id", text), ("video", text), ("task", text), ("question", text), ("choices", pa.list_(text))]
    fields += [("answer", text), ("is_yes_no", pa.bool_()), ("num_choices", pa.int32())]
    fields += [("video_path", text), ("audio_path", text)]
    return pa.schema(fields)


def _text(path: Path, where: str, column: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise schema_error(path, row=where, column=column, expected="non-empty text", got=repr(value)[:80])
    return value


def _video(path: Path, where: str, value: Any) -> str:
    _text(path, where, "video", value)
    try:
        return validate_relpath(value)
    except SchemaError as exc:
        raise schema_error(
            path, row=where, column="video", expected="a path relative to the DFEW root", got=str(exc)
        ) from None


def _choices(path: Path, where: str, value: Any) -> list[str]:
    if not isinstance(value, list) or len(value) < 2 or not all(isinstance(c, str) for c in value):
        raise schema_error(
            path, row=where, column="choices", expected="a list of at least two strings", got=repr(value)[:80]
        )
    return value


def _answer(path: Path, where: str, value: Any, num_choices: int) -> str:
    match = _LETTER.match(value) if isinstance(value, str) else None
    letters = [chr(ord("A") + i) for i in range(num_choices)]
    letter = match.group(1).upper() if match else None
    if letter not in letters:
        raise schema_error(
            path,
            row=where,
            column="answer",
            expected=f"one letter of {letters} (one per choice)",
            got=repr(value),
        )
    return letter


def _extras(items: list[dict[str, Any]]) -> dict[str, list[str | None]]:
    keys: dict[str, None] = {}
    for item in items:
        keys.update(dict.fromkeys(k for k in item if k not in FIELDS))
    out = {}
    for key in keys:
        values = [item.get(key) for item in items]
        out[key] = [
            v if v is None or isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in values
        ]
    return out


def build_tables(
    source: Path, *, media_root: Path | None = None, allow_missing_media: bool = False
) -> BuiltDataset:
    """Build ``all`` and the per-task configs of EmoReAlM (see the module doc)."""
    source = Path(source)
    if source.is_dir():
        candidates = sorted(source.glob("*.json"))
        if len(candidates) != 1:
            raise SchemaError(
                f"{source}: expected one JSON list file (emorealm_v1.json), found {[p.name for p in candidates]}"
            )
        source = candidates[0]
    table = normalize_items(source, read_json_list(source))
    missing = 0
    if media_root is not None:
        table, missing = mark_missing_media(
            table,
            media_root,
            allow_missing=allow_missing_media,
            source=source,
            id_column="id",
            columns=(("video_path", "video"), ("audio_path", "audio_path")),  # messages name the raw `video`
        )
    configs = [BuiltConfig("all", {"test": table}, "every question")]
    tasks = table.column("task")
    counts = {}
    for task in TASKS:
        subset = table.filter(pc.equal(tasks, task))
        counts[task] = subset.num_rows
        if subset.num_rows:
            configs.append(BuiltConfig(task, {"test": subset}, f"questions of task `{task}`"))
    return BuiltDataset(
        benchmark="emorealm",
        card_template=read_template("mmjudge.benchmarks.emorealm"),
        configs=configs,
        media_root_required=True,
        card_context={
            "num_questions": table.num_rows,
            "num_videos": len(set(table.column("video_path").to_pylist())),
            "task_counts": ", ".join(f"{k}: {v}" for k, v in counts.items()),
            "num_yes_no": int(pc.sum(table.column("is_yes_no")).as_py() or 0),
            "source_file": f"`{source.name}`",
            "media_missing_count": missing,
            "media_checked": "yes" if media_root is not None else "no (no media root given)",
            "raw_release": _release_section(),
        },
    )


def _release_section() -> str:
    """The card's list of what this builder reads (imported here: ``release`` reads this module's constants)."""
    from mmjudge.benchmarks.emorealm.release import RELEASES
    from mmjudge.data.release import release_section

    return release_section(RELEASES)
