"""The judges the papers evaluate, and which of them mmjudge runs (the docs' judges page and the leaderboard's About tab).

One entry per judge row of the papers' result tables, kept in ``paper_judges.yaml`` beside this module: the
row's name as printed, the tables it is in, its Hub id or API model, and either the judge config under
``judges/`` that runs it or why it cannot run yet. A runnable VLM names its ``model_type``; its model family
(:mod:`mmjudge.judges.families`) gives the reference its preprocessing follows and the test that checks it,
unless the row names its own (a reward model whose official inference code is the reference).
:func:`coverage_markdown` renders the table; ``docs/judges/index.md`` holds a copy between two marker comments
(regenerate it with ``python -m mmjudge.judges.coverage --write-docs``).

>>> gemma = next(j for j in paper_judges("mist") if j.row == "Gm3-27B")
>>> gemma.family.name, gemma.parity
('gemma3', 'tests/judges/test_family_parity.py')
>>> next(j for j in paper_judges("isovrbench") if j.row == "LiFT").runs
False
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, fields
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from mmjudge.benchmarks import benchmark_ids, get_benchmark
from mmjudge.errors import ConfigError
from mmjudge.judges.families import ModelFamily, family_of

__all__ = ["BLOCK_END", "BLOCK_START", "DOCS_PAGE", "PaperJudge", "coverage_markdown", "embed", "paper_judges"]

BLOCK_START = "<!-- coverage:start (generated: python -m mmjudge.judges.coverage --write-docs) -->"
"""The line before the generated table in ``docs/judges/index.md``."""
BLOCK_END = "<!-- coverage:end -->"
"""The line after it."""
DOCS_PAGE = "docs/judges/index.md"
"""The page, relative to the repository root, that holds the generated table (``scripts/gen_docs.py`` rewrites it)."""

_PARITY_BY_PROFILE = {
    "qwen_vl_utils": "tests/judges/test_qwen_vl_parity.py",
    "qwen_omni_utils": "tests/judges/test_audio_visual_parity.py",  # audio_visual, the family's one judge
    None: "tests/judges/test_family_parity.py",  # every family whose processor sizes the pixels itself
}


@dataclass(frozen=True)
class PaperJudge:
    """One judge row of a paper's result tables, and how mmjudge runs it (or why it cannot yet)."""

    benchmark: str
    """Benchmark id."""
    row: str
    """The judge's name as the tables print it."""
    tables: tuple[int, ...]
    """The paper tables the row appears in."""
    model: str = ""
    """The full model name where the row abbreviates it."""
    hub: str | None = None
    """Hugging Face Hub id (``None``: not known here, or an API model)."""
    api: str | None = None
    """API model name of an API judge."""
    config: str | None = None
    """Judge config (a path under ``judges/``) that runs the model; ``None``: it cannot run yet."""
    blocked: str | None = None
    """Why it cannot run yet."""
    model_type: str | None = None
    """``config.model_type`` of a VLM run through a model family."""
    reference: str = ""
    """What its preprocessing follows (the family's reference, or the judge card's)."""
    parity: str = ""
    """The test file that checks the judge against that reference."""
    note: str = ""
    """How a run differs from the paper's row."""
    family: ModelFamily | None = field(default=None, compare=False)
    """The model family (``model_type`` given)."""

    @property
    def runs(self) -> bool:
        """Whether a shipped config runs it."""
        return self.config is not None


def _entry(benchmark: str, data: dict[str, Any]) -> PaperJudge:
    source = f"paper_judges.yaml, {benchmark} row {data.get('row')!r}"
    unknown = set(data) - {f.name for f in fields(PaperJudge)} | set(data) & {"benchmark", "family"}
    if unknown:
        raise ConfigError(f"{source}: unknown keys {sorted(unknown)} (the keys are listed atop the file)")
    if (data.get("config") is None) == (data.get("blocked") is None):
        raise ConfigError(f"{source}: give exactly one of `config` (it runs) or `blocked` (why not yet)")
    data = {**data, "tables": tuple(data["tables"])}
    if data.get("model_type"):
        family = family_of(data["model_type"], source=source)
        profile = family.profile.name if family.profile else None
        data.update(family=family, reference=data.get("reference") or family.reference,
                    parity=data.get("parity") or _PARITY_BY_PROFILE[profile])  # fmt: skip
    if data.get("config") and not (data.get("reference") and data.get("parity")):
        raise ConfigError(f"{source}: a runnable row needs `model_type`, or `reference` and `parity`")
    return PaperJudge(benchmark=benchmark, **data)


@cache
def _data() -> dict[str, Any]:
    import yaml

    text = resources.files("mmjudge.judges").joinpath("paper_judges.yaml").read_text(encoding="utf-8")
    return dict(yaml.safe_load(text))


def paper_judges(benchmark: str | None = None) -> list[PaperJudge]:
    """The judge rows of ``benchmark``'s paper (default: of every benchmark, in the registry's order).

    >>> len(paper_judges("emorealm"))  # its source prints no per-model results
    0
    """

    ids = benchmark_ids() if benchmark is None else (benchmark,)
    return [_entry(b, row) for b in ids for row in _data().get(b, {}).get("rows", [])]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _line(judge: PaperJudge) -> str:
    name = f"{judge.row} ({judge.model})" if judge.model else judge.row
    ident = f"`{judge.hub}`" if judge.hub else (f"API `{judge.api}`" if judge.api else "—")
    if judge.runs:
        how = f"`{judge.config}`" + (f"; {judge.note}" if judge.note else "")
        follows = f"`{judge.family.name}`: {judge.reference}" if judge.family else judge.reference
        checked = f"`{judge.parity}`"
    else:
        how, follows, checked = f"cannot run yet: {judge.blocked}", "—", "—"
    cells = [name, ", ".join(map(str, judge.tables)), ident, how, follows, checked]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _section(benchmark: str) -> list[str]:

    info, judges = get_benchmark(benchmark), paper_judges(benchmark)
    citation = (info.reported() or {}).get("citation", "") or info.citation
    if not judges:
        note = " ".join(str(_data()[benchmark].get("note", "")).split())
        return [f"**{info.title}** ({citation}): no judge rows", "", note, ""]
    lines = [f"**{info.title}** ({citation}): {sum(j.runs for j in judges)} of {len(judges)} run", ""]
    header = "| judge (as printed) | tables | Hub id / API model | runs with | preprocessing follows | parity test |"
    return [*lines, header, "|---|---|---|---|---|---|", *map(_line, judges), ""]


def coverage_markdown() -> str:
    """The coverage table as Markdown: a summary line, then one table per benchmark.

    >>> print(coverage_markdown().splitlines()[0])
    82 judge rows in the papers' result tables: 56 run in mmjudge, 26 cannot run yet.
    """

    judges = paper_judges()
    runs = sum(j.runs for j in judges)
    summary = (f"{len(judges)} judge rows in the papers' result tables: {runs} run in mmjudge, "
               f"{len(judges) - runs} cannot run yet.")  # fmt: skip
    lines = [summary, ""]
    for benchmark in benchmark_ids():
        lines += _section(benchmark)
    for entry in _data().get("not_built", []):
        tables = ", ".join(map(str, entry["tables"]))
        lines += [f"**{entry['benchmark']}** (tables {tables}): not built. {' '.join(str(entry['why']).split())}", ""]
    return "\n".join(lines)


def embed(text: str) -> str:
    """``text`` (``docs/judges/index.md``) with the block between :data:`BLOCK_START` and :data:`BLOCK_END`
    regenerated.

    >>> text = f"intro\\n{BLOCK_START}\\nstale\\n{BLOCK_END}\\nrest\\n"
    >>> "stale" in embed(text), embed(embed(text)) == embed(text), embed(text).endswith(f"{BLOCK_END}\\nrest\\n")
    (False, True, True)
    """
    if text.count(BLOCK_START) != 1 or text.count(BLOCK_END) != 1:
        raise ConfigError(f"expected one {BLOCK_START!r} and one {BLOCK_END!r} line, found "
                          f"{text.count(BLOCK_START)} and {text.count(BLOCK_END)}")  # fmt: skip
    head, rest = text.split(BLOCK_START)
    return f"{head}{BLOCK_START}\n{coverage_markdown()}{BLOCK_END}{rest.split(BLOCK_END)[1]}"


def main(argv: list[str] | None = None) -> int:
    """``python -m mmjudge.judges.coverage [--write-docs [PATH]]``: print the table, or regenerate the docs page."""
    parser = argparse.ArgumentParser(prog="python -m mmjudge.judges.coverage", description=main.__doc__)
    parser.add_argument("--write-docs", nargs="?", const=DOCS_PAGE, metavar="PATH",
                        help=f"rewrite the generated block of this page (default: {DOCS_PAGE})")  # fmt: skip
    args = parser.parse_args(argv)
    if args.write_docs is None:
        print(coverage_markdown(), end="")
        return 0
    path = Path(args.write_docs)
    path.write_text(embed(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
