"""The docs site (``mkdocs.yml``, ``docs/``): the generated pages are what ``scripts/gen_docs.py`` writes now,
every registered benchmark has its page in the menu, and the README stays a short entry point.

``make docs`` (part of ``make test``) runs the same check and then ``mkdocs build --strict``;
``tests/test_docs_browser.py`` renders the built pages in Chromium.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
README_MAX_LINES = 200


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


gen_docs = _script("gen_docs")


def _nav_pages() -> list[str]:
    class _Loader(yaml.SafeLoader):
        pass

    _Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # mkdocs' !!python/name tags, if any
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)

    def walk(entry: object) -> list[str]:
        if isinstance(entry, str):
            return [entry]
        if isinstance(entry, dict):
            return [p for value in entry.values() for p in walk(value)]
        if isinstance(entry, list):
            return [p for item in entry for p in walk(item)]
        return []

    return walk(config["nav"])


def test_the_generated_pages_are_current() -> None:
    assert gen_docs.stale() == [], "run `python scripts/gen_docs.py` and commit the pages it rewrites"


def test_a_stale_page_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a hand edit of a generated page, and a card whose judge is gone, are named."""
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    cli = docs / "cli.md"
    cli.write_text(cli.read_text(encoding="utf-8").replace("--out", "--output", 1), encoding="utf-8")
    (docs / "judges" / "cards" / "retired_judge.md").write_text("# gone\n", encoding="utf-8")
    monkeypatch.setattr(gen_docs, "DOCS", docs)
    assert gen_docs.stale() == ["docs/cli.md", "docs/judges/cards/retired_judge.md (its judge card is gone)"]


def test_every_benchmark_and_judge_card_has_a_page_in_the_menu() -> None:
    from mmjudge.benchmarks import benchmark_ids

    nav = _nav_pages()
    assert [p for p in nav if not (REPO / "docs" / p).is_file()] == []
    wanted = [f"benchmarks/{b}.md" for b in benchmark_ids()]
    wanted += [f"judges/cards/{card.parent.name}.md" for card in sorted((REPO / "judges").glob("*/README.md"))]
    assert [p for p in wanted if p not in nav] == [], "add these pages to mkdocs.yml's nav"


def test_each_benchmark_page_holds_its_release_card_metrics_and_parity_test() -> None:
    from mmjudge.benchmarks import benchmark_ids, get_benchmark

    for benchmark in benchmark_ids():
        page = (REPO / "docs" / "benchmarks" / f"{benchmark}.md").read_text(encoding="utf-8")
        headings = re.findall(r"^## (.+)$", page, re.M)
        assert headings[:1] == ["Release format"] and "Parity test" in headings, (benchmark, headings)
        assert page.startswith(f"# {get_benchmark(benchmark).title}\n")
        assert "| file | format | required columns |" in page, benchmark
        assert re.search(r"^\* `tests/benchmarks/.+\.py`$", page, re.M), f"{benchmark}: no scorer test named"
        assert "${" not in page, f"{benchmark}: a card placeholder was left unmarked"


def test_the_readme_is_short_and_lists_every_benchmark() -> None:
    from mmjudge.benchmarks import benchmark_ids

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MAX_LINES
    assert "mmjudge measures multimodal judges" in readme.split("\n## ", 1)[0], "say what mmjudge is first"
    rows = re.findall(r"^\| `(\w+)` \|", readme, re.M)
    assert rows == list(benchmark_ids())
    assert "make demo" in readme and "make test" in readme


def test_the_readme_links_only_to_pages_that_exist() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", readme)
    assert links and [link for link in links if not (REPO / link).is_file()] == []


def test_doctest_examples_are_fenced_for_the_api_reference() -> None:
    fence = _script("griffe_doctest").fence_doctests
    text = "Sum.\n\n>>> bootstrap_cis([1, 0])\n[0.67, 0.33]\n\nDone.\n```python\n>>> kept\n```"
    assert fence(text) == (
        "Sum.\n\n```pycon\n>>> bootstrap_cis([1, 0])\n[0.67, 0.33]\n```\n\nDone.\n```python\n>>> kept\n```"
    )
    assert fence("    >>> 1\n    1") == "    ```pycon\n    >>> 1\n    1\n    ```"
