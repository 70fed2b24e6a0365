"""Where a run's data came from: a built folder on this machine, or a Hub dataset repo at a revision.

``mmjudge eval``, ``score``, ``compare`` and ``robustness`` take ``--data`` as a folder, ``ORG/NAME`` or
``ORG/NAME@REVISION`` (a Hub dataset repo, when no such folder exists here). :func:`resolve_data` turns it
into a :class:`DataSource`: the local folder to read, and the location to record in ``results.json``
(``run.data``): ``{"path": <absolute folder>}`` or ``{"hub": <repo id>, "revision": <commit sha>}``
(a Hub source also keeps the prediction file shareable: its provenance names the repo and commit, never a
local path). :func:`recorded_data` finds the data of a finished run again from that record, so the
commands work without ``--data``; a folder that moved or was deleted gives an error naming the recorded
place and how to pass the new one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge._checks import hub_repo_problem, ref_name_problem
from mmjudge.errors import MissingFileError

__all__ = ["DataSource", "location_of", "recorded_data", "resolve_data"]

_HUB = re.compile(r"^(?:hf://datasets/)?(?P<repo>[A-Za-z0-9][\w.\-]*/[\w.\-]+)(?:@(?P<revision>[\w.\-/]+))?$")


class DataSource(NamedTuple):
    """A benchmark folder to read and where it came from."""

    path: Path
    """The local folder (a Hub snapshot lives in the Hugging Face cache)."""
    location: dict[str, str]
    """``{"path": ...}`` or ``{"hub": ..., "revision": ...}``: what a run records."""

    def describe(self) -> str:
        """One line: the folder, or the repo at its commit.

        >>> DataSource(Path("/d/iso"), {"path": "/d/iso"}).describe()
        '/d/iso'
        """
        if "hub" in self.location:
            return f"{self.location['hub']}@{self.location['revision']} (Hub dataset)"
        return str(self.location["path"])


def resolve_data(spec: str | Path) -> DataSource:
    """The data ``spec`` names: an existing folder, else a Hub dataset ``ORG/NAME[@REVISION]``.

    The Hub repo is fetched with ``huggingface_hub.snapshot_download`` (from the cache only when
    ``HF_HUB_OFFLINE`` is set) and recorded at the commit it resolved to.

    Raises:
        MissingFileError: neither a folder here nor a fetchable Hub dataset.
    """
    path = Path(spec)
    if path.is_dir():
        return DataSource(path, {"path": str(path.resolve())})
    match = _HUB.match(str(spec))
    if match is None or path.exists():
        raise MissingFileError(
            f"{spec} is not an existing folder: expected a built benchmark folder (a README.md with configs and "
            "parquet files) or a dataset repo ORG/NAME[@REVISION]; build one with `mmjudge build-dataset <id>` "
            "or `mmjudge sample-data`, or check the --data path"
        )
    return _from_hub(match["repo"], match["revision"], what=f"--data {str(spec)!r}")


def _checked_hub(repo: str, revision: str | None, what: str) -> None:
    """Refuse a Hub location that is not a repo id at a git ref name (a path, a URL, ``..``): the same rules
    for ``--data`` and for a location read from a file (:func:`mmjudge._checks.hub_repo_problem`,
    :func:`mmjudge._checks.ref_name_problem`)."""
    problem = hub_repo_problem(repo)
    if not problem and revision is not None:
        problem = ref_name_problem(revision)
        problem = f"revision {revision[:80]!r}: {problem}" if problem else ""
    elif problem:
        problem = f"repo {repo[:80]!r}: {problem}"
    if problem:
        raise MissingFileError(
            f"{what} names no Hub dataset: {problem}; expected ORG/NAME[@REVISION] with a branch, tag or commit, "
            "or pass --data with the built folder"
        )


def _from_hub(repo: str, revision: str | None, *, what: str) -> DataSource:
    from huggingface_hub import constants, snapshot_download

    _checked_hub(repo, revision, what)
    try:
        folder = Path(
            snapshot_download(repo, repo_type="dataset", revision=revision, local_files_only=constants.HF_HUB_OFFLINE)
        )
    except (OSError, ValueError) as exc:  # every hub lookup error is an OSError or a ValueError
        offline = " (HF_HUB_OFFLINE is set: only the local cache was searched)" if constants.HF_HUB_OFFLINE else ""
        raise MissingFileError(
            f"{what}: not a folder here, and the Hub dataset {repo}@{revision or 'main'} could not be fetched"
            f"{offline}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}. Pass --data with the built "
            "folder, or a reachable ORG/NAME@REVISION"
        ) from exc
    return DataSource(folder, {"hub": repo, "revision": folder.name})


def recorded_data(location: Mapping[str, Any] | None, *, run: str, dataset_hash: str | None = None) -> DataSource:
    """The data a finished run recorded (``results.json`` ``run.data``), found again.

    Args:
        location: the record (``{"path": ...}`` or ``{"hub": ..., "revision": ...}``), or ``None``.
        run: the run's name for messages (its folder or file).
        dataset_hash: the dataset hash the run recorded, for messages.

    Raises:
        MissingFileError: nothing recorded, or the recorded folder is gone and no Hub repo is recorded.
    """
    digest = f" (dataset hash {dataset_hash})" if dataset_hash else ""
    if not location:
        raise MissingFileError(
            f"{run} records no data location{digest} (written before runs recorded it, or by hand): pass --data "
            "with the built folder it was scored on"
        )
    if location.get("hub"):
        revision = location.get("revision")
        return _from_hub(str(location["hub"]), None if revision is None else str(revision),
                         what=f"{run} (recorded data)")  # fmt: skip
    folder = Path(str(location.get("path", "")))
    if not folder.is_dir():
        raise MissingFileError(
            f"{run} was scored on the data folder {str(folder)!r}{digest}, which is not a folder here (moved or "
            "deleted?): pass --data with its new place"
        )
    return DataSource(folder, {"path": str(folder)})


def location_of(data: str | Path | DataSource) -> DataSource:
    """``data`` as a :class:`DataSource` (a folder or Hub spec is resolved)."""
    return data if isinstance(data, DataSource) else resolve_data(data)

