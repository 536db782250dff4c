"""One instance being played: the learner's calls, their time limit and faults, and its record.

:class:`EpisodePlay` drives one instance: each step asks the learner for an action on the view it
is shown (after the plug-ins' hooks), applies the final action in the environment, hands the
feedback to the learner, and keeps the trajectory. :func:`finish` turns a played instance into its
record (one line of ``records.jsonl``) and its trajectory (``i/<step>.json``).
"""

from __future__ import annotations

import dataclasses
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .addons import Episode, PluginError
from .env import (
    EnvSettings,
    GiveUp,
    InstanceEnv,
    LearnerObservation,
    RequestDemos,
    Submit,
    action_to_json,
    feedback_to_json,
)
from .grids import to_json
from .learner import Learner
from .plugin_runtime import PluginManager, PluginTrace

__all__ = ["EpisodePlay", "LearnerError", "finish", "guarded"]


class LearnerError(RuntimeError):
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
    env: InstanceEnv
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

    def view(self) -> LearnerObservation:
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
            self.events.append({"observation": _obs_json(obs), "action": None, "feedback": None})
        except Exception as err:  # InvalidActionError included: a learner fault, not the run's
            if _is_harness_fault(err):
                raise
            self.events.append({"observation": _obs_json(obs), "action": None, "feedback": None})
            self._fault(err, "act")
        else:
            shown = self.hooks.feedback(self.episode, obs, action, feedback, self.trace, at)
            event = {
                "observation": _obs_json(obs),
                "action": action_to_json(action),
                "feedback": feedback_to_json(feedback),
            }
            if action is not chosen:
                event["learner_action"] = action_to_json(chosen)
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

    def _hooked_action(self, obs: LearnerObservation, chosen: Any, at: int) -> Any:
        if not isinstance(chosen, Submit | RequestDemos | GiveUp):
            return chosen
        return self.hooks.action(self.episode, obs, chosen, self.trace, at)

    def play(self, learner: Learner) -> None:
        """Play the instance to its end (the concurrent path)."""
        self.open()
        while not self.env.done:
            self.advance(learner)


def _is_harness_fault(err: BaseException) -> bool:
    """Whether ``err`` is the benchmark's (a generator) or a plug-in's, not the learner's."""
    from .rearc import GeneratorError

    return isinstance(err, GeneratorError | PluginError)


def _obs_json(obs: LearnerObservation) -> dict[str, Any]:
    return {
        "attempts_used": obs.attempts_used,
        "demos_used": obs.demos_used,
        "step": obs.step,
        "round": obs.round,
        "user": obs.user,
        "extra": dict(obs.extra),
    }


def guarded(learner: Learner, name: str, *args: Any) -> Any:
    """Call a round hook of the learner; a fault there stops the run as a :class:`LearnerError`."""
    try:
        return getattr(learner, name)(*args)
    except Exception as err:
        raise LearnerError(f"the learner raised in {name}(): {err!r}") from err


def _resources(learner: Learner, user: int) -> dict[str, float]:
    """The learner's cumulative counters (a concurrent learner's, of this user)."""
    if learner.concurrent_users:
        return _counters(lambda: learner.user_resources(user))
    return _counters(learner.resources)


def _instance_resources(learner: Learner, user: int) -> dict[str, float] | None:
    """The counters of the user's instance that just ended, if the learner reports them."""
    hook = getattr(learner, "instance_resources", None)
    return _counters(lambda: hook(user)) if callable(hook) else None


def _counters(fetch: Callable[[], Any]) -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in dict(fetch()).items()}
    except Exception:  # counters are logged, never scored: a broken counter loses only itself
        return {"resources_error": 1.0}


def finish(
    inst: EpisodePlay, learner: Learner, settings: EnvSettings
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record (a line of ``records.jsonl``) and trajectory (``i/<step>.json``) of an ended instance."""
    ep, result = inst.episode, inst.env.result()
    actions = []
    for event in inst.events:
        action, feedback = event["action"], event["feedback"]
        entry: dict[str, Any] = {"action": action["action"] if action else None}
        if feedback and feedback["feedback"] == "submit":
            entry.update(correct=feedback["correct"], invalid=feedback["invalid"] is not None)
        if feedback and feedback["feedback"] == "demos":
            entry["refused"] = feedback["refused"]
        actions.append(entry)
    record = {
        **ep.to_json(),
        "alias": ep.alias,
        "episode_type": ep.episode_type,
        "actions": actions,
        "demos_bought": result.demos_bought,
        "demos_refused": result.demos_refused,
        "wrong_attempts": result.wrong_attempts,
        "solved": result.solved,
        "end": result.end,
        "charge": result.charge,
        "max_cost": settings.max_cost,
        "budget_share": result.charge / settings.max_cost,
        "wall_time": round(max(inst.finished - inst.started, 0.0), 6),
        "resources": _resources(learner, ep.user),
        "instance_resources": _instance_resources(learner, ep.user),
        "error": inst.error,
    }
    log = getattr(learner, "instance_log", None)
    trajectory = {
        **ep.to_json(),
        "alias": ep.alias,
        "episode_type": ep.episode_type,
        "input": to_json(inst.env.instance.input),
        "demo_cap": inst.env.demo_cap,
        "events": inst.events,
        "result": dataclasses.asdict(result),
        "learner_log": log(ep.user) if callable(log) else None,
        "error": inst.error,
    }
    said = inst.trace.summary()
    if said is not None:  # only when a plug-in said something: runs without them are unchanged
        record["plugins"] = said
        trajectory["plugins"] = inst.trace.entries
    return record, trajectory
