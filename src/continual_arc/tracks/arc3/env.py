"""The environment of a game instance (arc3): one level, played in attempts, charged on arc1's scale.

The whole contract is [`GameEnv.step`][continual_arc.tracks.arc3.env.GameEnv.step]'s docstring, and
``docs/arc3.md`` explains it. In short, with the default
[`EnvSettings`][continual_arc.core.rules.EnvSettings] (``attempt_cap = 8``, ``demo_cap = 8``,
``demo_cost = 1``, ``action_cap = 64``):

====================  =====================================================================  ===========
action                effect                                                                 cost
====================  =====================================================================  ===========
``GameAction``        one step of the level; a win ends the instance solved; a loss or the   1 per failed
                      attempt's action cap ends the attempt (failed), and the level restarts  attempt
``RESET``             restarts the level: a failed attempt if the attempt had taken an        1, or 0 at
                      action, else free (it only shows the opening again)                     the start
``RequestDemos()``    the solver's play of a fresh level of the same game, frame by frame,   ``demo_cost``
                      up to the cap; past it the request is refused                          (0 refused)
``GiveUp()``          the instance ends unsolved                                             the rest
====================  =====================================================================  ===========

An attempt is one play of the level from its start. Its action cap is
[`attempt_action_cap`][continual_arc.tracks.arc3.env.attempt_action_cap] of the solver's plan length: four
times the plan plus eight, rounded up to a multiple of 16. The ``attempt_cap``-th failed attempt ends the
instance unsolved. An instance ends solved at its charge (failed attempts plus demonstrations), or unsolved,
however, at ``max_cost = attempt_cap + demo_cost * demo_cap`` (16), as on a grid. Every action counts
toward the instance's action cap, ``attempt_cap * attempt_action_cap + action_cap``: every attempt
played out, and ``action_cap`` (64) more for free RESETs, refused requests and demonstrations.
An action the game does not offer changes nothing but counts in the attempt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from typing_extensions import TypeIs

from continual_arc_games import Move
from continual_arc_games.human import human_actions, record_human_actions
from continual_arc_games.session import Session

from ...core.actions import GiveUp, GiveUpFeedback, RequestDemos
from ...core.environment import BaseEnvironment, EnvSettings
from ...core.games import (
    RESET,
    AttemptEnd,
    GameAction,
    GameDemo,
    GameDemosFeedback,
    GameFeedback,
    GameObservation,
    game_action_from_json,
    game_action_to_json,
    game_feedback_to_json,
    game_observation_to_json,
    is_game_action,
)
from ...core.level_score import level_fields
from ...core.records import ActionEntry, JSONObject, JSONValue
from .frames import FrameTable, FrameTexts
from .source import GameInstance

__all__ = ["ATTEMPT_CAP_EXTRA", "ATTEMPT_CAP_FACTOR", "ATTEMPT_CAP_ROUNDING", "GameEnv", "attempt_action_cap"]

ATTEMPT_CAP_FACTOR = 4
"""An attempt may take this many times the solver's plan length ..."""

ATTEMPT_CAP_EXTRA = 8
"""... plus this many actions ..."""

ATTEMPT_CAP_ROUNDING = 16
"""... rounded up to a multiple of this, so the cap tells the plan's length only roughly."""


def attempt_action_cap(plan_length: int) -> int:
    """The actions one attempt may take on a level whose solver's plan is ``plan_length`` long."""
    raw = ATTEMPT_CAP_FACTOR * plan_length + ATTEMPT_CAP_EXTRA
    return -(-raw // ATTEMPT_CAP_ROUNDING) * ATTEMPT_CAP_ROUNDING


class GameEnv(BaseEnvironment[GameAction, GameDemo, GameFeedback | GameDemosFeedback]):
    """One game instance being played: its level live in the engine, its rules and its charge.

    An [`Environment`][continual_arc.core.environment.Environment]; its counters, its end and its charge
    are kept by [`BaseEnvironment`][continual_arc.core.environment.BaseEnvironment].

    Args:
        instance: the instance (a level its solver won, and its demonstrations).
        settings: the environment's rules.
    """

    action_names = "GameAction, RequestDemos or GiveUp"

    def __init__(self, instance: GameInstance, settings: EnvSettings | None = None) -> None:
        if not instance.plan and instance.baseline is None:
            raise ValueError(
                f"{instance.task_id}: a level is served only with its solver's winning plan "
                "or a human's baseline"
            )
        self.instance = instance
        super().__init__(settings, instance.demo_cap)
        # ARC-AGI-3's level score reads the actions against a human's count where one is known (the
        # instance's own, a public game's, or one recorded beside the games for this very level), else
        # against the solver's plan. A level without a plan has its attempt cap from the human's count.
        human = instance.baseline if instance.baseline is not None else human_actions(instance.level)
        self.attempt_action_cap = attempt_action_cap(len(instance.plan) or human or 0)
        self.baseline_actions = len(instance.plan) if human is None else human
        self.baseline_source = "plan" if human is None else "human"
        self.action_cap = self.settings.attempt_cap * self.attempt_action_cap + self.settings.action_cap
        self.session = Session(instance.spec, instance.level)
        self.texts = FrameTexts()
        self.table = FrameTable()
        self.opening_frames = self._rendered()
        self.shown = self.opening_frames
        self.attempt_actions = 0
        for text in self.opening_frames:
            self.table.id(text)

    def _rendered(self) -> tuple[str, ...]:
        """The frames the engine rendered last, as text (the current frame when it rendered none)."""
        return self.texts.encode_all(self.session.frames or (self.session.frame,))

    def view(
        self, alias: str, step: int, round: int, user: int, extra: Mapping[str, JSONValue] | None = None
    ) -> GameObservation:
        """The learner's view of the instance as it stands."""
        return GameObservation(
            task_id=alias,
            frame=self.shown[-1],
            frames=self.shown,
            available_actions=self.session.actions,
            attempt_actions=self.attempt_actions,
            attempt_action_cap=self.attempt_action_cap,
            attempts_used=self.attempts_used,
            attempt_cap=self.settings.attempt_cap,
            demos_used=len(self.demos),
            demo_cap=self.demo_cap,
            demos=tuple(self.demos),
            step=step,
            round=round,
            user=user,
            extra=MappingProxyType(dict(extra or {})),
        )

    def step(self, action: object) -> GameFeedback | GameDemosFeedback | GiveUpFeedback:
        """Apply one action and return its feedback.

        * ``GameAction``: ``RESET`` restarts the level; it fails the attempt if the attempt had
          taken an action, and is free at an attempt's start. Any other action is one step of the
          level (an action the game does not offer changes nothing, ``offered`` false). A win
          ends the instance solved. A loss, or the attempt's ``attempt_action_cap``-th action,
          fails the attempt. A failed attempt costs 1; the ``attempt_cap``-th ends the instance
          unsolved, and any earlier one restarts the level for the next attempt (the next
          observation shows its opening). Returns [`GameFeedback`][continual_arc.core.games.GameFeedback].
        * ``RequestDemos()``: below the cap, a demonstration at ``demo_cost``; at the cap, refused
          at no cost. Returns [`GameDemosFeedback`][continual_arc.core.games.GameDemosFeedback].
        * ``GiveUp()``: ends the instance unsolved. Returns
          [`GiveUpFeedback`][continual_arc.core.actions.GiveUpFeedback].

        Whatever the action, the instance's ``action_cap``-th action that leaves it open ends it
        unsolved (``done`` is then true in the feedback).

        Raises:
            InvalidActionError: ``action`` is not one of the three kinds.
            InstanceClosedError: the instance has already ended.
        """
        return super().step(action)

    def _act(self, action: GameAction) -> GameFeedback:
        if action.action == RESET:
            return self._reset()
        return self._play(action)

    def _demonstration(self, index: int) -> GameDemo:
        return self.instance.demonstration(index)

    def _demos_feedback(self, demo: GameDemo | None, refused: bool) -> GameDemosFeedback:
        return GameDemosFeedback(demo, len(self.demos), self.spent, refused)

    def _reset(self) -> GameFeedback:
        """A RESET: free at an attempt's start, else the end of a failed attempt."""
        if self.attempt_actions == 0:
            self.session.reset()
            self.shown = self._rendered()
            return self._feedback(self.shown, None)
        return self._fail_attempt(AttemptEnd.RESET, self.opening_frames)

    def _play(self, action: GameAction) -> GameFeedback:
        self.attempt_actions += 1
        offered = action.action in self.session.actions
        if offered:
            self.session.step(Move(action.action, action.x, action.y))
            frames = self._rendered()
        else:
            frames = (self.shown[-1],)
        if self.session.won:
            self.tally.solve()
            self.shown = frames
            return self._feedback(frames, AttemptEnd.WON, offered)
        if self.session.lost:
            return self._fail_attempt(AttemptEnd.LOST, frames, offered)
        if self.attempt_actions >= self.attempt_action_cap:
            return self._fail_attempt(AttemptEnd.ACTION_CAP, frames, offered)
        self.shown = frames
        return self._feedback(frames, None, offered)

    def _fail_attempt(self, how: AttemptEnd, frames: tuple[str, ...], offered: bool = True) -> GameFeedback:
        """End the attempt as failed; restart the level unless that was the last attempt."""
        self.tally.fail_attempt()
        state = "lost" if self.session.lost else "playing"
        if not self.done:
            self.session.reset()
            self.shown = self._rendered()
        self.attempt_actions = 0
        return GameFeedback(frames, state, how, 0, self.attempts_used, self.spent, self.done, offered)

    def _feedback(
        self, frames: tuple[str, ...], ended: AttemptEnd | None, offered: bool = True
    ) -> GameFeedback:
        state = "won" if self.session.won else "lost" if self.session.lost else "playing"
        return GameFeedback(
            frames, state, ended, self.attempt_actions, self.attempts_used, self.spent, self.done, offered
        )

    def accepts(self, value: object) -> TypeIs[GameAction | RequestDemos | GiveUp]:
        """Whether ``value`` is a game action, a demonstration request or a give-up."""
        return is_game_action(value)

    def opening(self) -> JSONObject:
        """The trajectory's opening: the game, the caps, the opening's frames and every frame by number.

        Called once the instance has ended, so ``frames`` holds every distinct frame the instance
        showed (its opening, each action's, each demonstration's); events refer to them by number.
        """
        inst = self.instance
        opening: list[JSONValue] = [self.table.id(text) for text in self.opening_frames]
        frames: list[JSONValue] = [*self.table.texts()]
        return {
            "game": inst.task_id,
            "difficulty": inst.difficulty,
            "baseline_actions": self.baseline_actions,
            "baseline_source": self.baseline_source,
            "attempt_action_cap": self.attempt_action_cap,
            "action_cap": self.action_cap,
            "demo_cap": self.demo_cap,
            "opening": opening,
            "frames": frames,
        }

    def record_fields(self, actions: Sequence[ActionEntry], solved: bool) -> JSONObject:
        """The record's level-score fields ([`level_fields`][continual_arc.core.level_score.level_fields]).

        Args:
            actions: the record's ``actions`` entries.
            solved: whether the instance ended solved.
        """
        return level_fields(actions, solved, self.baseline_actions, self.baseline_source)

    def record_human(self, actions: int, path: Path) -> None:
        """Record a human's win of this level in ``actions`` actions in the counts file ``path``.

        The viewer's game player calls it
        (``continual_arc_games.human.record_human_actions``).
        """
        record_human_actions(self.instance.level, actions, path)

    def action_json(self, action: object) -> JSONObject:
        """An action as JSON ([`game_action_to_json`][continual_arc.core.games.game_action_to_json])."""
        return game_action_to_json(action)

    def action_from_json(self, value: Mapping[str, JSONValue]) -> GameAction | RequestDemos | GiveUp:
        """The action `action_json` wrote (for replaying a trajectory)."""
        return game_action_from_json(value)

    def feedback_json(self, feedback: object) -> JSONObject:
        """A feedback as JSON, each frame by its number in the instance's frame table."""
        return game_feedback_to_json(feedback, self.table.id)

    def observation_json(self, obs: GameObservation) -> JSONObject:
        """An observation's counters as JSON (`game_observation_to_json`)."""
        return game_observation_to_json(obs)
