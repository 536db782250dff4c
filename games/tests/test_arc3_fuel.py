"""Fuel: a bar below the board that each action shortens; spending the last without a win loses.

A hand-made ice-slide rink with its bar worked out by hand, then every game that draws fuelled levels:
its plan still wins, and a play that wastes its fuel loses on exactly the last action.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move, fuelled
from continual_arc_games.draw import draw_level
from continual_arc_games.engine import FUEL_LEFT, FUEL_SPENT, fuel_bar
from continual_arc_games.session import Session

# ice-slide's codes: 0 ice, 1 wall, 2 start (on snow), 3 exit, 4 snow. The fewest moves are 3:
# right (over the ice onto the snow), right (to the wall), down (onto the exit).
ROWS = [[1] * 6, [1, 2, 0, 4, 0, 1], [1, 0, 1, 0, 3, 1], [1] * 6]
RIGHT, DOWN = Move("ACTION4"), Move("ACTION2")
PLAN = (RIGHT, RIGHT, DOWN)

# By hand: a 6x5 viewport (the rink and the bar's row), scaled by min(64 // 6, 64 // 5) = 10 and
# centred at offsets (2, 7): the bar is frame rows 47 to 56, columns 2 to 61, 10 columns a cell.


def _bar(frame: np.ndarray) -> list[int]:
    """The bar's colour in each of its six cells (read at each cell's middle pixel)."""
    return [int(frame[51, 7 + 10 * cx]) for cx in range(6)]


def test_the_bar_shortens_by_the_share_spent_rounded_up_and_is_empty_only_at_the_end() -> None:
    session = Session(GAMES["ice-slide"], Level.make("ice-slide", ROWS, fuel=3))
    left, spent = FUEL_LEFT, FUEL_SPENT
    assert _bar(session.frame) == [left] * 6
    session.step(RIGHT)  # 2 of 3 left: 6 * 2 / 3 = 4 cells
    assert _bar(session.frame) == [left] * 4 + [spent] * 2
    session.step(RIGHT)  # 1 of 3 left: 2 cells
    assert _bar(session.frame) == [left] * 2 + [spent] * 4
    session.step(DOWN)
    assert session.won


def test_a_level_whose_fuel_is_short_of_the_fewest_moves_cannot_be_won_and_a_reset_refills_it() -> None:
    session = Session(GAMES["ice-slide"], Level.make("ice-slide", ROWS, fuel=2))
    opening = session.frame.copy()
    session.step(RIGHT)
    assert not session.over
    session.step(RIGHT)
    assert session.lost  # the second and last action spent, the exit not reached
    assert np.array_equal(session.reset(), opening)  # a fresh attempt, the bar full again
    for move in PLAN[:2]:
        session.step(move)
    assert session.lost


def test_a_wall_bump_spends_fuel_too() -> None:
    session = Session(GAMES["ice-slide"], Level.make("ice-slide", ROWS, fuel=3))
    session.step(Move("ACTION1"))  # a wall straight ahead: nothing moves, an action is spent
    assert _bar(session.frame) == [FUEL_LEFT] * 4 + [FUEL_SPENT] * 2


def test_fuel_bar_rounds_the_share_left_up() -> None:
    assert (fuel_bar(10, 1, 20, 0) == FUEL_LEFT).all()
    assert list(fuel_bar(10, 1, 20, 19)[0]) == [FUEL_LEFT] + [FUEL_SPENT] * 9  # 10 * 1 / 20, up to 1
    assert (fuel_bar(10, 1, 20, 20) == FUEL_SPENT).all()
    assert fuel_bar(4, 3, 5, 2).shape == (3, 12)


def test_fuelled_gives_the_plan_and_its_spare_and_nothing_without_a_spare() -> None:
    level = Level.make("ice-slide", ROWS, other=1)
    assert fuelled(level, PLAN, None) is level
    assert dict(fuelled(level, PLAN, 2).params) == {"fuel": 5, "other": 1}
    with pytest.raises(ValueError, match="at least 0"):
        fuelled(level, PLAN, -1)


# Each game's first fuelled difficulty, and the one after it.
FUELLED = [
    ("conveyor", 1),
    ("conveyor", 3),
    ("ice-slide", 1),
    ("ice-slide", 3),
    ("lever-lift", 1),
    ("lever-lift", 3),
    ("portals", 4),
    ("shape-fit", 5),
    ("shape-fit", 6),
    ("tilt-gravity", 4),
    ("tilt-gravity", 5),
]


@pytest.mark.parametrize(("game", "difficulty"), FUELLED)
def test_a_fuelled_level_is_won_by_its_plan_and_lost_one_action_short(game: str, difficulty: int) -> None:
    spec = GAMES[game]
    level, plan = draw_level(spec, ("fuel test",), difficulty)
    fuel = level.param("fuel")
    assert len(plan) < fuel <= len(plan) + 4  # a few spare actions at every fuelled difficulty
    session = Session(spec, level)
    for move in plan:
        session.step(move)
    assert session.won
    # The board without its fuel is solved by the same plan: fuel only adds the bar.
    bare = Level(level.game, level.grid, tuple(p for p in level.params if p[0] != "fuel"))
    assert spec.solve(bare, spec.budget) == plan
    # One action short of the fewest: the plan's last action is never reached, the one before loses.
    short = Session(
        spec, Level(level.game, level.grid, tuple(sorted((*bare.params, ("fuel", len(plan) - 1)))))
    )
    for number, move in enumerate(plan[:-1], 1):
        assert not short.over
        short.step(move)
        assert short.lost == (number == len(plan) - 1)
