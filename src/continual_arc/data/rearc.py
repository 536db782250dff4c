"""Seeded, verified access to the Re-ARC generators.

An instance is a pure function of ``(source version, task_id, instance_seed)``: its test pair is
drawn by the task's generator from a [`stable_rng`][continual_arc.core.seeding.stable_rng] named by the track,
the task, the seed and the draw, at Re-ARC's default difficulty ``(0, 1)``. A draw is rejected, and
the next sub-draw (1, 2, ...) taken instead ([`continual_arc.data.draws`][continual_arc.data.draws]), when

* the generator raises,
* either grid is not a valid ARC grid (empty, ragged, larger than 30 x 30, a colour outside 0-9),
* the output equals the input,
* the verifier raises or its output differs from the generator's.

The demonstrations of an instance are further draws from the same task at the instance's own seed
(purpose ``"demo"``), each also rejected if its input repeats the test input or an earlier
demonstration's. After [`MAX_REDRAWS`][continual_arc.data.draws.MAX_REDRAWS] rejections in a row a
[`GeneratorError`][continual_arc.data.draws.GeneratorError] is raised: the screen
([`continual_arc.data.screen`][continual_arc.data.screen]) keeps such tasks out of every track's pool.
"""

from __future__ import annotations

from typing import Any

from ..core.grids import Grid, InvalidGridError, Pair, validate_grid
from ..core.seeding import stable_rng
from . import draws
from .draws import MAX_REDRAWS, Draw, GeneratorError, checked_pair, first_accepted
from .pinned import load_rearc
from .timelimit import CallTimeout, timed_call

__all__ = [
    "DIFFICULTY",
    "GENERATOR_TIME_LIMIT",
    "MAX_REDRAWS",
    "Draw",
    "GeneratorError",
    "demonstrations",
    "draw",
    "instance",
    "task_ids",
]

DIFFICULTY = (0.0, 1.0)
"""Re-ARC's own default difficulty range, used for every draw."""

GENERATOR_TIME_LIMIT = 30.0
"""Seconds one generator or verifier call may take (measured maximum: about 0.25 s)."""

TRACK = "arc1"


def task_ids() -> tuple[str, ...]:
    """The 400 Re-ARC task ids (the ARC-AGI-1 training ids), sorted."""
    return tuple(sorted(load_rearc().generators))


def _check(task_id: str, raw: Any) -> Pair | str:
    """The validated and verified pair, or the reason it is rejected."""
    pair = checked_pair(raw)
    if isinstance(pair, str):
        return pair
    verifier = load_rearc().verifiers[task_id]
    try:
        verified = timed_call(verifier, GENERATOR_TIME_LIMIT, raw["input"])
    except CallTimeout:
        raise GeneratorError(
            f"the Re-ARC verifier of {task_id} ran past {GENERATOR_TIME_LIMIT:.0f} s"
        ) from None
    except Exception as err:  # a verifier's own bug rejects the draw, whatever it is
        return f"verifier raised {type(err).__name__}"
    try:
        if validate_grid(verified) != pair[1]:
            return "verifier disagrees"
    except InvalidGridError:
        return "verifier disagrees"
    return pair


def draw(task_id: str, seed: int, purpose: str, index: int, avoid: frozenset[Grid] = frozenset()) -> Draw:
    """Draw one verified pair of a task.

    Args:
        task_id: a Re-ARC task id.
        seed: the instance seed.
        purpose: what the pair is for (``"test"``, ``"demo"``, ``"screen"``); draws for different
            purposes never share a random stream.
        index: the pair's number among the instance's pairs of that purpose.
        avoid: input grids the pair's input must differ from.

    Raises:
        KeyError: no Re-ARC generator has this id.
        GeneratorError: [`MAX_REDRAWS`][continual_arc.data.draws.MAX_REDRAWS] draws in a row were rejected, or
            a call hung.
    """
    generator = load_rearc().generators[task_id]

    def sub_draw(sub: int) -> Pair | str:
        rng = stable_rng(TRACK, "rearc", task_id, seed, purpose, index, sub)
        try:
            raw = timed_call(generator, GENERATOR_TIME_LIMIT, rng, *DIFFICULTY)
        except CallTimeout:
            raise GeneratorError(
                f"the Re-ARC generator of {task_id} ran past {GENERATOR_TIME_LIMIT:.0f} s (seed {seed})"
            ) from None
        except Exception as err:  # a generator's own bug rejects the draw, whatever it is
            return f"generator raised {type(err).__name__}"
        return _check(task_id, raw)

    return first_accepted(
        sub_draw, avoid, f"the Re-ARC generator of {task_id} (seed {seed}, {purpose} {index})"
    )


def instance(task_id: str, seed: int) -> Pair:
    """The test pair of instance ``seed`` of a Re-ARC task."""
    return draw(task_id, seed, "test", 0).pair


def demonstrations(task_id: str, seed: int, count: int, test_input: Grid | None = None) -> tuple[Pair, ...]:
    """The first ``count`` demonstrations of an instance, each with an input of its own.

    Demonstration ``k`` is the same whatever ``count`` is asked for, so buying them one at a time
    or all at once gives the same pairs.

    Args:
        task_id: a Re-ARC task id.
        seed: the instance seed.
        count: how many demonstrations.
        test_input: the instance's test input (computed if not given).
    """
    if test_input is None:
        test_input = instance(task_id, seed)[0]
    return draws.demonstrations(draw, task_id, seed, count, test_input)
