"""The redraw rule every generative source shares: sub-draws until one pair is accepted.

A draw takes sub-draw 0, 1, 2, ... of its random stream until one gives an acceptable pair, and
records why each earlier one was rejected. What rejects a sub-draw is the source's (a generator
that raises, a grid that is not a valid ARC grid, an output equal to its input, a verifier that
disagrees, ...); this module adds the input that repeats one the instance already has. After
[`MAX_REDRAWS`][continual_arc.data.draws.MAX_REDRAWS] rejections in a row a
[`GeneratorError`][continual_arc.data.draws.GeneratorError] is raised: the screens
([`continual_arc.data.screen`][continual_arc.data.screen]) keep such tasks out of every pool.

The demonstrations of an instance are further draws at the instance's own seed, each with an
input distinct from the test input and from the demonstrations before it, so demonstration ``k``
is the same however many are asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import HarnessFault
from ..core.grids import Grid, InvalidGridError, Pair, validate_grid

__all__ = [
    "MAX_REDRAWS",
    "Draw",
    "GeneratorError",
    "checked_pair",
    "demonstrations",
    "first_accepted",
    "one_demonstration",
]

MAX_REDRAWS = 40
"""Rejected sub-draws tolerated in a row before a draw fails with `GeneratorError`."""


class GeneratorError(HarnessFault, RuntimeError):
    """A generator that gave no acceptable pair, or ran past its time limit (the benchmark's fault).

    Attributes:
        reason: what went wrong, without naming the task and draw (the screens count these).
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


@dataclass(frozen=True)
class Draw:
    """The outcome of one accepted draw: the pair, and why each earlier sub-draw was rejected."""

    pair: Pair
    rejections: tuple[str, ...]


def checked_pair(raw: Any) -> Pair | str:
    """A generator's ``{"input", "output"}`` as a validated pair, or the reason it is rejected."""
    try:
        pair = validate_grid(raw["input"]), validate_grid(raw["output"])
    except InvalidGridError as err:
        return f"bad grid: {err.reason}"
    except (TypeError, KeyError) as err:
        return f"bad pair: {err!r}"
    if pair[0] == pair[1]:
        return "output equals input"
    return pair


def first_accepted(sub_draw: Callable[[int], Pair | str], avoid: frozenset[Grid], what: str) -> Draw:
    """The first sub-draw whose pair is accepted and whose input is not in ``avoid``.

    Args:
        sub_draw: sub-draw number -> its pair, or the reason it was rejected.
        avoid: input grids the pair's input must differ from.
        what: the draw in words, for the error (``"the Re-ARC generator of 007bbfb7 (seed 3, test 0)"``).

    Raises:
        GeneratorError: [`MAX_REDRAWS`][continual_arc.data.draws.MAX_REDRAWS] sub-draws in a row were
            rejected.
    """
    rejections: list[str] = []
    for sub in range(MAX_REDRAWS):
        result = sub_draw(sub)
        if isinstance(result, str):
            rejections.append(result)
        elif result[0] in avoid:
            rejections.append("input repeats")
        else:
            return Draw(result, tuple(rejections))
    reason = f"no acceptable pair in {MAX_REDRAWS} draws (last: {rejections[-1]})"
    raise GeneratorError(f"{what} gave {reason}", reason)


def demonstrations(
    draw: Callable[[str, int, str, int, frozenset[Grid]], Draw],
    task_id: str,
    seed: int,
    count: int,
    test_input: Grid,
) -> tuple[Pair, ...]:
    """The first ``count`` demonstrations of an instance, each with an input of its own.

    Args:
        draw: the source's draw, ``(task_id, seed, purpose, index, avoid) -> Draw``.
        task_id: the task.
        seed: the instance seed.
        count: how many demonstrations.
        test_input: the instance's test input.
    """
    avoid = {test_input}
    pairs: list[Pair] = []
    for k in range(count):
        pair = draw(task_id, seed, "demo", k, frozenset(avoid)).pair
        avoid.add(pair[0])
        pairs.append(pair)
    return tuple(pairs)


def one_demonstration(
    draw: Callable[[str, int, str, int, frozenset[Grid]], Draw],
) -> Callable[[str, int, int, frozenset[Grid]], Pair]:
    """Demonstration ``k`` alone, ``(task_id, seed, k, avoid) -> Pair``, as `demonstrations` draws it.

    A source that knows the inputs before demonstration ``k`` (the test input and the earlier
    demonstrations') draws it without redrawing them: buying the k-th costs one draw, not k.

    Args:
        draw: the source's draw, ``(task_id, seed, purpose, index, avoid) -> Draw``.
    """

    def demonstration(task_id: str, seed: int, index: int, avoid: frozenset[Grid]) -> Pair:
        return draw(task_id, seed, "demo", index, avoid).pair

    return demonstration
