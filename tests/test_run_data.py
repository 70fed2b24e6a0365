"""Runs find their data: ``mmjudge eval`` records where the data came from (a folder, or a Hub dataset at a
commit) and ``score``, ``compare`` and ``robustness`` read it back; ``--data`` only overrides; a moved or
deleted folder is an error naming the recorded place.

The Hub cases run offline against a Hugging Face cache laid out as ``snapshot_download`` leaves it
(``datasets--ORG--NAME/snapshots/<commit>/`` and ``refs/main``), so the real resolution code runs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mmjudge.cli import main
from mmjudge.data.location import recorded_data, resolve_data
from mmjudge.errors import MissingFileError

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(scope="module")
def emorealm(sample_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the EmoReAlM sample folder (tests may move it)."""
    folder = tmp_path_factory.mktemp("data") / "emorealm"
    shutil.copytree(sample_data / "emorealm", folder)
    return folder


def _eval(data: str | Path, out: Path, sample_data: Path) -> None:
    argv = ["eval", "--benchmark", "emorealm", "--judge", "random", "--data", str(data), "--out", str(out),
            "--media-root", str(sample_data / "raw" / "emorealm" / "DFEW"), "--no-progress", "--decode-workers", "0"]  # fmt: skip
    assert main(argv) == 0


@pytest.fixture()
def hub_cache(emorealm: Path) -> str:
    """``my-org/emorealm`` at :data:`COMMIT` in the offline Hugging Face cache (``main`` points at it)."""
    from huggingface_hub import constants

    repo = Path(constants.HF_HUB_CACHE) / "datasets--my-org--emorealm"
    snapshot = repo / "snapshots" / COMMIT
    if not snapshot.is_dir():
        shutil.copytree(emorealm, snapshot)
        (repo / "refs").mkdir(parents=True, exist_ok=True)
        (repo / "refs" / "main").write_text(COMMIT)
    return "my-org/emorealm"


def test_eval_records_the_absolute_folder_and_score_needs_no_data_elsewhere(
    emorealm: Path, sample_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(emorealm.parent)
    _eval("emorealm", tmp_path / "run", sample_data)  # a relative --data
    results = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    assert results["run"]["data"] == {"path": str(emorealm.resolve())}
    header = json.loads((tmp_path / "run" / "predictions.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "path" not in json.dumps(header["provenance"]["dataset"])  # the shareable file holds no local path
    assert f"- data read from `{emorealm.resolve()}`" in (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["score", str(tmp_path / "run" / "predictions.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == results["scores"]


def test_a_moved_folder_is_named_and_data_overrides(
    emorealm: Path, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _eval(emorealm, tmp_path / "run", sample_data)
    moved = tmp_path / "elsewhere"
    shutil.copytree(emorealm, moved)
    results_path = tmp_path / "run" / "results.json"
    results = json.loads(results_path.read_text(encoding="utf-8"))
    results["run"]["data"] = {"path": str(tmp_path / "deleted" / "emorealm")}
    results_path.write_text(json.dumps(results), encoding="utf-8")
    assert main(["score", str(tmp_path / "run" / "predictions.jsonl")]) == 1
    err = capsys.readouterr().err
    assert str(tmp_path / "deleted" / "emorealm") in err and "moved or deleted?" in err and "--data" in err
    assert main(["score", str(tmp_path / "run" / "predictions.jsonl"), "--data", str(moved), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == results["scores"]


def test_a_file_with_nothing_recorded_asks_for_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alone = tmp_path / "predictions.jsonl"
    alone.write_text('{"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j"}\n')
    assert main(["score", str(alone)]) == 1
    assert "records no data location" in capsys.readouterr().err


def test_a_hub_dataset_is_recorded_at_its_commit_and_found_again(
    hub_cache: str, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = resolve_data(f"{hub_cache}@main")
    assert source.location == {"hub": hub_cache, "revision": COMMIT} and source.path.name == COMMIT
    _eval(hub_cache, tmp_path / "run", sample_data)
    results = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    assert results["run"]["data"] == {"hub": hub_cache, "revision": COMMIT}
    assert results["provenance"]["dataset"]["hub"] == hub_cache and results["provenance"]["dataset"]["revision"] == COMMIT
    alone = tmp_path / "shared" / "predictions.jsonl"  # a prediction file passed on without its run folder
    alone.parent.mkdir()
    shutil.copyfile(tmp_path / "run" / "predictions.jsonl", alone)
    capsys.readouterr()
    assert main(["score", str(alone), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == results["scores"]


def test_an_unreachable_hub_dataset_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MissingFileError, match=r"not a folder here, and the Hub dataset nobody/nothing@v1 could not"):
        resolve_data("nobody/nothing@v1")
    with pytest.raises(MissingFileError, match="could not be fetched"):
        recorded_data({"hub": "nobody/nothing", "revision": "abc"}, run="r")


def test_robustness_reuses_the_data_of_the_eval_run_in_its_out(
    emorealm: Path, sample_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    _eval(emorealm, out, sample_data)
    monkeypatch.chdir(tmp_path)
    argv = ["robustness", "--benchmark", "emorealm", "--judge", "random", "--out", str(out), "--probe", "modality_ablation",
            "--media-root", str(sample_data / "raw" / "emorealm" / "DFEW"), "--no-progress", "--decode-workers", "0"]  # fmt: skip
    assert main(argv) == 0 and (out / "robustness.json").is_file()
    assert main([*argv[:-2], "--out", str(tmp_path / "empty")]) == 1  # no eval run there: --data is needed


# --- leaderboard trust, round three, item 8: a recorded location is checked as --data is ---------------------------


def _header_naming(tmp_path: Path, hub: str, revision: str) -> Path:
    file = tmp_path / "shared" / "predictions.jsonl"
    file.parent.mkdir(exist_ok=True)
    header = {"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "j",
              "provenance": {"dataset": {"hub": hub, "revision": revision}}}  # fmt: skip
    file.write_text(json.dumps(header) + "\n", encoding="utf-8")
    return file


def test_a_header_revision_that_points_at_a_local_folder_is_refused_before_any_label_is_read(
    hub_cache: str, emorealm: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack: the cache resolves a revision through ``refs/<revision>``, so an absolute revision names any
    file, whose content names any folder as the snapshot; ``score`` read the labels there and recorded the repo
    as their provenance. Now a recorded revision must be a git ref name, as ``--data``'s is."""
    from huggingface_hub import constants

    planted = tmp_path / "planted"
    shutil.copytree(emorealm, planted / "labels")
    storage = Path(constants.HF_HUB_CACHE) / "datasets--my-org--emorealm"
    (planted / "ref").write_text(str(Path("..") / ".." / ".." / ".." / ".." / ".." / ".." / ".." / ".." / "..")
                                 + str(planted / "labels"))  # fmt: skip
    assert storage.is_dir()
    file = _header_naming(tmp_path, hub_cache, str(planted / "ref"))
    from mmjudge.scoring import load_reference_rows

    records = [{"id": row["id"], "prediction": "A"} for row in load_reference_rows("emorealm", emorealm)]
    file.write_text(file.read_text() + "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "rescored"  # before: scored against the planted labels, credited to my-org/emorealm
    capsys.readouterr()
    assert main(["score", str(file), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "names no Hub dataset" in err and "a path is not a revision" in err
    assert not out.exists()


@pytest.mark.parametrize(("hub", "revision"), [
    ("my-org/emorealm", "/etc/passwd"), ("my-org/emorealm", "./main"), ("my-org/emorealm", "main/../../x"),
    ("my-org/emorealm", "refs//main"), ("../../tmp/x", "main"), ("/tmp/labels", "main"), ("org/x..y", "main"),
])  # fmt: skip
def test_recorded_hub_ids_and_revisions_are_checked_like_data(
    hub: str, revision: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import huggingface_hub

    from mmjudge.results import data_of_predictions

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(huggingface_hub, "snapshot_download", lambda repo, **kw: asked.append((repo, kw)) or "/")
    with pytest.raises(MissingFileError, match="names no Hub dataset"):
        data_of_predictions(_header_naming(tmp_path, hub, revision))
    with pytest.raises(MissingFileError, match="names no Hub dataset"):
        recorded_data({"hub": hub, "revision": revision}, run="results.json")
    with pytest.raises(MissingFileError, match=r"names no Hub dataset|is not an existing folder"):
        resolve_data(f"{hub}@{revision}")
    assert asked == []  # nothing reached the cache or the Hub


def test_compare_refuses_a_run_whose_results_name_a_path_as_revision(
    emorealm: Path, sample_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        _eval(emorealm, tmp_path / name, sample_data)
        path = tmp_path / name / "results.json"
        results = json.loads(path.read_text(encoding="utf-8"))
        results["run"].pop("data")
        results["provenance"]["dataset"].update(hub="my-org/emorealm", revision=str(emorealm))
        path.write_text(json.dumps(results), encoding="utf-8")
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "cmp")]) == 1
    assert "names no Hub dataset" in capsys.readouterr().err
