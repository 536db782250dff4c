"""Committing rounds: the learner's state saved at once, the rounds' files written behind the play.

The state must be saved before the next round changes it, so it is saved in the caller's thread.
The trajectories and records are written by one committer thread while the next rounds play: it
takes every round queued since its last write and commits them together, in order, with one fsync
of the trajectories' directory and one of the records
([`continual_arc.play.rundir.write_rounds`][continual_arc.play.rundir.write_rounds] says in what order). A
crash loses only rounds not yet durable, which a resumed run replays from their start, as it replays an
interrupted round. A learner that plays a round in a millisecond no longer waits for a disk flush after each
one; past [`MAX_QUEUED`][continual_arc.play.commit.MAX_QUEUED] rounds the caller waits.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from ..core.records import Record, Trajectory
from .episode import LearnerError
from .learner import SavesState
from .rundir import CommittedRound, save_learner_state, write_rounds
from .state_copy import UnsafeState

__all__ = ["MAX_QUEUED", "Committer"]

MAX_QUEUED = 64
"""Rounds played but not yet written past which the caller waits for the writer to catch up."""


class Committer:
    """Commits the rounds of one run, in order.

    Args:
        out: the run directory.
        learner: the learner whose state is saved after each round, or ``None`` if it saves none.
    """

    def __init__(self, out: Path, learner: SavesState | None) -> None:
        self.out, self.learner = out, learner
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="continual-arc-commit")
        self._lock = threading.Lock()
        self._queued: list[CommittedRound] = []
        self._last: Future[None] | None = None
        self._failed: BaseException | None = None

    def commit(self, round_: int, records: list[Record], trajectories: list[Trajectory]) -> None:
        """Save the learner's state now, and queue the round's files behind the rounds before it.

        Raises:
            LearnerError: the learner raised in ``save_state``.
            OSError: an earlier round's files could not be written.
        """
        self._raise_failed()
        if self.learner is not None:
            try:
                save_learner_state(self.learner, self.out, round_)
            except UnsafeState as err:  # refused by the copy, not raised by the learner: say it plainly
                raise LearnerError(f"round {round_} could not be saved: {err}") from err
            except Exception as err:
                raise LearnerError(f"the learner raised in save_state(): {err!r}") from err
        with self._lock:
            self._queued.append(CommittedRound(round_, records, trajectories))
            backlog = len(self._queued)
        self._last = self._pool.submit(self._write_queued)
        if backlog >= MAX_QUEUED:
            self.wait()

    def _write_queued(self) -> None:
        """Write every round queued so far (nothing once a write has failed: rounds stay in order)."""
        with self._lock:
            batch, self._queued = self._queued, []
        if not batch or self._failed is not None:
            return
        try:
            write_rounds(self.out, batch)
        except BaseException as err:
            self._failed = err
            raise

    def _raise_failed(self) -> None:
        if self._failed is not None:
            raise self._failed

    def wait(self) -> None:
        """Wait until every round committed so far is on disk (re-raising a failed write)."""
        if self._last is not None:
            last, self._last = self._last, None
            last.exception()  # the writes run in order: the last one done means all are
        self._raise_failed()

    def close(self) -> None:
        """Finish the last commits and stop the committer thread."""
        try:
            self.wait()
        finally:
            self._pool.shutdown(wait=True)
