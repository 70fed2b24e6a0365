"""Build the `tempcompass` Hub-ready dataset folder; the same code as `mmjudge build-dataset tempcompass`.

Usage::

    python dataset_scripts/tempcompass/build.py --source RELEASE_FOLDER [--media-root PATH] [--allow-missing-media] --out DIR

See the dataset card template, src/mmjudge/benchmarks/tempcompass/card.md, for the raw layout it reads.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "tempcompass", *sys.argv[1:]]))
