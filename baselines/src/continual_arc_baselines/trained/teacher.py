"""The teacher of QD: a stronger model asked for its move in a state the student met.

[`Teacher.ask_teacher`][continual_arc_baselines.trained.teacher.Teacher.ask_teacher] takes a
[`State`][continual_arc_baselines.trained.teacher.State] (the messages the student was about to be
asked, and whether they show a grid instance or a game level) and returns the teacher's move written
as the student's reply would be: a grid in a fenced block, or one line naming a game action. The
teacher reads the page of playing rules that ships with the baselines (`PLAYING_RULES`, the file
``playing_rules.md`` beside this module) as its system message, then the student's view of the state.

The calls go through a [`ModelSession`][continual_arc_baselines.library.model_session.ModelSession]
of the teacher's own: its own model, endpoint and run id, so that a tracking proxy counts the
teacher apart from the student and holds it to a spend cap of its own (the proxy's cap is per run
id). Its counts are settled per instance at the end of each round, as the student's are, and kept
cumulatively, with what an earlier process counted (`Teacher.restore`), as training compute.

This module is deliberately small and plain: the general teacher layer (a learner naming a teacher
in its submission, its compute in the records) can wrap `Teacher` as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Literal

import httpx

from continual_arc.env import GameAction, GiveUp
from continual_arc.grids import Grid

from .. import prompts
from ..game_play import parse_game_action
from ..library.carry import ProxyCountsError, carry_spend
from ..library.counts import COUNT_KEYS, add_counts, minus, zero
from ..library.model_session import ModelRefusedError, ModelSession, ModelSettings
from ..model import ModelCallError
from ..prompts import Message

__all__ = [
    "PLAYING_RULES",
    "TEACHER_PREFIX",
    "State",
    "Teacher",
    "game_line",
    "grid_reply",
    "teacher_messages",
]

PLAYING_RULES = resources.files(__package__).joinpath("playing_rules.md").read_text(encoding="utf-8")
"""The page of playing rules the teacher reads before every state (``playing_rules.md``)."""

TEACHER_PREFIX = "teacher_"
"""The prefix of the teacher's counters among a learner's training compute."""

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


def _move(kind: Kind, reply: str) -> str | None:
    if kind == "grid":
        grid = prompts.parse_grid(reply)
        return None if grid is None else grid_reply(grid)
    action = parse_game_action(reply)
    return None if action is None else game_line(action)


class Teacher:
    """A teacher model behind its own session (see the module docstring).

    Args:
        settings: the teacher's model, endpoint and limits (``max_calls`` bounds its calls on one
            instance, as the student's does).

    Raises:
        ValueError: ``api_key_env`` names a variable that is not set.
    """

    def __init__(self, settings: ModelSettings) -> None:
        self.session = ModelSession(settings, "teacher")
        self.settings = settings
        self._before = zero()  # what a saved state held when it was restored (restore)
        self._since = zero()  # the session's totals when it was
        self.moves = 0  # replies that gave a move, cumulative
        self.unreadable = 0  # replies in which no move could be read, cumulative
        self._keys: set[str] = set()

    def ask_teacher(self, state: State) -> str | None:
        """The teacher's move in ``state``, written as the student's reply; ``None`` for no move.

        No move: the teacher's calls on the instance are spent, the call failed after its retries,
        the endpoint refused it (kept, and raised by `end_round`), or no move could be read.
        """
        self._keys.add(state.instance)
        try:
            reply = self.session.chat(teacher_messages(state), state.instance)
        except (ModelCallError, ModelRefusedError, ProxyCountsError):
            return None  # a refusal or unread counts stay in the session and stop the run at end_round
        if reply is None:
            return None
        move = _move(state.kind, reply)
        self.moves += move is not None
        self.unreadable += move is None
        return move

    def begin_round(self) -> None:
        """Start a round: the last round's counts are settled."""
        self.session.begin_round()
        self._keys.clear()

    def end_round(self) -> None:
        """Settle the round's calls; raise a refusal met in the round.

        Raises:
            ModelRefusedError: the endpoint refused a teacher's call outright (a spend cap's 402 is a
                [SpendCapReached][continual_arc.core.errors.SpendCapReached]: the run stops there).
            ProxyCountsError: the proxy's counts could not be read.
        """
        self.session.end_round(sorted(self._keys))

    def totals(self) -> dict[str, float]:
        """The teacher's counts over the learner's life (`COUNT_KEYS`), earlier processes included."""
        return add_counts(self._before, minus(self.session.totals(), self._since))

    def compute(self) -> dict[str, float]:
        """The teacher's counts as training compute: each counter prefixed with `TEACHER_PREFIX`."""
        counts = {f"{TEACHER_PREFIX}{key}": value for key, value in self.totals().items()}
        counts[f"{TEACHER_PREFIX}moves"] = float(self.moves)
        counts[f"{TEACHER_PREFIX}unreadable_replies"] = float(self.unreadable)
        return counts

    def restore(self, counts: Mapping[str, float]) -> None:
        """Continue from counts a saved state holds (`compute`'s keys): this process adds to them."""
        saved = {key: float(counts.get(f"{TEACHER_PREFIX}{key}", 0.0)) for key in COUNT_KEYS}
        self._before, self._since = add_counts(zero(), saved), self.session.totals()
        self.moves = int(counts.get(f"{TEACHER_PREFIX}moves", 0.0))
        self.unreadable = int(counts.get(f"{TEACHER_PREFIX}unreadable_replies", 0.0))

    def carry(self) -> None:
        """Tell the teacher's proxy what the run's teacher spent before this process (a resumed run).

        Raises:
            ProxyCountsError: the proxy could not be told: its spend cap would start again.
        """
        if self.session.counted_by == "client":
            return
        with httpx.Client(timeout=30.0) as http:
            carry_spend(http, self.settings.base_url, self.session.run_id, self.totals())

    def close(self) -> None:
        """Release the HTTP connections."""
        self.session.close()
