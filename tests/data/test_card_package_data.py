"""Dataset cards come from templates shipped as package data: a wheel holds them, a wheel install writes
full cards (license, task categories, pretty name, body), and a missing template stops the build instead of
leaving a bare card. ``license: other`` comes with ``license_name`` and ``license_link``, and
``size_categories`` follows the default config's row count (the Hub's buckets: n<1K, 1K<n<10K, ...)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pyarrow as pa
import pytest
import yaml
from data_helpers import CARD

from mmjudge.data.build import BuiltConfig, BuiltDataset, write_folder
from mmjudge.data.card import CARD_TEMPLATE, read_template, size_category, split_front_matter
from mmjudge.errors import ConfigError, MissingFileError

REPO = Path(__file__).resolve().parents[2]
BUILTINS = ("isovrbench", "mist", "emoprefer", "emorealm")
HUB_KEYS = ("pretty_name", "license", "license_name", "license_link", "task_categories", "language")


def _card(folder: Path) -> tuple[dict, str]:
    return split_front_matter((folder / "README.md").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a copy of the checkout's ``pyproject.toml``, ``README.md`` and ``src/``."""
    root = tmp_path_factory.mktemp("wheel")
    project = root / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(REPO / "src", project / "src", ignore=ignore)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*command, "-w", str(root / "dist"), str(project)], check=True, timeout=300)
    (built,) = (root / "dist").glob("mmjudge-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed into a folder of its own (put first on ``PYTHONPATH``; no checkout around)."""
    target = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)]
    subprocess.run(command, check=True, timeout=300)
    return target


def _sample_from(site: Path, cwd: Path, benchmarks: list[str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import json, sys, mmjudge\n"
        "from mmjudge.benchmarks import write_sample_data\n"
        "write_sample_data('out', benchmarks=sys.argv[1:])\n"
        "print(json.dumps(mmjudge.__file__))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site), "HF_HUB_OFFLINE": "1"}
    return subprocess.run(
        [sys.executable, "-c", code, *benchmarks],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_wheel_ships_every_card_template(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"mmjudge/benchmarks/{b}/{CARD_TEMPLATE}" for b in BUILTINS}
    assert expected <= names, sorted(expected - names)


def test_a_wheel_install_writes_full_cards(installed, tmp_path):
    done = _sample_from(installed, tmp_path, ["emoprefer", "mist"])
    assert done.returncode == 0, done.stderr
    assert Path(json.loads(done.stdout.splitlines()[-1])).is_relative_to(installed)  # not the checkout
    for benchmark in ("emoprefer", "mist"):
        meta, body = _card(tmp_path / "out" / benchmark)
        assert all(meta.get(key) for key in HUB_KEYS), {key: meta.get(key) for key in HUB_KEYS}
        assert meta["license"] == "other" and meta["license_link"] == "LICENSE.md"
        assert (tmp_path / "out" / benchmark / "LICENSE.md").is_file()
        assert meta["size_categories"] == ["n<1K"]
        assert "## Configs" in body and "${" not in body


def test_a_wheel_install_without_a_template_fails_naming_it(installed, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(installed, site)
    (site / "mmjudge" / "benchmarks" / "emoprefer" / CARD_TEMPLATE).unlink()
    done = _sample_from(site, tmp_path, ["emoprefer"])
    assert done.returncode != 0
    assert (
        "MissingFileError" in done.stderr
        and f"{CARD_TEMPLATE} of mmjudge.benchmarks.emoprefer" in done.stderr
    )
    assert "Reinstall mmjudge" in done.stderr
    assert not (tmp_path / "out" / "emoprefer" / "README.md").exists()


@pytest.mark.parametrize("benchmark", list(BUILTINS))
def test_every_shipped_template_has_the_hub_keys_and_a_licence_section(benchmark):
    meta, body = split_front_matter(read_template(f"mmjudge.benchmarks.{benchmark}"))
    assert all(meta.get(key) for key in HUB_KEYS), {key: meta.get(key) for key in HUB_KEYS}
    assert "size_categories" not in meta  # computed from the rows
    assert "\n## Licen" in body


def test_sample_cards_count_their_default_config_and_the_16_pair_sample_is_below_1k(sample_data):
    for benchmark in BUILTINS:
        meta, _ = _card(sample_data / benchmark)
        infos = meta["dataset_info"] if isinstance(meta["dataset_info"], list) else [meta["dataset_info"]]
        rows = sum(s["num_examples"] for s in infos[0]["splits"])  # the default config comes first
        assert meta["size_categories"] == [size_category(rows)], benchmark
        assert (sample_data / benchmark / "LICENSE.md").is_file()
    isovrbench, _ = _card(sample_data / "isovrbench")
    assert sum(s["num_examples"] for s in isovrbench["dataset_info"][0]["splits"]) == 16
    assert isovrbench["size_categories"] == ["n<1K"]


@pytest.mark.parametrize(
    ("rows", "bucket"),
    [(0, "n<1K"), (16, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (9_999, "1K<n<10K"),
     (10_000, "10K<n<100K"), (123_456, "100K<n<1M"), (10**9, "1B<n<10B"), (10**12, "n>1T")],
)  # fmt: skip
def test_size_category_follows_the_hub_buckets(rows, bucket):
    assert size_category(rows) == bucket


def _table(n: int) -> pa.Table:
    return pa.table({"id": [str(i) for i in range(n)]})


def test_size_categories_count_the_default_config_only(tmp_path):
    configs = [BuiltConfig("all", {"test": _table(600)}), BuiltConfig("copy", {"test": _table(600)})]
    write_folder(BuiltDataset("toy", configs, card_template=CARD), tmp_path / "out")
    assert _card(tmp_path / "out")[0]["size_categories"] == ["n<1K"]


def test_a_dataset_without_a_template_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="no card template"):
        write_folder(BuiltDataset("toy", [BuiltConfig("all", {"test": _table(1)})]), tmp_path / "out")
    assert not (tmp_path / "out" / "README.md").exists()


@pytest.mark.parametrize(
    ("front", "match"),
    [("pretty_name: T\n", "no `license`"), ("license: other\nlicense_name: x\n", r"lacks \['license_link'\]"),
     ("license: other\nlicense_link: LICENSE.md\n", r"lacks \['license_name'\]")],
)  # fmt: skip
def test_license_keys_are_required(tmp_path, front, match):
    built = BuiltDataset(
        "toy", [BuiltConfig("all", {"test": _table(1)})], card_template=f"---\n{front}---\n# T\n"
    )
    with pytest.raises(ConfigError, match=match):
        write_folder(built, tmp_path / "out")


def test_a_license_file_is_written_from_the_licence_section(tmp_path):
    template = (
        "---\nlicense: other\nlicense_name: toy-terms\nlicense_link: LICENSE.md\npretty_name: Toy\n---\n"
        "# Toy\n\n## Licence and citation\n\nUse ${benchmark} kindly.\n\n## Other\n\nnot terms\n"
    )
    write_folder(
        BuiltDataset("toy", [BuiltConfig("all", {"test": _table(1)})], card_template=template), tmp_path
    )
    assert (tmp_path / "LICENSE.md").read_text(encoding="utf-8") == (
        "# Terms of Toy\n\nLicense id on the Hub: `toy-terms`.\n\nUse toy kindly.\n"
    )
    assert yaml.safe_load((tmp_path / "README.md").read_text(encoding="utf-8").split("---\n")[1])[
        "license_link"
    ] == ("LICENSE.md")


def test_read_template_names_the_missing_file():
    with pytest.raises(
        MissingFileError, match=r"no_such\.md of mmjudge\.benchmarks\.mist .*Reinstall mmjudge"
    ):
        read_template("mmjudge.benchmarks.mist", "no_such.md")
