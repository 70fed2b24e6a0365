"""``mmjudge push-dataset``: upload a built dataset folder to the Hub and tag the upload."""

from __future__ import annotations

import argparse

NAME = "push-dataset"
HELP = "upload a built dataset folder to a Hub dataset repo, tagged and pinned in the card"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments: folder, --repo, --revision, --private, --dry-run, --eval-yaml."""
    parser.add_argument("folder", help="folder written by `mmjudge build-dataset`")
    parser.add_argument("--repo", required=True, help="dataset repo id ORG/NAME (created when missing)")
    parser.add_argument("--revision", default=None, help="tag for this upload (default v<mmjudge version>)")
    parser.add_argument("--private", action="store_true", help="create the repo private")
    parser.add_argument("--dry-run", action="store_true", help="list what would be uploaded; no network")
    parser.add_argument(
        "--eval-yaml",
        action="store_true",
        help="upload the folder's eval.yaml too (held back by default: the Hub must first accept its "
        "evaluation_framework key)",
    )


def run(args: argparse.Namespace) -> int:
    from mmjudge.data.push import plan_push, push_dataset

    if args.dry_run:
        plan = plan_push(args.folder, args.repo, revision=args.revision, include_eval_yaml=args.eval_yaml)
        print(f"would upload {len(plan.files)} files to {plan.repo_id}, tag {plan.revision}:")
        for rel in plan.files:
            print(f"  {rel}")
        for rel in plan.held_back:
            print(f"  (held back: {rel}; pass --eval-yaml to upload it)")
        return 0
    result = push_dataset(
        args.folder, args.repo, revision=args.revision, private=args.private, include_eval_yaml=args.eval_yaml
    )
    print(f"uploaded {args.folder} to {args.repo} at {result.commit_url} (tag {result.revision})")
    return 0
