"""An uncharged copy of an instance, for a learner whose teacher plays each instance first (an experiment).

The reference's rows QT, QTE and QETE have a teacher play every stream instance before the student,
in the same harness, and the student then play it from the notes the teacher left. The teacher's
demonstrations and verdicts are charged to nobody, so such a learner is no learner the benchmark
verifies: an upper bound on what a teacher can pass on. A learner asks for it by having
``teacher_play(copy)`` ([TeacherPlaysFirst][continual_arc.play.learner.TeacherPlaysFirst]): before
it is first asked to act on an instance, the runner opens a second environment of the same instance
(the same task, seed and rules), hands it over as an
[UnchargedCopy][continual_arc.play.uncharged.UnchargedCopy], and marks the instance's record as the experiment
[UNCHARGED_TEACHER][continual_arc.core.teacher.UNCHARGED_TEACHER] whatever the learner does with it,
keeping the copy's play in the trajectory (``teacher_play``) beside the student's. The copy's charge
counts nowhere. Only a learner played in the runner's own process can be handed a copy.
"""

from __future__ import annotations

from typing import Any, Generic

from ..core.environment import ActionT, Environment, ObsT, ReplyT
from ..core.records import Event

__all__ = ["UnchargedCopy"]


class UnchargedCopy(Generic[ObsT, ActionT, ReplyT]):
    """A second environment of the instance about to be played, its charge counted nowhere.

    Args:
        env: the copy's own environment, opened as the instance's was.
        alias: the task's alias, as the instance's observations name it (never its id).
        step: the instance's step in the schedule.
        round: its round.
        user: its user.
    """

    def __init__(self, env: Environment[ObsT, ActionT, ReplyT], alias: str, step: int, round: int, user: int):
        self._env = env
        self._where = (alias, step, round, user)
        self.events: list[Event] = []
        self.fault: str | None = None

    @property
    def done(self) -> bool:
        """Whether the copy has ended (solved, given up, or out of attempts)."""
        return self._env.done

    def view(self) -> ObsT:
        """The copy's observation as it stands: what the instance's first observation shows, at first."""
        return self._env.view(*self._where)

    def step(self, action: ActionT) -> ReplyT:
        """Apply one action to the copy and return its feedback (kept for the trajectory).

        Raises:
            InvalidActionError: ``action`` is not one of the environment's actions.
            InstanceClosedError: the copy has already ended.
        """
        obs = self.view()
        feedback = self._env.step(action)
        self.events.append(
            {
                "observation": self._env.observation_json(obs),
                "action": self._env.action_json(action),
                "feedback": self._env.feedback_json(feedback),
            }
        )
        return feedback

    def summary(self) -> dict[str, Any]:
        """The copy's play for the trajectory: its events, how it ended (if it did), and any fault in it."""
        ended = None
        if self._env.done:
            result = self._env.result()
            ended = {"solved": result.solved, "end": result.end, "charge_uncharged": result.charge}
        return {"events": list(self.events), "result": ended, "fault": self.fault}
