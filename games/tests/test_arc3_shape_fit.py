"""shape-fit: lava loses the level when the piece touches it, and difficulty 6 puts it in the way."""

from __future__ import annotations

import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import DOWN, RIGHT, Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["shape-fit"]

# Codes: 1 wall, 2 the piece (one cell), 3 the hole, 5 lava. The straight way to the hole crosses
# the lava at (2, 1); the way round, through the lower row, takes five moves. By hand: the viewport
# is 6x4 cells, scaled by min(64 // 6, 64 // 4) = 10 and centred at offsets (2, 12), so cell
# (x, y) covers frame columns 2 + 10x .. 11 + 10x and rows 12 + 10y .. 21 + 10y.
ROWS = [[1] * 6, [1, 2, 5, 0, 3, 1], [1, 0, 0, 0, 0, 1], [1] * 6]
LAVA = Level.make("shape-fit", ROWS)
COOLED = Level.make("shape-fit", [[0 if code == 5 else code for code in row] for row in ROWS])


def test_lava_is_red_and_stepping_on_it_loses() -> None:
    session = Session(SPEC, LAVA)
    assert (session.frame[22:32, 22:32] == 8).all()
    session.step(Move(RIGHT))
    assert session.lost


def test_the_solver_goes_round_the_lava() -> None:
    assert SPEC.solve(COOLED, SPEC.budget) == (Move(RIGHT),) * 3
    plan = SPEC.solve(LAVA, SPEC.budget)
    assert plan is not None and len(plan) == 5 and plan[0] == Move(DOWN)  # down to the lower row first
    session = Session(SPEC, LAVA)
    for move in plan:
        session.step(move)
    assert session.won


@pytest.mark.parametrize("seed", range(4))
def test_difficulty_six_has_lava_where_the_way_without_it_would_pass(seed: int) -> None:
    level, plan = draw_level(SPEC, ("lava", seed), 6)
    assert len(level.cells(5)) == 6
    session = Session(SPEC, level)
    for move in plan:
        session.step(move)
    assert session.won
    cooled = Level.make(SPEC.id, [[0 if code == 5 else code for code in row] for row in level.grid])
    naive = SPEC.solve(cooled, SPEC.budget)
    assert naive is not None and len(naive) <= len(plan)
    reckless = Session(SPEC, level)
    for move in naive:  # the way the lava was laid across: it ends in a loss, not a win
        if reckless.over:
            break
        reckless.step(move)
    assert reckless.lost
    lower, _ = draw_level(SPEC, ("lava", seed), 5)
    assert not lower.cells(5)
