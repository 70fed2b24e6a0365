"""Build the `temporalbench` Hub-ready dataset folder; the same code as `mmjudge build-dataset temporalbench`.

Usage::

    python dataset_scripts/temporalbench/build.py --source QA_JSON_OR_RELEASE_FOLDER [--media-root PATH] [--allow-missing-media] --out DIR

See the dataset card template, src/mmjudge/benchmarks/temporalbench/card.md, for the raw layout it reads.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "temporalbench", *sys.argv[1:]]))
