"""``mmjudge metric build NAME --out DIR``: a self-contained ``evaluate`` module folder from this checkout;
``mmjudge metric push NAME --repo ORG/NAME [--folder DIR] [--dry-run]``: upload it to a Hub Space.

The folder loads with ``evaluate.load(DIR)`` (its script is ``DIR``'s name + ``.py``, as evaluate looks for it)
and, once pushed, ``evaluate.load("ORG/NAME")`` (the script is uploaded as ``NAME.py``), in an environment that
has only ``evaluate`` and the folder's ``requirements.txt`` (PyPI): the mmjudge code it scores with is vendored
into it as plain source files (:mod:`mmjudge.metric_build`).
"""

from __future__ import annotations

import argparse

NAME = "metric"
HELP = "build a self-contained evaluate module folder (`metric build`), or upload it to a Space (`metric push`)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Subcommands ``build`` and ``push``."""
    sub = parser.add_subparsers(dest="metric_action", metavar="ACTION", required=True)
    build = sub.add_parser("build", help="write the folder of metrics/NAME with the mmjudge code it needs vendored",
                           description="Write a self-contained evaluate module folder for metrics/NAME, with the "
                           "mmjudge code it scores with vendored; it loads with evaluate.load(OUT).")  # fmt: skip
    build.add_argument("name", metavar="NAME", help="a folder of metrics/: isovrbench, mist, emoprefer, emorealm, "
                       "alt_test, emotion_classification")  # fmt: skip
    build.add_argument("--out", required=True, help="folder to write (emptied when it is an earlier build); the script "
                       "is named after it, as evaluate.load(folder) looks for <folder name>.py")  # fmt: skip
    build.add_argument("--source", default=None, help="the mmjudge checkout (default: the imported one's)")
    push = sub.add_parser("push", help="upload a built folder to the Space ORG/NAME (gradio SDK) in one commit",
                          description="Upload the folder `mmjudge metric build` wrote to the Hub Space ORG/NAME "
                          "(gradio SDK, created when missing) in one commit; --dry-run lists the files only.")  # fmt: skip
    push.add_argument("name", metavar="NAME", help="the metric the folder was built for")
    push.add_argument("--repo", required=True, help="Space repo id ORG/NAME (created when missing); the script is "
                      "uploaded as NAME.py, the file evaluate.load('ORG/NAME') downloads")  # fmt: skip
    push.add_argument("--folder", default=None, help="the folder `metric build` wrote (default: metric-NAME)")
    push.add_argument("--private", action="store_true", help="create the Space private")
    push.add_argument("--dry-run", action="store_true", help="list what would be uploaded; no network")


def run(args: argparse.Namespace) -> int:
    from mmjudge import metric_build

    if args.metric_action == "build":
        built = metric_build.build_metric(args.name, args.out, source=args.source)
        vendored = [f for f in built.files if f.startswith(f"{metric_build.VENDOR}-")]
        others = [f for f in built.files if f not in vendored]
        print(f"wrote {len(built.files)} files to {built.folder}: {', '.join(others)} and {len(vendored)} "
              f"vendored mmjudge sources {metric_build.VENDOR}-*.py")  # fmt: skip
        print(f"vendored {len(built.modules)} mmjudge modules as {built.package}; requirements: "
              f"{', '.join(built.requirements)}")  # fmt: skip
        print(f"load it with {built.load_call}; next: mmjudge metric push {args.name} "
              f"--repo ORG/{args.name} --folder {built.folder}")  # fmt: skip
        return 0
    folder = args.folder or f"metric-{args.name}"
    plan = metric_build.plan_metric_push(folder, args.repo)
    print(f"Space {plan.repo_id} (gradio SDK), one commit uploading {len(plan.files)} files:")
    for path, size in plan.files:
        local = plan.sources[path]
        print(f"  {path} ({size:,} bytes)" + ("" if local == path else f" from {local}"))
    print(f"users then load it with {plan.load_call}")
    from huggingface_hub import constants

    if args.dry_run or constants.HF_HUB_OFFLINE:
        print("dry run: nothing was pushed" if args.dry_run else "offline (HF_HUB_OFFLINE=1): nothing was pushed")
        return 0
    url = metric_build.push_metric(folder, args.repo, private=args.private)
    print(f"pushed {folder} to the Space {args.repo}: {url}")
    return 0
