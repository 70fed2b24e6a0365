"""Screenshot of private-label mode after model requests, in headless Chromium: only the Ladder score shows.

    .venv/bin/python benchmarks/screenshot_private_labels.py --out benchmarks/screenshots

Needs Debian's ``chromium``. A leaderboard with ``private_labels`` over the EmoReAlM sample: a non-admin
(``local``, the no-auth user, not an admin) asks for three models of their choosing (``label_choice`` with the
seeds they like); the worker path runs each (claim, the run, the store under the lease; the run writes seeded
answers, as no model is loaded here) and stores ``run here`` rows. An admin's ``random`` baseline is stored
beside them, in full. Writes ``private_labels.png``: the EmoReAlM table with every column group shown, where
each requested row shows its Ladder score in the headline and ``—`` in every other score column.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def _seeded_run(rows: list[dict[str, Any]], seeds: list[int]) -> Any:
    """A runner writing one seeded letter per question (the next seed of ``seeds``) and its scores to the log."""
    from mmjudge.leaderboard.worker.jobs import EvalJob

    def run(job: EvalJob) -> Path:
        rng = random.Random(seeds.pop(0))
        job.out_dir.mkdir(parents=True)
        lines = [{"record": "header", "schema_version": 1, "benchmark": job.benchmark, "judge": "label_choice"}]
        lines += [{"id": r["id"], "prediction": rng.choice("ABCD")} for r in rows]
        path = job.out_dir / "predictions.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        job.log_path.write_text("overall (strict) = 61.3 [40.0, 80.0]\n", encoding="utf-8")  # what eval prints
        return path

    return run


def fill(board: Any) -> None:
    """Three requests of a non-admin, run by the worker path; one admin baseline."""
    import gradio as gr

    from mmjudge.leaderboard.app.ui import Handlers
    from mmjudge.leaderboard.worker.jobs import process_one

    handlers = Handlers(board)
    rows = list(board.reference_rows("emorealm"))
    for seed in (1, 2, 3):
        print(handlers.request_model(f"eve/judge-{seed}", "main", "label_choice", f"seed: {seed}", ["emorealm"], None))
    admin = gr.OAuthProfile({"name": "root", "preferred_username": "root", "profile": "", "picture": ""})
    print(handlers.request_model("", "", "random", "seed: 9", ["emorealm"], admin))
    seeds = [1, 2, 3, 9]
    while process_one(board, worker="gpu-1", eval_fn=_seeded_run(rows, seeds), lease_s=60.0) is not None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/screenshots"), help="folder for the PNG")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from mmjudge.benchmarks import write_sample_data
    from mmjudge.leaderboard.app.startup import about_text, open_leaderboard
    from mmjudge.leaderboard.app.ui import build_app

    scratch = Path(tempfile.mkdtemp())
    write_sample_data(scratch / "data", benchmarks=["emorealm"])
    board = open_leaderboard(scratch / "lb.sqlite", data_root=scratch / "data", require_login=False, daily_limit=100,
                             private_labels=True, admins=["root"])  # fmt: skip
    fill(board)
    app = build_app(board, about=about_text())
    app.launch(server_name="127.0.0.1", server_port=7872, prevent_thread_lock=True, quiet=True)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto("http://127.0.0.1:7872/")
            page.get_by_role("tab", name="EmoReAlM", exact=True).click()
            page.locator("#tiers-emorealm input").first.wait_for(state="visible", timeout=60_000)
            page.wait_for_function("() => !document.querySelector('#tiers-emorealm input').disabled", timeout=60_000)
            page.locator("#table-emorealm th[title='Scored on']").wait_for(timeout=60_000)
            page.wait_for_timeout(1500)
            path = args.out / "private_labels.png"
            page.locator("#table-emorealm").screenshot(path=str(path))
            print(f"wrote {path}")
            print(page.locator("#table-emorealm").inner_text())
            browser.close()
    finally:
        app.close(timeout=60)


if __name__ == "__main__":
    main()
