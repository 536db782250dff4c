"""Draw a level that is sure to be winnable: seeded, solved, replayed in the engine, then served.

The generator's rng comes from SHA-256 of the game's id, the difficulty, the caller's seed parts and
a sub-draw index, so a level is the same in every process (Python's ``hash()`` is salted per process
and is never used). Sub-draw 0 is tried first; a draw the generator rejects, or the solver cannot
solve within its budget, moves on to sub-draw 1, 2, ... up to a bound, after which `DrawError`
says what went wrong. A solution that does not win when replayed in the engine is a bug in the game
(its model and its engine disagree), so that raises `GameModelError` at once.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable

from .base import GameSpec, Level, Move, RejectLevel
from .session import replay

__all__ = ["MAX_SUBDRAWS", "DrawError", "GameModelError", "draw_level", "level_rng"]

#: Sub-draws 0 .. MAX_SUBDRAWS - 1 are tried before giving up.
MAX_SUBDRAWS = 32

SeedPart = str | int


class DrawError(RuntimeError):
    """No sub-draw within the bound gave a level the solver could solve."""


class GameModelError(AssertionError):
    """A solver's plan did not win in the engine: the game's abstract model and engine disagree."""


def level_rng(game_id: str, difficulty: int, seed_parts: tuple[SeedPart, ...], subdraw: int) -> random.Random:
    """The generator's rng for one sub-draw.

    Its seed is the first 8 bytes (big-endian) of the SHA-256 of the compact JSON text of
    ``[game_id, difficulty, [*seed_parts], subdraw]``.

    Raises:
        TypeError: a seed part is neither a str nor an int (floats and objects print unstably).
    """
    if not all(isinstance(p, str | int) and not isinstance(p, bool) for p in seed_parts):
        raise TypeError(f"seed parts are strs and ints, got {seed_parts!r}")
    text = json.dumps([game_id, difficulty, list(seed_parts), subdraw], separators=(",", ":"))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def draw_level(
    spec: GameSpec,
    seed_parts: tuple[SeedPart, ...],
    difficulty: int,
    *,
    budget: int | None = None,
    max_subdraws: int = MAX_SUBDRAWS,
    verify: bool = True,
    accept: Callable[[Level], bool] | None = None,
) -> tuple[Level, tuple[Move, ...]]:
    """A level of ``spec`` for these seed parts, and its solver's winning moves.

    Args:
        spec: the game.
        seed_parts: what names this level (e.g. track, task, instance seed, demonstration index).
        difficulty: passed to the generator, 0..spec.max_difficulty.
        budget: solver node expansions; the game's own default when None.
        max_subdraws: how many sub-draws to try before giving up.
        verify: replay the solution in the engine before serving (a few milliseconds).
        accept: a level it rejects is redrawn from the next sub-draw, before the solver runs (the
            track keeps its tests' levels apart from its stream's this way).

    Raises:
        DrawError: every sub-draw was rejected or unsolved.
        GameModelError: a solution did not win in the engine.
        ValueError: the difficulty is out of the game's range.
    """
    if not 0 <= difficulty <= spec.max_difficulty:
        raise ValueError(f"{spec.id}: difficulty {difficulty} outside 0..{spec.max_difficulty}")
    limit = spec.budget if budget is None else budget
    reasons: Counter[str] = Counter()
    for subdraw in range(max_subdraws):
        rng = level_rng(spec.id, difficulty, seed_parts, subdraw)
        try:
            level = spec.generate(rng, difficulty)
        except RejectLevel as reason:
            reasons[f"rejected by the generator ({reason})"] += 1
            continue
        if accept is not None and not accept(level):
            reasons["in the other phase's half"] += 1
            continue
        solution = spec.solve(level, limit)
        if solution is None:
            reasons[f"unsolved within {limit} expansions"] += 1
            continue
        if not solution:
            reasons["already won"] += 1
            continue
        if verify and not replay(spec, level, solution):
            raise GameModelError(
                f"{spec.id}: the solver's plan does not win in the engine: {level.to_json()}"
            )
        return level, solution
    tally = "; ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
    raise DrawError(
        f"{spec.id}: no servable level for seed parts {seed_parts!r} at difficulty {difficulty} "
        f"in {max_subdraws} sub-draws ({tally})"
    )
