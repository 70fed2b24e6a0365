"""Data-parallel plumbing over :mod:`accelerate`: one state, sharding with padding, gathering, barriers.

``accelerate`` and ``torch`` are imported here, inside functions; a single process without a launcher
gets a one-process state (no process group). Under ``torchrun`` or ``accelerate launch`` on a machine
without CUDA, ``PartialState(cpu=True)`` sets up gloo ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

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
    """The ``accelerate.PartialState``."""

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


def init_dist() -> Dist:
    """The accelerate state of this process (``cpu=True`` when CUDA is unavailable)."""
    import torch
    from accelerate import PartialState

    state = PartialState(cpu=not torch.cuda.is_available())
    return Dist(
        rank=int(state.process_index),
        world=int(state.num_processes),
        device=str(state.device),
        state=state,
    )


def dedupe_in_order(ids: Sequence[str], canonical: Sequence[str]) -> list[str]:
    """Unique ``ids`` ordered by their place in ``canonical`` (undoes padding and arrival order).

    >>> dedupe_in_order(["c", "a", "c", "b"], ["a", "b", "c"])
    ['a', 'b', 'c']
    """
    place = {item_id: i for i, item_id in enumerate(canonical)}
    return sorted(set(ids), key=place.__getitem__)


__all__ = ["Dist", "dedupe_in_order", "init_dist"]
