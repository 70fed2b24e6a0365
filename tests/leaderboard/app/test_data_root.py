"""``--data-root`` is refused before serving when it holds no built benchmark folder (README, Leaderboard)."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from mmjudge.cli import main
from mmjudge.errors import MissingFileError
from mmjudge.leaderboard.app.startup import check_data_root, default_data_root


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Boards the command would serve (the app is a stand-in: nothing listens, gradio is not imported)."""
    boards: list[Any] = []

    class App:
        def launch(self, **_: Any) -> None:
            pass

    def build_app(board: Any, about: str = "") -> App:
        boards.append(board)
        return App()

    ui = types.ModuleType("mmjudge.leaderboard.app.ui")
    ui.build_app = build_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mmjudge.leaderboard.app.ui", ui)
    monkeypatch.setattr("mmjudge.leaderboard.app.startup.about_text", lambda: "")
    return boards


def serve(tmp_path: Path, data_root: Path) -> list[str]:
    return ["leaderboard", "--no-auth", "--db", str(tmp_path / "lb.sqlite"), "--data-root", str(data_root),
            "--demo-output", str(tmp_path / "no-demo-output")]  # fmt: skip


def test_a_missing_data_root_is_refused_before_the_store_opens(
    tmp_path: Path, served: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "sample"
    assert main(serve(tmp_path, root)) == 1
    err = capsys.readouterr().err
    for part in (f"--data-root {str(root)!r} does not exist", "isovrbench/, mist/, emoprefer/, emorealm/",
                 "README.md", f"mmjudge sample-data --out {root}", "demo-output/sample-data"):  # fmt: skip
        assert part in err, part
    assert served == [] and not (tmp_path / "lb.sqlite").exists()


def test_a_folder_without_a_built_benchmark_is_refused(
    tmp_path: Path, served: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    demo = tmp_path / "demo-output"  # run folders <benchmark>/<judge>/, not built datasets
    (demo / "mist" / "random").mkdir(parents=True)
    (demo / "sample-data").mkdir()
    assert main(serve(tmp_path, demo)) == 1
    err = capsys.readouterr().err
    assert "holds no built benchmark folder" in err and f"{demo / 'sample-data'} looks like one" in err
    assert served == []
    (tmp_path / "file").touch()
    with pytest.raises(MissingFileError, match="is not a folder"):
        check_data_root(tmp_path / "file")


def test_the_worker_refuses_it_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["leaderboard", "worker", "--db", str(tmp_path / "w.sqlite"), "--data-root", str(tmp_path / "x"), "--once"]
    assert main(argv) == 1
    assert "does not exist" in capsys.readouterr().err and not (tmp_path / "w.sqlite").exists()


def test_a_root_with_one_built_benchmark_is_served(
    tmp_path: Path, served: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "labels"
    (root / "mist").mkdir(parents=True)
    (root / "mist" / "README.md").write_text("card")
    assert check_data_root(root) == root == default_data_root(root, None)
    assert main(serve(tmp_path, root)) == 0
    assert len(served) == 1 and "labels for: mist" in capsys.readouterr().out


def test_without_a_data_root_the_demo_sample_data_is_used(tmp_path: Path) -> None:
    assert default_data_root(None, tmp_path) is None
    (tmp_path / "sample-data").mkdir()
    assert default_data_root(None, tmp_path) == tmp_path / "sample-data"
