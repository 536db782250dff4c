"""A record's charge replayed: what the environment's own rules make of its recorded actions.

The checker ([`check_run`][continual_arc.submit.check_run]) compares each record's end, counts and charge with
what its actions give here, counted through [`Tally`][continual_arc.core.rules.Tally], the rules every
environment plays by: there is one implementation of the rules, not a copy beside them.
"""

from __future__ import annotations

from typing import TypedDict

from ..core.environment import EnvSettings
from ..core.games import GAME_ACTIONS
from ..core.records import ActionEntry, End, Record
from ..core.rules import Tally

__all__ = ["ReplayCharge", "replay_charge"]


class ReplayCharge(TypedDict, total=False):
    """What a record's actions give under the rules (`replay_charge`), or the problem that stops it."""

    problem: str
    end: str
    solved: bool
    wrong_attempts: int
    demos_bought: int
    demos_refused: int
    charge: int
    max_cost: int
    budget_share: float


def replay_charge(record: Record, settings: EnvSettings, action_cap: int | None = None) -> ReplayCharge:
    """What the environment's rules make of a record's actions: its end, counts and charge.

    The actions are counted through the environment's own rules ([`Tally`][continual_arc.core.rules.Tally]),
    as the instance was played. A game action's entry says how it ended its attempt (``ended``):
    a win solves the instance, any other end is a failed attempt. ``action_cap`` is the instance's
    (a game level's depends on its solver's plan, and its trajectory gives it); by default the
    settings' own. An instance the actions leave open ended outside the rules (its recorded fault),
    or never ended (``unfinished``).
    """
    tally = Tally(settings, action_cap)
    for action in record.get("actions", []):
        if tally.done:
            return {"problem": "an action after the instance ended"}
        _apply_entry(tally, action)
        tally.count_action()
    tally.fail(End.fault(record.get("end")) or End.UNFINISHED)
    result = tally.result()
    return {
        "end": result.end,
        "solved": result.solved,
        "wrong_attempts": result.wrong_attempts,
        "demos_bought": result.demos_bought,
        "demos_refused": result.demos_refused,
        "charge": result.charge,
        "max_cost": settings.max_cost,
        "budget_share": result.charge / settings.max_cost,
    }


def _apply_entry(tally: Tally, action: ActionEntry) -> None:
    """One recorded action's outcome, as the environment counted it when it was played."""
    kind = action.get("action")
    if kind in GAME_ACTIONS and action.get("ended") is not None:
        tally.solve() if action["ended"] == "won" else tally.fail_attempt()
    elif kind == "submit":
        tally.solve() if action.get("correct") else tally.fail_attempt()
    elif kind == "request_demos":
        tally.demo(refused=bool(action.get("refused")))
    elif kind == "give_up":
        tally.give_up()
