"""Data-parallel plumbing over :mod:`accelerate`: one state, sharding with padding, gathering, barriers.

``accelerate`` and ``torch`` are imported here, inside functions; a single process without a launcher
gets a one-process state (no process group). Under ``torchrun`` or ``accelerate launch`` on a machine
without CUDA, ``PartialState(cpu=True)`` sets up gloo ranks. Without torch (no ``judges`` extra), a single
process runs on the CPU with no accelerate state, which is all a weight-free judge needs; several
processes started by a launcher need both, and are refused with the install command.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from mmjudge._deps import require
from mmjudge.errors import MissingDependencyError

T = TypeVar("T")


@dataclass
class Dist:
    """The process's place in the run."""

    rank: int
    """This process's index."""
    world: int
    """Number of processes."""
    device: str
    """Device for the judge (``"cpu"``, ``"cuda:0"``, ...)."""
    state: Any
    """The ``accelerate.PartialState`` (``None`` for a single process without torch)."""

    @property
    def is_main(self) -> bool:
        """Whether this is rank 0 (writes outputs, shows progress)."""
        return self.rank == 0

    def barrier(self) -> None:
        """Wait for every rank."""
        if self.world > 1:
            self.state.wait_for_everyone()

    def shard(self, items: Sequence[T]) -> list[T]:
        """This rank's share of ``items``: each item on exactly one rank, in order.

        ``split_between_processes(..., apply_padding=True)`` pads the shorter ranks with the *global*
        last item, which can land on another rank than the one that owns it (4 items on 3 ranks, or
        fewer items than ranks) and would be judged twice; the padding is cut off here, and
        :func:`gather_object` takes shares of unequal length.
        """
        if self.world == 1 or not items:
            return list(items)
        size, extra = divmod(len(items), self.world)
        own = size + (1 if self.rank < extra else 0)
        with self.state.split_between_processes(list(items), apply_padding=True) as part:
            return list(part)[:own]

    def gather(self, values: list[Any]) -> list[Any]:
        """Every rank's ``values`` concatenated, on every rank."""
        if self.world == 1:
            return list(values)
        from accelerate.utils import gather_object

        return list(gather_object(values))


_WORLD_SIZE_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE")
"""Environment variables in which torchrun, ``accelerate launch`` and MPI launchers give the process count
(the ones ``accelerate`` itself reads)."""


def launched_world(environ: Mapping[str, str] | None = None) -> int:
    """Number of processes a launcher started (1 without a launcher).

    >>> launched_world({}), launched_world({"WORLD_SIZE": "4"}), launched_world({"PMI_SIZE": "2"})
    (1, 4, 2)
    """
    env = os.environ if environ is None else environ
    sizes = [int(env[name]) for name in _WORLD_SIZE_VARS if env.get(name, "").strip().isdigit()]
    return max(sizes, default=1)


def init_dist() -> Dist:
    """The accelerate state of this process (``cpu=True`` when CUDA is unavailable).

    A single process without torch gets a CPU place and no state; several processes without torch or
    accelerate raise :class:`~mmjudge.errors.MissingDependencyError` naming ``pip install 'mmjudge[judges]'``.
    """
    world = launched_world()
    purpose = f"a run over {world} processes" if world > 1 else "placing a judge on a device"
    try:
        torch = require("torch", "judges", purpose=purpose)
    except MissingDependencyError:
        if world > 1:
            raise
        return Dist(rank=0, world=1, device="cpu", state=None)  # a judge that needs torch says so at load
    accelerate = require("accelerate", "judges", purpose=purpose)

    state = accelerate.PartialState(cpu=not torch.cuda.is_available())
    if int(state.num_processes) > 1:
        atexit.unregister(_close_process_group)  # once per process, however many runs it makes
        atexit.register(_close_process_group)
    return Dist(
        rank=int(state.process_index),
        world=int(state.num_processes),
        device=str(state.device),
        state=state,
    )


def _close_process_group() -> None:
    """Destroy this process's process group before the interpreter tears down: a gloo group left to the
    interpreter's exit can abort the rank from a thread still running ("terminate called without an active
    exception", SIGABRT), failing a run whose every item was judged."""
    import torch.distributed as torch_dist

    if torch_dist.is_available() and torch_dist.is_initialized():
        torch_dist.destroy_process_group()


def dedupe_in_order(ids: Sequence[str], canonical: Sequence[str]) -> list[str]:
    """Unique ``ids`` ordered by their place in ``canonical`` (undoes padding and arrival order).

    >>> dedupe_in_order(["c", "a", "c", "b"], ["a", "b", "c"])
    ['a', 'b', 'c']
    """
    place = {item_id: i for i, item_id in enumerate(canonical)}
    return sorted(set(ids), key=place.__getitem__)


__all__ = ["Dist", "dedupe_in_order", "init_dist", "launched_world"]
