"""How the model-backed learners play a game level (arc3): one model call per action, frames as text.

A level is not a grid to answer but a game to play, so the bare model, the two floors and the model
program library all play it the same way, through `GamePlayer`:

1. buy ``demos`` demonstrations first (fewer if the instance offers fewer); the prompt shows each
   one's actions (they play other levels of the same game, so their frames would mislead more than
   help, and 64 x 64 frames are long);
2. for every action, one call with a fresh two-message prompt (`game_messages`): the rules of
   the environment, the current frame as 64 lines of 64 hexadecimal colours, the actions the game
   offers, the attempt's count against its cap, the failed attempts so far and the actions of the
   current attempt; the model ends its reply with the action (`parse_game_action`);
3. a reply naming no action is told so, in the same conversation, and asked again;
4. gives up once the instance's ``max_calls`` are spent.

A conversation per action keeps every prompt as short as one frame; the calls go through the
learner's `ModelSession`, so the proxy counts
them per instance as on a grid. The player keeps nothing between levels: what a model learner keeps
on arc1 (programs, demonstrations) has no counterpart it could reuse on another level of a game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from continual_arc.env import (
    Action,
    Feedback,
    GameAction,
    GameDemo,
    GameFeedback,
    GameMove,
    GameObservation,
    GameReply,
    GiveUp,
    RequestDemos,
    decode_frame,
)

from .json_types import JSONObject
from .library.model_session import ModelSession
from .prompts import Message

__all__ = ["GamePlayer", "frame_rows", "game_level", "game_messages", "game_unreadable", "parse_game_action"]

_RULES = """You are playing one level of an unknown video game on a 64x64 grid of colours 0-15.
Nobody tells you the rules: find out what the actions do and how to win by playing.
Actions: RESET restarts the level; ACTION1 to ACTION5 and ACTION7 are the game's keys; ACTION6 x y
clicks the cell in column x, row y (both 0-63). Only the actions listed as offered do anything.
An attempt is one play from the level's start. A loss, or reaching the attempt's action cap, fails
the attempt and restarts the level; each failed attempt costs 1, and after {attempts} failed
attempts the level is lost. A win ends the level.
The frame is written as 64 rows of 64 hexadecimal digits, one digit a cell's colour.
Think briefly, then end your reply with one line holding only the action, for example
ACTION3
or
ACTION6 12 40
or GIVE UP to stop playing this level."""

_ACTION = re.compile(r"^\W*(RESET|ACTION[1-7]|GIVE UP)(?:\s+(\d{1,2})[\s,]+(\d{1,2}))?\W*$", re.IGNORECASE)


def frame_rows(frame: str) -> str:
    """A frame's text (``f1:`` runs) as 64 lines of 64 hexadecimal colours, for a prompt."""
    return "\n".join("".join(f"{cell:x}" for cell in row) for row in decode_frame(frame))


def _demo_lines(demos: Sequence[GameDemo]) -> list[str]:
    """Each demonstration's winning actions, one line each."""
    return [f"demonstration {n} (another level): {_actions(demo.actions)}" for n, demo in enumerate(demos, 1)]


def _actions(actions: Sequence[GameAction]) -> str:
    return " ".join(map(str, actions))


def game_messages(obs: GameObservation, moves: Sequence[str]) -> list[Message]:
    """The prompt for the next action on a level: the rules, then what the observation shows."""
    lines = [f"Offered actions: {', '.join(obs.available_actions)}"]
    lines += _demo_lines(obs.demos)
    lines.append(f"Failed attempts: {obs.attempts_used} of {obs.attempt_cap}")
    lines.append(f"Actions this attempt: {obs.attempt_actions} of {obs.attempt_action_cap}")
    if moves:
        lines.append("Your actions this attempt so far: " + " ".join(moves[-32:]))
    lines += ["Current frame:", frame_rows(obs.frame)]
    return [
        {"role": "system", "content": _RULES.format(attempts=obs.attempt_cap)},
        {"role": "user", "content": "\n".join(lines)},
    ]


def game_level(obs: object) -> GameObservation | None:
    """``obs`` when it shows a game level (arc3), else ``None`` (a grid instance's observation)."""
    return obs if isinstance(obs, GameObservation) else None


def game_unreadable() -> str:
    """The follow-up to a reply whose last line names no action."""
    return "Your reply did not end with an action. End it with one line such as ACTION2 or ACTION6 10 20."


def parse_game_action(text: str) -> GameAction | GiveUp | None:
    """The action a reply's last non-empty line names, or ``None`` when it names none (or a bad click)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    match = _ACTION.match(lines[-1]) if lines else None
    if match is None:
        return None
    name, x, y = match[1].upper(), match[2], match[3]
    if name == "GIVE UP":
        return GiveUp()
    try:
        return GameAction(name, int(x), int(y)) if x is not None and y is not None else GameAction(name)
    except ValueError:  # ACTION6 without its cell, a cell outside the frame, a cell on another key
        return None


@dataclass
class _Level:
    """One open level: the actions of its current attempt, and each reply as read."""

    moves: list[str] = field(default_factory=list)
    replies: list[str | None] = field(default_factory=list)


class GamePlayer:
    """Plays game levels through a model session (see the module docstring).

    Args:
        session: the learner's session; its ``max_calls`` bounds the calls per level.
        demos: demonstrations to buy before the first call.
    """

    def __init__(self, session: ModelSession, demos: int) -> None:
        self.session = session
        self.demos = demos
        self._levels: dict[int, _Level] = {}

    def act(self, obs: GameObservation, key: str) -> GameAction | RequestDemos | GiveUp:
        """The next action on the level ``obs`` shows; ``key`` names the instance to the session."""
        level = self._levels.get(obs.step)
        if level is None and obs.demos_used < min(self.demos, obs.demo_cap):
            return RequestDemos()
        level = self._levels.setdefault(obs.step, _Level())
        messages = game_messages(obs, level.moves)
        while (reply := self.session.chat(messages, key)) is not None:
            action = parse_game_action(reply)
            level.replies.append(None if action is None else str(action))
            if action is not None:
                return action
            retry = [{"role": "assistant", "content": reply}, {"role": "user", "content": game_unreadable()}]
            messages = [*messages, *retry]
        return GiveUp()

    def observe(
        self, obs: GameObservation, action: Action | GameMove, feedback: Feedback | GameReply
    ) -> JSONObject | None:
        """Follow the attempt; when the level ends, close it and return its log (else ``None``)."""
        level = self._levels.get(obs.step)
        if level is None:
            return None
        if isinstance(feedback, GameFeedback) and isinstance(action, GameAction):
            restarted = feedback.attempt_actions == 0  # a failed attempt or a RESET: a fresh start
            level.moves = [] if restarted else [*level.moves, str(action)]
        if not feedback.done:
            return None
        del self._levels[obs.step]
        return {"demos": obs.demos_used, "actions": list(level.replies)}

    def close_all(self) -> None:
        """Forget the open levels (a fault may have left one open at the end of a round)."""
        self._levels.clear()
