"""magnet: a hand-made room whose frames are worked out by hand, the solver against an explorer of
frames, and a human-style player that reads blocks and targets off the screen and plans its pulls."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level, level_rng
from continual_arc_games.magnet import pull
from continual_arc_games.session import Session
from frame_reading import STEPS, Cell, Grid, explore, keys_to

SPEC = GAMES["magnet"]
DOWN, RIGHT, PULL = Move("ACTION2"), Move("ACTION4"), Move("ACTION5")

# Codes: 1 wall, 2 start, 3 block, 4 target. The block must go two cells right, onto the target: the
# player has to pull it from the right, standing in its row.
ROOM = Level.make(
    "magnet", [[1] * 7, [1, 2, 0, 0, 0, 0, 1], [1, 0, 3, 0, 4, 0, 1], [1, 0, 0, 0, 0, 0, 1], [1] * 7]
)

# By hand: 3 pixels a cell, a 21x15 viewport scaled by min(64 // 21, 64 // 15) = 3 and centred at
# offsets (0, 9): cell (cx, cy) covers columns 9 cx .. 9 cx + 8 and rows 9 + 9 cy .. 17 + 9 cy. A
# target is a ring: its middle third (pixels 3-5 of the cell both ways) shows what lies under it.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[9 + 9 * cy : 18 + 9 * cy, 9 * cx : 9 * cx + 9]


def _block_at(frame: np.ndarray) -> list[Cell]:
    return [(cx, cy) for cy in range(5) for cx in range(7) if _cell(frame, cx, cy)[4, 4] == 1]


def test_pull_slides_blocks_in_line_towards_the_player() -> None:
    walls = frozenset({(3, 0), (0, 5)})
    blocks = ((1, 0), (5, 0), (6, 0), (2, 4), (0, 7))
    # From (2, 0): in row 0, (1, 0) is already against the player; (5, 0) slides to the wall at
    # (3, 0) and (6, 0) stops behind it. In column 2, (2, 4) comes up to (2, 1). (0, 7) stays.
    assert pull(walls, (2, 0), blocks) == ((0, 7), (1, 0), (2, 1), (4, 0), (5, 0))
    # From (0, 3): only (0, 7) is in line, and it stops at the wall (0, 5) between them.
    assert pull(walls, (0, 3), blocks) == ((0, 6), (1, 0), (2, 4), (5, 0), (6, 0))


def test_first_frame_then_a_pull_as_an_animation_that_wins() -> None:
    session = Session(SPEC, ROOM)
    frame = session.frame
    assert (frame[:9] == 4).all() and (frame[54:] == 4).all() and (frame[:, 63] == 4).all()
    assert (_cell(frame, 1, 1) == 9).all() and (_cell(frame, 2, 2) == 1).all()  # player, block
    target = _cell(frame, 4, 2)
    assert (target[:3] == 14).all() and (target[6:] == 14).all() and (target[3:6, 3:6] == 5).all()
    assert (_cell(frame, 0, 0) == 3).all()
    for move in (RIGHT,) * 4 + (DOWN,):
        session.step(move)
    session.step(PULL)
    assert [_block_at(f) for f in session.frames] == [[(3, 2)], [(4, 2)]]  # a cell a frame
    assert session.won and (_cell(session.frame, 4, 2)[3:6, 3:6] == 1).all()


def test_the_player_cannot_push_and_a_pull_out_of_line_does_nothing() -> None:
    session = Session(SPEC, ROOM)
    before = session.frame.copy()
    session.step(PULL)  # nothing in row 1 or column 1
    assert np.array_equal(session.frame, before) and len(session.frames) == 1
    session.step(DOWN)
    session.step(RIGHT)  # into the block: stopped
    assert (_cell(session.frame, 1, 2) == 9).all() and _block_at(session.frame) == [(2, 2)]
    session.step(PULL)  # from the left, the block is already against the player
    assert _block_at(session.frame) == [(2, 2)] and not session.over
    assert len(SPEC.solve(ROOM, SPEC.budget) or ()) == 6


def test_solver_plans_are_as_short_as_the_explorer_finds() -> None:
    level = SPEC.generate(level_rng(SPEC.id, 0, ("explore", 1), 0), 0)
    plan = SPEC.solve(level, SPEC.budget)
    assert plan is not None and len(plan) == explore(Session(SPEC, level))


def _pulled(walls: frozenset[Cell], player: Cell, blocks: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The player's own idea of a pull: blocks in line come to it, nearest first, until stopped."""
    (px, py), moved = player, list(blocks)
    for i in sorted(range(len(moved)), key=lambda i: abs(moved[i][0] - px) + abs(moved[i][1] - py)):
        x, y = moved[i]
        if x != px and y != py:
            continue
        dx, dy = (px > x) - (px < x), (py > y) - (py < y)
        while (x + dx, y + dy) not in walls and (x + dx, y + dy) not in moved and (x + dx, y + dy) != player:
            x, y = x + dx, y + dy
            moved[i] = (x, y)
    return tuple(sorted(moved))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_magnet_by_reading_the_room_and_planning_walks_and_pulls(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    frame = session.frame
    grid = Grid(frame, 9)  # the blue player fills one cell
    mid = grid.size // 2
    walls = frozenset(c for c in grid.cells() if grid.block(frame, c)[mid, mid] in (3, 4))
    targets = {c for c in grid.cells() if grid.block(frame, c)[0, 0] == 14}
    blocks = tuple(sorted(c for c in grid.cells() if grid.block(frame, c)[mid, mid] == 1))
    start = grid.with_colour(frame, 9)[0]
    came: dict[tuple[Cell, tuple[Cell, ...]], tuple[tuple[Cell, tuple[Cell, ...]], str] | None]
    came = {(start, blocks): None}
    queue = deque([(start, blocks)])
    end = None
    while end is None:  # breadth first, in the head: walks, and pulls as the magnet works
        (x, y), now = queue.popleft()
        options = [(key, ((x + dx, y + dy), now)) for key, (dx, dy) in STEPS.items()]
        options.append(("ACTION5", ((x, y), _pulled(walls, (x, y), now))))
        for key, (cell, after) in options:
            if cell in walls or (key != "ACTION5" and cell in now) or (cell, after) in came:
                continue
            came[(cell, after)] = (((x, y), now), key)
            queue.append((cell, after))
            if targets <= set(after):
                end = (cell, after)
    keys = keys_to(came, end)
    for key in keys:
        session.step(Move(key))
    assert session.won and len(keys) == len(plan)


# Grates and heavy blocks. Codes beside the shared ones: 7 a grate, 8 a heavy block. By hand, as
# above: 3 pixels a cell; a 7x3-cell room is a 21x9 viewport scaled by min(64 // 21, 64 // 9) = 3
# and centred at offsets (0, 18): cell (cx, 1) covers columns 9 cx .. 9 cx + 8, rows 27 .. 35.
HEAVY_ROW = Level.make("magnet", [[1] * 7, [1, 2, 4, 0, 8, 0, 1], [1] * 7])
GRATED = Level.make("magnet", [[1] * 7, [1, 2, 7, 4, 3, 0, 1], [1] * 7])


def _row_cells(frame: np.ndarray, colour: int) -> list[int]:
    """The columns (in cells) of row 1 whose middle pixel shows ``colour``."""
    return [cx for cx in range(7) if frame[27 + 4, 9 * cx + 4] == colour]


def test_a_heavy_block_comes_one_cell_a_pull() -> None:
    session = Session(SPEC, HEAVY_ROW)
    assert _row_cells(session.frame, 13) == [4]  # maroon
    session.step(PULL)
    assert _row_cells(session.frame, 13) == [3] and len(session.frames) == 1 and not session.over
    session.step(PULL)
    assert session.won
    assert SPEC.solve(HEAVY_ROW, SPEC.budget) == (PULL, PULL)


def test_a_grate_bars_the_player_but_not_a_pulled_block() -> None:
    session = Session(SPEC, GRATED)
    first = session.frame.copy()
    session.step(RIGHT)  # onto the grate: the player stays
    assert np.array_equal(session.frame, first)
    session.step(PULL)  # the block slides over the target and onto the grate, next to the player
    assert _row_cells(session.frame, 1) == [2] and not session.over
    assert SPEC.solve(GRATED, SPEC.budget) is None  # the player can never get round to the right


@pytest.mark.parametrize("seed", range(4))
def test_what_difficulties_two_and_three_add(seed: int) -> None:
    for difficulty in (1, 2, 3):
        level, plan = draw_level(SPEC, ("adds", seed), difficulty)
        codes = [code for row in level.grid for code in row]
        assert codes.count(7) == {1: 0, 2: 3, 3: 2}[difficulty]
        assert codes.count(8) == (1 if difficulty == 3 else 0)  # heavy, and off its target
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if difficulty == 2:  # were the grates floor, fewer moves would do
            bare = Level.make(SPEC.id, [[0 if code == 7 else code for code in row] for row in level.grid])
            barless = SPEC.solve(bare, SPEC.budget)
            assert barless is not None and len(barless) < len(plan)
