"""``mmjudge human-study make | serve | score``: validate intervention pairs with people.

``make`` draws pairs and control pairs from an IsoVRBench pair table into a study folder; ``serve``
runs the annotation app on it; ``score`` writes ``scores.json``, ``human_row.json`` and ``report.md``
and, with ``--leaderboard``, stores the human row in a leaderboard database.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mmjudge.errors import ConfigError

if TYPE_CHECKING:
    from mmjudge.benchmarks.isovrbench.human_study import Study

NAME = "human-study"
HELP = "human validation of intervention pairs: make a study folder, serve the annotation app, score answers"


def configure(parser: argparse.ArgumentParser) -> None:
    """Three actions: make, serve, score."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    make = actions.add_parser("make", help="draw pairs and control pairs into a study folder",
                              description="Draw intervention pairs and one-clip control pairs from a pair "
                              "table into a new study folder that `human-study serve` annotates.")  # fmt: skip
    make.add_argument(
        "--pairs", required=True, type=Path, help="pair table or folder (e.g. a build-interventions output)"
    )
    make.add_argument("--out", required=True, type=Path, help="study folder to create")
    make.add_argument(
        "--media-root", type=Path, help="folder the clip paths are relative to (default: the table's)"
    )
    make.add_argument(
        "--pairs-per-intervention", type=int, default=45, help="pairs drawn per intervention (paper: 45)"
    )
    make.add_argument(
        "--controls-per-intervention",
        type=int,
        default=8,
        help="one-clip control pairs per intervention (paper: 8)",
    )
    make.add_argument("--seed", type=int, default=0, help="seed of every draw")
    make.add_argument("--split", default="test", help="split to read from a folder")
    make.add_argument("--name", help="study name (default: the folder name)")

    serve = actions.add_parser("serve", help="serve the annotation app of a study folder",
                               description="Serve the annotation app of a study folder (answers are saved "
                               "in the folder as annotators give them).")  # fmt: skip
    serve.add_argument("study", type=Path, help="study folder")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for a LAN)")
    serve.add_argument("--port", type=int, default=7860, help="port")

    score = actions.add_parser(
        "score", help="score the answers; write scores.json, human_row.json, report.md",
        description="Score the annotators' answers in a study folder and write scores.json, human_row.json "
        "and report.md; with --leaderboard, also store the human row in a leaderboard database.",
    )
    score.add_argument("study", type=Path, help="study folder")
    score.add_argument("--out", type=Path, help="output folder (default: <study>/scores)")
    score.add_argument(
        "--resamples", type=int, default=10_000, help="bootstrap resamples (0: Wilson intervals only)"
    )
    score.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    score.add_argument(
        "--leaderboard", type=Path, help="also store the human row in this leaderboard database"
    )
    score.add_argument(
        "--kind", choices=("verified", "reported"), default="verified",
        help="row kind: verified (scored here from the answers) or reported (published numbers)",
    )  # fmt: skip
    score.add_argument("--submitter", default="local", help="submitter name stored with the leaderboard row")


def run(args: argparse.Namespace) -> int:
    return {"make": _make, "serve": _serve, "score": _score}[args.action](args)


def _make(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks.isovrbench.human_study import make_study

    study = make_study(
        args.pairs,
        args.out,
        media_root=args.media_root,
        pairs_per_intervention=args.pairs_per_intervention,
        controls_per_intervention=args.controls_per_intervention,
        seed=args.seed,
        split=args.split,
        name=args.name,
    )
    pairs = sum(item.kind == "pair" for item in study.items)
    print(
        f"study {study.folder}: {len(study.items)} items ({pairs} pairs, {len(study.items) - pairs} controls)"
    )
    return 0


def _serve(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks.isovrbench.human_study import load_study
    from mmjudge.benchmarks.isovrbench.human_study.app import build_app

    build_app(load_study(args.study)).launch(server_name=args.host, server_port=args.port)
    return 0


def _score(args: argparse.Namespace) -> int:
    from mmjudge.benchmarks.isovrbench.human_study import human_row, load_study, score_study, write_outputs

    if args.resamples < 0:
        raise ConfigError(f"--resamples must be 0 or more, got {args.resamples}")
    study = load_study(args.study)
    score = score_study(study, n_resamples=args.resamples, seed=args.seed)
    paths = write_outputs(score, study, args.out or study.folder / "scores", kind=args.kind)
    for path in paths.values():
        print(path)
    if args.leaderboard is not None:
        row_id = _store_row(human_row(score, study, kind=args.kind), study, args)
        print(f"stored as {args.kind} row #{row_id} in {args.leaderboard}")
    return 0


def _store_row(row: dict[str, Any], study: Study, args: argparse.Namespace) -> int:
    from mmjudge.benchmarks.isovrbench.human_study import answers_digest
    from mmjudge.leaderboard import NewSubmission, Store

    sha = answers_digest(study) if args.kind == "verified" else None
    submission = NewSubmission(
        benchmark=row["benchmark"], kind=row["kind"], judge=row["judge"], model=row["model"], submitter=args.submitter,
        results=row["results"], revision=row["revision"], source=row["source"], weights="unknown", sha256=sha,
    )  # fmt: skip
    return Store(args.leaderboard).insert_submission(submission)
