"""``mmjudge metric build`` / ``push``: a self-contained ``evaluate`` module folder, and its upload.

``evaluate.load(folder)`` loads ``<folder>/<folder name>.py``, and ``evaluate.load("org/name")`` the Space's
``name.py``; it installs nothing, and copies beside the script only the single files the script imports
relatively, which it finds by reading the script's import lines as text. :func:`build_metric` writes, for one
folder ``metrics/<name>/`` of the checkout, into a folder of any name ``out``:

- ``<out name>.py``: the checkout's script with every ``from mmjudge.X import Y`` turned into a lookup in
  the vendored copy (``Y, = import_from("mmjudge.X", "Y")``, imported relatively from ``mmjudge_vendored``),
  and, at its end, a string of import lines that names the vendored files for evaluate (never executed);
- ``mmjudge_vendored-<path>.py``: plain source files, one per mmjudge module the script and its widget can
  reach (every ``mmjudge.*`` name imported or named in a string, anywhere in a module, followed to
  closure), each the checkout's ``src/mmjudge/<path>.py`` with the package renamed ``_mmjudge_<hash>``, so an
  installed mmjudge of another version never mixes in (``mmjudge_vendored-benchmarks-mist-scoring.py`` is
  ``mmjudge/benchmarks/mist/scoring.py``);
- ``mmjudge_vendored.py``: the loader (:func:`import_from`), which copies those files once into a package
  of that name in a cache folder and imports from there, and the package data files (json, md) as text;
- ``requirements.txt``: the PyPI distributions the vendored code and the script import that mmjudge's
  core and ``metrics`` extra name, bounded ``>=`` mmjudge's own lower bound and ``<`` the next major
  version (the next minor for 0.x) of the checkout's ``constraints.txt``;
- ``README.md``: the checkout's metric card (its Hub metadata included) and a section saying how the
  folder was built;
- ``app.py``: the metric's Gradio widget (:mod:`mmjudge.metric_app`, vendored too).

:func:`plan_metric_push` lists what a push uploads (the script under the Space's name, ``name.py``);
:func:`push_metric` uploads the folder to a Space (gradio SDK) with huggingface_hub, the token from the usual
Hugging Face login.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import importlib.util
import re
import shutil
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import NamedTuple

from mmjudge import _checkout as checkout
from mmjudge._version import __version__
from mmjudge.errors import ConfigError
from mmjudge.metric_inputs import VENDORED_PREFIX, metric_script

__all__ = ["MetricBuild", "MetricPushPlan", "build_metric", "metric_names", "plan_metric_push", "push_metric"]

VENDOR = VENDORED_PREFIX
"""File name (without ``.py``) of the loader beside the script; the vendored sources are ``VENDOR-<path>.py``."""
APP_ROOTS = ("mmjudge.metric_app",)
"""Modules the widget needs beyond the script's."""
_NAME = re.compile(r"^mmjudge(?:\.[A-Za-z_]\w*)*$")
_IMPORT = re.compile(r"^from (mmjudge(?:\.\w+)*) import \(?([\w\s,]+?)\)?\s*$")
_SCRIPT_NAME = re.compile(r"[A-Za-z0-9_][\w-]*")
"""A name evaluate can load a script by: it becomes a dotted module path, so no dots."""


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
    script: str
    """The script's file name, ``<folder name>.py`` (evaluate loads the folder by it)."""
    load_call: str
    """How to load the folder: ``evaluate.load('<folder>')``."""


class MetricPushPlan(NamedTuple):
    """What :func:`push_metric` uploads."""

    repo_id: str
    """The Space repo ``org/name``."""
    files: list[tuple[str, int]]
    """``(path in the Space, size in bytes)`` of every file uploaded."""
    load_call: str
    """How users load the pushed module."""
    sources: dict[str, str]
    """Path in the Space -> path in the folder (they differ for the script, uploaded as ``<name>.py``)."""


def metric_names(source: str | Path | None = None) -> list[str]:
    """The metric folders of the checkout (``metrics/<name>/<name>.py``)."""
    root = checkout.find_checkout(source, needs=("metrics",))
    return sorted(p.parent.name for p in (root / "metrics").glob("*/*.py") if p.stem == p.parent.name)


def build_metric(name: str, out: str | Path, *, source: str | Path | None = None) -> MetricBuild:
    """Write the self-contained module folder of ``metrics/<name>`` to ``out`` (emptied first when it is
    an earlier build). The script is named after the folder, as ``evaluate.load(out)`` looks for it.

    Raises:
        ConfigError: not a checkout, an unknown metric name, a folder name evaluate cannot load a script by,
            or ``out`` holds other files.
    """
    root = checkout.find_checkout(source, needs=("metrics",))
    known = metric_names(root)
    if name not in known:
        raise ConfigError(f"unknown metric {name!r}; the checkout's metrics/ folder has {known}")
    folder = root / "metrics" / name
    out = Path(out)
    if out.resolve() == folder.resolve() or out.resolve() in folder.resolve().parents:
        raise ConfigError(f"--out {out}: expected a folder outside the checkout's metrics/ (it is emptied first)")
    stem = _script_stem(out.resolve().name, f"--out {out}")
    if out.exists() and any(out.iterdir()) and not (out / f"{VENDOR}.py").is_file():
        raise ConfigError(f"{out}: expected an empty folder or an earlier metric build; it holds other files")
    script = (folder / f"{name}.py").read_text(encoding="utf-8")
    app = (folder / "app.py").read_text(encoding="utf-8")
    roots = sorted({*_script_imports(script), *_script_imports(app), *APP_ROOTS})
    modules = module_closure(roots)
    sources = {module: _source_path(module) for module in modules}
    package = f"_mmjudge_{_digest(sources)[:12]}"
    vendored = _vendored_files(sources, package)
    requirements = _requirements(root, [*sources.values()], script)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    manifest = [file for file in vendored if file.endswith(".py")]
    (out / f"{stem}.py").write_text(_vendored_script(script, relative=True) + _manifest(manifest), encoding="utf-8")
    (out / "app.py").write_text(_vendored_script(app, relative=False), encoding="utf-8")
    for file, (_inside, text) in vendored.items():
        if file.endswith(".py"):
            (out / file).write_text(text, encoding="utf-8")
    (out / f"{VENDOR}.py").write_text(_loader(package, vendored, modules, root), encoding="utf-8")
    (out / "requirements.txt").write_text(
        f"# {name}: written by `mmjudge metric build` from {checkout.describe(root)}; PyPI only.\n"
        + "\n".join(requirements) + "\n",
        encoding="utf-8",
    )
    card = (folder / "README.md").read_text(encoding="utf-8")
    (out / "README.md").write_text(_card(card, name, stem, root, modules, requirements, package), encoding="utf-8")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    load = str(out) if Path(str(out)).name == stem else str(out.resolve())
    return MetricBuild(out, files, modules, requirements, package, f"{stem}.py", f"evaluate.load({load!r})")


def _script_stem(name: str, where: str) -> str:
    """``name`` when evaluate can load a script ``<name>.py`` of that name and it is not one of the folder's
    other files."""
    if not _SCRIPT_NAME.fullmatch(name) or name == "app" or name.startswith(VENDOR):
        raise ConfigError(
            f"{where}: {name!r} names the script evaluate loads ({name}.py), so it must be letters, digits, _ or - "
            f"(no dots) and neither 'app' nor '{VENDOR}...' (the folder's other files); pick another name"
        )
    return name


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
        path = _source_path(module)
        todo.extend(_names_reached(module, str(path), path.stat().st_mtime_ns))
    return sorted(seen)


@cache
def _names_reached(module: str, path: str, mtime_ns: int) -> tuple[str, ...]:
    """The mmjudge names ``module``'s source (``path``, as of ``mtime_ns``) imports or spells; parsed once per
    process and version of the file, since building every metric walks the same modules again."""
    package = module if Path(path).name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    return tuple(name for node in ast.walk(tree) for name in _reached(node, package))


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


def _vendored_files(sources: dict[str, Path], package: str) -> dict[str, tuple[str, str]]:
    """``{file beside the script: (path inside the package, text)}``: each module source as
    ``VENDOR-<path with - for />.py`` with the package name rewritten; each data file (kept in the loader)
    under its path inside the package.

    >>> files = _vendored_files({"mmjudge.errors": _source_path("mmjudge.errors")}, "_mmjudge_x")
    >>> list(files), files["mmjudge_vendored-errors.py"][0]
    (['mmjudge_vendored-errors.py'], 'errors.py')
    """
    out = {}
    for inside, path in _files(sources):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            out[f"{VENDOR}-{inside.removesuffix('.py').replace('/', '-')}.py"] = (inside, _rename(text, package))
        else:
            out[inside] = (inside, text)
    return out


def _package_data(path: Path) -> list[Path]:
    """The data files (json, yaml, md) beside a package's ``__init__.py``, as the wheel ships them."""
    return sorted(p for p in path.parent.iterdir() if p.suffix in (".json", ".yaml", ".md") and p.is_file())


# --- requirements ----------------------------------------------------------------------------------


def _requirements(root: Path, paths: list[Path], script: str) -> list[str]:
    """PyPI requirement lines: the imported distributions that mmjudge's core and ``metrics`` extra name."""
    from packaging.requirements import Requirement

    imported = set(_top_level_imports(script))
    for path in paths:
        imported.update(_top_level_imports(path.read_text(encoding="utf-8")))
    distributions = _packages_distributions()
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


@cache
def _top_level_imports(text: str) -> frozenset[str]:
    """The top-level names of the absolute imports in the source ``text`` (parsed once per process)."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    return frozenset(imported)


@cache
def _packages_distributions() -> Mapping[str, list[str]]:
    """``importlib.metadata.packages_distributions()``, read once per process: it lists the files of every
    installed distribution (about 0.7 s here), and what is installed does not change while a process builds."""
    return importlib.metadata.packages_distributions()


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


def _manifest(files: list[str]) -> str:
    """The script's closing string: one relative import line per vendored file, for evaluate's import scanner."""
    lines = "\n".join(f"from .{file.removesuffix('.py')} import *" for file in files)
    return f"""

# evaluate copies beside a script only the files the script imports relatively, and finds them by reading
# its import lines as text. These lines name the vendored mmjudge sources for it; they are a string, never
# run: `import_from` above builds the package `mmjudge_vendored.PACKAGE` from those files.
_VENDORED_FILES = '''
{lines}
'''
"""


def _literal(text: str) -> str:
    """A Python literal of ``text`` that reads as the text where it can (a raw triple-quoted string).

    >>> print(_literal('{"a": 1}'))
    r\'\'\'{"a": 1}\'\'\'
    >>> print(_literal("ends in \\\\"))
    'ends in \\\\'
    """
    if "'''" in text or text.endswith("\\") or "\r" in text:
        return repr(text)
    return f"r'''{text}'''"


def _loader(package: str, vendored: dict[str, tuple[str, str]], modules: list[str], root: Path) -> str:
    files = "\n".join(f"    {file!r}: {inside!r}," for file, (inside, _) in vendored.items() if file.endswith(".py"))
    data = "\n".join(f"    {inside!r}: {_literal(text)}," for file, (inside, text) in vendored.items()
                     if not file.endswith(".py"))  # fmt: skip
    return f'''"""The mmjudge scoring code this metric runs, vendored by ``mmjudge metric build``; do not edit.

Built from {checkout.describe(root)} (mmjudge {_version()}). The files ``{VENDOR}-<path>.py`` beside this one
are the {len(modules)} mmjudge modules the metric and its widget reach, plain source: each is the mmjudge
repository's ``src/mmjudge/<path>.py`` at that commit with the package renamed ``{package}``, so that an
installed mmjudge of another version never mixes in. :func:`import_from` copies them (and ``DATA``, the package
data files) once into ``$MMJUDGE_METRIC_CACHE`` (default ``~/.cache/mmjudge/metrics``; never a shared temp
folder), in a folder named by the sha256 of their contents, as the package ``{package}``, and imports from there.
Before every import the copy is checked: the folder is this user's and nobody else's to write, it holds exactly
these files with exactly these bytes (compiled caches are removed), else the import is refused.
"""

import hashlib
import importlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = "{package}"
FILES = {{  # file beside this one -> its path inside the package
{files}
}}
DATA = {{  # package data file -> its text
{data}
}}


def _cache_base() -> Path:
    configured = os.environ.get("MMJUDGE_METRIC_CACHE")
    if configured:
        return Path(configured)
    home = Path.home() / ".cache" / "mmjudge" / "metrics"
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ImportError(f"cannot create {{home}} for the metric's code ({{exc}}); set MMJUDGE_METRIC_CACHE to a "
                          "folder of your own") from exc
    return home


def _checked(target: Path, contents: dict) -> Path:
    """``target`` when it holds exactly ``contents`` in folders only this user can write; else ImportError."""
    for folder in [target.parent, target, *(p for p in target.rglob("*") if p.is_dir() and not p.is_symlink())]:
        info = folder.lstat()
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            raise ImportError(f"refusing the metric code cached in {{folder}}: it is not this user's alone to write; "
                              "set MMJUDGE_METRIC_CACHE to a folder of your own")
    for cache in [p for p in target.rglob("__pycache__") if p.is_dir()]:
        shutil.rmtree(cache)  # compiled files are made again from the checked sources
    outside = [p.name for p in target.iterdir() if p.name != PACKAGE]
    found = {{p.relative_to(target / PACKAGE).as_posix() for p in (target / PACKAGE).rglob("*") if not p.is_dir()}}
    differs = [n for n in contents if n not in found or (target / PACKAGE / n).read_bytes() != contents[n]]
    if outside or differs or found - set(contents) or (target / PACKAGE).is_symlink():
        raise ImportError(f"refusing the metric code cached in {{target}}: it differs from this metric's files "
                          f"({{sorted(found - set(contents))[:3] or differs[:3] or outside[:3]}}); delete that folder")
    return target


def _contents() -> dict:
    here = Path(__file__).parent
    contents = {{inside: (here / file).read_bytes() for file, inside in FILES.items()}}
    contents.update((inside, text.encode("utf-8")) for inside, text in DATA.items())
    return contents


def _unpacked() -> Path:
    contents = _contents()
    digest = hashlib.sha256()
    for inside in sorted(contents):
        digest.update(inside.encode() + b"\\0" + contents[inside] + b"\\0")
    target = _cache_base() / digest.hexdigest()[:16]
    if not (target / PACKAGE / "__init__.py").is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent))
        staging.chmod(0o755)
        for inside, data in contents.items():
            path = staging / PACKAGE / inside
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        try:
            os.replace(staging, target)
        except OSError:  # another process copied them first
            shutil.rmtree(staging, ignore_errors=True)
    return _checked(target, contents)


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

    return __version__


def _card(card: str, name: str, stem: str, root: Path, modules: list[str], requirements: list[str], package: str) -> str:
    section = f"""

## How this folder was built

Written by `mmjudge metric build {name} --out {stem}` from the mmjudge {checkout.describe(root)} (mmjudge
{_version()}). `{stem}.py` is the repository's `metrics/{name}/{name}.py` with its `from mmjudge... import ...`
lines turned into lookups in `{VENDOR}.py`. The {len(modules)} mmjudge modules the script and the widget can
reach are the plain source files `{VENDOR}-<path>.py` (`src/mmjudge/<path>.py` of the repository, unchanged
except for the package name, `{package}`, so an installed mmjudge of another version never mixes in); the
script names them at its end for evaluate, which copies them beside it, and `{VENDOR}.py` assembles them into
that package on first use. `requirements.txt` installs from PyPI only:
{", ".join(f"`{r}`" for r in requirements)}. Load it from this folder with `evaluate.load("path/to/{stem}")`
(evaluate loads `<folder>/<folder name>.py`), or with `evaluate.load("<org>/<space>")` after
`mmjudge metric push {name} --repo <org>/<space> --folder {stem}` (which uploads the script as `<space>.py`).
"""
    return card.rstrip("\n") + "\n" + section


# --- push --------------------------------------------------------------------------------------------


def plan_metric_push(folder: str | Path, repo_id: str) -> MetricPushPlan:
    """The files :func:`push_metric` uploads from a built folder (pure: no network): every file, the script
    under the Space's name (``evaluate.load("org/name")`` loads ``name.py``).

    Raises:
        ConfigError: the folder is not a metric build, or the repo id is not ``org/name`` with a name evaluate
            can load a script by.
    """
    folder = Path(folder)
    if not (folder / f"{VENDOR}.py").is_file() or not (folder / "README.md").is_file():
        raise ConfigError(f"{folder}: expected a folder written by `mmjudge metric build` ({VENDOR}.py, README.md)")
    if not re.fullmatch(r"[\w.\-]+/[\w.\-]+", repo_id):
        raise ConfigError(f"--repo {repo_id!r}: expected a Space repo id ORG/NAME")
    stem = _script_stem(repo_id.split("/")[1], f"--repo {repo_id}")
    try:
        script = metric_script(folder).name
    except FileNotFoundError as exc:
        raise ConfigError(f"{exc}; build the folder again with `mmjudge metric build`") from None
    local = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
                   and "__pycache__" not in p.parts)  # fmt: skip
    sources = {(f"{stem}.py" if path == script else path): path for path in local}
    files = sorted((remote, (folder / path).stat().st_size) for remote, path in sources.items())
    return MetricPushPlan(repo_id, files, f'evaluate.load("{repo_id}")', sources)


def push_metric(folder: str | Path, repo_id: str, *, private: bool = False, token: str | None = None) -> str:
    """Upload a built folder to the Space ``repo_id`` (created with the gradio SDK when missing) in one commit;
    its URL."""
    from huggingface_hub import CommitOperationAdd, HfApi

    plan = plan_metric_push(folder, repo_id)
    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="space", space_sdk="gradio", private=private, exist_ok=True)
    operations = [CommitOperationAdd(path_in_repo=remote, path_or_fileobj=str(Path(folder) / local))
                  for remote, local in plan.sources.items()]  # fmt: skip
    commit = api.create_commit(
        repo_id, operations, commit_message="mmjudge metric build", repo_type="space"
    )
    return str(getattr(commit, "commit_url", f"https://huggingface.co/spaces/{repo_id}"))
