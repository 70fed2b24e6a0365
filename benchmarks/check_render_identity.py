"""Byte-identity of the leaderboard's table, CSV and JSON exports across a change to how they are made.

Run it with the code before the change and after it on copies of the same store, then compare the folders:

    python benchmarks/check_render_identity.py build /tmp/board          # a store of verified + reported rows
    cp /tmp/board/lb.sqlite /tmp/a.sqlite; cp /tmp/board/lb.sqlite /tmp/b.sqlite
    PYTHONPATH=<old checkout>/src python benchmarks/check_render_identity.py export /tmp/a.sqlite /tmp/before
    python benchmarks/check_render_identity.py export /tmp/b.sqlite /tmp/after       # computes and stores
    python benchmarks/check_render_identity.py export /tmp/b.sqlite /tmp/after2      # reads what it stored
    diff -r /tmp/before /tmp/after && diff -r /tmp/before /tmp/after2

``export`` writes, for every benchmark with rows and every view, the table as the page has it (headers, raw
values, shown text, caption; JSON) and its CSV and JSON exports (``write_table``). It reads the table as
``Handlers.table`` does: through a rank keeper on the store where the code has one (``read_table``), else
passing the store to ``build_table`` where the code takes one.
"""

from __future__ import annotations

import inspect
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_leaderboard_render import submission  # the same synthetic rows as the render benchmark


def build(folder: Path) -> None:
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS
    from mmjudge.leaderboard import Leaderboard, Settings, Store, SubmissionMeta

    try:
        from mmjudge.leaderboard.core.reported import seed_reported
    except ModuleNotFoundError:  # before the leaderboard's layers
        from mmjudge.leaderboard.reported import seed_reported  # type: ignore[no-redef]

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "isovrbench").mkdir(exist_ok=True)
    rows = [{"pair_id": f"{iv}-{i:04d}", "intervention": iv, "prompt": f"prompt {i}"}
            for i in range(40) for iv in INTERVENTIONS]  # fmt: skip
    board = Leaderboard(Store(folder / "lb.sqlite"), Settings(data_root=folder, require_login=False, admins=frozenset({"a"})),
                        rows_fn=lambda b, f: rows)  # fmt: skip
    unlimited = (
        {"limited": False}
        if "limited" in inspect.signature(board.submit).parameters
        else {"daily_limit": None}
    )
    ids = [board.submit(submission(rows, i), SubmissionMeta(f"judge {i}", f"org/model-{i}"), "u", **unlimited).id
           for i in range(12)]  # fmt: skip
    board.hide(ids[3], "a")
    seed_reported(board.store)


def export(location: str, out: Path) -> None:
    import importlib

    from mmjudge.benchmarks import get_benchmark
    from mmjudge.leaderboard import Store, build_table

    try:  # the module's home since the leaderboard's layers; before them, mmjudge.leaderboard.export
        write_table = importlib.import_module("mmjudge.leaderboard.board.export").write_table
    except ModuleNotFoundError:
        write_table = importlib.import_module("mmjudge.leaderboard.export").write_table

    store = Store(location)
    params = inspect.signature(build_table).parameters
    extra: dict[str, Any] = {"store": store} if "store" in params else {}
    if "ranks" in params:  # since the render only reads: the table as Handlers.table reads it, through a keeper
        from mmjudge.leaderboard.board.ranks import InlineRanks, read_table

        keeper = InlineRanks(store)
    out.mkdir(parents=True, exist_ok=True)
    for benchmark in sorted({s.benchmark for s in store.submissions()}):
        for view in (v.name for v in get_benchmark(benchmark).present.leaderboard.views):  # any code's views
            if "ranks" in params:
                table = read_table(keeper, benchmark, view)
            else:
                table = build_table(benchmark, store.submissions(benchmark), view, significance=True, **extra)
            name = f"{benchmark}-{view}"
            page = {"headers": table.headers, "values": table.values, "display": table.display,
                    "caption": table.caption}  # fmt: skip
            (out / f"{name}.page.json").write_text(json.dumps(page, allow_nan=True, ensure_ascii=False))
            write_table(table, out / f"{name}.csv")
            write_table(table, out / f"{name}.json")


def main() -> None:
    command, *args = sys.argv[1:]
    if command == "build":
        build(Path(args[0] if args else tempfile.mkdtemp()))
    elif command == "export":
        export(args[0], Path(args[1]))
    else:
        raise SystemExit(f"expected 'build FOLDER' or 'export STORE OUT', got {command!r}")


if __name__ == "__main__":
    main()
