"""Items that failed with an error: how many, of how many, and the first error messages.

An errored verdict (:attr:`mmjudge.queries.Verdict.errored`: unreadable or missing media, the model
raised, a request failed) is a failure of the run; a ``no_judgment`` answer (a reply without a label the
benchmark can read) is not, the benchmark scores it. :func:`item_errors` counts the first kind; the
commands that run judges (``eval``, ``robustness``, ``demo``) and the leaderboard worker refuse a run
whose errored share is over what they allow (:meth:`ItemErrors.over`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from mmjudge.queries import Verdict

__all__ = ["FIRST_ERRORS", "ItemErrors", "item_errors"]

FIRST_ERRORS = 3
"""How many distinct error messages a summary keeps."""


class ItemErrors(NamedTuple):
    """The errored verdicts among the verdicts of one setting (a run, a frame count, a probe)."""

    errored: int
    """Verdicts that failed with an error."""
    total: int
    """Verdicts of the setting."""
    messages: tuple[str, ...] = ()
    """The first distinct error messages, in query order (at most :data:`FIRST_ERRORS`)."""
    setting: str = ""
    """What the verdicts were judged under, in words (``"frames=8"``, a probe's name; ``""``: the run)."""

    @property
    def share(self) -> float:
        """Errored verdicts over all verdicts (0.0 without verdicts).

        >>> ItemErrors(1, 4).share
        0.25
        """
        return self.errored / self.total if self.total else 0.0

    def over(self, max_share: float) -> bool:
        """Whether the errored share exceeds ``max_share`` (any errored item exceeds 0.0).

        >>> ItemErrors(1, 4).over(0.0), ItemErrors(1, 4).over(0.25), ItemErrors(0, 4).over(0.0)
        (True, False, False)
        """
        return self.errored > 0 and self.share > max_share

    def describe(self) -> str:
        """The count and the first errors, in words.

        >>> ItemErrors(2, 2, ("MediaError: no frames",), "frames=8").describe()
        "frames=8: 2 of 2 items failed with an error; first errors: 'MediaError: no frames'"
        """
        label = f"{self.setting}: " if self.setting else ""
        first = "; ".join(repr(m) for m in self.messages)
        return f"{label}{self.errored} of {self.total} items failed with an error" + (
            f"; first errors: {first}" if first else ""
        )


def item_errors(verdicts: Iterable[Verdict], setting: str = "", first: int = FIRST_ERRORS) -> ItemErrors:
    """Count the errored verdicts and keep their first ``first`` distinct messages.

    >>> item_errors([Verdict("a", 1.0), Verdict.failed("b", "E: x"), Verdict.failed("c", "E: x")])
    ItemErrors(errored=2, total=3, messages=('E: x',), setting='')
    >>> item_errors([Verdict("a", None, no_judgment=True, error="no A/B label in the reply 'hm'")]).errored
    0
    """
    total, errored, messages = 0, 0, dict[str, None]()
    for verdict in verdicts:
        total += 1
        if verdict.errored:
            errored += 1
            if len(messages) < first:
                messages[verdict.error or "(no message)"] = None
    return ItemErrors(errored, total, tuple(messages), setting)
