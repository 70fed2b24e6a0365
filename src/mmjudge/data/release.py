"""What a benchmark's raw release is and which files ``mmjudge build-dataset`` reads from it.

Each benchmark declares its release as :class:`RawRelease` values built from its builder's own
constants (required columns, file names), and its builder puts :func:`release_section` into the card
(``${raw_release}``), so the card lists exactly what the code reads. A release the paper publishes
under a Hub or GitHub id links it; one without a published id says so and what to do instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["RawRelease", "SourceFile", "release_link", "release_section"]

_URLS = {"hub": "https://huggingface.co/datasets/{}", "github": "https://github.com/{}"}


class SourceFile(NamedTuple):
    """One file (or set of files) of a raw release that the builder reads."""

    name: str
    """File name or pattern as the builder looks for it (``items.csv``, ``<stem>_reverse.csv``)."""
    format: str
    """File format (``CSV, UTF-8, header line``, ``JSON list of objects``, ``parquet``)."""
    required: tuple[str, ...] = ()
    """Columns (fields) the builder refuses the file without."""
    optional: tuple[str, ...] = ()
    """Columns the builder reads when present."""
    needed: bool = True
    """The build fails without this file (``False``: optional file)."""
    note: str = ""
    """One more line: values allowed, where paths point, what else is kept."""


class RawRelease(NamedTuple):
    """One raw release layout ``build-dataset`` accepts for a benchmark."""

    title: str
    """What the release is (``"EmoPrefer-Data release (CSV files)"``)."""
    files: tuple[SourceFile, ...]
    """The files the builder reads, in the order it reads them."""
    repo_id: str = ""
    """The Hub or GitHub id the paper gives for the release (empty: not published)."""
    host: str = "hub"
    """``hub`` (a Hub dataset repo) or ``github``."""
    unpublished: str = ""
    """What to do when :attr:`repo_id` is empty (whom to ask, what to pass as ``--source``)."""


def release_link(release: RawRelease) -> str:
    """Markdown for where the release lives.

    >>> release_link(RawRelease("AdMIRe", (), "org/data"))
    '[`org/data`](https://huggingface.co/datasets/org/data) (Hugging Face Hub)'
    >>> release_link(RawRelease("X", (), unpublished="the paper gives no id; ask the authors"))
    'not published: the paper gives no id; ask the authors'
    """
    if not release.repo_id:
        return f"not published: {release.unpublished}"
    place = "Hugging Face Hub" if release.host == "hub" else "GitHub"
    return f"[`{release.repo_id}`]({_URLS[release.host].format(release.repo_id)}) ({place})"


def release_section(releases: Sequence[RawRelease]) -> str:
    """The card's markdown for the releases: where each lives and a table of the files the builder reads.

    >>> print(release_section([RawRelease("R", (SourceFile("a.csv", "CSV", ("id",), ("x",)),), "o/r")]))
    **R**: [`o/r`](https://huggingface.co/datasets/o/r) (Hugging Face Hub)
    <BLANKLINE>
    | file | format | required columns | optional columns | notes |
    |---|---|---|---|---|
    | `a.csv` | CSV | `id` | `x` |  |
    """
    blocks = []
    for release in releases:
        lines = [f"**{release.title}**: {release_link(release)}", "", _HEADER, "|---|---|---|---|---|"]
        lines += [_file_row(f) for f in release.files]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


_HEADER = "| file | format | required columns | optional columns | notes |"


def _file_row(file: SourceFile) -> str:
    name = f"`{file.name}`" + ("" if file.needed else " (optional)")
    required = ", ".join(f"`{c}`" for c in file.required) or "-"
    optional = ", ".join(f"`{c}`" for c in file.optional) or "-"
    return f"| {name} | {file.format} | {required} | {optional} | {file.note} |"
