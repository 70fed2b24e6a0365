"""How the worker starts ``mmjudge eval``: one process, or ``accelerate launch`` over the machine's GPUs.

With more than one GPU the run is data-parallel, one rank per GPU
(``python -m accelerate.commands.launch --multi_gpu --num_processes N -m mmjudge eval ...``); with one
GPU or none, a single ``python -m mmjudge eval`` process. The GPU count is what the machine shows
(:func:`detect_gpus`: ``CUDA_VISIBLE_DEVICES`` when set, else ``nvidia-smi -L``), or the worker's
``--gpus``. ``--gpus N`` on a CPU machine starts N gloo ranks, which is how the tests run the launcher.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping

__all__ = ["detect_gpus", "eval_command"]


def detect_gpus(environ: Mapping[str, str] | None = None) -> int:
    """GPUs this machine offers the runner: the entries of ``CUDA_VISIBLE_DEVICES`` when it is set, else
    the lines of ``nvidia-smi -L``, else 0. Torch is not imported.

    >>> detect_gpus({"CUDA_VISIBLE_DEVICES": "0,2,3"}), detect_gpus({"CUDA_VISIBLE_DEVICES": ""})
    (3, 0)
    """
    env = os.environ if environ is None else environ
    visible = env.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        entries = [e for e in visible.split(",") if e.strip()]
        return 0 if any(e.strip().startswith("-") for e in entries) else len(entries)
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return 0
    try:
        listing = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(line.startswith("GPU ") for line in listing.stdout.splitlines()) if listing.returncode == 0 else 0


def eval_command(eval_args: list[str], gpus: int, *, python: str | None = None) -> list[str]:
    """The command running ``mmjudge eval <eval_args>`` on ``gpus`` GPUs.

    >>> eval_command(["--benchmark", "mist"], 1, python="py")
    ['py', '-m', 'mmjudge', 'eval', '--benchmark', 'mist']
    >>> " ".join(eval_command(["--benchmark", "mist"], 4, python="py"))  # doctest: +NORMALIZE_WHITESPACE
    'py -m accelerate.commands.launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no
     --dynamo_backend no -m mmjudge eval --benchmark mist'
    """
    python = python or sys.executable
    if gpus <= 1:
        return [python, "-m", "mmjudge", "eval", *eval_args]
    launch = [python, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", str(gpus),
              "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no"]  # fmt: skip
    return [*launch, "-m", "mmjudge", "eval", *eval_args]
