"""Build the MIST Hub-ready folder: ``python dataset_scripts/mist/build.py --source PATH --out DIR``.

A thin shell over ``mmjudge build-dataset mist``; see ``dataset_scripts/mist/README.md`` for the
source layouts and ``mmjudge.data.mist`` for the logic.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "mist", *sys.argv[1:]]))
