"""``mmjudge correlate``: do the judges' rankings on published benchmarks predict their rankings on IsoVRBench?"""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "correlate"
HELP = (
    "the IsoVRBench paper's comparison with published benchmarks (Tables 14, 15, Appendix K, Figure 3): Spearman "
    "rho with exact permutation p-values, from the paper's numbers or your results files"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options: results files, output folder, analysis, renames, the judge left out, resampling."""
    parser.add_argument(
        "results", nargs="*", type=Path, metavar="RESULTS",
        help="results.json files of mmjudge eval or score (one per judge and benchmark); a column whose benchmark "
             "none of them holds keeps the paper's numbers. None: the paper's numbers alone",
    )  # fmt: skip
    parser.add_argument("--out", required=True, type=Path, help="write correlate.md, correlate.json, correlate.png here")
    parser.add_argument(
        "--analysis",
        help="the declared analysis: its target benchmark, columns and published numbers (default: the one shipped, "
             "the IsoVRBench paper's)",
    )  # fmt: skip
    parser.add_argument(
        "--rename", action="append", default=[], metavar="JUDGE=NAME",
        help="show the results files' judge JUDGE as NAME (e.g. videoscore2=VideoScore2) so it meets the paper's "
             "row of that judge; repeatable",
    )  # fmt: skip
    parser.add_argument("--without", help="the judge Appendix K's second correlation leaves out (default: LiFT)")
    parser.add_argument(
        "--resamples", type=int, default=10_000, help="bootstrap resamples of the judges per ρ interval (default 10000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")


def _renames(pairs: list[str]) -> dict[str, str]:
    from mmjudge.errors import ConfigError

    names: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not (sep and old.strip() and new.strip()):
            raise ConfigError(f"--rename {pair!r}: expected JUDGE=NAME, e.g. videoscore2=VideoScore2")
        names[old.strip()] = new.strip()
    return names


def run(args: argparse.Namespace) -> int:
    from mmjudge.correlation import correlate, load_analysis, summary_lines, write_correlations

    result = correlate(load_analysis(args.analysis), args.results, rename=_renames(args.rename), without=args.without,
                       resamples=args.resamples, seed=args.seed)  # fmt: skip
    paths = write_correlations(result, args.out)
    print("\n".join(summary_lines(result)))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0
