"""Build the `emoprefer` Hub-ready dataset folder; the same code as `mmjudge build-dataset emoprefer`.

Usage::

    python dataset_scripts/emoprefer/build.py --source PATH [--media-root PATH] [--allow-missing-media] --out DIR

See the dataset card template, src/mmjudge/benchmarks/emoprefer/card.md, for the raw layout it reads.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "emoprefer", *sys.argv[1:]]))
