"""Hostile uploads against the bounded streaming parse: time and memory to refuse, table latency meanwhile.

The attack (issue: leaderboard trust): a 29 MiB ``predictions.jsonl`` of a valid header and 10,000,000
lines ``{}``, under the 64 MiB upload limit, cost 3.77 GiB and 64-172 s to refuse; two at once 7.2 GiB,
and the public table took 12.8 s to answer meanwhile. Goals: refused in < 5 s, < 500 MiB added memory,
the public table answers in < 5 s during two such uploads.

- refuse: each hostile file (``{}`` flood; 800,000 valid-looking records with unknown ids, past the
  benchmark's record count; 30 million blank lines; one 29 MiB line) through the upload handler
  (``Handlers.submit``: reads the uploaded file, ``Leaderboard.submit``, the streaming parse under
  ``UPLOAD_LIMITS`` and the record cap of the server's reference rows). Peak added memory is the process's
  peak resident set (``VmHWM``, reset before the call) above its resident set just before the call. Also
  the costliest file to refuse that the caps let through to its end: 8,000 records (a leaderboard over
  8,000 synthetic IsoVRBench pairs) each at the record value cap, or each with one long string filling the
  64 MiB upload limit, its last line not JSON.
- under load: the app served on loopback (local no-login mode, the sample data root, the shipped
  reported rows and one verified row) while two threads upload the flood file again and again through the
  handlers the server runs (then the wide broken file, in the same process); the public
  ``/table_isovrbench`` endpoint is timed through ``gradio_client`` meanwhile, and alone before.
- accepted: the two costliest valid files (without their broken line) are parsed, scored and stored: the
  most time and memory the caps admit for an 8,000-pair benchmark.

Run: ``.venv/bin/python benchmarks/bench_bounded_parse.py [--repeats 3] [--table-calls 10]``
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import write_results

from mmjudge.leaderboard import Leaderboard, Settings, Store, SubmissionMeta
from mmjudge.leaderboard.app.ui import Handlers
from mmjudge.leaderboard.core.validation import DEFAULT_MAX_BYTES
from mmjudge.predictions import MAX_RECORD_VALUES, MAX_SECONDS

BENCHMARKS = ("isovrbench", "emoprefer", "emorealm")
MiB = 2**20


FLOOD = "flood: header + 10,000,000 lines {}"
WIDE = f"wide: 8,000 records at the {MAX_RECORD_VALUES}-value record cap, last line not JSON"
LONG = "long: 8,000 records with one long string each, 62 MiB, last line not JSON"


def _header(benchmark: str) -> bytes:
    return json.dumps({"record": "header", "schema_version": 1, "benchmark": benchmark, "judge": "j"}).encode()


def hostile_files(folder: Path) -> dict[str, Path]:
    """The hostile uploads, written once: name -> path."""
    contents = {
        FLOOD: _header("isovrbench") + b"\n" + b"{}\n" * 10_000_000,
        "over count: header + 800,000 records, unknown ids": _header("emorealm") + b"\n" + b"".join(
            b'{"id": "x%07d", "prediction": "A"}\n' % i for i in range(800_000)),
        "blank: header + 30,000,000 empty lines": _header("emorealm") + b"\n" * 30_000_001,
        "long line: header + one 29 MiB line": _header("emorealm") + b'\n{"id": "q", "prediction": "'
        + b"A" * (29 * MiB) + b'"}\n',
    }  # fmt: skip
    paths = {}
    for i, (name, data) in enumerate(contents.items()):
        paths[name] = folder / f"hostile_{i}.jsonl"
        paths[name].write_bytes(data)
    return paths


def _status(field: str) -> int:
    """A size field of ``/proc/self/status`` (``VmRSS``, ``VmHWM``) in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} line in /proc/self/status (this benchmark reads Linux's /proc)")


class PeakRss:
    """The peak resident set of the process while the block runs, above its resident set on entry.

    The kernel's high-water mark (``VmHWM``) is reset on entry (``5`` written to ``/proc/self/clear_refs``)
    and read on exit, so a peak shorter than any sampling interval still counts.
    """

    def __enter__(self) -> PeakRss:
        Path("/proc/self/clear_refs").write_text("5")
        self.base = _status("VmRSS")
        return self

    def __exit__(self, *exc: object) -> None:
        self.peak = _status("VmHWM")

    @property
    def added(self) -> int:
        """Bytes the peak was above the resident set on entry."""
        return self.peak - self.base


def upload(handlers: Handlers, path: Path) -> tuple[float, str]:
    """One upload through the handler the Submit tab calls; ``(seconds, message)``."""
    start = time.perf_counter()
    message = handlers.submit(str(path), "judge", "org/model", "r1", "", "", "open", None)
    return time.perf_counter() - start, message


def _row(case: str, mib: float | str = "", times: list[float] | None = None, rss_mib: float | str = "",
         heap_mib: float | str = "", goal: str = "", where: str = "") -> dict[str, Any]:  # fmt: skip
    times = times or []
    return {"case": case, "file MiB": mib, "median s": statistics.median(times) if times else "",
            "max s": max(times) if times else "", "peak added RSS MiB": rss_mib,
            "peak Python heap MiB": heap_mib, "goal": goal, "refused at": where}  # fmt: skip


def bench_refuse(handlers: Handlers, name: str, path: Path, repeats: int) -> dict[str, Any]:
    """Refuse one hostile file ``repeats`` times (time, peak added RSS), then once under tracemalloc."""
    times, added = [], []
    for _ in range(repeats):
        with PeakRss() as memory:
            seconds, message = upload(handlers, path)
        assert message.startswith("**Rejected.**"), message[:300]
        times.append(seconds)
        added.append(memory.added)
    tracemalloc.start()
    upload(handlers, path)
    heap = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(name, "->", html.unescape(message)[:200])
    return _row(f"refuse {name}", path.stat().st_size / MiB, times, max(added) / MiB, heap / MiB,
                "< 5 s, < 500 MiB", _where(message))  # fmt: skip


def _where(message: str) -> str:
    """``line N`` where a refusal message says reading stopped."""
    found = re.search(r"line \d+", message)
    return found.group(0) if found else "?"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _timed_calls(call: Callable[[], Any], n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def _under_load(table: Callable[[], Any], handlers: Handlers, path: Path, calls: int) -> tuple[list[float], list[tuple[float, str]], int]:  # fmt: skip
    """Time ``calls`` table calls while two threads upload ``path`` in a loop; (table times, uploads, RSS)."""
    stop, uploads = threading.Event(), []

    def uploader() -> None:
        while not stop.is_set():
            uploads.append(upload(handlers, path))

    threads = [threading.Thread(target=uploader) for _ in range(2)]
    with PeakRss() as memory:
        for thread in threads:
            thread.start()
        loaded = _timed_calls(table, calls)
        stop.set()
        for thread in threads:
            thread.join()
    assert all(m.startswith("**Rejected.**") for _, m in uploads), uploads[0][1][:300]
    return loaded, uploads, memory.added


def bench_served(board: Leaderboard, loads: dict[str, tuple[Handlers | None, Path]], calls: int) -> list[dict[str, Any]]:
    """Serve ``board``; time the public table alone, then during two concurrent uploads of each load (through
    the given handlers, or ``None``: the served app's own)."""
    from gradio_client import Client

    from mmjudge.leaderboard.app.startup import about_text
    from mmjudge.leaderboard.app.ui import build_app

    app = build_app(board, about=about_text())
    port = _free_port()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        client = Client(f"http://127.0.0.1:{port}/", verbose=False)

        def table() -> Any:
            return client.predict(api_name="/table_isovrbench")

        table()  # warm: first render, imports
        out = [_row("public /table_isovrbench, no upload", times=_timed_calls(table, calls), goal="-")]
        for name, (handlers, path) in loads.items():
            loaded, uploads, added = _under_load(table, handlers or app.handlers, path, calls)
            mib = path.stat().st_size / MiB
            out.append(_row(f"public /table_isovrbench during 2 concurrent uploads of the {name} "
                            f"({len(uploads)} uploads)", mib, loaded, added / MiB, goal="< 5 s"))  # fmt: skip
            out.append(_row(f"each {name} upload meanwhile", mib, [s for s, _ in uploads], goal="< 5 s",
                            where=", ".join(sorted({_where(m) for _, m in uploads}))))  # fmt: skip
    finally:
        app.close(timeout=120)
    return out


def wide_board(folder: Path, n_pairs: int = 8000) -> tuple[Leaderboard, dict[str, bytes]]:
    """A leaderboard over 8,000 synthetic IsoVRBench pairs, and the two costliest valid files the caps admit
    for it: every expected record at the record value cap (:data:`MAX_RECORD_VALUES`, distinct keys), and
    every expected record holding one long string, the file just under the 64 MiB upload limit."""
    from mmjudge.benchmarks.isovrbench import INTERVENTIONS

    per = n_pairs // len(INTERVENTIONS)
    rows = [{"pair_id": f"{iv}-{i:04d}", "intervention": iv} for iv in INTERVENTIONS for i in range(per)]
    (folder / "wide" / "isovrbench").mkdir(parents=True)
    board = Leaderboard(Store(folder / "wide.sqlite"), Settings(data_root=folder / "wide", require_login=False),
                        rows_fn=lambda b, f: rows)  # fmt: skip
    keys = (MAX_RECORD_VALUES - 9) // 2  # 9: the record object, its three fields, the diagnostics object
    text = "é" * ((DEFAULT_MAX_BYTES - 2 * MiB) // len(rows) // 2)  # 2-byte characters: the Unicode check works
    files = {}
    for name, diagnostics in ((WIDE, lambda i: {f"d{i}_{j}": j for j in range(keys)}), (LONG, lambda i: text)):
        lines = [_header("isovrbench").decode()]
        for i, row in enumerate(rows):
            lines.append(json.dumps({"id": row["pair_id"], "score_chosen": 0.6, "score_rejected": 0.4,
                                     "diagnostics": diagnostics(i)}, ensure_ascii=False))  # fmt: skip
        files[name] = ("\n".join(lines) + "\n").encode()
    return board, files


def bench_accepted(board: Leaderboard, name: str, data: bytes) -> dict[str, Any]:
    """Submit a costliest valid file: parse, score (10,000 resamples) and store (then hide it, so that the
    next one is not a duplicate)."""
    with PeakRss() as memory:
        start = time.perf_counter()
        stored = board.submit(data, SubmissionMeta("wide", f"org/{len(data)}"), "local", limited=False)
        seconds = time.perf_counter() - start
    board.store.set_hidden(stored.id, True)
    return _row(f"accept the {name.split(':')[0]} file, valid (parse, score, store)", len(data) / MiB, [seconds],
                memory.added / MiB, goal="< 500 MiB", where="accepted")  # fmt: skip


def make_board(folder: Path) -> Leaderboard:
    """A local no-login leaderboard over the sample data, its reported rows and one verified row."""
    from mmjudge.benchmarks import write_sample_data
    from mmjudge.leaderboard.core.reported import seed_reported
    from mmjudge.scoring import load_reference_rows

    root = folder / "data"
    write_sample_data(root, benchmarks=list(BENCHMARKS))
    board = Leaderboard(Store(folder / "lb.sqlite"), Settings(data_root=root, require_login=False))
    seed_reported(board.store)
    rows = load_reference_rows("isovrbench", root / "isovrbench")
    lines = [_header("isovrbench").decode()] + [
        json.dumps({"id": r["pair_id"], "score_chosen": 0.6, "score_rejected": 0.4}) for r in rows
    ]
    board.submit(("\n".join(lines) + "\n").encode(), SubmissionMeta("baseline", "org/baseline"), "local")
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--table-calls", type=int, default=10)
    parser.add_argument("--no-append", action="store_true", help="print the rows, leave docs/performance.md as it is")
    args = parser.parse_args()
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        board, (wide, costly) = make_board(folder), wide_board(folder)
        handlers, wide_handlers = Handlers(board), Handlers(wide)
        files = hostile_files(folder)
        broken = {}  # the costliest files, their last line not JSON: read to the end, then refused
        for k, (name, data) in enumerate(costly.items()):
            broken[name] = folder / f"broken_{k}.jsonl"
            broken[name].write_bytes(data.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n{nope\n")
        flood = files[FLOOD]
        upload(handlers, flood)  # warm: imports, reference rows
        rows = [bench_accepted(wide, name, data) for name, data in costly.items()]  # first: a fresh heap
        rows += [bench_refuse(handlers, name, path, args.repeats) for name, path in files.items()]
        rows += [bench_refuse(wide_handlers, name, path, args.repeats) for name, path in broken.items()]
        loads: dict[str, tuple[Handlers | None, Path]] = {"flood file": (None, flood)}
        loads.update({f"{name.split(':')[0]} broken file": (wide_handlers, path) for name, path in broken.items()})
        rows += bench_served(board, loads, args.table_calls)
    for row in rows:
        print(row)
    if args.no_append:
        return
    write_results(
        "Leaderboard: hostile uploads against the bounded streaming parse (bench_bounded_parse.py)",
        rows,
        "Each upload goes through `Handlers.submit` (reads the uploaded file, `Leaderboard.submit`, "
        "`parse_prediction_bytes` under `UPLOAD_LIMITS` and the record cap of the server's reference rows: "
        "here the sample data, 10 emorealm questions, so the cap is 10 + 20 records). 'peak added RSS' is "
        "the kernel's peak resident set (VmHWM, reset before the call) above VmRSS just before it; after the "
        "warm-up upload the process reuses the 29 MiB read buffer it already holds, so the figure is what "
        "the parse adds (memory an earlier case left to the allocator is reused, so the first case of a kind "
        "shows the most). 'peak Python heap' is tracemalloc's peak over one more upload, the 29 MiB read "
        "included. The costliest valid files the caps admit for an 8,000-pair benchmark (synthetic reference "
        f"rows): every expected record at the {MAX_RECORD_VALUES}-value record cap (distinct keys), and every "
        "expected record with one long string of 2-byte characters, the file just under the 64 MiB upload "
        "limit; accepted, each is parsed, scored (10,000 resamples) and stored; with its last line broken it "
        "is read to the end and refused. The table is the public endpoint called through gradio_client over "
        "loopback while two threads in the server process upload the file in a loop (the time cap, "
        f"`MAX_SECONDS` = {MAX_SECONDS:g} s, stops a read that a loaded machine slows past it). "
        "Before this change the issue measured, for the flood file: 64-172 s and 3.77 GiB to refuse one "
        "upload, 7.2 GiB for two at once, and 12.8 s for the public table to answer meanwhile.",
    )


if __name__ == "__main__":
    main()
