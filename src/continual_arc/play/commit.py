"""Committing rounds: the learner's state saved at once, the round's files written behind the next round.

The state must be saved before the next round changes it, so it is saved in the caller's thread;
the trajectories and records are written and fsynced by one committer thread while the next round
plays. Each commit waits for the one before, so rounds reach the disk whole and in order
(:func:`continual_arc.play.rundir.write_round` says in what order a round's files are written).
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .episode import LearnerError
from .rundir import save_learner_state, write_round

__all__ = ["Committer"]


class Committer:
    """Commits the rounds of one run, in order.

    Args:
        out: the run directory.
        learner: the learner whose state is saved after each round, or ``None`` if it saves none.
    """

    def __init__(self, out: Path, learner: Any | None) -> None:
        self.out, self.learner = out, learner
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="continual-arc-commit")
        self._pending: Future[None] | None = None

    def commit(self, round_: int, records: list[dict[str, Any]], trajectories: list[dict[str, Any]]) -> None:
        """Save the learner's state now, and queue the round's files behind the previous commit.

        Raises:
            LearnerError: the learner raised in ``save_state``.
        """
        self.wait()
        if self.learner is not None:
            try:
                save_learner_state(self.learner, self.out, round_)
            except Exception as err:
                raise LearnerError(f"the learner raised in save_state(): {err!r}") from err
        self._pending = self._pool.submit(write_round, self.out, round_, records, trajectories)

    def wait(self) -> None:
        """Wait until every round committed so far is on disk (re-raising a failed write)."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending.result()

    def close(self) -> None:
        """Finish the last commit and stop the committer thread."""
        try:
            self.wait()
        finally:
            self._pool.shutdown(wait=True)
