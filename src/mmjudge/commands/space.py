"""``mmjudge space build --out DIR [--pin COMMIT]``: write the leaderboard Space folder from this checkout;
``mmjudge space push --repo ORG/NAME [--folder DIR]``: upload it in one commit.

``push`` prints its plan first (files, deletions, the variables, secrets and settings to set on the
Space); with ``--dry-run``, or offline (``HF_HUB_OFFLINE=1``), it stops there.
"""

from __future__ import annotations

import argparse
from typing import Any

NAME = "space"
HELP = "build the leaderboard Space folder from this checkout (`space build`), or upload it (`space push`)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Subcommands ``build`` and ``push``."""
    sub = parser.add_subparsers(dest="space_action", metavar="ACTION", required=True)
    build = sub.add_parser("build", help="write a self-contained Space folder (app.py, README.md, requirements.txt)",
                           description="Write the leaderboard Space folder (app.py, README.md, requirements.txt) "
                           "from this checkout, with mmjudge as a vendored wheel or pinned to a commit.")  # fmt: skip
    build.add_argument("--out", required=True, help="folder to write (emptied when it is an earlier build)")
    build.add_argument(
        "--pin", default=None, help="install mmjudge from this 40-hex commit instead of a vendored wheel"
    )
    build.add_argument(
        "--git-url", default=None,
        help="repository of --pin (default: the checkout's origin; credentials in the URL are never written)",
    )
    build.add_argument("--source", default=None, help="the mmjudge checkout (default: the imported one's)")
    push = sub.add_parser("push", help="upload a built Space folder to ORG/NAME in one commit",
                          description="Upload the folder `mmjudge space build` wrote to the Hub Space ORG/NAME "
                          "(gradio SDK, created when missing) in one commit; --dry-run prints the plan only.")  # fmt: skip
    push.add_argument("--repo", required=True, help="Space repo id ORG/NAME (created when missing, gradio SDK)")
    push.add_argument("--folder", default="space-build", help="the folder `space build` wrote (default space-build)")
    push.add_argument("--private", action="store_true", help="create the Space private")
    push.add_argument("--dry-run", action="store_true", help="print the plan only; no network")


def run(args: argparse.Namespace) -> int:
    from mmjudge.leaderboard.app import space_build

    if args.space_action == "build":
        built = space_build.build_space(args.out, source=args.source, pin=args.pin, git_url=args.git_url)
        print(f"wrote {len(built.files)} files to {built.folder}: {', '.join(built.files)}")
        print(f"mmjudge from {built.wheel or 'commit ' + str(args.pin)}; next: mmjudge space push --repo ORG/NAME "
              f"--folder {built.folder}")  # fmt: skip
        return 0
    plan = space_build.plan_space_push(args.folder, args.repo)
    _print_plan(plan)
    from huggingface_hub import constants

    if args.dry_run or constants.HF_HUB_OFFLINE:
        print("dry run: nothing was pushed" if args.dry_run else "offline (HF_HUB_OFFLINE=1): nothing was pushed")
        return 0
    _, url = space_build.push_space(args.folder, args.repo, private=args.private)
    print(f"pushed {args.folder} to the Space {args.repo}: {url}")
    return 0


def _print_plan(plan: Any) -> None:
    """Print a :class:`mmjudge.leaderboard.app.space_build.SpacePushPlan`."""
    print(f"Space {plan.repo_id} (gradio SDK), one commit uploading {len(plan.files)} files:")
    for rel in plan.files:
        print(f"  {rel}")
    for rel in plan.deletes:
        print(f"  delete {rel}")
    print("Space variables to set (Settings > Variables and secrets):")
    for name, meaning in plan.variables.items():
        print(f"  {name}: {meaning}")
    print("Space secrets to set:")
    for name, meaning in plan.secrets.items():
        print(f"  {name}: {meaning}")
    print("Settings:")
    for line in plan.settings:
        print(f"  {line}")
