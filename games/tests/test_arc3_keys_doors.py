"""keys-doors: the decoy door that wastes a key, and each difficulty's element in drawn levels."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["keys-doors"]
UP, DOWN, RIGHT = Move("ACTION1"), Move("ACTION2"), Move("ACTION4")

# Codes: 1 wall, 2 start, 3 exit, 4 a yellow key, 7 a yellow door. The real door is at (3, 1); a
# decoy of the same colour at (2, 2) shuts a dead end below the key.
DECOY = Level.make(
    "keys-doors",
    [[1] * 6, [1, 2, 4, 7, 3, 1], [1, 1, 7, 1, 1, 1], [1, 1, 0, 1, 1, 1], [1] * 6],
)


def test_a_key_spent_on_the_decoy_leaves_the_real_door_shut() -> None:
    assert SPEC.solve(DECOY, SPEC.budget) == (RIGHT, RIGHT, RIGHT)
    session = Session(SPEC, DECOY)
    for move in (RIGHT, DOWN, UP):  # the key, then the decoy opened with it, then back up
        session.step(move)
    stuck = session.frame.copy()
    session.step(RIGHT)  # the real door, and no key left: nothing moves
    assert np.array_equal(session.frame, stuck) and not session.over


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_each_difficulty_draws_its_element_and_its_plans_win(difficulty: int) -> None:
    for seed in range(6):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)
        keys = [len(level.cells(code)) for code in (4, 5, 6)]
        doors = [len(level.cells(code)) for code in (7, 8, 9)]
        assert sum(1 for n in keys if n) == min(difficulty, 2) + (difficulty == 3)  # colours: 1, 2, 3
        # One colour has a door more than it has keys: the decoy.
        assert sorted(d - k for d, k in zip(doors, keys, strict=True) if d) == [0] * (
            sum(1 for n in doors if n) - 1
        ) + [1]
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
