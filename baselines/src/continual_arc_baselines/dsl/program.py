"""Programs: their text form, parsing and execution.

A program is a pipeline of steps separated by ``|``, applied left to right to the input grid::

    pick(8,big) | rot90 | map(c1>c2,11>c0)

A step is a primitive (``rot90``), a primitive with arguments (``pick(8,big)``), a colour map
(``map(...)``, see `colours`) whose roles refer to the program's input, or ``bg0``, which
makes colour 0 the background of the steps after it (the background is otherwise the input's
most frequent colour; Re-ARC keeps 0 as the background of many tasks even where it is not). Everything a
program needs is in its text, so it runs on a new grid with no demonstrations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from continual_arc.grids import Grid

from .colours import ROLES, Entry, apply_map, entry_cost
from .family import Prim
from .grid import SENTINEL, Array, Context, to_array, to_grid
from .ops import lookup

__all__ = ["ZERO_BG", "Program", "ProgramError", "execute", "held_text", "map_text", "parse"]

_MAX_LABEL = 255


class ProgramError(ValueError):
    """Program text that does not parse: an unknown step, a bad argument, a malformed map."""


@dataclass(frozen=True)
class Program:
    """A DSL program: its canonical text and its search cost.

    Attributes:
        text: the pipeline, with any fitted constants (a colour map) written in.
        cost: the sum of its steps' costs; lower is simpler.
    """

    text: str
    cost: float

    def to_json(self) -> dict[str, Any]:
        """The program as a JSON-ready mapping."""
        return {"text": self.text, "cost": self.cost}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Program:
        """A program from `to_json`'s mapping.

        Raises:
            ProgramError: the text does not parse or the mapping is malformed.
        """
        text = value.get("text")
        if not isinstance(text, str):
            raise ProgramError("a program's JSON needs a 'text' string")
        return parse(text)


@dataclass(frozen=True)
class _MapStep:
    entries: tuple[Entry, ...]

    def __call__(self, grid: Array, ctx: Context) -> Array | None:
        return apply_map(self.entries, grid, ctx.original)


@dataclass(frozen=True)
class _ZeroBackground:
    def __call__(self, grid: Array, ctx: Context) -> Array | None:
        ctx.bg = 0
        return grid


ZERO_BG = "bg0"
"""The step that makes colour 0 the background for the steps after it (wherever 0 occurs)."""


@dataclass(frozen=True)
class _HeldBackground:
    colour: int

    def __call__(self, grid: Array, ctx: Context) -> Array | None:
        # Only where the input holds the colour: a background absent from the grid cuts nothing.
        if (ctx.original == self.colour).any():
            ctx.bg = self.colour
        return grid


def held_text(colour: int) -> str:
    """The text of the step that holds ``colour`` as the background of the steps after it.

    The search writes it first in a program it found with the demonstrations' shared background
    held on a test input whose commonest colour is another (the ``heldbg`` feature); it is free,
    since the demonstrations fix the colour, and a no-op on every grid whose commonest colour it is.
    """
    return f"bg({colour})"


def map_text(entries: tuple[Entry, ...]) -> str:
    """The text of a map step."""
    return "map(" + ",".join(f"{key}>{value}" for key, value in entries) + ")"


def _token(token: str, key: bool) -> str:
    if token in ROLES:
        return token
    if token.isdigit() and int(token) <= (_MAX_LABEL if key else SENTINEL - 1):
        return str(int(token))
    raise ProgramError(f"bad map {'key' if key else 'value'} {token!r}")


def _parse_map(body: str) -> _MapStep:
    entries = []
    for item in body.split(","):
        key, sep, value = item.partition(">")
        if not sep:
            raise ProgramError(f"a map entry needs 'key>value', got {item!r}")
        entries.append((_token(key, key=True), _token(value, key=False)))
    return _MapStep(tuple(entries))


_Step = Prim | _MapStep | _ZeroBackground | _HeldBackground


def _parse_step(step: str) -> tuple[str, float, _Step]:
    if step.startswith("map(") and step.endswith(")"):
        mapper = _parse_map(step[4:-1])
        return map_text(mapper.entries), sum(entry_cost(e) for e in mapper.entries), mapper
    if step == ZERO_BG:
        return ZERO_BG, 1, _ZeroBackground()
    if step.startswith("bg(") and step.endswith(")") and step[3:-1].isdigit() and int(step[3:-1]) < SENTINEL:
        colour = int(step[3:-1])
        return held_text(colour), 0, _HeldBackground(colour)
    op = lookup(step)
    if op is None:
        raise ProgramError(f"unknown step {step!r}")
    return op.text, op.cost, op


@lru_cache(maxsize=4096)
def _compile(text: str) -> tuple[str, float, tuple[_Step, ...]]:
    if not isinstance(text, str):
        raise ProgramError(f"program text must be a string, got {type(text).__name__}")
    squeezed = "".join(text.split())
    if not squeezed:
        raise ProgramError("empty program")
    texts, cost, steps = [], 0.0, []
    for raw in squeezed.split("|"):
        step_text, step_cost, step = _parse_step(raw)
        texts.append(step_text)
        cost += step_cost
        steps.append(step)
    return " | ".join(texts), cost, tuple(steps)


def parse(text: str) -> Program:
    """Parse program text into its canonical `Program` (whitespace is ignored).

    Raises:
        ProgramError: the text is empty, names an unknown step, or holds a malformed map.
    """
    canonical, cost, _ = _compile(text)
    return Program(canonical, cost)


def execute(program: Program, grid: Grid) -> Grid | None:
    """Run a program on a grid.

    Returns:
        The output grid, or ``None`` when the program does not apply to this grid (a step found
        nothing to act on, or the result is not a valid ARC grid).

    Raises:
        ProgramError: the program's text does not parse.
    """
    _, _, steps = _compile(program.text)
    state = to_array(grid)
    ctx = Context(state)
    for step in steps:
        out = step(state, ctx)
        if out is None:
            return None
        state = out
    return to_grid(state)
