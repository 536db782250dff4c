"""One instance being played: the learner's calls, their time limit and faults.

[`EpisodePlay`][continual_arc.play.episode.EpisodePlay] owns one instance: each step asks the learner for an
action on the view it is shown (after the plug-ins' hooks), applies the final action in the instance's
environment, hands the feedback to the learner (after the plug-ins' hooks), and keeps the trajectory's events.
[`instance_record`][continual_arc.play.instance_record.instance_record] turns a played instance into its
record and trajectory.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..core.environment import Environment
from ..core.errors import ContinualArcError, HarnessFault, SpendCapReached
from ..core.records import End, Event, LearnerFault
from .learner import AnyLearner, Learner
from .plugin_manager import PluginManager, PluginTrace
from .plugins import Episode
from .uncharged import UnchargedCopy

__all__ = ["OVERRUN_GRACE", "AnyEpisode", "EpisodePlay", "LearnerError", "guarded"]


class LearnerError(ContinualArcError, RuntimeError):
    """A learner fault that stops the run (a round hook failed, or ``fail_fast`` was set)."""


OVERRUN_GRACE = 30.0
"""Seconds (at least the instance's time limit) a call past its limit is waited for before the run stops."""


ObsT = TypeVar("ObsT")
"""What the instance shows the learner (a grid instance's observation, a game level's)."""

ActionT = TypeVar("ActionT")
"""The actions the instance takes."""

ReplyT = TypeVar("ReplyT")
"""The feedback the instance gives."""


R = TypeVar("R")
"""What a call to the learner returns."""


class _TimeLimit(Exception):
    pass


def _timed_call(fn: Callable[..., R], args: tuple[object, ...], remaining: float, grace: float) -> R:
    """Call ``fn`` on a thread of its own; `_TimeLimit` if it runs past ``remaining`` seconds.

    A call that overruns is waited for, ``grace`` seconds more, before the runner calls the learner
    again, so that it cannot go on changing the learner while other calls run; what it returns is
    discarded. A call that has not returned by then leaves the learner in a state nobody can
    trust, and stops the run.
    """
    if remaining <= 0:
        raise _TimeLimit
    values: list[R] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            values.append(fn(*args))
        except BaseException as err:  # handed to the caller's thread as is
            errors.append(err)

    thread = threading.Thread(target=target, daemon=True, name="continual-arc-learner-call")
    thread.start()
    thread.join(remaining)
    if thread.is_alive():
        thread.join(grace)
        if thread.is_alive():
            raise LearnerError(
                f"a call to the learner's {getattr(fn, '__name__', 'method')} ran past its instance's time "
                f"limit and had not returned {grace:g} s later: the run stops, since the learner's state "
                f"can no longer be trusted"
            )
        raise _TimeLimit
    if errors:
        raise errors[0]
    return values[0]


@dataclass
class EpisodePlay(Generic[ObsT, ActionT, ReplyT]):
    """One episode being played: its environment, its trajectory, and how it ended.

    Typed by the instance's kind: the learner it is played with sees the environment's observations
    and answers with its actions (``EpisodePlay[GameObservation, GameMove, GameReply]`` on arc3).
    """

    episode: Episode
    env: Environment[ObsT, ActionT, ReplyT]
    time_limit: float | None
    fail_fast: bool
    hooks: PluginManager
    trace: PluginTrace = field(default_factory=PluginTrace)
    events: list[Event] = field(default_factory=list)
    error: LearnerFault | None = None
    started: float = 0.0
    finished: float = 0.0
    learner_time: float = 0.0
    uncharged: UnchargedCopy[ObsT, ActionT, ReplyT] | None = None

    def open(self) -> None:
        """Note when the instance opened, and call the episode-start hooks."""
        self.started = time.monotonic()
        self.hooks.episode_start(self.episode, self.trace)

    def _call(self, fn: Callable[..., R], *args: object) -> R:
        """Call the learner, its time counted against this instance's limit.

        The instance's clock runs only while the learner works on it (inside ``act`` and
        ``observe`` for this instance), so a serial learner's later instances in a wide round are not
        charged for the other users' turns.
        """
        start = time.monotonic()
        try:
            if self.time_limit is None:
                return fn(*args)
            grace = max(OVERRUN_GRACE, self.time_limit)
            return _timed_call(fn, args, self.time_limit - self.learner_time, grace)
        finally:
            self.learner_time += time.monotonic() - start

    def view(self) -> ObsT:
        """What the learner is shown now, after the plug-ins' observation hooks."""
        ep = self.episode
        obs = self.env.view(ep.alias, ep.step, ep.round, ep.user)
        shown: ObsT = self.hooks.observation(ep, obs, self.trace, len(self.events))
        return shown

    def _fault(self, err: BaseException, during: str) -> None:
        if self.fail_fast:
            raise LearnerError(f"step {self.episode.step}: the learner raised in {during}: {err!r}") from err
        self.error = {
            "during": during,
            "type": type(err).__name__,
            "message": str(err),
            "traceback": "".join(traceback.format_exception(err)),
        }
        self.env.fail(End.LEARNER_ERROR)

    def advance(self, learner: Learner[ObsT, ActionT, ReplyT]) -> None:
        """One action: ``act``, the environment's step, ``observe``; faults end the instance."""
        obs, at = self.view(), len(self.events)
        try:
            chosen: ActionT = self._call(learner.act, obs)
            # Plug-ins see real actions only: anything else is the learner's fault, as without them.
            action = self._hooked_action(obs, chosen, at)
            feedback = self.env.step(action)
        except _TimeLimit:
            self.env.fail(End.TIME_LIMIT)
            self.events.append(self._unanswered(obs))
        except (HarnessFault, LearnerError, SpendCapReached):
            raise  # the benchmark's fault, a call that never returned, or the spend cap: the run stops
        except Exception as err:  # InvalidActionError included: a learner fault, not the run's
            self.events.append(self._unanswered(obs))
            self._fault(err, "act")
        else:
            shown: ReplyT = self.hooks.feedback(self.episode, obs, action, feedback, self.trace, at)
            event: Event = {
                "observation": self.env.observation_json(obs),
                "action": self.env.action_json(action),
                "feedback": self.env.feedback_json(feedback),
            }
            if action is not chosen:
                event["learner_action"] = self.env.action_json(chosen)
            self.events.append(event)
            try:
                self._call(learner.observe, obs, action, shown)
            except _TimeLimit:
                self.env.fail(End.TIME_LIMIT)
            except (LearnerError, SpendCapReached):
                raise
            except Exception as err:
                if not self.env.done:
                    self._fault(err, "observe")
                elif self.fail_fast:
                    raise LearnerError(
                        f"step {self.episode.step}: the learner raised in observe: {err!r}"
                    ) from err
                else:
                    self.error = {"during": "observe", "type": type(err).__name__, "message": str(err)}
        if self.env.done:
            self.finished = time.monotonic()
            self.hooks.episode_end(self.episode, self.env.result(), self.trace)

    def _unanswered(self, obs: ObsT) -> Event:
        """The trajectory event of an observation the learner gave no action for."""
        return {"observation": self.env.observation_json(obs), "action": None, "feedback": None}

    def _hooked_action(self, obs: ObsT, chosen: ActionT, at: int) -> ActionT:
        if not self.env.accepts(chosen):
            return chosen
        hooked: ActionT = self.hooks.action(self.episode, obs, chosen, self.trace, at, self.env)
        return hooked

    def play(self, learner: Learner[ObsT, ActionT, ReplyT]) -> None:
        """Play the instance to its end (the concurrent path)."""
        self.open()
        while not self.env.done:
            self.advance(learner)


AnyEpisode = EpisodePlay[Any, Any, Any]
"""An episode of either kind, where the kind is the track's, known only at run time (the session)."""


def guarded(learner: AnyLearner, name: str, *args: object) -> None:
    """Call a round hook of the learner; a fault there stops the run as a `LearnerError`."""
    try:
        hook: Callable[..., object] = getattr(learner, name)
        hook(*args)
    except SpendCapReached:
        raise  # not a fault: the run stops at the cap, cleanly
    except Exception as err:
        raise LearnerError(f"the learner raised in {name}(): {err!r}") from err
