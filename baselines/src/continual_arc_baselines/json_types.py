"""The JSON values the baselines write and read: learners' logs and states, the sandbox's messages.

The core names the same union ``JSONValue`` in a stage the baselines may not import (they reach the
core through its stable paths only), so it is spelt again here; the two are one type to the checker,
as an alias is its expansion.
"""

from __future__ import annotations

from typing import TypeAlias

from typing_extensions import TypeAliasType

from continual_arc.grids import Grid

__all__ = ["JSONObject", "JSONValue", "grid_json", "json_list", "json_object"]

JSONValue = TypeAliasType(
    "JSONValue", "str | int | float | bool | list[JSONValue] | dict[str, JSONValue] | None"
)
"""Any JSON value, as `json.loads` returns it."""

JSONObject: TypeAlias = dict[str, JSONValue]
"""A JSON object whose fields are not declared here (a learner's log of an instance, its state)."""


def grid_json(grid: Grid) -> JSONValue:
    """A grid as JSON: a list of rows, each a list of colours."""
    return [list(row) for row in grid]


def json_object(value: JSONValue, what: str) -> JSONObject:
    """``value``, which must be a JSON object: ``what`` names it in the error.

    Raises:
        ValueError: ``value`` is another kind of JSON value.
    """
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def json_list(value: JSONValue, what: str) -> list[JSONValue]:
    """``value``, which must be a JSON array: ``what`` names it in the error.

    Raises:
        ValueError: ``value`` is another kind of JSON value.
    """
    if not isinstance(value, list):
        raise ValueError(f"{what} is not a JSON array")
    return value
