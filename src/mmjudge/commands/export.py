"""``mmjudge export eval-results RUN_DIR``: Hub eval-result YAML (and a pull request on a model repo);
``mmjudge export lmms-eval --out DIR``: one lmms-eval task folder per benchmark.
"""

from __future__ import annotations

import argparse

NAME = "export"
HELP = "export results as Hub eval-result YAML (`export eval-results`) or the benchmarks as lmms-eval tasks (`export lmms-eval`)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Subcommands ``eval-results`` and ``lmms-eval``."""
    sub = parser.add_subparsers(dest="export_action", metavar="ACTION", required=True)
    results = sub.add_parser(
        "eval-results",
        help="write .eval_results/mmjudge_<benchmark>.yaml from a run folder; with --repo, open a pull "
        "request on the model repo (never a push to main)",
        description="Write the Hub's .eval_results/*.yaml entries (one for the headline, one per task of "
        "the benchmark's eval.yaml) from a `mmjudge eval` run folder. With --repo, a pull request adding "
        "the YAML and the predictions it links is opened on the model repo; --dry-run or HF_HUB_OFFLINE=1 "
        "prints the plan only.",
    )
    results.add_argument("run_dir", metavar="RUN_DIR", help="folder written by `mmjudge eval` (results.json)")
    results.add_argument("--dataset-repo", required=True, help="the benchmark's dataset repo ORG/NAME on the Hub")
    results.add_argument(
        "--dataset-revision", default=None, help="its revision: the tag `push-dataset` created or a commit hash"
    )
    results.add_argument("--repo", default=None, help="model repo ORG/NAME: open a pull request adding the files")
    results.add_argument("--out", default=None, help="folder to write .eval_results/ into (default RUN_DIR)")
    results.add_argument("--source-url", default=None, help="link to the predictions (default: the file in the PR)")
    results.add_argument("--dry-run", action="store_true", help="with --repo: print the pull request; no network")
    lmms = sub.add_parser(
        "lmms-eval",
        help="write one lmms-eval task folder per benchmark (load with TaskManager(include_path=DIR))",
        description="Write lmms-eval task folders (a _default_template_yaml, a group YAML, one YAML per "
        "task and a utils.py calling mmjudge's items and scorer). Each folder's dataset_path is a built "
        "mmjudge folder or a Hub dataset repo; gated media resolve through $MMJUDGE_MEDIA_ROOT_<BENCHMARK>, "
        "one root per benchmark (e.g. $MMJUDGE_MEDIA_ROOT_EMOREALM).",
    )
    lmms.add_argument("--out", required=True, help="folder to write the task folders into")
    lmms.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="BENCHMARK=PATH_OR_REPO",
        help="dataset of one benchmark: a built folder or a Hub dataset repo (repeatable)",
    )
    lmms.add_argument(
        "--data-root", default=None, help="folder holding built folders named by benchmark id (e.g. `sample`)"
    )
    lmms.add_argument("--overwrite", action="store_true", help="replace existing task folders")


def run(args: argparse.Namespace) -> int:
    if args.export_action == "eval-results":
        return _eval_results(args)
    return _lmms_eval(args)


def _eval_results(args: argparse.Namespace) -> int:
    from huggingface_hub import constants

    from mmjudge.export.eval_results import export_eval_results, open_eval_results_pr, plan_eval_results_pr

    exported = export_eval_results(
        args.run_dir,
        dataset_repo=args.dataset_repo,
        dataset_revision=args.dataset_revision,
        out=args.out,
        repo=args.repo,
        source_url=args.source_url,
    )
    for run in exported:
        print(f"wrote {run.yaml_path} ({len(run.entries)} entries: {', '.join(e.task_id for e in run.entries)})")
    if args.repo is None:
        return 0
    plan = plan_eval_results_pr(args.repo, exported)
    print(f"pull request on {plan.repo_id}: {plan.commit_message!r}, adding {len(plan.files)} files:")
    for path_in_repo, local in plan.files.items():
        print(f"  {path_in_repo}  <- {local}")
    if args.dry_run or constants.HF_HUB_OFFLINE:
        print("dry run: no pull request opened" if args.dry_run else "offline (HF_HUB_OFFLINE=1): no pull request opened")
        return 0
    print(f"opened {open_eval_results_pr(plan)}")
    return 0


def _lmms_eval(args: argparse.Namespace) -> int:
    from mmjudge.export.lmms_eval import datasets_from_args, write_lmms_tasks

    written = write_lmms_tasks(args.out, datasets_from_args(args.data, args.data_root), overwrite=args.overwrite)
    for folder in written:
        print(f"wrote {folder}")
    print(f"load with lmms_eval.tasks.TaskManager(include_path={str(args.out)!r}) or `lmms-eval --include_path {args.out}`")
    return 0
