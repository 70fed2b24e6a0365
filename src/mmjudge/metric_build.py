"""``mmjudge metric build`` / ``push``: a self-contained ``evaluate`` module folder, and its upload.

``evaluate.load("org/name")`` downloads a module's script from a Hub Space and installs nothing: the script
may import PyPI libraries and, relatively, single files beside it. :func:`build_metric` writes, for one
folder ``metrics/<name>/`` of the checkout:

- ``<name>.py``: the checkout's script with every ``from mmjudge.X import Y`` turned into a lookup in
  the vendored copy (``Y, = import_from("mmjudge.X", "Y")``, imported relatively from ``mmjudge_vendored``);
- ``mmjudge_vendored.py``: the mmjudge modules the script can reach (every ``mmjudge.*`` name imported or
  named in a string, anywhere in a module, followed to closure), as a zip archive in the file, unpacked
  on first use into a folder named by its hash and imported under a package name of its own
  (``_mmjudge_<hash>``), so an installed mmjudge of another version never mixes in. The code is the
  checkout's: only that package name is rewritten;
- ``requirements.txt``: the PyPI distributions the vendored code and the script import that mmjudge's
  core and ``metrics`` extra name, bounded ``>=`` mmjudge's own lower bound and ``<`` the next major
  version (the next minor for 0.x) of the checkout's ``constraints.txt``;
- ``README.md``: the checkout's metric card (its Hub metadata included) and a section saying how the
  folder was built;
- ``app.py``: the metric's Gradio widget (:mod:`mmjudge.metric_app`, vendored too).

:func:`plan_metric_push` lists what a push uploads; :func:`push_metric` uploads the folder to a Space
(gradio SDK) with huggingface_hub, the token from the usual Hugging Face login.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib.metadata
import importlib.util
import io
import re
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from mmjudge import _checkout as checkout
from mmjudge.errors import ConfigError

__all__ = ["MetricBuild", "MetricPushPlan", "build_metric", "metric_names", "plan_metric_push", "push_metric"]

VENDOR = "mmjudge_vendored"
"""File name (without ``.py``) of the vendored copy beside the script."""
APP_ROOTS = ("mmjudge.metric_app",)
"""Modules the widget needs beyond the script's."""
_NAME = re.compile(r"^mmjudge(?:\.[A-Za-z_]\w*)*$")
_IMPORT = re.compile(r"^from (mmjudge(?:\.\w+)*) import \(?([\w\s,]+?)\)?\s*$")


class MetricBuild(NamedTuple):
    """What :func:`build_metric` wrote."""

    folder: Path
    """The module folder."""
    files: list[str]
    """Relative paths written, sorted."""
    modules: list[str]
    """The vendored mmjudge modules, sorted."""
    requirements: list[str]
    """The requirement lines of ``requirements.txt``."""
    package: str
    """The vendored package's own name (``_mmjudge_<hash>``)."""


class MetricPushPlan(NamedTuple):
    """What :func:`push_metric` uploads."""

    repo_id: str
    """The Space repo ``org/name``."""
    files: list[tuple[str, int]]
    """``(relative path, size in bytes)`` of every file uploaded."""
    load_call: str
    """How users load the pushed module."""


def metric_names(source: str | Path | None = None) -> list[str]:
    """The metric folders of the checkout (``metrics/<name>/<name>.py``)."""
    root = checkout.find_checkout(source, needs=("metrics",))
    return sorted(p.parent.name for p in (root / "metrics").glob("*/*.py") if p.stem == p.parent.name)


def build_metric(name: str, out: str | Path, *, source: str | Path | None = None) -> MetricBuild:
    """Write the self-contained module folder of ``metrics/<name>`` to ``out`` (emptied first when it is
    an earlier build).

    Raises:
        ConfigError: not a checkout, an unknown metric name, or ``out`` holds other files.
    """
    root = checkout.find_checkout(source, needs=("metrics",))
    known = metric_names(root)
    if name not in known:
        raise ConfigError(f"unknown metric {name!r}; the checkout's metrics/ folder has {known}")
    folder = root / "metrics" / name
    out = Path(out)
    if out.resolve() == folder.resolve() or out.resolve() in folder.resolve().parents:
        raise ConfigError(f"--out {out}: expected a folder outside the checkout's metrics/ (it is emptied first)")
    if out.exists() and any(out.iterdir()) and not (out / f"{VENDOR}.py").is_file():
        raise ConfigError(f"{out}: expected an empty folder or an earlier metric build; it holds other files")
    script = (folder / f"{name}.py").read_text(encoding="utf-8")
    app = (folder / "app.py").read_text(encoding="utf-8")
    roots = sorted({*_script_imports(script), *_script_imports(app), *APP_ROOTS})
    modules = module_closure(roots)
    sources = {module: _source_path(module) for module in modules}
    digest = _digest(sources)
    package = f"_mmjudge_{digest[:12]}"
    archive = _archive(sources, package)
    requirements = _requirements(root, [*sources.values()], script)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / f"{name}.py").write_text(_vendored_script(script, relative=True), encoding="utf-8")
    (out / "app.py").write_text(_vendored_script(app, relative=False), encoding="utf-8")
    (out / f"{VENDOR}.py").write_text(_loader(package, archive, digest, modules, root), encoding="utf-8")
    (out / "requirements.txt").write_text(
        f"# {name}: written by `mmjudge metric build` from {checkout.describe(root)}; PyPI only.\n"
        + "\n".join(requirements) + "\n",
        encoding="utf-8",
    )
    card = (folder / "README.md").read_text(encoding="utf-8")
    (out / "README.md").write_text(_card(card, name, root, modules, requirements, package), encoding="utf-8")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    return MetricBuild(out, files, modules, requirements, package)


# --- the vendored closure ---------------------------------------------------------------------------


def _script_imports(text: str) -> list[str]:
    """``mmjudge.*`` modules a script imports (``from mmjudge.X import Y``: X, and X.Y if a module)."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and _NAME.match(node.module):
            found.append(node.module)
            found.extend(f"{node.module}.{a.name}" for a in node.names if _is_module(f"{node.module}.{a.name}"))
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if _NAME.match(a.name))
    return found


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _source_path(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise ConfigError(f"cannot vendor {module!r}: no Python source found")
    return Path(spec.origin)


def module_closure(roots: Iterable[str]) -> list[str]:
    """Every mmjudge module ``roots`` can reach: imported anywhere in a module (function bodies too) or
    named in a string (``"mmjudge.x.y"`` / ``"mmjudge.x:attr"``, as registries and backends name them;
    ``"mmjudge.x"`` alone is an entry-point group, not a module),
    with each module's parent packages.

    >>> "mmjudge.errors" in module_closure(["mmjudge.stats"])
    True
    """
    todo, seen = list(roots), set()
    while todo:
        module = todo.pop()
        if module in seen or not _is_module(module):
            continue
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        tree = ast.parse(_source_path(module).read_text(encoding="utf-8"))
        package = module if _source_path(module).name == "__init__.py" else ".".join(parts[:-1])
        for node in ast.walk(tree):
            todo.extend(_reached(node, package))
    return sorted(seen)


def _reached(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if _NAME.match(a.name)]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
        if not _NAME.match(base):
            return []
        return [base, *(f"{base}.{a.name}" for a in node.names)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        # "pkg.module:attr" or "mmjudge.a.b" names a module; a bare "mmjudge.x" is an entry-point group
        name, colon, _ = node.value.partition(":")
        return [name] if _NAME.match(name) and (colon or name.count(".") >= 2) else []
    return []


def _rename(text: str, package: str) -> str:
    """The source with the package name ``mmjudge`` (in imports and dotted names) replaced by ``package``."""
    text = re.sub(r"(?<![\w.\-])mmjudge(?=\.[A-Za-z_])", package, text)
    return re.sub(r"(?m)^(\s*)(from|import) mmjudge\b", rf"\1\2 {package}", text)


def _files(sources: dict[str, Path]) -> list[tuple[str, Path]]:
    """``(path inside the package, file)`` of every module source and package data file, sorted."""
    out = []
    for module, path in sources.items():
        relative = "/".join(module.split(".")[1:])
        if path.name == "__init__.py":
            prefix = f"{relative}/" if relative else ""
            out.append((f"{prefix}__init__.py", path))
            out.extend((f"{prefix}{data.name}", data) for data in _package_data(path))
        else:
            out.append((f"{relative}.py", path))
    return sorted(out)


def _digest(sources: dict[str, Path]) -> str:
    """sha256 over the vendored files' names and contents, as they are in the checkout."""
    digest = hashlib.sha256()
    for name, path in _files(sources):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _archive(sources: dict[str, Path], package: str) -> bytes:
    """A deterministic zip of the files under ``package/``, the package name rewritten in the sources."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in _files(sources):
            data = path.read_bytes()
            if path.suffix == ".py":
                data = _rename(data.decode("utf-8"), package).encode("utf-8")
            info = zipfile.ZipInfo(f"{package}/{name}", date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def _package_data(path: Path) -> list[Path]:
    """The data files (json, yaml, md) beside a package's ``__init__.py``, as the wheel ships them."""
    return sorted(p for p in path.parent.iterdir() if p.suffix in (".json", ".yaml", ".md") and p.is_file())


# --- requirements ----------------------------------------------------------------------------------


def _requirements(root: Path, paths: list[Path], script: str) -> list[str]:
    """PyPI requirement lines: the imported distributions that mmjudge's core and ``metrics`` extra name."""
    from packaging.requirements import Requirement

    imported: set[str] = set()
    for text in [*(p.read_text(encoding="utf-8") for p in paths), script]:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                imported.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    distributions = importlib.metadata.packages_distributions()
    wanted = {checkout.normal_name(d) for top in imported for d in distributions.get(top, [])}
    pins = checkout.read_constraints(root / "constraints.txt")
    lines = []
    for text in importlib.metadata.requires("mmjudge") or []:
        requirement = Requirement(text)
        marker = requirement.marker
        core_or_metrics = marker is None or marker.evaluate({"extra": "metrics"})
        name = checkout.normal_name(requirement.name)
        if not core_or_metrics or name not in wanted:
            continue
        lines.append(_bounded(requirement.name, str(requirement.specifier), pins.get(name)))
    return sorted(set(lines), key=str.lower)


def _bounded(name: str, specifier: str, pinned: str | None) -> str:
    """``name>=low,<next`` with the next major (next minor for 0.x) of the pinned version.

    >>> _bounded("numpy", ">=1.26", "2.4.6"), _bounded("statsmodels", ">=0.14", "0.14.6")
    ('numpy>=1.26,<3', 'statsmodels>=0.14,<0.15')
    """
    if pinned is None:
        return f"{name}{specifier}"
    parts = [int(p) for p in re.findall(r"\d+", pinned)[:2]] + [0]
    upper = f"<{parts[0] + 1}" if parts[0] > 0 else f"<0.{parts[1] + 1}"
    low = specifier or f">={pinned}"
    return f"{name}{low},{upper}"


# --- generated files ---------------------------------------------------------------------------------


def _vendored_script(text: str, *, relative: bool) -> str:
    """``text`` with its ``from mmjudge.X import A, B`` lines turned into vendored lookups."""
    source = f"from .{VENDOR} import import_from" if relative else f"from {VENDOR} import import_from"
    out, added = [], False
    for line in text.splitlines():
        match = _IMPORT.match(line)
        if match is None:
            out.append(line)
            continue
        names = [n.strip() for n in match.group(2).split(",") if n.strip()]
        if not added:
            out.append(source)
            added = True
        out.append(f"{', '.join(names)}, = import_from({match.group(1)!r}, {', '.join(repr(n) for n in names)})")
    if any(re.match(r"^\s*(from|import) mmjudge\b", line) for line in out):
        raise ConfigError("the metric script imports mmjudge in a form `metric build` cannot vendor: "
                          "use one `from mmjudge.X import A, B` per line at module level")  # fmt: skip
    return "\n".join(out) + "\n"


def _loader(package: str, archive: bytes, digest: str, modules: list[str], root: Path) -> str:
    encoded = base64.b85encode(archive).decode("ascii")
    chunks = "\n".join(f'    "{encoded[i : i + 100]}"' for i in range(0, len(encoded), 100))
    listing = "\n".join(f"#   {m}" for m in modules)
    return f'''"""The mmjudge scoring code this metric runs, vendored by ``mmjudge metric build``; do not edit.

Built from {checkout.describe(root)} (mmjudge {_version()}). ``ARCHIVE`` is a zip of the mmjudge modules
below with the package renamed ``{package}``; :func:`import_from` unpacks it once into
``$MMJUDGE_METRIC_CACHE`` (default ``~/.cache/mmjudge/metrics``, else the temp folder) under its sha256
and imports from there. Read the code in the mmjudge repository at that commit, or unpack ``ARCHIVE``.
"""

import base64
import importlib
import io
import os
import sys
import tempfile
import zipfile
from pathlib import Path

PACKAGE = "{package}"
SHA256 = "{digest}"
# Vendored modules ({len(modules)}):
{listing}
ARCHIVE = (
{chunks}
)


def _cache_base() -> Path:
    configured = os.environ.get("MMJUDGE_METRIC_CACHE")
    if configured:
        return Path(configured)
    home = Path.home() / ".cache" / "mmjudge" / "metrics"
    try:
        home.mkdir(parents=True, exist_ok=True)
        return home
    except OSError:
        return Path(tempfile.gettempdir()) / "mmjudge-metrics"


def _unpacked() -> Path:
    target = _cache_base() / SHA256[:16]
    if not (target / PACKAGE / "__init__.py").is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent))
        with zipfile.ZipFile(io.BytesIO(base64.b85decode("".join(ARCHIVE)))) as archive:
            archive.extractall(staging)
        try:
            os.replace(staging, target)
        except OSError:  # another process unpacked it first
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
    return target


def import_from(module, *names):
    """``from <module> import <names>`` in the vendored copy; ``module`` is spelled ``mmjudge.x.y``."""
    root = str(_unpacked())
    if root not in sys.path:
        sys.path.insert(0, root)
    vendored = importlib.import_module(PACKAGE + module[len("mmjudge"):])
    out = []
    for name in names:
        try:
            out.append(getattr(vendored, name))
        except AttributeError:
            out.append(importlib.import_module(vendored.__name__ + "." + name))
    return tuple(out)
'''


def _version() -> str:
    from mmjudge._version import __version__

    return __version__


def _card(card: str, name: str, root: Path, modules: list[str], requirements: list[str], package: str) -> str:
    section = f"""

## How this folder was built

Written by `mmjudge metric build {name}` from the mmjudge {checkout.describe(root)} (mmjudge {_version()}).
`{name}.py` is the repository's `metrics/{name}/{name}.py` with its `from mmjudge... import ...` lines
turned into lookups in `{VENDOR}.py`, which holds the {len(modules)} mmjudge modules the script and the
widget can reach, unchanged except for the package name (`{package}`, so an installed mmjudge of another
version never mixes in), as a zip unpacked on first use. `requirements.txt` installs from PyPI only:
{", ".join(f"`{r}`" for r in requirements)}. Load it with
`evaluate.load("<org>/{name}")` after `mmjudge metric push {name} --repo <org>/{name}`, or from this folder
with `evaluate.load("path/to/this/folder")`.
"""
    return card.rstrip("\n") + "\n" + section


# --- push --------------------------------------------------------------------------------------------


def plan_metric_push(folder: str | Path, repo_id: str) -> MetricPushPlan:
    """The files :func:`push_metric` uploads from a built folder (pure: no network).

    Raises:
        ConfigError: the folder is not a metric build, or the repo id is not ``org/name``.
    """
    folder = Path(folder)
    if not (folder / f"{VENDOR}.py").is_file() or not (folder / "README.md").is_file():
        raise ConfigError(f"{folder}: expected a folder written by `mmjudge metric build` ({VENDOR}.py, README.md)")
    if not re.fullmatch(r"[\w.\-]+/[\w.\-]+", repo_id):
        raise ConfigError(f"--repo {repo_id!r}: expected a Space repo id ORG/NAME")
    files = sorted((p.relative_to(folder).as_posix(), p.stat().st_size) for p in folder.rglob("*") if p.is_file()
                   and "__pycache__" not in p.parts)  # fmt: skip
    return MetricPushPlan(repo_id, files, f'evaluate.load("{repo_id}")')


def push_metric(folder: str | Path, repo_id: str, *, private: bool = False, token: str | None = None) -> str:
    """Upload a built folder to the Space ``repo_id`` (created with the gradio SDK when missing); its URL."""
    from huggingface_hub import HfApi

    plan = plan_metric_push(folder, repo_id)
    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="space", space_sdk="gradio", private=private, exist_ok=True)
    commit = api.upload_folder(
        folder_path=str(folder),
        repo_id=repo_id,
        repo_type="space",
        allow_patterns=[path for path, _ in plan.files],
        commit_message="mmjudge metric build",
    )
    return str(getattr(commit, "commit_url", f"https://huggingface.co/spaces/{repo_id}"))

