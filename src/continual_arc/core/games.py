"""What a learner and a game level say to each other: actions, feedback, the observation, as JSON.

A game instance (the arc3 track) is one level of a game, played through frames: 64 x 64 cells of
colours 0-15. The learner answers each [`GameObservation`][continual_arc.core.games.GameObservation] with a
[`GameAction`][continual_arc.core.games.GameAction] (``RESET`` or ``ACTION1`` .. ``ACTION7``; ``ACTION6``
clicks a frame cell), or with [`RequestDemos`][continual_arc.core.actions.RequestDemos] or
[`GiveUp`][continual_arc.core.actions.GiveUp], as on a grid instance. The environment answers with
[`GameFeedback`][continual_arc.core.games.GameFeedback],
[`GameDemosFeedback`][continual_arc.core.games.GameDemosFeedback] or
[`GiveUpFeedback`][continual_arc.core.actions.GiveUpFeedback]; what each costs is
[`continual_arc.tracks.arc3.env.GameEnv`][continual_arc.tracks.arc3.env.GameEnv]'s contract
(``docs/arc3.md``).

Frames travel as text ([`encode_frame`][continual_arc.core.games.encode_frame]): ``f1:`` then runs of a colour
letter (``a`` = 0 .. ``p`` = 15) and its length when above 1, row-major. Text is compact, hashable and equal
for equal frames, so a learner can key states by it; [`decode_frame`][continual_arc.core.games.decode_frame]
gives the rows back. This module needs only the standard library, so learners and the core can use it without
the game engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType

from .actions import GiveUp, GiveUpFeedback, RequestDemos
from .records import JSONObject, JSONValue

__all__ = [
    "CLICK",
    "FRAME_SIDE",
    "GAME_ACTIONS",
    "RESET",
    "AttemptEnd",
    "Frame",
    "GameAction",
    "GameDemo",
    "GameDemosFeedback",
    "GameFeedback",
    "GameMove",
    "GameObservation",
    "GameReply",
    "decode_frame",
    "demo_to_json",
    "encode_frame",
    "frame_patches",
    "game_action_from_json",
    "game_action_to_json",
    "game_feedback_to_json",
    "game_observation_to_json",
    "is_game_action",
]

GAME_ACTIONS = ("RESET", "ACTION1", "ACTION2", "ACTION3", "ACTION4", "ACTION5", "ACTION6", "ACTION7")
"""Every action a game level knows, in the engine's numbering (``RESET`` is 0, ``ACTIONn`` is n)."""

RESET = "RESET"
"""Restart the level from its first frame."""

CLICK = "ACTION6"
"""The one action that takes a frame cell (x, y)."""

FRAME_SIDE = 64
"""Frames are square, of this side."""

Frame = tuple[tuple[int, ...], ...]
"""A decoded frame: 64 rows of 64 colours 0-15."""


class AttemptEnd(StrEnum):
    """How an action ended an attempt at a game level (a feedback's ``ended``); not an instance's end.

    ``won`` solves the instance; the others fail the attempt (the instance ends when they use the
    last attempt, with the [`End`][continual_arc.core.records.End] of the rules).
    """

    WON = "won"
    LOST = "lost"
    RESET = "reset"
    ACTION_CAP = "action cap"


@dataclass(frozen=True, slots=True)
class GameAction:
    """One action on a game level: its name, and for ``ACTION6`` the frame cell it clicks.

    Attributes:
        action: one of [`GAME_ACTIONS`][continual_arc.core.games.GAME_ACTIONS].
        x: the clicked column (0-63), only for ``ACTION6``.
        y: the clicked row (0-63), only for ``ACTION6``.

    Raises:
        ValueError: an unknown name, a click without a cell in the frame, or coordinates on
            another action.
    """

    action: str
    x: int | None = None
    y: int | None = None

    def __post_init__(self) -> None:
        if self.action not in GAME_ACTIONS:
            raise ValueError(f"unknown game action {self.action!r}; expected one of {GAME_ACTIONS}")
        cell = (self.x, self.y)
        if self.action == CLICK:
            if not all(type(v) is int and 0 <= v < FRAME_SIDE for v in cell):
                raise ValueError(f"ACTION6 needs integer x and y in 0..63, got {cell}")
        elif cell != (None, None):
            raise ValueError(f"{self.action} takes no coordinates, got {cell}")

    @classmethod
    def click(cls, x: int, y: int) -> GameAction:
        """An ``ACTION6`` on frame cell (x, y)."""
        return cls(CLICK, x, y)

    def __str__(self) -> str:
        return f"{self.action}({self.x},{self.y})" if self.action == CLICK else self.action


@dataclass(frozen=True)
class GameDemo:
    """A demonstration: the game's solver playing a fresh level of the same game to its win.

    Attributes:
        actions: the solver's actions, in order.
        frames: ``len(actions) + 1`` groups of frames: the level's opening (what a RESET shows,
            an animation in some games), then the frames each action rendered; the last frame of
            each group is the one the next action meets.
    """

    actions: tuple[GameAction, ...]
    frames: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if len(self.frames) != len(self.actions) + 1 or not all(self.frames):
            raise ValueError("a demonstration has an opening and a group of frames after each action")

    @property
    def states(self) -> tuple[str, ...]:
        """The frame each action met, then the winning frame (``len(actions) + 1`` of them)."""
        return tuple(group[-1] for group in self.frames)


@dataclass(frozen=True)
class GameObservation:
    """Everything a learner is shown of a game instance, and nothing about the schedule.

    Attributes:
        task_id: the game's name in this run (an alias of its id).
        frame: the current frame, as text ([`encode_frame`][continual_arc.core.games.encode_frame]).
        frames: every frame the last action rendered (or the level's opening), the last being
            ``frame``; an animation shows more than one.
        available_actions: the actions the game offers now (``RESET`` is always allowed besides).
        attempt_actions: actions taken in the current attempt.
        attempt_action_cap: actions an attempt may take; the last one ends it.
        attempts_used: failed attempts so far.
        attempt_cap: failed attempts allowed; the last one ends the instance unsolved.
        demos_used: demonstrations bought so far.
        demo_cap: demonstrations this instance offers.
        demos: the demonstrations bought so far, in order.
        step: the instance's index in the run.
        round: the round's index in the run.
        user: whose instance it is (0 with one user).
        extra: fields added by plug-ins (empty unless a plug-in adds one).
    """

    task_id: str
    frame: str
    frames: tuple[str, ...]
    available_actions: tuple[str, ...]
    attempt_actions: int
    attempt_action_cap: int
    attempts_used: int
    attempt_cap: int
    demos_used: int
    demo_cap: int
    demos: tuple[GameDemo, ...]
    step: int
    round: int
    user: int
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: MappingProxyType({}))

    @cached_property
    def grid(self) -> Frame:
        """The current frame decoded: 64 rows of 64 colours."""
        return decode_frame(self.frame)


@dataclass(frozen=True)
class GameFeedback:
    """What one game action did.

    Attributes:
        frames: the frames the action rendered (the last is the frame it ended on); after an
            attempt ends, the next observation shows the level's opening again.
        state: ``"playing"``, ``"won"`` or ``"lost"``: the level's state after the action.
        ended: how the action ended the attempt (an [`AttemptEnd`][continual_arc.core.games.AttemptEnd]), or
            ``None``: it goes on.
        attempt_actions: actions taken in the attempt, this one included (0 after a free RESET).
        attempts_used: failed attempts so far, this one included.
        spent: failed attempts and demonstrations so far, in cost units.
        done: whether the instance has ended.
        offered: ``False`` when the game does not offer the action: nothing changed, but the
            action still counts in the attempt.
    """

    frames: tuple[str, ...]
    state: str
    ended: str | None
    attempt_actions: int
    attempts_used: int
    spent: int
    done: bool
    offered: bool = True


@dataclass(frozen=True)
class GameDemosFeedback:
    """The answer to a demonstration request on a game instance.

    Attributes:
        demo: the demonstration, or ``None`` when refused.
        demos_used: demonstrations bought so far on this instance.
        spent: failed attempts and demonstrations so far, in cost units.
        refused: whether the request was refused (the cap reached), at no cost.
        done: whether the instance has ended (only when its action cap is reached).
    """

    demo: GameDemo | None
    demos_used: int
    spent: int
    refused: bool = False
    done: bool = False


GameMove = GameAction | RequestDemos | GiveUp
"""Every action a learner may take on a game level."""

GameReply = GameFeedback | GameDemosFeedback | GiveUpFeedback
"""Every feedback a game level gives."""


def is_game_action(value: object) -> bool:
    """Whether ``value`` is an action a game instance accepts (a game action, a demo request, give up)."""
    return isinstance(value, GameAction | RequestDemos | GiveUp)


def game_action_to_json(action: object) -> JSONObject:
    """An action as JSON: ``{"action": "ACTION6", "x": .., "y": ..}``, ``request_demos``, ``give_up``."""
    if isinstance(action, GameAction):
        if action.action == CLICK:
            return {"action": action.action, "x": action.x, "y": action.y}
        return {"action": action.action}
    if isinstance(action, RequestDemos):
        return {"action": "request_demos"}
    if isinstance(action, GiveUp):
        return {"action": "give_up"}
    return {"action": "invalid", "repr": repr(action)[:2000]}


def game_action_from_json(value: Mapping[str, JSONValue]) -> GameMove:
    """The action [`game_action_to_json`][continual_arc.core.games.game_action_to_json] wrote.

    Raises:
        ValueError: the JSON is not a game instance's action (``invalid`` included).
    """
    kind = value.get("action")
    if kind == "request_demos":
        return RequestDemos()
    if kind == "give_up":
        return GiveUp()
    if kind in GAME_ACTIONS:
        x, y = value.get("x"), value.get("y")  # a click's cell, checked by GameAction itself
        if not (isinstance(x, int | None) and isinstance(y, int | None)):  # as GameAction would say it
            wrong = "needs integer x and y in 0..63" if kind == CLICK else "takes no coordinates"
            raise ValueError(f"{kind} {wrong}, got {(x, y)}")
        return GameAction(kind, x, y)
    raise ValueError(f"not a game instance's action: {dict(value)!r}")


def demo_to_json(demo: GameDemo, frame_id: Callable[[str], JSONValue]) -> JSONObject:
    """A demonstration as JSON, each frame replaced by ``frame_id(text)`` (an index or the text)."""
    actions: list[JSONValue] = [game_action_to_json(a) for a in demo.actions]
    frames: list[JSONValue] = [[frame_id(text) for text in group] for group in demo.frames]
    return {"actions": actions, "frames": frames}


def game_feedback_to_json(feedback: object, frame_id: Callable[[str], JSONValue] | None = None) -> JSONObject:
    """A game instance's feedback as JSON, frames as ``frame_id(text)`` (the text itself by default)."""
    name: Callable[[str], JSONValue] = frame_id or _same
    if isinstance(feedback, GameFeedback):
        return {
            "feedback": "game",
            "frames": [name(text) for text in feedback.frames],
            "state": feedback.state,
            "ended": feedback.ended,
            "attempt_actions": feedback.attempt_actions,
            "attempts_used": feedback.attempts_used,
            "spent": feedback.spent,
            "done": feedback.done,
            "offered": feedback.offered,
        }
    if isinstance(feedback, GameDemosFeedback):
        return {
            "feedback": "demos",
            "demo": None if feedback.demo is None else demo_to_json(feedback.demo, name),
            "demos_used": feedback.demos_used,
            "spent": feedback.spent,
            "refused": feedback.refused,
            "done": feedback.done,
        }
    if isinstance(feedback, GiveUpFeedback):
        return {"feedback": "give_up", "done": True}
    raise TypeError(f"not a game instance's feedback: {type(feedback).__name__}")


def _same(text: str) -> str:
    return text


def game_observation_to_json(obs: GameObservation) -> JSONObject:
    """An observation's counters and place as JSON (its frames are in the feedback before it)."""
    return {
        "attempt_actions": obs.attempt_actions,
        "attempts_used": obs.attempts_used,
        "demos_used": obs.demos_used,
        "step": obs.step,
        "round": obs.round,
        "user": obs.user,
        "extra": dict(obs.extra),
    }


# Colours 0-15 are the letters a-p; each letter is followed by its run length when that is not 1.
_LETTERS = "abcdefghijklmnop"
_RUN = re.compile(r"([a-p])([1-9]\d*)?")
_HEADER = "f1:"


def encode_frame(rows: Sequence[Sequence[int]]) -> str:
    """The text of a 64 x 64 frame: ``f1:`` then runs over its row-major cells.

    The same text as the arc3 games' own encoder (``games.session.encode_frame``), in plain Python.

    Raises:
        ValueError: the frame is not 64 x 64 or holds a value outside 0-15.
    """
    if len(rows) != FRAME_SIDE or any(len(row) != FRAME_SIDE for row in rows):
        raise ValueError(f"a frame is {FRAME_SIDE}x{FRAME_SIDE}")
    parts = [_HEADER]
    previous, length = -1, 0
    for row in rows:
        for value in row:
            if type(value) is not int or not 0 <= value <= 15:
                raise ValueError("frame colours are ints 0-15")
            if value == previous:
                length += 1
                continue
            if length:
                parts.append(_LETTERS[previous] + (str(length) if length > 1 else ""))
            previous, length = value, 1
    parts.append(_LETTERS[previous] + (str(length) if length > 1 else ""))
    return "".join(parts)


def decode_frame(text: str) -> Frame:
    """The rows of the frame [`encode_frame`][continual_arc.core.games.encode_frame] encoded.

    Raises:
        ValueError: the text is not a well-formed encoding of 4096 cells.
    """
    if not text.startswith(_HEADER):
        raise ValueError("not a frame encoding (expected the f1: header)")
    flat: list[int] = []
    position = len(_HEADER)
    for match in _RUN.finditer(text, position):
        if match.start() != position:
            break
        flat.extend([_LETTERS.index(match.group(1))] * int(match.group(2) or 1))
        position = match.end()
    if position != len(text) or len(flat) != FRAME_SIDE * FRAME_SIDE:
        raise ValueError("a frame encoding must spell out exactly 4096 cells")
    return tuple(tuple(flat[i : i + FRAME_SIDE]) for i in range(0, len(flat), FRAME_SIDE))


def frame_patches(frame: Frame) -> list[tuple[int, int, int]]:
    """The connected patches of one colour in a frame, each as its colour and the cell at its centre.

    Two cells of one colour are connected when they touch by a side or a corner (8-neighbours), so
    a diagonal stroke (a mirror drawn as a diagonal band) is one patch, as a player sees it. A
    patch's centre is its cell nearest the mean of its cells (the first in row-major order on a
    tie), so a click there lands on the patch even when the patch is not convex.

    Returns:
        ``(colour, x, y)`` for every patch, in the row-major order of its first cell.
    """
    side = len(frame)
    width = len(frame[0]) if side else 0
    seen = [[False] * width for _ in range(side)]
    found: list[tuple[int, int, int]] = []
    for y0 in range(side):
        for x0 in range(width):
            if seen[y0][x0]:
                continue
            colour = frame[y0][x0]
            seen[y0][x0] = True
            cells, stack = [], [(x0, y0)]
            while stack:
                x, y = stack.pop()
                cells.append((x, y))
                for ny in range(max(0, y - 1), min(side, y + 2)):
                    for nx in range(max(0, x - 1), min(width, x + 2)):
                        if not seen[ny][nx] and frame[ny][nx] == colour:
                            seen[ny][nx] = True
                            stack.append((nx, ny))
            mean_x = sum(x for x, _ in cells) / len(cells)
            mean_y = sum(y for _, y in cells) / len(cells)
            cx, cy = min(cells, key=lambda c: ((c[0] - mean_x) ** 2 + (c[1] - mean_y) ** 2, c[1], c[0]))
            found.append((colour, cx, cy))
    return found
