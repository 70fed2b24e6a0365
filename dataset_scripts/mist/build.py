"""Build the MIST Hub-ready folder: ``python dataset_scripts/mist/build.py --source PATH --out DIR``.

A thin shell over ``mmjudge build-dataset mist``; see ``src/mmjudge/benchmarks/mist/card.md`` for the
source layouts and ``mmjudge.benchmarks.mist`` for the logic.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "mist", *sys.argv[1:]]))
