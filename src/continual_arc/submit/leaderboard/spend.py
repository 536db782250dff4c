"""What a ranked learner spent, read from its play folders ([spend][continual_arc.measure.spend])."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...core.errors import ContinualArcError
from ...measure.spend import Spend, pooled_spend, spend_of_runs
from ...play.rundir import read_meta, read_records

__all__ = ["Spend", "pooled_spend", "spend_of", "spend_of_runs"]


def spend_of(plays: Sequence[Path], stream: Path | None) -> Spend | None:
    """The spend of the learner's plays read from their folders (``None`` when one cannot be read).

    Args:
        plays: the learner's play folders (its stream and both tests).
        stream: the stream's folder, whose records hold the training compute.
    """
    try:
        runs = [(read_records(p), bool(read_meta(p).get("concurrent_users"))) for p in plays]
        trained = read_records(stream) if stream is not None else []
    except (ContinualArcError, OSError):
        return None  # the checker has already said why the run is unusable
    return spend_of_runs(runs, trained)
