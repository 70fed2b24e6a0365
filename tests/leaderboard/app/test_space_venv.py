"""The built Space in a fresh virtual environment: `mmjudge space build` output installed from its own
``requirements.txt`` (the package registries reachable, the Hub not: the labels come from a local folder
through ``MMJUDGE_DATA_ROOT``), its ``app.py`` served on loopback, and the browser tests of
``test_browser.py`` run against that server, each on a fresh store.

Heavy (a full install of gradio, datasets, scipy...): marked ``slow``; ``test_space.py`` is the light twin.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mmjudge.leaderboard import Leaderboard, Settings, Store
from mmjudge.leaderboard.app.space_build import build_space

from ..conftest import free_port
from . import test_browser as browser_tests

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CHECKOUT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def space_venv(tmp_path_factory) -> tuple[Path, Path]:
    """The built Space folder and the python of a fresh venv holding only its requirements."""
    root = tmp_path_factory.mktemp("space-venv")
    built = build_space(root / "space", source=CHECKOUT)
    venv = root / "venv"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-r", "requirements.txt"],
        cwd=built.folder, capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-4000:]
    print(f"fresh venv + pip install -r requirements.txt: {time.perf_counter() - started:.0f} s")
    probe = subprocess.run([str(python), "-c", "import mmjudge"], capture_output=True, text=True, check=False,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})  # fmt: skip
    assert probe.returncode != 0, "the venv must not hold mmjudge: the Space's comes from its wheel"
    return built.folder, python


@contextmanager
def _space_server(space_venv, data_root: Path, db: Path, log: Path) -> Iterator[str]:
    folder, python = space_venv
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MMJUDGE_", "PYTHONPATH", "VIRTUAL_ENV"))}
    env.update(MMJUDGE_DB=str(db), MMJUDGE_DATA_ROOT=str(data_root), MMJUDGE_NO_AUTH="1", HF_HUB_OFFLINE="1",
               GRADIO_ANALYTICS_ENABLED="False", GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(port))  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    with log.open("wb") as out:
        server = subprocess.Popen([str(python), "app.py"], cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.time() + 300
            while True:
                assert server.poll() is None, log.read_text()[-4000:]
                try:
                    with urllib.request.urlopen(url, timeout=5) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
                assert time.time() < deadline, log.read_text()[-4000:]
                time.sleep(0.5)
            yield url
        finally:
            server.terminate()
            server.wait(60)


@pytest.fixture
def venv_app(space_venv, data_root, reference, tmp_path, monkeypatch):
    """Serve the built Space from the fresh venv on a fresh store; the browser tests' pages open on it, and
    their ``board`` is a view of the same store from this process."""
    db = tmp_path / "space.sqlite"
    with _space_server(space_venv, data_root, db, tmp_path / "server.log") as url:
        board = Leaderboard(Store(db), Settings(data_root=data_root, require_login=False),
                            rows_fn=lambda benchmark, folder: reference[benchmark])  # fmt: skip
        monkeypatch.setattr(browser_tests, "_page_on", lambda browser, _board: browser_tests.page_at(browser, url))
        yield board


@pytest.mark.parametrize(
    "case",
    [
        "test_valid_upload_is_stored_and_shown_with_the_name_escaped",
        "test_malformed_upload_is_rejected_with_its_line",
        "test_the_same_predictions_again_are_rejected_as_a_duplicate",
    ],
)
def test_browser_case_against_the_space_built_into_a_fresh_venv(case, venv_app, browser, reference, tmp_path):
    with browser_tests._page_on(browser, venv_app) as page:  # a page on the venv's server
        getattr(browser_tests, case)((venv_app, page), reference, tmp_path)


def test_markup_case_against_the_space_built_into_a_fresh_venv(venv_app, browser, reference):
    browser_tests.test_markup_in_names_is_shown_literally_once_and_exported_as_submitted(
        browser, lambda: venv_app, reference
    )
