"""The Space from one command: `mmjudge space build` output (requirements, wheel, card), the app imported
from its vendored wheel, labels fetched at pinned commits (through a fake snapshot source: the Hub is not
reachable here), one-line start-up errors, and the push plan offline. The fresh-virtual-environment
install of the built folder, served and driven by the browser tests, is the slow twin in
``test_space_venv.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from mmjudge.data.card import split_front_matter
from mmjudge.errors import ConfigError
from mmjudge.leaderboard.app import space_build
from mmjudge.leaderboard.app.space import VARIABLES, SpaceConfig, label_variable, open_space

from ..conftest import BENCHMARKS

CHECKOUT = Path(__file__).resolve().parents[3]
SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> space_build.SpaceBuild:
    return space_build.build_space(tmp_path_factory.mktemp("space") / "out", source=CHECKOUT)


def test_build_writes_a_self_contained_folder(built) -> None:
    assert built.files == ["README.md", "app.py", "requirements.txt", built.wheel]
    meta, _ = split_front_matter((built.folder / "README.md").read_text())
    constraints = (CHECKOUT / "constraints.txt").read_text().splitlines()
    gradio = next(line.split("==")[1] for line in constraints if line.startswith("gradio=="))
    assert (meta["sdk"], meta["sdk_version"], meta["app_file"], meta["hf_oauth"]) == ("gradio", gradio, "app.py", True)
    lines = built.requirements
    assert f"gradio[oauth]=={gradio}" in lines and not any(line.startswith("mmjudge") for line in lines)
    assert all("==" in line for line in lines), lines  # every dependency at the tested version
    names = {line.split("[")[0].split("==")[0].lower() for line in lines}
    assert {"datasets", "evaluate", "scipy", "psycopg", "matplotlib", "huggingface-hub"} <= names
    assert not names & {"torch", "transformers", "av", "pytest"}  # no judge, video or dev dependencies
    with zipfile.ZipFile(built.folder / built.wheel) as wheel:
        inside = set(wheel.namelist())
    for name in ("mmjudge/leaderboard/app/space.py", "mmjudge/leaderboard/app/about.md", "mmjudge/leaderboard/store/_sql.py",
                 "mmjudge/benchmarks/isovrbench/reported.json", "mmjudge/py.typed"):  # fmt: skip
        assert name in inside, name


def _space_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MMJUDGE_", "PYTHONPATH"))}
    return {**env, "MMJUDGE_DB": str(tmp_path / "space.sqlite"), "MMJUDGE_NO_AUTH": "1",
            "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", **extra}  # fmt: skip


def test_the_built_app_imports_mmjudge_from_its_wheel(built, data_root, tmp_path) -> None:
    """In the current environment but without the checkout on the path: the app's mmjudge is the wheel."""
    probe = ("import runpy; ns = runpy.run_path('app.py'); import mmjudge; "
             "print(mmjudge.__file__); print(','.join(ns['board'].benchmarks_available()))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], cwd=built.folder, capture_output=True, text=True,
                          env=_space_env(tmp_path, MMJUDGE_DATA_ROOT=str(data_root)), timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    origin, available = done.stdout.strip().splitlines()[-2:]
    assert f"{built.wheel}/mmjudge/__init__.py" in origin
    assert available.split(",") == [b for b in ("isovrbench", "mist", "emoprefer", "emorealm") if b in BENCHMARKS]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({}, "MMJUDGE_LABELS_ISOVRBENCH is not set"),
        ({"MMJUDGE_BENCHMARKS": "mist", "MMJUDGE_LABELS_MIST": "org/mist-labels@main"}, "is not pinned"),
    ],
)
def test_a_missing_or_unpinned_label_repo_stops_start_up_with_one_line(built, tmp_path, variables, message) -> None:
    done = subprocess.run([sys.executable, "app.py"], cwd=built.folder, capture_output=True, text=True,
                          env=_space_env(tmp_path, **variables), timeout=300, check=False)  # fmt: skip
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1 and len(lines) == 1, done.stderr[-3000:]
    assert lines[0].startswith("mmjudge space: ") and message in lines[0]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"MMJUDGE_BENCHMARKS": "mist", "MMJUDGE_LABELS_MIST": "org/mist-labels"}, "is not pinned"),
        ({"MMJUDGE_BENCHMARKS": "mist", "MMJUDGE_LABELS_MIST": f"not a repo@{SHA}"}, "expected org/name@<40-hex"),
        ({"MMJUDGE_BENCHMARKS": "imagenet"}, "MMJUDGE_BENCHMARKS='imagenet': expected ids among"),
        ({"MMJUDGE_DAILY_LIMIT": "many", "MMJUDGE_DATA_ROOT": "/x"}, "MMJUDGE_DAILY_LIMIT='many': expected a whole number of 0 or more"),
        ({"MMJUDGE_BENCHMARKS": "mist,emorealm"}, "MMJUDGE_LABELS_MIST is not set: .*; MMJUDGE_LABELS_EMOREALM is not set"),
    ],
)
def test_every_configuration_problem_is_named_on_one_line(variables, message) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        SpaceConfig.from_env(variables, persistent=Path("/nonexistent"))
    assert "\n" not in str(caught.value)


def test_a_data_root_that_is_not_a_folder_is_refused(tmp_path) -> None:
    from mmjudge.leaderboard.app.space import fetch_labels

    config = SpaceConfig.from_env({"MMJUDGE_DATA_ROOT": str(tmp_path / "none")}, persistent=tmp_path / "nope")
    with pytest.raises(ConfigError, match=r"MMJUDGE_DATA_ROOT=.*: expected a folder of built benchmark folders"):
        fetch_labels(config)


class FakeHub:
    """A snapshot source: copies ``<root>/<benchmark>`` for known (repo, commit) pairs, counts downloads."""

    def __init__(self, root: Path, repos: dict[tuple[str, str], str]) -> None:
        self.root, self.repos, self.calls = root, repos, []

    def __call__(self, *, repo_id: str, repo_type: str, revision: str, local_dir: Path) -> str:
        self.calls.append((repo_id, repo_type, revision))
        if (repo_id, revision) not in self.repos:
            raise RuntimeError(f"404 Client Error: Revision Not Found for url: .../{repo_id}/revision/{revision}")
        shutil.copytree(self.root / self.repos[repo_id, revision], local_dir, dirs_exist_ok=True)
        return str(local_dir)


def test_labels_are_fetched_at_pinned_commits_into_persistent_storage_once(data_root, tmp_path) -> None:
    persistent = tmp_path / "data"
    persistent.mkdir()
    hub = FakeHub(data_root, {(f"org/{b}-labels", SHA): b for b in BENCHMARKS})
    env = {"MMJUDGE_BENCHMARKS": ",".join(BENCHMARKS), "MMJUDGE_NO_AUTH": "1",
           **{label_variable(b): f"org/{b}-labels@{SHA}" for b in BENCHMARKS}}  # fmt: skip
    board, app = open_space(env, download=hub, persistent=persistent)
    try:
        assert sorted(hub.calls) == sorted((f"org/{b}-labels", "dataset", SHA) for b in BENCHMARKS)
        assert board.store.path == persistent / "leaderboard.sqlite"  # the store in persistent storage too
        assert board.settings.data_root == persistent / "mmjudge-labels"
        assert sorted(board.benchmarks_available()) == sorted(BENCHMARKS)
        assert len(board.reference_rows("emoprefer")) > 0
    finally:
        app.close(timeout=10)
    open_space(env, download=hub, persistent=persistent)[1].close(timeout=10)
    assert len(hub.calls) == len(BENCHMARKS), "a restart reuses the downloaded labels"


def test_a_label_download_that_fails_is_one_line_naming_the_variable(data_root, tmp_path) -> None:
    hub = FakeHub(data_root, {})
    config = SpaceConfig.from_env({"MMJUDGE_BENCHMARKS": "mist", "MMJUDGE_LABELS_MIST": f"org/gone@{SHA}",
                                   "MMJUDGE_LABELS_DIR": str(tmp_path / "labels")})  # fmt: skip
    from mmjudge.leaderboard.app.space import fetch_labels

    with pytest.raises(ConfigError, match=f"MMJUDGE_LABELS_MIST=org/gone@{SHA}: could not download") as caught:
        fetch_labels(config, download=hub)
    assert "\n" not in str(caught.value) and "Revision Not Found" in str(caught.value)


def test_the_cards_variable_table_names_exactly_the_variables_the_space_reads() -> None:
    """The card's table is prose written beside the settings table: every variable the Space reads has a row, and
    no row names a variable it does not read (a setting renamed or removed leaves no stale row)."""
    card = (CHECKOUT / "spaces" / "leaderboard" / "README.md").read_text()
    rows = [line for line in card.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_<>]*)`", row.split(" | ")[0])}
    assert named == {*VARIABLES, "HF_TOKEN"}, (sorted(named - {*VARIABLES, "HF_TOKEN"}), sorted(set(VARIABLES) - named))


def test_push_plan_offline_lists_files_settings_and_secrets(built, capsys, monkeypatch) -> None:
    from mmjudge.cli import main

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["space", "push", "--repo", "org/leaderboard", "--folder", str(built.folder)]) == 0
    out = capsys.readouterr().out
    assert "one commit uploading 4 files" in out and built.wheel in out and "nothing was pushed" in out
    for name in ("MMJUDGE_LABELS_MIST", "MMJUDGE_ADMINS", "MMJUDGE_DB", "HF_TOKEN", "persistent storage"):
        assert name in out, name
    assert main(["space", "push", "--repo", "not-a-repo", "--folder", str(built.folder), "--dry-run"]) == 1


def test_push_creates_a_gradio_space_and_uploads_in_one_commit(built) -> None:
    class FakeApi:
        def __init__(self) -> None:
            self.calls: list[tuple] = []

        def create_repo(self, repo_id, **kwargs):
            self.calls.append(("create_repo", repo_id, kwargs))

        def list_repo_files(self, repo_id, repo_type):
            return [".gitattributes", "README.md", "old.py"]

        def create_commit(self, repo_id, operations, commit_message, repo_type):
            self.calls.append(("create_commit", repo_id, repo_type, sorted(type(o).__name__ + ":" + o.path_in_repo
                                                                           for o in operations)))  # fmt: skip
            return type("Commit", (), {"commit_url": f"https://huggingface.co/spaces/{repo_id}/commit/abc"})()

    api = FakeApi()
    plan, url = space_build.push_space(built.folder, "org/leaderboard", api=api)
    assert api.calls[0] == ("create_repo", "org/leaderboard",
                            {"repo_type": "space", "space_sdk": "gradio", "private": False, "exist_ok": True})  # fmt: skip
    (_, _, repo_type, operations), = api.calls[1:]
    assert repo_type == "space" and plan.deletes == ["old.py"]
    assert operations == sorted([f"CommitOperationAdd:{f}" for f in built.files] + ["CommitOperationDelete:old.py"])
    assert url.endswith("/commit/abc")


def test_build_with_a_pinned_commit_installs_mmjudge_from_git(tmp_path) -> None:
    pinned = space_build.build_space(tmp_path / "pinned", source=CHECKOUT, pin=SHA,
                                     git_url="https://github.com/org/mmjudge")  # fmt: skip
    assert pinned.wheel is None and pinned.files == ["README.md", "app.py", "requirements.txt"]
    assert pinned.requirements[0] == f"mmjudge[space,metrics,postgres] @ git+https://github.com/org/mmjudge@{SHA}"
    with pytest.raises(ConfigError, match="expected a full 40-hex commit"):
        space_build.build_space(tmp_path / "bad", source=CHECKOUT, pin="main", git_url="https://x/y")
    with pytest.raises(ConfigError, match="expected a folder outside the checkout's sources"):
        space_build.build_space(CHECKOUT / "spaces" / "leaderboard", source=CHECKOUT)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(ConfigError, match="expected an empty folder or an earlier Space build"):
        space_build.build_space(tmp_path / "mine", source=CHECKOUT)


TOKEN = "ghp_Tok3nFromTheCiRemote0123"
DB_PASSWORD = "Pg-Passw0rd-31415"


def _clone_with_token(tmp_path: Path) -> Path:
    """A checkout (the files a pinned build reads) whose ``origin`` URL carries a token, as CI clones have."""
    clone = tmp_path / "clone"
    for name in ("pyproject.toml", "constraints.txt", "README.md"):
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CHECKOUT / name, clone / name)
    shutil.copytree(CHECKOUT / "spaces" / "leaderboard", clone / "spaces" / "leaderboard")
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "remote", "add", "origin",
                    f"https://ci-bot:{TOKEN}@github.com/org/mmjudge.git"], check=True)  # fmt: skip
    return clone


def _every_text(folder: Path) -> str:
    """Every file of ``folder`` and every member of its archives, as one text."""
    parts = []
    for path in folder.rglob("*"):
        if path.suffix in (".whl", ".zip"):
            with zipfile.ZipFile(path) as archive:
                parts += [archive.read(m).decode("utf-8", "replace") for m in archive.namelist()]
        elif path.is_file():
            parts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


def test_a_pinned_build_from_a_clone_with_a_token_holds_no_credential_or_path(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MMJUDGE_DB", f"postgresql://lb:{DB_PASSWORD}@db.internal:5432/lb")
    monkeypatch.setenv("HF_TOKEN", "hf_NotInAnyBuildFile0123")
    clone = _clone_with_token(tmp_path)
    build = space_build.build_space(tmp_path / "out", source=clone, pin=SHA)
    assert build.requirements[0] == f"mmjudge[space,metrics,postgres] @ git+https://github.com/org/mmjudge.git@{SHA}"
    text = _every_text(build.folder)
    for private in (TOKEN, "ci-bot", DB_PASSWORD, "hf_NotInAnyBuildFile0123", str(clone.resolve()), str(tmp_path),
                    str(Path.home()), sys.prefix):  # fmt: skip
        assert private not in text, private
    # an explicit --git-url with credentials is stripped the same way
    again = space_build.build_space(tmp_path / "out2", source=clone, pin=SHA,
                                    git_url=f"https://{TOKEN}@github.com/org/mmjudge")  # fmt: skip
    assert TOKEN not in _every_text(again.folder)


def test_a_build_holding_a_secret_or_a_local_path_fails_naming_the_file_and_line(tmp_path, monkeypatch) -> None:
    clone = _clone_with_token(tmp_path)
    card = clone / "spaces" / "leaderboard" / "README.md"
    card.write_text(card.read_text(encoding="utf-8") + "\nDeploy key: hf_LeakedIntoTheCard0123\n", encoding="utf-8")
    monkeypatch.setenv("HF_TOKEN", "hf_LeakedIntoTheCard0123")
    with pytest.raises(ConfigError, match=r"README\.md:\d+: holds a secret value") as caught:
        space_build.build_space(tmp_path / "out", source=clone, pin=SHA)
    assert "hf_LeakedIntoTheCard0123" not in str(caught.value)  # the message never repeats the secret
    assert not (tmp_path / "out").exists()  # nothing is left to push by mistake
    from mmjudge._checkout import read_constraints

    written = space_build._card(clone, read_constraints(clone / "constraints.txt")).splitlines()  # as built
    line = next(k for k, text in enumerate(written, start=1) if "Deploy key" in text)
    assert str(caught.value).startswith(f"README.md:{line}: holds a secret value")
    # a wheel member holding a local path is found too
    folder = tmp_path / "scan"
    (folder / "wheels").mkdir(parents=True)
    with zipfile.ZipFile(folder / "wheels" / "pkg.whl", "w") as archive:
        archive.writestr("pkg/config.py", f"# built here\nROOT = '{tmp_path}/work'\n")
    assert space_build.find_leak(folder, [], [str(tmp_path)]) == f"wheels/pkg.whl!pkg/config.py:2: holds the local path {tmp_path}"
    assert space_build.find_leak(folder, ["short"], []) is None  # too short to look for
