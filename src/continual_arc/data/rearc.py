"""Seeded, verified access to the Re-ARC generators.

An instance is a pure function of ``(source version, task_id, instance_seed)``: its test pair is
drawn by the task's generator from a :func:`~continual_arc.core.seeding.stable_rng` named by the track,
the task, the seed and the draw, at Re-ARC's default difficulty ``(0, 1)``. A draw is rejected, and
the next sub-draw (1, 2, ...) taken instead, when

* the generator raises,
* either grid is not a valid ARC grid (empty, ragged, larger than 30 x 30, a colour outside 0-9),
* the output equals the input,
* the verifier raises or its output differs from the generator's.

The demonstrations of an instance are further draws from the same task at the instance's own seed
(purpose ``"demo"``), each also rejected if its input repeats the test input or an earlier
demonstration's. After :data:`MAX_REDRAWS` rejections in a row a :class:`GeneratorError` is raised:
the screen (:mod:`continual_arc.data.screen`) keeps such tasks out of every track's pool.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import HarnessFault
from ..core.grids import InvalidGridError, Pair, validate_grid
from ..core.seeding import stable_rng
from .pinned import load_rearc

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

MAX_REDRAWS = 40
"""Rejected draws tolerated in a row before a draw fails with :class:`GeneratorError`."""

GENERATOR_TIME_LIMIT = 30.0
"""Seconds one generator or verifier call may take (measured maximum: about 0.25 s)."""

TRACK = "arc1"


class GeneratorError(HarnessFault, RuntimeError):
    """A Re-ARC generator that gave no acceptable pair, or ran past its time limit (the benchmark's fault)."""


class _Timeout(Exception):
    pass


@dataclass(frozen=True)
class Draw:
    """The outcome of one accepted draw: the pair, and why each earlier sub-draw was rejected."""

    pair: Pair
    rejections: tuple[str, ...]


def task_ids() -> tuple[str, ...]:
    """The 400 Re-ARC task ids (the ARC-AGI-1 training ids), sorted."""
    return tuple(sorted(load_rearc().generators))


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _timed_call(fn: Callable[..., Any], *args: Any) -> Any:
    """Call ``fn`` under :data:`GENERATOR_TIME_LIMIT`.

    On the main thread a real-time timer interrupts a call that hangs; on any other thread (where
    no signal can be delivered) a call that returns past the limit is refused afterwards.
    """
    on_main = threading.current_thread() is threading.main_thread()
    if on_main and signal.getitimer(signal.ITIMER_REAL)[0] == 0.0:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, GENERATOR_TIME_LIMIT)
        try:
            return fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
            signal.signal(signal.SIGALRM, previous)
    start = time.monotonic()
    result = fn(*args)
    if time.monotonic() - start > GENERATOR_TIME_LIMIT:
        raise _Timeout
    return result


def _check(task_id: str, raw: Any) -> Pair | str:
    """The validated pair, or the reason it is rejected."""
    try:
        pair = validate_grid(raw["input"]), validate_grid(raw["output"])
    except InvalidGridError as err:
        return f"bad grid: {err.reason}"
    except (TypeError, KeyError) as err:
        return f"bad pair: {err!r}"
    if pair[0] == pair[1]:
        return "output equals input"
    verifier = load_rearc().verifiers[task_id]
    try:
        verified = _timed_call(verifier, raw["input"])
    except _Timeout:
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


def draw(task_id: str, seed: int, purpose: str, index: int, avoid: frozenset[Any] = frozenset()) -> Draw:
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
        GeneratorError: :data:`MAX_REDRAWS` draws in a row were rejected, or a call hung.
    """
    generator = load_rearc().generators[task_id]
    rejections: list[str] = []
    for sub in range(MAX_REDRAWS):
        rng = stable_rng(TRACK, "rearc", task_id, seed, purpose, index, sub)
        try:
            raw = _timed_call(generator, rng, *DIFFICULTY)
        except _Timeout:
            raise GeneratorError(
                f"the Re-ARC generator of {task_id} ran past {GENERATOR_TIME_LIMIT:.0f} s (seed {seed})"
            ) from None
        except Exception as err:  # a generator's own bug rejects the draw, whatever it is
            rejections.append(f"generator raised {type(err).__name__}")
            continue
        checked = _check(task_id, raw)
        if isinstance(checked, str):
            rejections.append(checked)
        elif checked[0] in avoid:
            rejections.append("input repeats")
        else:
            return Draw(checked, tuple(rejections))
    raise GeneratorError(
        f"the Re-ARC generator of {task_id} gave no acceptable pair in {MAX_REDRAWS} draws "
        f"(seed {seed}, {purpose} {index}; last: {rejections[-1]})"
    )


def instance(task_id: str, seed: int) -> Pair:
    """The test pair of instance ``seed`` of a Re-ARC task."""
    return draw(task_id, seed, "test", 0).pair


def demonstrations(task_id: str, seed: int, count: int, test_input: Any = None) -> tuple[Pair, ...]:
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
    avoid = {test_input}
    pairs: list[Pair] = []
    for k in range(count):
        pair = draw(task_id, seed, "demo", k, frozenset(avoid)).pair
        avoid.add(pair[0])
        pairs.append(pair)
    return tuple(pairs)
