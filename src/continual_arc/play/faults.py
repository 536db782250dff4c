"""How many instances a learner's own faults ended, and the rule a run's exit status follows from it.

A learner that raises in ``act`` or ``observe`` (or answers with something that is not an action)
fails that instance, charged the whole budget, and the run goes on ([`runner`][continual_arc.play.runner]). A
run whose every instance ended that way measured nothing about the learner, only the budget: ``check_learner``
names it, and ``continual-arc run`` and ``protocol`` end with a line saying so and exit status
[`ALL_ERRORED_STATUS`][continual_arc.play.faults.ALL_ERRORED_STATUS]. When only some instances errored, the
run is a measurement still: they end with a warning line giving the count, and exit 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.records import Record, is_primary

__all__ = ["ALL_ERRORED_STATUS", "SPEND_CAP_STATUS", "LearnerFaults"]

ALL_ERRORED_STATUS = 2
"""The exit status of a run or protocol whose every instance ended in a learner error."""

SPEND_CAP_STATUS = 3
"""The exit status of a run the spend cap stopped before its schedule's end (``--resume`` continues)."""


@dataclass(frozen=True)
class LearnerFaults:
    """The primary instances a learner's faults ended, out of those played.

    Attributes:
        errored: instances that ended in a learner error.
        instances: primary instances played.
        first: the first error, as ``"ValueError in act: message"`` (``None`` when none errored).
    """

    errored: int
    instances: int
    first: str | None

    @classmethod
    def of(cls, records: Iterable[Record]) -> LearnerFaults:
        """The faults in ``records`` (auxiliary episodes not counted: the measures do not read them)."""
        errored, instances, first = 0, 0, None
        for record in records:
            if not is_primary(record):
                continue
            instances += 1
            error = record.get("error")
            if error:
                errored += 1
                first = first or f"{error['type']} in {error['during']}: {error['message']}"
        return cls(errored, instances, first)

    def __add__(self, other: LearnerFaults) -> LearnerFaults:
        """The faults of two runs together (the first error is this one's, if it has one)."""
        return LearnerFaults(
            self.errored + other.errored, self.instances + other.instances, self.first or other.first
        )

    @property
    def all_errored(self) -> bool:
        """Whether every instance played ended in a learner error (and at least one was played)."""
        return self.instances > 0 and self.errored == self.instances

    def sentence(self) -> str | None:
        """The line a run ends with when its learner erred (``None`` when it never did)."""
        if not self.errored:
            return None
        if self.all_errored:
            return (
                f"error: every one of the {self.instances} instances ended in a learner error, so the "
                f"numbers above measure the budget, not the learner (the first: {self.first})"
            )
        return (
            f"warning: {self.errored} of {self.instances} instances ended in a learner error, each "
            f"charged the whole budget (the first: {self.first})"
        )

    def status(self) -> int:
        """The exit status the rule gives: `ALL_ERRORED_STATUS` when every instance errored, else 0."""
        return ALL_ERRORED_STATUS if self.all_errored else 0
