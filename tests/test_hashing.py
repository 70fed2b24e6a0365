"""File digests without ``hashlib.file_digest`` (Python 3.11+), so the declared Python 3.10 works."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from mmjudge._hashing import file_sha256
from mmjudge.data.rows import dataset_hash

SRC = Path(__file__).resolve().parents[1] / "src" / "mmjudge"


@pytest.mark.parametrize("size", [0, 1, (1 << 20) - 1, 1 << 20, (5 << 19) + 3])
def test_file_sha256_equals_hashlib_over_the_whole_file(tmp_path: Path, size: int) -> None:
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    path = tmp_path / "blob"
    path.write_bytes(data)
    assert file_sha256(path) == hashlib.sha256(data).hexdigest()
    assert file_sha256(str(path)) == file_sha256(path)


def test_a_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        file_sha256(tmp_path / "absent")


def test_no_module_calls_hashlib_file_digest() -> None:
    """``hashlib.file_digest`` is missing on Python 3.10, which ``requires-python`` admits."""
    calls = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bhashlib\.file_digest\b", line)
    ]
    assert calls == [], f"use mmjudge._hashing.file_sha256 instead: {calls}"


def test_dataset_hash_is_unchanged_by_the_chunked_reader(tmp_path: Path) -> None:
    """The folder hash as it was computed with ``hashlib.file_digest``: path, NUL, the file's digest."""
    (tmp_path / "data" / "x").mkdir(parents=True)
    (tmp_path / "README.md").write_text("card")
    (tmp_path / "data" / "x" / "a.parquet").write_bytes(b"\x00" * 3_000_000)
    expected = hashlib.sha256()
    for rel, data in (("README.md", b"card"), ("data/x/a.parquet", b"\x00" * 3_000_000)):
        expected.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    assert dataset_hash(tmp_path) == expected.hexdigest()[:16]
