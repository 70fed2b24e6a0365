"""Build the `isovrbench` Hub-ready dataset folder; the same code as `mmjudge build-dataset isovrbench`.

Usage::

    python dataset_scripts/isovrbench/build.py --source PATH [--media-root PATH] [--allow-missing-media] --out DIR

See the dataset card template, src/mmjudge/benchmarks/isovrbench/card.md, for the raw layout it reads.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "isovrbench", *sys.argv[1:]]))
