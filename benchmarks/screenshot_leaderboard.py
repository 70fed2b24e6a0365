"""Screenshots of the served leaderboard in headless Chromium: provenance tiers, ranking by reference set,
rank sets.

    .venv/bin/python benchmarks/screenshot_leaderboard.py --demo-output demo-output --out benchmarks/screenshots

Needs ``make demo`` output (the sample data and the weight-free baselines) and Debian's ``chromium``.
The store gets what a deployed leaderboard holds: the shipped published rows; the demo baselines,
ingested as baselines (``mmjudge leaderboard --demo-output``); one ``run here`` row, stored by the
real worker path (a request queued, claimed, and its predictions stored under the worker's lease; the
predictions are the demo's ``random`` baseline file renamed, as no model is run here); and ``submitted``
uploads, one of them MIST's ``constant`` baseline file renamed, which MIST's companion check flags, and on
EmoReAlM three files (the demo's ``random`` and ``constant`` files and the reference answers) so that its rows
get rank sets. Writes ``isovrbench.png``, ``mist.png`` and ``emorealm.png``: the table of each tab, 1400 px
wide, with the rank, judge, headline, the paired-test columns (rank set and test) and the details shown (the
other column groups unchecked), and the caption under EmoReAlM's table. The sample's IsoVRBench pairs fall on
2 prompts, so their rank-set cells say why there is none; MIST's one compared row ranks alone (``1``, ``best``;
the flagged upload is not compared); EmoReAlM's 10 questions on 5 clips get thin rank sets (``†``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mmjudge.leaderboard import Leaderboard

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def _renamed(path: Path, judge: str) -> bytes:
    """The prediction file at ``path`` with its header's judge renamed (another file, another sha256)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0]) | {"judge": judge}
    return ("\n".join([json.dumps(header), *lines[1:]]) + "\n").encode()


def fill(board: Leaderboard, demo: Path) -> None:
    """Published rows, demo baselines, one run-here row, and submitted rows (see the module docstring)."""
    from mmjudge.leaderboard.core import queue as q
    from mmjudge.leaderboard.core.submit import ingest_demo_output
    from mmjudge.leaderboard.core.validation import SubmissionMeta

    for line in ingest_demo_output(board, demo):
        print(line)
    spec = q.validate_request("org/vlm-judge", "0" * 40, "vlm_digit", "", ["isovrbench"], known_backends=["vlm_digit"])
    q.enqueue(board.store, spec, "alice")
    claimed = q.claim(board.store, "gpu-1")
    assert claimed is not None
    board.submit(_renamed(demo / "isovrbench" / "random" / "predictions.jsonl", "org/vlm-judge"),
                 SubmissionMeta("vlm judge (run here)", "org/vlm-judge", "0" * 40, weights="open"), "alice",
                 limited=False, lease=claimed.lease)  # fmt: skip
    q.finish(board.store, claimed.lease, ok=True, log_tail="done")
    board.submit(_renamed(demo / "isovrbench" / "sharpness" / "predictions.jsonl", "uploaded judge"),
                 SubmissionMeta("uploaded judge", "eve/judge", "v1"), "eve")  # fmt: skip
    board.submit(_renamed(demo / "mist" / "constant" / "predictions.jsonl", "never reads the image"),
                 SubmissionMeta("never reads the image", "eve/constant", "v1"), "eve")  # fmt: skip
    board.submit(_renamed(demo / "mist" / "random" / "predictions.jsonl", "uploaded mist judge"),
                 SubmissionMeta("uploaded mist judge", "eve/mist", "v1"), "eve")  # fmt: skip
    for name in ("random", "constant"):
        board.submit(_renamed(demo / "emorealm" / name / "predictions.jsonl", f"uploaded {name}"),
                     SubmissionMeta(f"uploaded {name}", f"eve/{name}", "v1"), "eve")  # fmt: skip
    board.submit(_answers(board), SubmissionMeta("reference answers", "eve/answers", "v1"), "eve")


def _answers(board: Leaderboard) -> bytes:
    """An EmoReAlM file answering every question as the labels do (a perfect judge, as a file proves nothing)."""
    header = {"record": "header", "schema_version": 1, "benchmark": "emorealm", "judge": "reference answers"}
    rows = board.reference_rows("emorealm")
    lines = [json.dumps(header)] + [json.dumps({"id": r["id"], "prediction": r["answer"]}) for r in rows]
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--demo-output", type=Path, default=Path("demo-output"), help="`make demo` output folder")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/screenshots"), help="folder for the PNGs")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from mmjudge.leaderboard.app.startup import about_text, open_leaderboard
    from mmjudge.leaderboard.app.ui import build_app
    from mmjudge.leaderboard.board.table import RANK_SET_HEADER, SIGNIFICANCE

    board = open_leaderboard(Path(tempfile.mkdtemp()) / "lb.sqlite", data_root=args.demo_output / "sample-data",
                             require_login=False, daily_limit=100)  # fmt: skip
    fill(board, args.demo_output)
    app = build_app(board, about=about_text())
    app.launch(server_name="127.0.0.1", server_port=7871, prevent_thread_lock=True, quiet=True)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto("http://127.0.0.1:7871/")
            page.get_by_role("tab", name="Submit").wait_for(timeout=60_000)
            for tab, title in (("isovrbench", "IsoVRBench"), ("mist", "MIST"), ("emorealm", "EmoReAlM")):
                page.get_by_role("tab", name=title, exact=True).click()
                # the controls are enabled once the page-load table and figure are in
                page.locator(f"#tiers-{tab} input").first.wait_for(state="visible", timeout=60_000)
                page.wait_for_function(f"() => !document.querySelector('#tiers-{tab} input').disabled", timeout=60_000)
                groups = page.locator(f"#groups-{tab}")
                for box in groups.get_by_role("checkbox").all():  # rank, judge, headline, paired test, details
                    label = box.evaluate("b => b.closest('label').innerText.trim()")
                    if box.is_checked() and label not in ("details", SIGNIFICANCE):
                        box.uncheck()
                page.locator(f"#table-{tab} th[title='Scored on']").wait_for(timeout=60_000)
                page.locator(f"#table-{tab} th[title='{RANK_SET_HEADER}']").wait_for(timeout=60_000)
                page.locator(f"#table-{tab} th[title='Coverage %']").wait_for(state="detached", timeout=60_000)
                page.wait_for_timeout(1500)  # the figure below settles; the table is in
                # scrolled to its last rows: the published set's last ranks, then the sample set ranked apart
                page.locator(f"#table-{tab}").evaluate(
                    "t => { for (const el of t.querySelectorAll('*')) if (el.scrollHeight > el.clientHeight + 4 && "
                    "getComputedStyle(el).overflowY !== 'visible') el.scrollTop = el.scrollHeight; }"
                )
                page.wait_for_timeout(800)
                table = page.locator(f"#table-{tab}")
                if tab == "emorealm":  # the table down to the caption under it (the legend between them)
                    top, end = table.bounding_box(), page.locator(f"#caption-{tab}").bounding_box()
                    assert top is not None and end is not None
                    clip = {"x": top["x"], "y": top["y"], "width": top["width"],
                            "height": end["y"] + end["height"] - top["y"]}  # fmt: skip
                    page.screenshot(path=str(args.out / f"{tab}.png"), clip=clip, full_page=True)  # type: ignore[arg-type]
                else:
                    table.screenshot(path=str(args.out / f"{tab}.png"))
                print(f"wrote {args.out / f'{tab}.png'}")
            browser.close()
    finally:
        app.close(timeout=60)


if __name__ == "__main__":
    main()
