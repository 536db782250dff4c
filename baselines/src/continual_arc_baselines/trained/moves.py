"""What QD asks its teacher in a state the student met, and how the reply is read as the student's move.

[`ask_move`][continual_arc_baselines.trained.moves.ask_move] takes the learner's
[`Teacher`][continual_arc_baselines.teacher.Teacher] (the one client every taught learner uses, which
counts the teacher apart from the student) and a [`State`][continual_arc_baselines.trained.moves.State]
(the messages the student was about to be asked, and whether they show a grid instance or a game
level), and returns the teacher's move written as the student's reply would be: a grid in a fenced
block, or one line naming a game action. The teacher reads the page of playing rules that ships with
the baselines (`PLAYING_RULES`, the file ``playing_rules.md`` beside this module) as its system
message, then the student's view of the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Literal

from continual_arc.env import GameAction, GiveUp
from continual_arc.grids import Grid

from .. import prompts
from ..game_play import parse_game_action
from ..library.carry import ProxyCountsError
from ..library.model_session import ModelRefusedError
from ..model import ModelCallError
from ..prompts import Message
from ..teacher import Teacher, TeacherBudgetReached

__all__ = [
    "PLAYING_RULES",
    "Kind",
    "State",
    "ask_move",
    "game_line",
    "grid_reply",
    "read_move",
    "teacher_messages",
]

PLAYING_RULES = resources.files(__package__).joinpath("playing_rules.md").read_text(encoding="utf-8")
"""The page of playing rules the teacher reads before every state (``playing_rules.md``)."""

Kind = Literal["grid", "game"]
"""What a state shows: a grid instance or a game level."""


@dataclass(frozen=True)
class State:
    """A state the student met: what it was about to be asked, and on what.

    Attributes:
        kind: ``grid`` for a grid instance, ``game`` for a game level.
        messages: the student's messages at that state, as it would be sent them.
        instance: the instance's key (the student's), under which the teacher's calls are counted.
    """

    kind: Kind
    messages: tuple[Message, ...]
    instance: str


def grid_reply(grid: Grid) -> str:
    """A grid as the student's reply: its rows in a fenced block (the trained learner's format)."""
    return f"```\n{prompts.grid_text(grid)}\n```"


def game_line(action: GameAction | GiveUp) -> str:
    """A game action as the student's reply writes it (``ACTION3``, ``ACTION6 12 40``, ``GIVE UP``)."""
    if isinstance(action, GiveUp):
        return "GIVE UP"
    if action.x is not None and action.y is not None:
        return f"{action.action} {action.x} {action.y}"
    return action.action


def _shown(state: State) -> str:
    """The student's view of the state, as one message the teacher reads after the rules."""
    parts = [f"[{m['role']}]\n{m['content']}" for m in state.messages]
    ask = "the output grid you would submit" if state.kind == "grid" else "the next action"
    return (
        "The student's position, every message it was given (and its own earlier replies):\n\n"
        + "\n\n".join(parts)
        + f"\n\nYour move in this position: {ask}."
    )


def teacher_messages(state: State) -> list[Message]:
    """What the teacher is sent for ``state``: the playing rules, then the student's view."""
    return [{"role": "system", "content": PLAYING_RULES}, {"role": "user", "content": _shown(state)}]


def read_move(kind: Kind, reply: str) -> str | None:
    """The move in the teacher's ``reply``, written as the student writes one (``None``: none read)."""
    if kind == "grid":
        grid = prompts.parse_grid(reply)
        return None if grid is None else grid_reply(grid)
    action = parse_game_action(reply)
    return None if action is None else game_line(action)


def ask_move(teacher: Teacher, state: State) -> tuple[str | None, str | None]:
    """Ask ``teacher`` for its move in ``state``: its reply (``None`` for none) and the move read from it.

    No reply: the teacher's calls on the instance are spent, the call failed after its retries, or
    the teacher may not be called (its budget spent, the endpoint refused it, the proxy's counts
    unread). Those last stay with the teacher, which raises them at its ``end_round``, so the
    student plays the round out and the run stops at its end.
    """
    try:
        reply = teacher.chat(teacher_messages(state), state.instance)
    except (ModelCallError, ModelRefusedError, ProxyCountsError, TeacherBudgetReached):
        return None, None
    return reply, None if reply is None else read_move(state.kind, reply)
