"""Build the `genai_bench_video` Hub-ready dataset folder; the same code as `mmjudge build-dataset genai_bench_video`.

Usage::

    python dataset_scripts/genai_bench_video/build.py --source PATH [--media-root PATH] [--allow-missing-media] --out DIR

See the dataset card template, src/mmjudge/benchmarks/genai_bench_video/card.md, for the raw layout it reads.
"""

import sys

from mmjudge.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-dataset", "genai_bench_video", *sys.argv[1:]]))
