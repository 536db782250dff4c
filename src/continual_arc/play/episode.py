"""One instance being played: the learner's calls, their time limit and faults.

:class:`EpisodePlay` owns one instance: each step asks the learner for an action on the view it is
shown (after the plug-ins' hooks), applies the final action in the instance's environment, hands
the feedback to the learner (after the plug-ins' hooks), and keeps the trajectory's events.
:func:`~continual_arc.play.instance_record.instance_record` turns a played instance into its record
and trajectory.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.environment import Environment
from ..core.errors import ContinualArcError, HarnessFault
from .learner import Learner
from .plugin_manager import PluginManager, PluginTrace
from .plugins import Episode

__all__ = ["EpisodePlay", "LearnerError", "guarded"]


class LearnerError(ContinualArcError, RuntimeError):
    """A learner fault that stops the run (a round hook failed, or ``fail_fast`` was set)."""


class _TimeLimit(Exception):
    pass


def _call(fn: Callable[..., Any], args: tuple[Any, ...], deadline: float | None) -> Any:
    """Call ``fn``, giving up at ``deadline`` (the call then runs on, abandoned, in its thread)."""
    if deadline is None:
        return fn(*args)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _TimeLimit
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as err:  # handed to the caller's thread as is
            box["error"] = err

    thread = threading.Thread(target=target, daemon=True, name="continual-arc-learner-call")
    thread.start()
    thread.join(remaining)
    if thread.is_alive():
        raise _TimeLimit
    if "error" in box:
        raise box["error"]
    return box["value"]


@dataclass
class EpisodePlay:
    """One episode being played: its environment, its trajectory, and how it ended."""

    episode: Episode
    env: Environment
    time_limit: float | None
    fail_fast: bool
    hooks: PluginManager
    trace: PluginTrace = field(default_factory=PluginTrace)
    events: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    started: float = 0.0
    finished: float = 0.0
    deadline: float | None = None

    def open(self) -> None:
        """Start the instance's clock (and its time limit) and call the episode-start hooks."""
        self.started = time.monotonic()
        self.deadline = None if self.time_limit is None else self.started + self.time_limit
        self.hooks.episode_start(self.episode, self.trace)

    def view(self) -> Any:
        """What the learner is shown now, after the plug-ins' observation hooks."""
        ep = self.episode
        obs = self.env.view(ep.alias, ep.step, ep.round, ep.user)
        return self.hooks.observation(ep, obs, self.trace, len(self.events))

    def _fault(self, err: BaseException, during: str) -> None:
        if self.fail_fast:
            raise LearnerError(f"step {self.episode.step}: the learner raised in {during}: {err!r}") from err
        self.error = {
            "during": during,
            "type": type(err).__name__,
            "message": str(err),
            "traceback": "".join(traceback.format_exception(err)),
        }
        self.env.fail("learner error")

    def advance(self, learner: Learner) -> None:
        """One action: ``act``, the environment's step, ``observe``; faults end the instance."""
        obs, at = self.view(), len(self.events)
        try:
            chosen = _call(learner.act, (obs,), self.deadline)
            # Plug-ins see real actions only: anything else is the learner's fault, as without them.
            action = self._hooked_action(obs, chosen, at)
            feedback = self.env.step(action)
        except _TimeLimit:
            self.env.fail("time limit")
            self.events.append(self._unanswered(obs))
        except HarnessFault:
            raise  # the benchmark's fault (a generator, a plug-in): it stops the run
        except Exception as err:  # InvalidActionError included: a learner fault, not the run's
            self.events.append(self._unanswered(obs))
            self._fault(err, "act")
        else:
            shown = self.hooks.feedback(self.episode, obs, action, feedback, self.trace, at)
            event = {
                "observation": self.env.observation_json(obs),
                "action": self.env.action_json(action),
                "feedback": self.env.feedback_json(feedback),
            }
            if action is not chosen:
                event["learner_action"] = self.env.action_json(chosen)
            self.events.append(event)
            try:
                _call(learner.observe, (obs, action, shown), self.deadline)
            except _TimeLimit:
                self.env.fail("time limit")
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

    def _unanswered(self, obs: Any) -> dict[str, Any]:
        """The trajectory event of an observation the learner gave no action for."""
        return {"observation": self.env.observation_json(obs), "action": None, "feedback": None}

    def _hooked_action(self, obs: Any, chosen: Any, at: int) -> Any:
        if not self.env.accepts(chosen):
            return chosen
        return self.hooks.action(self.episode, obs, chosen, self.trace, at, self.env)

    def play(self, learner: Learner) -> None:
        """Play the instance to its end (the concurrent path)."""
        self.open()
        while not self.env.done:
            self.advance(learner)


def guarded(learner: Learner, name: str, *args: Any) -> Any:
    """Call a round hook of the learner; a fault there stops the run as a :class:`LearnerError`."""
    try:
        return getattr(learner, name)(*args)
    except Exception as err:
        raise LearnerError(f"the learner raised in {name}(): {err!r}") from err
