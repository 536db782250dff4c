"""What crosses a pipe for a game instance (arc3): its observation, actions and feedback, as JSON.

[`continual_arc.core.wire`][continual_arc.core.wire] hands game values here:
[`game_to_wire`][continual_arc.core.game_wire.game_to_wire] and
[`game_from_wire`][continual_arc.core.game_wire.game_from_wire] are each other's inverse on every game value
the runner hands a learner or takes from it. Frames cross as their text, so a value comes back equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .games import GameAction, GameDemo, GameDemosFeedback, GameFeedback, GameObservation

__all__ = ["GAME_KINDS", "game_from_wire", "game_to_wire"]

GAME_KINDS = ("game_observation", "game_action", "game_feedback", "game_demos_feedback")
"""The kinds of message a game value crosses as."""

_COUNTS = (
    "attempt_actions",
    "attempt_action_cap",
    "attempts_used",
    "attempt_cap",
    "demos_used",
    "demo_cap",
    "step",
    "round",
    "user",
)
_FEEDBACK = ("state", "ended", "attempt_actions", "attempts_used", "spent", "done", "offered")


def _action(action: GameAction) -> dict[str, str | int | None]:
    return {"action": action.action, "x": action.x, "y": action.y}


def _demo(demo: GameDemo) -> dict[str, Any]:
    return {"actions": [_action(a) for a in demo.actions], "frames": [list(g) for g in demo.frames]}


def _demo_from(value: Mapping[str, Any]) -> GameDemo:
    actions = tuple(GameAction(a["action"], a["x"], a["y"]) for a in value["actions"])
    return GameDemo(actions, tuple(tuple(group) for group in value["frames"]))


def game_to_wire(value: Any) -> dict[str, Any] | None:
    """A game value as a JSON-ready dict, or ``None`` when ``value`` is not a game value."""
    if isinstance(value, GameObservation):
        return {
            "kind": "game_observation",
            "task_id": value.task_id,
            "frames": list(value.frames),
            "available_actions": list(value.available_actions),
            "demos": [_demo(d) for d in value.demos],
            "extra": dict(value.extra),
            **{name: getattr(value, name) for name in _COUNTS},
        }
    if isinstance(value, GameAction):
        return {"kind": "game_action", **_action(value)}
    if isinstance(value, GameFeedback):
        fields = {name: getattr(value, name) for name in _FEEDBACK}
        return {"kind": "game_feedback", "frames": list(value.frames), **fields}
    if isinstance(value, GameDemosFeedback):
        demo = None if value.demo is None else _demo(value.demo)
        fields = {name: getattr(value, name) for name in ("demos_used", "spent", "refused", "done")}
        return {"kind": "game_demos_feedback", "demo": demo, **fields}
    return None


def game_from_wire(
    value: Mapping[str, Any],
) -> GameObservation | GameAction | GameFeedback | GameDemosFeedback:
    """The game value [`game_to_wire`][continual_arc.core.game_wire.game_to_wire] wrote.

    Raises:
        KeyError, TypeError, ValueError: the message is malformed (the wire says so in one line).
    """
    kind = value["kind"]
    if kind == "game_observation":
        frames = tuple(value["frames"])
        return GameObservation(
            task_id=value["task_id"],
            frame=frames[-1],
            frames=frames,
            available_actions=tuple(value["available_actions"]),
            demos=tuple(_demo_from(d) for d in value["demos"]),
            extra=MappingProxyType(dict(value["extra"])),
            **{name: value[name] for name in _COUNTS},
        )
    if kind == "game_action":
        return GameAction(value["action"], value["x"], value["y"])
    if kind == "game_feedback":
        return GameFeedback(tuple(value["frames"]), **{name: value[name] for name in _FEEDBACK})
    if kind == "game_demos_feedback":
        demo = None if value["demo"] is None else _demo_from(value["demo"])
        return GameDemosFeedback(demo, value["demos_used"], value["spent"], value["refused"], value["done"])
    raise ValueError(f"{kind!r} is not a game message")
