"""Each dataset card links the raw release (or says it is not published) and lists exactly the files and
columns ``build-dataset`` reads: every listed required column is one the builder refuses a file without,
and a file holding only the listed required columns builds."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from mmjudge.benchmarks import benchmark_ids, get_benchmark, write_sample_data
from mmjudge.benchmarks.emoprefer.release import RELEASES as EMOPREFER
from mmjudge.benchmarks.emorealm.release import RELEASES as EMOREALM
from mmjudge.benchmarks.genai_bench_video.release import RELEASES as GENAI_BENCH_VIDEO
from mmjudge.benchmarks.isovrbench.release import RELEASES as ISOVRBENCH
from mmjudge.benchmarks.mist import sample as mist_sample
from mmjudge.benchmarks.mist.release import RELEASES as MIST
from mmjudge.benchmarks.mj_bench_video.release import RELEASES as MJ_BENCH_VIDEO
from mmjudge.benchmarks.tempcompass.release import RELEASES as TEMPCOMPASS
from mmjudge.benchmarks.temporalbench.release import RELEASES as TEMPORALBENCH
from mmjudge.benchmarks.videogen_rewardbench.release import RELEASES as VIDEOGEN_REWARDBENCH
from mmjudge.data.build import write_folder
from mmjudge.data.release import release_section
from mmjudge.errors import ConfigError, SchemaError

PUBLISHED = {"videogen_rewardbench": "KwaiVGI/VideoGen-RewardBench", "genai_bench_video": "TIGER-Lab/GenAI-Bench",
             "mj_bench_video": "MJ-Bench/MJ-BENCH-VIDEO"}  # fmt: skip
"""The published video preference benchmarks and the Hub ids of their releases."""
RELEASES = {"isovrbench": ISOVRBENCH, "mist": MIST, "emoprefer": EMOPREFER, "emorealm": EMOREALM,
            "temporalbench": TEMPORALBENCH, "tempcompass": TEMPCOMPASS, "videogen_rewardbench": VIDEOGEN_REWARDBENCH,
            "genai_bench_video": GENAI_BENCH_VIDEO, "mj_bench_video": MJ_BENCH_VIDEO}  # fmt: skip
ADMIRE = "UCSC-Admire/idiom-SFT-dataset-561-2024-12-06_00-40-30"
"""The one release id the papers give (MIST's source, AdMIRe), written out here."""


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("samples")
    write_sample_data(root)
    return root


@pytest.mark.parametrize("benchmark", benchmark_ids())
def test_the_built_card_holds_the_release_section_with_every_file_and_required_column(samples, benchmark):
    card = (samples / benchmark / "README.md").read_text(encoding="utf-8")
    assert release_section(RELEASES[benchmark]) in card
    for release in RELEASES[benchmark]:
        for file in release.files:
            assert f"`{file.name}`" in card
            assert all(f"`{column}`" in card for column in file.required)


def test_releases_link_only_the_ids_their_papers_give(samples):
    mist = (samples / "mist" / "README.md").read_text(encoding="utf-8")
    assert f"[`{ADMIRE}`](https://huggingface.co/datasets/{ADMIRE}) (Hugging Face Hub)" in mist
    linked = [r.repo_id for releases in RELEASES.values() for r in releases if r.repo_id]
    # TempCompass: its GitHub repo
    assert linked == [ADMIRE, "microsoft/TemporalBench", "llyx97/TempCompass", *PUBLISHED.values()]
    tempcompass = (samples / "tempcompass" / "README.md").read_text(encoding="utf-8")
    assert "https://github.com/llyx97/TempCompass" in tempcompass
    for benchmark, repo in PUBLISHED.items():
        card = (samples / benchmark / "README.md").read_text(encoding="utf-8")
        assert f"[`{repo}`](https://huggingface.co/datasets/{repo}) (Hugging Face Hub)" in card
    for benchmark in ("isovrbench", "emoprefer", "emorealm"):
        card = (samples / benchmark / "README.md").read_text(encoding="utf-8")
        assert (
            "**: not published: " in card and "https://" not in card.split("## Raw release")[1].split("##")[0]
        )


@pytest.mark.parametrize("benchmark", ["isovrbench", "emoprefer", "emorealm"])
def test_the_video_cards_say_why_clips_are_paths(samples, benchmark):
    card = (samples / benchmark / "README.md").read_text(encoding="utf-8")
    assert "please install 'torchcodec'" in card and "Could not load libtorchcodec" in card


# --- the listed columns are the ones the builder requires ----------------------------------------------


def _rewrite(path: Path, keep: Callable[[str], bool]) -> None:
    """Keep only the columns (fields) ``keep`` accepts, in a CSV, JSON list or parquet file."""
    if path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        names = [n for n in rows[0] if keep(n)]
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, names, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
    elif path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):  # TempCompass: video id -> dimension -> list of questions
            kept = {video: {dim: [{k: v for k, v in item.items() if keep(k)} for item in items]
                            for dim, items in dims.items()} for video, dims in data.items()}  # fmt: skip
        else:
            kept = [{k: v for k, v in item.items() if keep(k)} for item in data]
        path.write_text(json.dumps(kept), encoding="utf-8")
    else:
        table = pq.read_table(path)
        pq.write_table(table.select([n for n in table.column_names if keep(n)]), path)


class Case:
    """One release file of a sample: where it lies and how to build the sample's source."""

    def __init__(self, benchmark: str, release: int, file: int, files: Callable[[Path], list[Path]],
                 source: Callable[[Path], Path], options: dict[str, Any] | None = None,
                 prepare: Callable[[Path], None] | None = None) -> None:  # fmt: skip
        self.benchmark, self.file = benchmark, RELEASES[benchmark][release].files[file]
        self.files, self.source, self.options, self.prepare = files, source, options or {}, prepare

    def build(self, raw: Path) -> Any:
        spec = get_benchmark(self.benchmark)
        return spec.data.build_tables(self.source(raw), **self.options)

    def __repr__(self) -> str:
        return f"{self.benchmark}:{self.file.name}"


def _drop_modelnames(raw: Path) -> None:
    (raw / "emoprefer_with_modelnames.csv").unlink()


CASES = [
    Case("isovrbench", 0, 0, lambda r: [r / "test.csv"], lambda r: r, {"media": "metadata"}),
    Case("mist", 0, 0, lambda r: sorted((r / "admire").rglob("*.parquet")), lambda r: r / "admire",
         {"n_items": mist_sample.SIZES["small"]}),
    Case("mist", 1, 0, lambda r: [r / "release" / "items.csv"], lambda r: r / "release"),
    Case("mist", 1, 1, lambda r: [r / "release" / "human_labels.csv"], lambda r: r / "release"),
    Case("mist", 1, 2, lambda r: [r / "release" / "judge_labels.csv"], lambda r: r / "release"),
    Case("emoprefer", 0, 0, lambda r: [r / "emoprefer.csv"], lambda r: r, prepare=_drop_modelnames),
    Case("emoprefer", 0, 1, lambda r: [r / "emoprefer_with_modelnames.csv"], lambda r: r),
    Case("emoprefer", 0, 2, lambda r: [r / "emoprefer_reverse.csv"], lambda r: r),
    Case("emorealm", 0, 0, lambda r: [r / "emorealm_v1.json"], lambda r: r / "emorealm_v1.json"),
    Case("temporalbench", 0, 0, lambda r: [r / "temporalbench_short_qa.json"], lambda r: r),
    Case("tempcompass", 0, 0, lambda r: [r / "questions" / "caption_matching.json"], lambda r: r),
    Case("videogen_rewardbench", 0, 0, lambda r: [r / "videogen-rewardbench.csv"], lambda r: r),
    Case("genai_bench_video", 0, 0, lambda r: sorted((r / "video_generation").glob("*.parquet")), lambda r: r,
         {"media": "metadata"}),
    Case("mj_bench_video", 0, 0, lambda r: [r / "test.json"], lambda r: r / "test.json"),
]  # fmt: skip
DROPS = [(case, column) for case in CASES for column in case.file.required]


@pytest.fixture
def raw_copy(samples, tmp_path) -> Callable[[str], Path]:
    def copy(benchmark: str) -> Path:
        return Path(shutil.copytree(samples / "raw" / benchmark, tmp_path / benchmark))

    return copy


@pytest.mark.parametrize(("case", "column"), DROPS, ids=[f"{c!r}-{col}" for c, col in DROPS])
def test_each_listed_required_column_is_one_the_builder_refuses_the_file_without(case, column, raw_copy):
    raw = raw_copy(case.benchmark)
    if case.prepare:
        case.prepare(raw)
    for path in case.files(raw):
        _rewrite(path, lambda name: name != column)
    with pytest.raises((SchemaError, ConfigError)) as caught:
        case.build(raw)
    assert column in str(caught.value)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_a_file_holding_only_the_listed_required_columns_builds(case, raw_copy, tmp_path):
    raw = raw_copy(case.benchmark)
    if case.prepare:
        case.prepare(raw)
    paths = case.files(raw)
    assert paths and all(p.is_file() for p in paths)
    for path in paths:
        _rewrite(path, lambda name: name in case.file.required)
    built = case.build(raw)
    try:
        summaries = write_folder(built, tmp_path / "out")
    finally:
        for resource in built.resources:
            resource.cleanup()
    assert summaries and all(s.num_rows > 0 for s in summaries)


def test_every_needed_file_of_each_release_is_covered_by_a_case():
    covered = {(c.benchmark, c.file.name) for c in CASES}
    for benchmark, releases in RELEASES.items():
        for release in releases:
            for file in release.files:
                if file.required:
                    assert (benchmark, file.name) in covered
