"""The parameter-free Ladder's margin: the standard error of the paired difference of two rows on the Ladder's key.

Blum & Hardt (2015), Section 4 (Algorithm 2; ``FreeLadder`` in their code, Ladder.jl): a new submission's score
replaces the best shown one only when it is lower in loss by more than ``s / sqrt(n)``, ``s`` the sample standard
deviation of the per-example loss differences between the new submission and the one that set the best score: a
one-sided paired test at one standard error. On independent units that standard error is the delete-one jackknife
standard error of the difference of the two means (the two are equal); on clustered units (prompts, clips, items)
it is the delete-one-cluster jackknife of the key's difference (:func:`mmjudge.stats.paired_jackknife`), the
standard error ``mmjudge compare`` reads, in the key's units (points for a percentage).
"""

from __future__ import annotations

import logging
import math

from mmjudge.errors import SchemaError
from mmjudge.leaderboard.core.pairing import read_packed
from mmjudge.stats import KeyOutcomes, paired_jackknife

__all__ = ["LADDERS", "difference_se", "paired_margin"]

logger = logging.getLogger(__name__)

LADDERS = ("fixed", "free")
"""The Ladder rules a private-label board may run: ``fixed`` (the margin and rounding step ``ladder_margin``) and
``free`` (parameter-free: the margin is :func:`paired_margin`, the score shown as scored)."""


def difference_se(new: KeyOutcomes, best: KeyOutcomes) -> float:
    """The standard error of ``new``'s value minus ``best``'s, paired over their shared units (the
    delete-one-cluster jackknife; on independent units the sample standard deviation of the per-unit differences
    over the square root of their number).

    Raises:
        SchemaError: the two do not hold the same units in the same clusters, or not the same metric.

    >>> import numpy as np
    >>> from mmjudge.stats import Outcomes, Ratio
    >>> hits = lambda *h: KeyOutcomes("acc", Outcomes(tuple("abcd"), tuple("abcd"), {"hit": np.array(h, float),
    ...                                                                          "one": np.ones(4)}), Ratio("hit", "one"))
    >>> round(difference_se(hits(1, 1, 1, 0), hits(0, 1, 0, 0)), 4)  # 100 * std([1, 0, 1, 0], ddof=1) / 2
    28.8675
    """
    if new.metric.to_json() != best.metric.to_json():
        raise SchemaError(f"{new.key}: the two rows' metrics differ; the Ladder pairs rows scored the same way")
    return math.sqrt(paired_jackknife(new.outcomes, best.outcomes, new.metric).variance)


def paired_margin(key: str, new: str, best: str) -> float | None:
    """The parameter-free margin of a new row on ``key`` from its packed paired data and that of the row that set
    its submitter's best shown score (:func:`difference_se`); ``None`` (the fixed margin applies, with a warning)
    when either lacks ``key`` or the two cannot be paired (other items, another metric)."""
    try:
        read_new, read_best = read_packed(new), read_packed(best)
        if read_new is None or read_best is None or key not in read_new.keys or key not in read_best.keys:
            raise SchemaError(f"no paired data for {key}")
        se = difference_se(read_new.keys[key], read_best.keys[key])
    except SchemaError as exc:
        logger.warning("parameter-free Ladder: %s; the fixed margin applies to this row", exc)
        return None
    return se if math.isfinite(se) else None
