"""Build the `videogen_rewardbench` Hub-ready dataset folder; the same code as `mmjudge build-dataset videogen_rewardbench`.

Usage::

    python dataset_scripts/videogen_rewardbench/build.py --source PATH [--media-root PATH] [--allow-missing-media] --out DIR

See the dataset card template, src/mmjudge/benchmarks/videogen_rewardbench/card.md, for the raw layout it reads.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "videogen_rewardbench", *sys.argv[1:]]))
