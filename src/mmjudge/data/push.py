"""Publishing a built dataset folder to the Hugging Face Hub, pinned to a tag.

:func:`plan_push` is pure: it lists the exact files a push uploads (and the remote files it deletes)
and the card it writes, with the revision pinned in the card's "Loading" section. :func:`push_dataset`
carries the plan out with ``huggingface_hub``: ``create_repo``, one ``create_commit`` holding every
file (so the repo never shows half an upload), then ``create_tag`` at that commit. An existing tag is
never moved: pick a new ``revision``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from mmjudge._version import __version__
from mmjudge.data.card import split_front_matter
from mmjudge.data.eval_yaml import EVAL_YAML
from mmjudge.errors import ConfigError, SchemaError

__all__ = ["PushPlan", "PushResult", "plan_push", "push_dataset"]

_KEEP_REMOTE = (".gitattributes",)


class PushPlan(NamedTuple):
    """What a push would do; computed without network."""

    repo_id: str
    """``org/name`` of the dataset repo."""
    revision: str
    """Tag created at the upload commit, and pinned in the card."""
    files: list[str]
    """Relative POSIX paths uploaded from the folder, sorted (``README.md`` included)."""
    deletes: list[str]
    """Remote files that are not in the folder (removed by the same commit)."""
    card_text: str
    """The ``README.md`` uploaded (the folder's card with the pinned revision added)."""
    card_yaml: dict[str, Any]
    """Its YAML front matter (``configs``, ``dataset_info``, template keys)."""
    held_back: tuple[str, ...] = ()
    """Folder files not uploaded: ``eval.yaml`` unless ``include_eval_yaml`` (see :mod:`mmjudge.data.eval_yaml`)."""


class PushResult(NamedTuple):
    """Where a push landed."""

    commit_url: str
    """URL of the upload commit."""
    oid: str
    """Commit hash."""
    revision: str
    """Tag pointing at that commit."""


def plan_push(
    folder: str | Path,
    repo_id: str,
    *,
    revision: str | None = None,
    remote_files: list[str] | tuple[str, ...] = (),
    include_eval_yaml: bool = False,
) -> PushPlan:
    """Plan the upload of a built folder (see :func:`push_dataset`).

    Args:
        folder: a folder written by :func:`mmjudge.benchmarks.build_dataset`.
        repo_id: ``org/name``.
        revision: tag name; default ``v<mmjudge version>``.
        remote_files: files already in the repo (to delete those the folder no longer has).
        include_eval_yaml: upload the folder's ``eval.yaml`` too (held back by default: the Hub must
            first accept its ``evaluation_framework``); a missing one is then an error.

    Raises:
        ConfigError: bad repo id or revision.
        SchemaError: no card, no ``configs`` in it, or a listed data file missing.
    """

    folder = Path(folder)
    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise ConfigError(f"repo id {repo_id!r}: expected ORG/NAME")
    revision = revision or f"v{__version__}"
    if not revision.strip() or any(c.isspace() for c in revision):
        raise ConfigError(f"revision {revision!r}: expected a tag name without spaces")
    card = folder / "README.md"
    if not card.is_file():
        raise SchemaError(
            f"{folder}: expected a built dataset folder with README.md; run `mmjudge build-dataset` first"
        )
    text = card.read_text(encoding="utf-8")
    meta, _ = split_front_matter(text)
    files = _folder_files(folder)
    held_back: tuple[str, ...] = ()
    if include_eval_yaml and EVAL_YAML not in files:
        raise SchemaError(
            f"{folder}: --eval-yaml asks to upload {EVAL_YAML}, which the folder lacks; rebuild it with "
            "`mmjudge build-dataset ... --eval-yaml`"
        )
    if not include_eval_yaml and EVAL_YAML in files:
        files.remove(EVAL_YAML)
        held_back = (EVAL_YAML,)
    _check_configs(card, meta, files)
    default = next(
        (c["config_name"] for c in meta["configs"] if c.get("default")), meta["configs"][0]["config_name"]
    )
    text = text.rstrip("\n") + "\n\n" + _loading_section(repo_id, revision, default) + "\n"
    keep = (*_KEEP_REMOTE, *held_back)
    deletes = sorted(f for f in remote_files if f not in files and f not in keep)
    return PushPlan(repo_id, revision, files, deletes, text, meta, held_back)


def _folder_files(folder: Path) -> list[str]:
    files = []
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if path.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            files.append(rel.as_posix())
    return sorted(files)


def _check_configs(card: Path, meta: dict[str, Any], files: list[str]) -> None:
    configs = meta.get("configs")
    if not isinstance(configs, list) or not configs:
        raise SchemaError(f"{card}: expected a `configs:` list in the YAML front matter, got {configs!r}")
    for config in configs:
        for entry in config.get("data_files", []):
            if entry["path"] not in files:
                raise SchemaError(
                    f"{card}: config {config.get('config_name')!r} split {entry.get('split')!r} lists "
                    f"{entry['path']}, which is not in the folder"
                )


def _loading_section(repo_id: str, revision: str, config: str) -> str:
    return (
        "## Loading this revision\n\n"
        f"This card was uploaded as revision `{revision}` (a tag of `{repo_id}`). Pin it for "
        "reproducible results:\n\n"
        "```python\nfrom datasets import load_dataset\n\n"
        f'ds = load_dataset("{repo_id}", "{config}", revision="{revision}")\n```'
    )


def push_dataset(
    folder: str | Path,
    repo_id: str,
    *,
    revision: str | None = None,
    private: bool = False,
    token: str | None = None,
    api: Any = None,
    include_eval_yaml: bool = False,
) -> PushResult:
    """Upload a built folder to the dataset repo ``repo_id`` and tag the commit ``revision``.

    Args:
        folder: a built dataset folder.
        repo_id: ``org/name`` (created when missing).
        revision: tag name; default ``v<mmjudge version>``; an existing tag is an error.
        private: create the repo private.
        token: Hub token (default: the logged-in one).
        api: an ``huggingface_hub.HfApi``-like object (tests pass a fake).
        include_eval_yaml: upload ``eval.yaml`` too (see :func:`plan_push`).
    """
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

    api = api if api is not None else HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    remote = api.list_repo_files(repo_id, repo_type="dataset")
    plan = plan_push(
        folder, repo_id, revision=revision, remote_files=list(remote), include_eval_yaml=include_eval_yaml
    )
    tags = {ref.name for ref in api.list_repo_refs(repo_id, repo_type="dataset").tags}
    if plan.revision in tags:
        raise ConfigError(f"{repo_id} already has a tag {plan.revision!r}: pass a new --revision")
    folder = Path(folder)
    operations: list[Any] = [
        CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(folder / rel))
        for rel in plan.files
        if rel != "README.md"
    ]
    operations.append(
        CommitOperationAdd(path_in_repo="README.md", path_or_fileobj=plan.card_text.encode("utf-8"))
    )
    operations += [CommitOperationDelete(path_in_repo=rel) for rel in plan.deletes]
    commit = api.create_commit(
        repo_id, operations=operations, commit_message=f"Upload dataset {plan.revision}", repo_type="dataset"
    )
    api.create_tag(repo_id, tag=plan.revision, revision=commit.oid, repo_type="dataset")
    return PushResult(commit.commit_url, commit.oid, plan.revision)
