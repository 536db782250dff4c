"""What crosses a pipe between the runner and a learner in another process, as JSON.

The observations, actions and feedback of a grid instance, whole and exact, and those of a game
level ([`game_wire`][continual_arc.core.game_wire]).

[`to_wire`][continual_arc.core.wire.to_wire] and [`from_wire`][continual_arc.core.wire.from_wire] are each
other's inverse on every value the runner hands a learner or takes from it: ``from_wire(to_wire(x)) == x``,
but that a submitted grid comes back as a tuple of tuples whatever sequence it was sent as (the environment
reads both alike). A value of another kind is refused, so a process boundary never turns a value into
something else silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .actions import (
    DemosFeedback,
    GiveUp,
    GiveUpFeedback,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
)
from .game_wire import GAME_KINDS, game_from_wire, game_to_wire
from .grids import Grid, Pair

__all__ = ["WireError", "from_wire", "to_wire"]


class WireError(ValueError):
    """A value that has no form on the wire, or a message that is not one."""


def _grid(value: Any) -> Grid:
    return tuple(tuple(int(cell) for cell in row) for row in value)


def _pair(value: Any) -> Pair:
    return _grid(value[0]), _grid(value[1])


def _rows(grid: object) -> object:
    """A grid as nested lists; anything else a learner submitted as it is (it is the learner's)."""
    if isinstance(grid, tuple | list) and all(isinstance(row, tuple | list) for row in grid):
        return [list(row) for row in grid]
    return grid


def _observation(obs: LearnerObservation) -> dict[str, Any]:
    return {
        "kind": "observation",
        "task_id": obs.task_id,
        "input": _rows(obs.input),
        "attempts_used": obs.attempts_used,
        "attempt_cap": obs.attempt_cap,
        "demos_used": obs.demos_used,
        "demo_cap": obs.demo_cap,
        "demos": [[_rows(a), _rows(b)] for a, b in obs.demos],
        "step": obs.step,
        "round": obs.round,
        "user": obs.user,
        "extra": dict(obs.extra),
    }


def to_wire(value: object) -> dict[str, Any]:
    """``value`` (an observation, an action or a feedback) as a JSON-ready dict.

    Raises:
        WireError: the value is none of these.
    """
    if isinstance(value, LearnerObservation):
        return _observation(value)
    if isinstance(value, Submit):
        return {"kind": "submit", "grid": _rows(value.grid)}
    if isinstance(value, RequestDemos):
        return {"kind": "request_demos"}
    if isinstance(value, GiveUp):
        return {"kind": "give_up"}
    if isinstance(value, SubmitFeedback):
        return {"kind": "submit_feedback", **{k: getattr(value, k) for k in _SUBMIT_FIELDS}}
    if isinstance(value, DemosFeedback):
        pair = None if value.pair is None else [_rows(value.pair[0]), _rows(value.pair[1])]
        fields = {k: getattr(value, k) for k in ("demos_used", "spent", "refused", "done")}
        return {"kind": "demos_feedback", "pair": pair, **fields}
    if isinstance(value, GiveUpFeedback):
        return {"kind": "give_up_feedback", "done": value.done}
    game = game_to_wire(value)
    if game is not None:
        return game
    raise WireError(f"a {type(value).__name__} has no form on the wire")


_SUBMIT_FIELDS = ("correct", "attempts_used", "spent", "done", "invalid")


def _observation_from(value: Mapping[str, Any]) -> LearnerObservation:
    return LearnerObservation(
        task_id=value["task_id"],
        input=_grid(value["input"]),
        attempts_used=value["attempts_used"],
        attempt_cap=value["attempt_cap"],
        demos_used=value["demos_used"],
        demo_cap=value["demo_cap"],
        demos=tuple(_pair(p) for p in value["demos"]),
        step=value["step"],
        round=value["round"],
        user=value["user"],
        extra=MappingProxyType(dict(value["extra"])),
    )


def from_wire(value: Mapping[str, Any]) -> Any:
    """The value [`to_wire`][continual_arc.core.wire.to_wire] wrote.

    Raises:
        WireError: the message is not one [`to_wire`][continual_arc.core.wire.to_wire] writes.
    """
    try:
        kind = value["kind"]
        if kind == "observation":
            return _observation_from(value)
        if kind == "submit":
            grid = value["grid"]
            shaped = isinstance(grid, list) and all(isinstance(row, list) for row in grid)
            return Submit(tuple(tuple(row) for row in grid) if shaped else grid)
        if kind == "request_demos":
            return RequestDemos()
        if kind == "give_up":
            return GiveUp()
        if kind == "submit_feedback":
            return SubmitFeedback(**{k: value[k] for k in _SUBMIT_FIELDS})
        if kind == "demos_feedback":
            pair = None if value["pair"] is None else _pair(value["pair"])
            return DemosFeedback(pair, value["demos_used"], value["spent"], value["refused"], value["done"])
        if kind == "give_up_feedback":
            return GiveUpFeedback(value["done"])
        if kind in GAME_KINDS:
            return game_from_wire(value)
    except (KeyError, TypeError, ValueError) as err:
        raise WireError(f"a malformed {value.get('kind')!r} message: {err!r}") from None
    raise WireError(f"no value of kind {kind!r} crosses the wire")
