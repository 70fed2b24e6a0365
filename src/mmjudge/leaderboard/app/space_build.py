"""``mmjudge space build`` / ``push``: a self-contained Space folder from this checkout, and its upload.

:func:`build_space` writes ``app.py`` and ``README.md`` (from ``spaces/leaderboard/`` of the checkout; the
card's YAML set to ``sdk: gradio``, the tested ``sdk_version`` and Python, ``hf_oauth: true``) and a
``requirements.txt`` that installs exactly this mmjudge: either a wheel built from the checkout into
``wheels/`` (``app.py`` puts it on ``sys.path``, because a Space installs ``requirements.txt`` before the
repo's files are copied in; the file then lists mmjudge's dependencies at the versions of the
checkout's ``constraints.txt``), or, with ``pin``, ``mmjudge[...] @ git+<url>@<commit>`` (the URL without
its credentials: a CI clone's ``origin`` often carries a token). Before it reports success, the build is
scanned (:func:`find_leak`: every file and every wheel member) for the environment's secret values
(:data:`mmjudge.leaderboard.app.space.SECRETS`, with a database URL's password), the origin's credentials and
this machine's paths (checkout, output folder, home, Python prefix); a hit removes the folder and names
the file and line.
:func:`plan_space_push` is pure: the files a push uploads and deletes, and the settings and secrets the
deployer must set on the Space; :func:`push_space` carries it out (``create_repo(repo_type="space")``,
one ``create_commit``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from mmjudge import _checkout as checkout
from mmjudge._secrets import MIN_SECRET_LENGTH, strip_userinfo, url_credentials
from mmjudge.benchmarks import benchmark_ids
from mmjudge.errors import ConfigError
from mmjudge.leaderboard.app.space import SECRETS, VARIABLES, label_variable
from mmjudge.leaderboard.core.login_settings import VARIABLES as OFF_SPACE_LOGIN

__all__ = [
    "EXTRAS", "SpaceBuild", "SpacePushPlan", "build_space", "find_checkout", "find_leak", "plan_space_push", "push_space",
]  # fmt: skip

EXTRAS = ("space", "metrics", "postgres")
"""The extras a Space needs: the app, the scorers, and a PostgreSQL store shared with workers."""
_COMMIT = re.compile(r"[0-9a-f]{40}")


class SpaceBuild(NamedTuple):
    """What :func:`build_space` wrote."""

    folder: Path
    """The Space folder."""
    files: list[str]
    """Relative paths written, sorted."""
    requirements: list[str]
    """The requirement lines of ``requirements.txt`` (comments left out)."""
    wheel: str | None
    """``wheels/<name>.whl`` when vendored, ``None`` with a pinned commit."""


def find_checkout(source: str | Path | None = None) -> Path:
    """The mmjudge checkout to build from (:func:`mmjudge._checkout.find_checkout`), with ``spaces/leaderboard/``.

    Raises:
        ConfigError: no ``pyproject.toml`` of mmjudge with ``spaces/leaderboard/`` there.
    """
    return checkout.find_checkout(source, needs=("spaces/leaderboard/app.py",))


def build_space(out: str | Path, *, source: str | Path | None = None, pin: str | None = None,
                git_url: str | None = None) -> SpaceBuild:  # fmt: skip
    """Write the Space folder ``out`` (emptied first when it is an earlier build) from the checkout.

    Args:
        out: the folder to write.
        source: the checkout (default: :func:`find_checkout`).
        pin: a 40-hex commit: install mmjudge from ``git_url`` at it instead of vendoring a wheel.
        git_url: the repository of ``pin`` (default: the checkout's ``origin`` remote).

    Raises:
        ConfigError: not a checkout, a bad pin, no URL for it, the wheel build failed, or the built folder
            holds a secret value or a local path (the folder is removed; the message names file and line).
    """
    root = find_checkout(source)
    out = Path(out)
    if out.resolve() in (root.resolve(), *root.resolve().parents) or out.resolve() == (root / "spaces").resolve() \
            or out.resolve() == (root / "spaces" / "leaderboard").resolve():  # fmt: skip
        raise ConfigError(f"--out {out}: expected a folder outside the checkout's sources (it is emptied first)")
    if out.exists() and any(out.iterdir()) and not (out / "app.py").is_file():
        raise ConfigError(f"{out}: expected an empty folder or an earlier Space build; it holds other files")
    shutil.rmtree(out, ignore_errors=True)
    (out / "wheels").mkdir(parents=True)
    shutil.copyfile(root / "spaces" / "leaderboard" / "app.py", out / "app.py")
    pins = checkout.read_constraints(root / "constraints.txt")
    (out / "README.md").write_text(_card(root, pins), encoding="utf-8")
    wheel = None
    if pin is None:
        wheel = f"wheels/{_build_wheel(root, out / 'wheels').name}"
        head = f"mmjudge from the vendored {wheel} ({checkout.describe(root)}), which app.py puts on sys.path"
        lines = _dependencies(out / wheel, pins)
    else:
        shutil.rmtree(out / "wheels")
        url = strip_userinfo(git_url or _origin(root))
        head = f"mmjudge at commit {_check_pin(pin)} of {url}"
        lines = [f"mmjudge[{','.join(EXTRAS)}] @ git+{url}@{pin}", *_pinned(["gradio[oauth]"], pins)]
    text = (f"# The mmjudge leaderboard Space, written by `mmjudge space build`: {head}.\n"
            "# A Space installs this file before copying the repo in; the versions are the checkout's "
            "constraints.txt.\n" + "\n".join(lines) + "\n")  # fmt: skip
    (out / "requirements.txt").write_text(text, encoding="utf-8")
    leak = find_leak(out, _private_values(root, git_url), _local_paths(root, out))
    if leak is not None:
        shutil.rmtree(out, ignore_errors=True)
        raise ConfigError(f"{leak}; the Space build would publish it, so {out} was removed. Remove it from the "
                          "checkout (or the environment variable from the build's environment) and build again")  # fmt: skip
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    return SpaceBuild(out, files, lines, wheel)


def find_leak(folder: str | Path, secrets: Iterable[str], paths: Iterable[str]) -> str | None:
    """The first place in ``folder`` (every file, and every member of every ``.whl``/``.zip`` in it) holding
    one of ``secrets`` or ``paths``, as ``"<file>[!<member>]:<line>: holds <what>"``; ``None`` when clean.

    Secret values shorter than :data:`mmjudge._secrets.MIN_SECRET_LENGTH` are not looked for; the message
    names the kind of value found, never the value itself.
    """
    import zipfile

    needles = [(v, "a secret value") for v in secrets if v and len(v) >= MIN_SECRET_LENGTH]
    needles += [(p, f"the local path {p}") for p in paths if p and p != "/"]
    folder = Path(folder)

    def first(name: str, data: bytes) -> str | None:
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
            for value, what in needles:
                if value in line:
                    return f"{name}:{number}: holds {what}"
        return None

    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        data = path.read_bytes()
        if path.suffix in (".whl", ".zip"):
            with zipfile.ZipFile(path) as archive:
                for member in archive.namelist():
                    hit = first(f"{name}!{member}", archive.read(member))
                    if hit:
                        return hit
            continue
        hit = first(name, data)
        if hit:
            return hit
    return None


def _private_values(root: Path, git_url: str | None) -> list[str]:
    """The values a build must not hold: the settings marked secret (as set in this environment, with a
    database URL's password on its own) and the credentials in the origin or ``--git-url``."""
    import os

    values = [os.environ.get(name, "") for name in SECRETS]
    for url in (git_url, _origin(root, required=False), *values):
        values += url_credentials(url or "")
    return [v for v in values if v]


def _local_paths(root: Path, out: Path) -> list[str]:
    """Absolute paths of this machine a build must not hold: the checkout, the output folder, the home
    folder and the Python prefix."""
    paths = {str(root.resolve()), str(out.resolve()), str(Path.home()), sys.prefix}
    return sorted(p for p in paths if len(p) > 1)


def _card(root: Path, pins: dict[str, str]) -> str:
    import yaml

    from mmjudge.data.card import split_front_matter

    meta, body = split_front_matter((root / "spaces" / "leaderboard" / "README.md").read_text(encoding="utf-8"))
    gradio = pins.get("gradio") or _installed("gradio")
    meta.update(sdk="gradio", sdk_version=gradio, python_version=f"{sys.version_info[0]}.{sys.version_info[1]}",
                app_file="app.py", hf_oauth=True)  # fmt: skip
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True) + "---\n" + body


def _installed(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        raise ConfigError(f"{name} is not installed and constraints.txt does not pin it: expected one of the two") from None


def _build_wheel(root: Path, target: Path) -> Path:
    """``pip wheel`` of a copy of the checkout's package sources (the working tree, uncommitted changes
    included; the checkout itself gets no build folders)."""
    with tempfile.TemporaryDirectory(prefix="mmjudge-wheel-") as tmp:
        copy = Path(tmp) / "src-copy"
        copy.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copyfile(root / name, copy / name)
        shutil.copytree(root / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
             "--quiet", "-w", str(target), str(copy)],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
    wheels = sorted(target.glob("mmjudge-*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise ConfigError(f"building the mmjudge wheel failed (pip wheel exited {done.returncode}): "
                          f"{' '.join(done.stderr.split())[-400:]}")  # fmt: skip
    return wheels[0]


def _dependencies(wheel: Path, pins: dict[str, str]) -> list[str]:
    """mmjudge's requirements for :data:`EXTRAS` (read from the wheel), pinned to ``pins`` where listed."""
    import zipfile
    from email.parser import Parser

    from packaging.requirements import Requirement

    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(name).decode("utf-8"))
    chosen = []
    for text in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(text)
        marker = requirement.marker
        if marker is None or any(marker.evaluate({"extra": extra}) for extra in EXTRAS):
            requirement.marker = None
            chosen.append(str(requirement))
    return _pinned(chosen, pins)


def _pinned(requirements: Iterable[str], pins: dict[str, str]) -> list[str]:
    from packaging.requirements import Requirement

    lines = {}
    for text in requirements:
        requirement = Requirement(text)
        extras = f"[{','.join(sorted(requirement.extras))}]" if requirement.extras else ""
        version = pins.get(checkout.normal_name(requirement.name))
        spec = f"=={version}" if version else str(requirement.specifier)
        lines[checkout.normal_name(requirement.name)] = f"{requirement.name}{extras}{spec}"
    return sorted(lines.values(), key=str.lower)


def _origin(root: Path, *, required: bool = True) -> str:
    """The checkout's ``origin`` URL as git has it (credentials included: callers strip them)."""
    done = subprocess.run(["git", "-C", str(root), "remote", "get-url", "origin"], capture_output=True, text=True,
                          check=False)  # fmt: skip
    url = done.stdout.strip()
    if (done.returncode != 0 or not url) and not required:
        return ""
    if done.returncode != 0 or not url:
        raise ConfigError("--pin needs the repository to install from: pass --git-url (the checkout has no origin)")
    return url if "://" in url else f"ssh://{url.replace(':', '/', 1)}" if "@" in url else url


def _check_pin(pin: str) -> str:
    if not _COMMIT.fullmatch(pin):
        raise ConfigError(f"--pin {pin!r}: expected a full 40-hex commit (a branch or tag can move)")
    return pin


class SpacePushPlan(NamedTuple):
    """What :func:`push_space` would do; computed without network."""

    repo_id: str
    """``org/name`` of the Space."""
    files: list[str]
    """Files uploaded from the folder, sorted."""
    deletes: list[str]
    """Remote files not in the folder (removed by the same commit)."""
    variables: dict[str, str]
    """Space variables to set (name -> what it holds)."""
    secrets: dict[str, str]
    """Space secrets to set (name -> what it holds)."""
    settings: list[str]
    """Other Space settings (hardware, persistent storage, OAuth)."""


def plan_space_push(folder: str | Path, repo_id: str, *, remote_files: Iterable[str] = ()) -> SpacePushPlan:
    """Plan the upload of a built Space folder and list what the deployer must set on the Space.

    Raises:
        ConfigError: bad repo id, or ``folder`` is not a Space build.
    """

    folder = Path(folder)
    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise ConfigError(f"repo id {repo_id!r}: expected ORG/NAME")
    if not all((folder / name).is_file() for name in ("app.py", "README.md", "requirements.txt")):
        raise ConfigError(f"{folder}: expected a Space folder written by `mmjudge space build --out {folder}`")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)  # fmt: skip
    deletes = sorted(f for f in remote_files if f not in files and f != ".gitattributes")
    variables = {label_variable(b): f"org/name@<40-hex commit> of the {b} labels (required unless "
                 "MMJUDGE_BENCHMARKS leaves it out)" for b in benchmark_ids()}  # fmt: skip
    # the login's settings are for serving off a Space: on it, hf_oauth sets OAUTH_* and gradio keys the cookies
    variables.update({k: v for k, v in VARIABLES.items() if k not in OFF_SPACE_LOGIN
                      and k not in ("MMJUDGE_DB", "MMJUDGE_LABELS_<ID>", "MMJUDGE_NO_AUTH", "MMJUDGE_NO_AUTH_ON_SPACE",
                                  "MMJUDGE_DATA_ROOT")})  # fmt: skip
    secrets = {k: v for k, v in SECRETS.items() if k not in OFF_SPACE_LOGIN}
    settings = [
        "hardware: cpu-basic is enough (the Space scores files; models run on workers)",
        "persistent storage (/data): labels and, without MMJUDGE_DB, the SQLite store survive restarts",
        "OAuth: on through `hf_oauth: true` in README.md (login required to submit; the Space sets OAUTH_* "
        "and gradio signs the session cookies with a key derived from OAUTH_CLIENT_SECRET)",
        "workers: `mmjudge leaderboard worker` on GPU machines with the same MMJUDGE_DB",
    ]
    return SpacePushPlan(repo_id, files, deletes, variables, secrets, settings)


def push_space(folder: str | Path, repo_id: str, *, private: bool = False, token: str | None = None,
               api: Any = None) -> tuple[SpacePushPlan, str]:  # fmt: skip
    """Create the Space (gradio SDK) when missing and upload ``folder`` in one commit; returns the plan
    carried out and the commit URL. ``api`` is an ``HfApi``-like object (tests pass a fake)."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

    plan_space_push(folder, repo_id)  # refuse a bad folder before any network
    api = api if api is not None else HfApi(token=token)
    api.create_repo(repo_id, repo_type="space", space_sdk="gradio", private=private, exist_ok=True)
    plan = plan_space_push(folder, repo_id, remote_files=api.list_repo_files(repo_id, repo_type="space"))
    operations: list[Any] = [CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(Path(folder) / rel))
                             for rel in plan.files]  # fmt: skip
    operations += [CommitOperationDelete(path_in_repo=rel) for rel in plan.deletes]
    commit = api.create_commit(repo_id, operations=operations, commit_message="Deploy the mmjudge leaderboard",
                               repo_type="space")  # fmt: skip
    return plan, str(commit.commit_url)
