"""The prompt file of ``mmjudge build-interventions``: JSON Lines, one prompt per line.

Keys: ``prompt`` (required); ``prompt_id`` (letters, digits, ``_ . -``; default ``p`` + 10 hex digits of
the prompt's sha256, so reordering the file changes nothing); ``seed`` (default: derived from the
config's ``seed`` and the prompt id); ``edited_prompt`` (the ``attribute_edit`` prompt, one attribute
changed or removed) and ``edit`` (a note on what was changed). Other keys are refused.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmjudge.errors import MissingFileError, SchemaError

__all__ = ["PromptRecord", "derive_seed", "read_prompts"]

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_KEYS = ("prompt_id", "prompt", "seed", "edited_prompt", "edit")


@dataclass(frozen=True)
class PromptRecord:
    """One line of the prompt file."""

    prompt_id: str
    """Stable id; names the prompt's clip folder and its pairs."""
    prompt: str
    """The prompt every clip of the pair is scored under."""
    seed: int | None = None
    """The anchor's seed (``None``: derived from the config's seed and the id)."""
    edited_prompt: str | None = None
    """The ``attribute_edit`` prompt, when given in the file."""
    edit: str | None = None
    """What the edit changed (recorded, not used)."""


def derive_seed(base: int, prompt_id: str) -> int:
    """A seed in ``[0, 2**31)`` from the config's base seed and a prompt id (independent of file order).

    >>> derive_seed(0, "p001") == derive_seed(0, "p001") != derive_seed(1, "p001")
    True
    """
    digest = hashlib.sha256(f"{base}:{prompt_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def read_prompts(path: str | Path) -> list[PromptRecord]:
    """Read and check a prompt file (see the module doc); errors name the line.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "prompts.jsonl"
    >>> _ = p.write_text('{"prompt_id": "a1", "prompt": "a red car", "edited_prompt": "a blue car"}\\n'
    ...                  '{"prompt": "a dog runs", "seed": 7}\\n')
    >>> [(r.prompt_id, r.seed) for r in read_prompts(p)]
    [('a1', None), ('p1138b7009f', 7)]
    """
    path = Path(path)
    if not path.is_file():
        raise MissingFileError(
            f"prompt file {path} does not exist: expected JSON Lines with a `prompt` per line"
        )
    records: list[PromptRecord] = []
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record = _record(path, number, line)
            if record.prompt_id in seen:
                raise SchemaError(
                    f"{path}, line {number}: prompt_id {record.prompt_id!r} again (first on line "
                    f"{seen[record.prompt_id]}); ids must be unique"
                )
            seen[record.prompt_id] = number
            records.append(record)
    if not records:
        raise SchemaError(f"{path}: no prompts (expected one JSON object with a `prompt` per line)")
    return records


def _record(path: Path, number: int, line: str) -> PromptRecord:
    where = f"{path}, line {number}"
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{where}: expected one JSON object, got invalid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise SchemaError(f"{where}: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise SchemaError(f"{where}: unknown key {unknown[0]!r}; known keys: {list(_KEYS)}")
    prompt = _text(where, data, "prompt", required=True)
    assert prompt is not None
    prompt_id = _text(where, data, "prompt_id") or "p" + hashlib.sha256(prompt.encode()).hexdigest()[:10]
    if not _ID.match(prompt_id):
        raise SchemaError(
            f"{where}: prompt_id {prompt_id!r} must be 1-64 letters, digits, '_', '.' or '-' (it names a folder)"
        )
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise SchemaError(f"{where}: seed must be a whole number >= 0, got {seed!r}")
    edited = _text(where, data, "edited_prompt")
    if edited is not None and edited.strip() == prompt.strip():
        raise SchemaError(f"{where}: edited_prompt is the prompt itself; change or remove one attribute")
    return PromptRecord(prompt_id, prompt, seed, edited, _text(where, data, "edit"))


def _text(where: str, data: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise SchemaError(f"{where}: {key} must be a non-empty string, got {value!r}")
    return value
