"""Folders and files only this process's user can touch: where the leaderboard's worker and server keep what they
run and serve.

A folder another local user can write, or swap, is a folder whose content that user chooses: a worker that ran
``config.yaml`` from ``/tmp/mmjudge-requests`` (which anyone could create first) ran the planter's config as its own
user, and gradio served whatever ``/tmp/gradio`` pointed at. So every such folder is made here:

- its parent must be this user's or root's, and writable by no one else unless it is sticky (``/tmp``: others
  may add entries there but not rename or remove this user's);
- the folder is opened without following a symlink (``O_NOFOLLOW``), created with mode 0700 when missing, and
  must then be a folder of this user's that no one else may write; a folder of this user's that others may only
  read or enter (an older mmjudge made them 0755) is narrowed to 0700;
- anything else is refused with a :class:`~mmjudge.errors.ConfigError` naming the folder, its owner and mode, and
  what to do; nothing is followed, taken over or removed.

:func:`private_folder` checks one folder (its parent once); :func:`private_path` a chain below a trusted base, one
component at a time, each the parent of the next. Call them again before each use: they are cheap.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from pathlib import Path

from mmjudge.errors import ConfigError

__all__ = ["PRIVATE_MODE", "private_folder", "private_path", "read_own_file", "write_own_file"]

PRIVATE_MODE = 0o700
"""The mode of a folder only its owner may list, enter or write."""
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def _describe(info: os.stat_result) -> str:
    return f"owner uid {info.st_uid}, mode {stat.S_IMODE(info.st_mode):04o}"


def _check_parent(parent: Path, what: str) -> None:
    """Refuse a parent another user may swap entries in: not this user's or root's, or writable by others and
    not sticky."""
    try:
        info = parent.stat()
    except FileNotFoundError:
        raise ConfigError(f"{what}: {parent} does not exist; create it (a folder of your own) or choose another "
                          "place") from None  # fmt: skip
    mode = stat.S_IMODE(info.st_mode)
    foreign = info.st_uid not in (_uid(), 0)
    shared = bool(mode & 0o022) and not mode & stat.S_ISVTX
    if foreign or shared or not stat.S_ISDIR(info.st_mode):
        raise ConfigError(
            f"{what}: {parent} could be changed by another user ({_describe(info)}): a folder there could be "
            "replaced under this process; keep it in a folder of your own (e.g. `chmod go-w` it) or choose "
            "another place"
        )


def private_folder(path: str | Path, *, what: str = "private folder") -> Path:
    """``path`` as a folder only this user may enter: made with mode 0700 when missing, checked when present
    (see the module docstring); ``what`` names it in messages.

    Raises:
        ConfigError: the parent could be changed by another user, or ``path`` is a symlink, not a folder,
            another user's, or writable by others.

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> oct(private_folder(base / "work").stat().st_mode & 0o777)
    '0o700'
    >>> (base / "link").symlink_to(base / "work")
    >>> private_folder(base / "link")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mmjudge.errors.ConfigError: private folder: .../link is a symlink or not a folder (a symlink is never followed here): remove it, or choose another place
    """
    path = Path(os.path.abspath(path))
    _check_parent(path.parent, what)
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, PRIVATE_MODE)
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _DIRECTORY)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise ConfigError(f"{what}: {path} is a symlink or not a folder (a symlink is never followed here): "
                              "remove it, or choose another place") from None  # fmt: skip
        raise ConfigError(f"{what}: {path} cannot be opened ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        mode = stat.S_IMODE(info.st_mode)
        if info.st_uid != _uid() or mode & 0o022:
            raise ConfigError(
                f"{what}: {path} is not a folder of this user's alone ({_describe(info)}; this process runs as uid "
                f"{_uid()}): another user may have made it or written into it; remove it (its content is not "
                "trusted) or choose another place"
            )
        if mode & 0o077:
            os.fchmod(fd, PRIVATE_MODE)
    finally:
        os.close(fd)
    return path


def private_path(base: str | Path, *parts: str, what: str = "private folder") -> Path:
    """``base/parts[0]/parts[1]/...``, each component made or checked by :func:`private_folder` in turn (so each
    is the checked parent of the next); ``base`` itself is checked as a parent.

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> private_path(base, "a", "b") == base / "a" / "b"
    True
    """
    folder = Path(os.path.abspath(base))
    if not parts:
        _check_parent(folder, what)
    for part in parts:
        if not part or part in (".", "..") or "/" in part or os.sep in part:
            raise ValueError(f"expected one path component, got {part!r}")
        folder = private_folder(folder / part, what=what)
    return folder


def write_own_file(path: Path, data: bytes) -> str:
    """Write ``data`` to a new file ``path`` (mode 0600, never through a symlink, never over an existing file)
    and return its sha256; :func:`read_own_file` reads it back only while it still has that hash."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return hashlib.sha256(data).hexdigest()


def read_own_file(path: Path, sha256: str, *, what: str = "file") -> bytes:
    """The bytes of ``path`` (opened without following a symlink) when they still hash to ``sha256``.

    Raises:
        ConfigError: the file is gone, a symlink, not this user's, or its content changed since it was written.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError as exc:
        raise ConfigError(f"{what}: {path} cannot be read as the file this process wrote ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        data = file.read()
    if not stat.S_ISREG(info.st_mode) or info.st_uid != _uid() or hashlib.sha256(data).hexdigest() != sha256:
        raise ConfigError(f"{what}: {path} is not the file this process wrote (its content or owner changed): "
                          "refusing to use it")  # fmt: skip
    return data
