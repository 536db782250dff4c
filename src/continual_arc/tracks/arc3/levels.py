"""Which difficulty each arc3 level is served at, and which half of a game's levels a phase draws from.

**Difficulty.** Each game serves the difficulties of
[`SERVED_DIFFICULTIES`][continual_arc.tracks.arc3.levels.SERVED_DIFFICULTIES], the lowest first: those at
which a random player ([`RandomPlayer`][continual_arc.play.toy_learners.RandomPlayer]) won at most 8 levels of
30 in ``benchmarks/arc3_games.py``'s measure (and at most 6 of 20 in a first one), so that none is won by
chance one time in three. As ARC-AGI-3's games rise level by level, a user's ``k``-th level of a game on the
stream is at the ``k // LEVELS_PER_DIFFICULTY``-th of them (the last once they run out). A frozen test plays
each instance alone, with no order to rise along, so its level is at a served difficulty drawn from the
instance seed: the tests cover the whole range the stream climbs.

**Halves.** Every level of a game falls in one of two halves by the SHA-256 of its canonical JSON.
The frozen tests (seen and held-out) draw only from the test half and everything else (the stream,
its epilogue, demonstrations of their levels, auxiliary and first-sight instances, human plays) only
from the other, redrawing from the next sub-draw when a level falls in the wrong half. So no test
level ever equals a level the stream served, in this run or any other, nor a demonstration bought
on the stream.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from types import MappingProxyType

from continual_arc_games import GAMES, Level

from ...core.seeding import stable_int

__all__ = [
    "LEVELS_PER_DIFFICULTY",
    "SEED_SPAN",
    "SERVED_DIFFICULTIES",
    "TEST_SEED_BASES",
    "in_test_half",
    "is_test_seed",
    "served_difficulty",
]

LEVELS_PER_DIFFICULTY = 2
"""Stream levels of a game at each served difficulty before the next (8 levels climb 4 difficulties)."""

SEED_SPAN = 10**15
"""The width of a phase's range of instance seeds (``continual_arc.stream.seeds.SEED_SPAN``)."""

TEST_SEED_BASES = (3, 4)
"""The seed ranges of the held-out and seen tests (``continual_arc.stream.seeds``; a test checks both)."""

_SERVED: dict[str, tuple[int, ...]] = {
    "bridge-switches": (0, 1, 2, 3),
    "coin-gate": (0, 1, 2, 3),
    "colour-gates": (0, 1, 2, 3),
    "colour-sort": (0, 1, 2, 3),
    "conveyor": (1, 2, 3),
    "count-click": (1, 2, 3),
    "crumble-floor": (0, 1, 2),
    "drop-stack": (0, 1, 2, 3),
    "guard-patrol": (1, 2, 3),
    "ice-slide": (1, 2, 3),
    "keys-doors": (0, 1, 2, 3),
    "lever-lift": (1, 2, 3),
    "magnet": (1, 2, 3),
    "mirror-beam": (1, 2, 3),
    "odd-one-out": (0, 1, 2, 3),
    "paint-trail": (1, 2, 3),
    "pipe-connect": (1, 2, 3),
    "portals": (2, 3, 4),
    "push-blocks": (1, 2, 3),
    "sequence-tiles": (0, 1, 2, 3),
    "shape-fit": (4, 5, 6),
    "slide-puzzle": (1, 2, 3),
    "symmetry-draw": (0, 1, 2, 3),
    "tilt-gravity": (3, 4, 5),
    "toggle-pattern": (1, 2, 3),
}

SERVED_DIFFICULTIES: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {game: _SERVED.get(game, (0,)) for game in GAMES}
)
"""Each game's served difficulties, rising (a game not tuned yet serves its easiest only)."""


def is_test_seed(seed: int) -> bool:
    """Whether ``seed`` is a frozen test's (held-out or seen), by the phase range it lies in."""
    return seed // SEED_SPAN in TEST_SEED_BASES


def served_difficulty(game: str, seed: int, exposure: int) -> int:
    """The difficulty of instance ``seed`` of ``game``, met by its user ``exposure`` times before.

    A test instance's difficulty is drawn from its seed; any other rises with ``exposure``.
    """
    served = SERVED_DIFFICULTIES[game]
    if is_test_seed(seed):
        return served[stable_int("arc3", "test difficulty", game, seed) % len(served)]
    return served[min(max(exposure, 0) // LEVELS_PER_DIFFICULTY, len(served) - 1)]


def in_test_half(level: Level) -> bool:
    """Whether ``level`` lies in its game's test half (the low bit of its canonical JSON's SHA-256)."""
    return hashlib.sha256(level.to_json().encode("utf-8")).digest()[-1] % 2 == 1
