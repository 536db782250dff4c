"""portals: a hand-made level's frames worked out by hand, and a player who maps the rings."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arc3_frame_reading import STEPS, Cell, cells, lattice
from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["portals"]
UP, DOWN, LEFT, RIGHT = (Move(a) for a in STEPS)

# Codes: 1 wall, 2 start, 3 exit, 0 floor, 4 the two ends of pair 0 (red rings), either side of a wall.
HALLS = Level.make("portals", [[1] * 8, [1, 2, 4, 1, 0, 4, 3, 1], [1] * 8])

# By hand: cells are 3 pixels, so the viewport is 24x9 pixels; the camera scales it by
# min(64 // 24, 64 // 9) = 2 and centres it at offsets (8, 23). Cell (cx, cy) is frame columns
# 8 + 6 cx .. 13 + 6 cx and rows 23 + 6 cy .. 28 + 6 cy; a ring's middle pixel is its 2x2 centre.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[23 + 6 * cy : 29 + 6 * cy, 8 + 6 * cx : 14 + 6 * cx]


def _is_ring(block: np.ndarray, colour: int, middle: int) -> bool:
    inner = np.zeros(block.shape, dtype=bool)
    inner[2:4, 2:4] = True
    return bool((block[inner] == middle).all() and (block[~inner] == colour).all())


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, HALLS).frame
    assert (frame[:23] == 4).all() and (frame[41:] == 4).all() and (frame[:, :8] == 4).all()
    assert (_cell(frame, 0, 0) == 3).all() and (_cell(frame, 3, 1) == 3).all()  # walls
    assert (_cell(frame, 1, 1) == 9).all()  # the player
    assert _is_ring(_cell(frame, 2, 1), 8, 0) and _is_ring(_cell(frame, 5, 1), 8, 0)  # the portals
    assert (_cell(frame, 4, 1) == 0).all()  # floor
    assert (_cell(frame, 6, 1) == 14).all()  # the exit


def test_a_portal_shows_the_player_in_it_then_at_its_twin() -> None:
    session = Session(SPEC, HALLS)
    session.step(RIGHT)
    first, second = session.frames
    assert (_cell(first, 2, 1) == 9).all() and _is_ring(_cell(first, 5, 1), 8, 0)
    assert (_cell(second, 5, 1) == 9).all() and _is_ring(_cell(second, 2, 1), 8, 0)
    session.step(LEFT)  # out of the ring onto the floor: an ordinary step
    assert len(session.frames) == 1 and (_cell(session.frame, 4, 1) == 9).all()
    session.step(RIGHT)  # back in: through to the other ring again
    assert (_cell(session.frame, 2, 1) == 9).all() and len(session.frames) == 2
    session.step(RIGHT)  # a wall: standing in a ring and pushing does nothing
    assert (_cell(session.frame, 2, 1) == 9).all() and len(session.frames) == 1
    session.step(LEFT)
    session.step(RIGHT)
    session.step(RIGHT)
    assert session.won


def _read(frame: np.ndarray) -> tuple[Cell, Cell, set[Cell], dict[Cell, Cell]]:
    """The player, the exit, the walls and each ring's twin, in board cells, from a frame."""
    size, origin = lattice(frame)
    board = cells(frame, size, origin)
    player = next(c for c, block in board.items() if (block == 9).all())
    goal = next(c for c, block in board.items() if (block == 14).all())
    walls = {c for c, block in board.items() if (block == 3).all() or (block == 4).any()}
    rings: dict[int, list[Cell]] = {}
    for c, block in board.items():
        corner, middle = int(block[0, 0]), int(block[size // 2, size // 2])
        if middle == 0 and corner not in (0, 3, 4, 9, 14):
            rings.setdefault(corner, []).append(c)
    twin = {a: b for a, b in rings.values()} | {b: a for a, b in rings.values()}
    return player, goal, walls, twin


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_portals_by_mapping_the_rings_and_planning_through_them(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    player, goal, walls, twin = _read(session.frame)
    came: dict[Cell, tuple[Cell, str] | None] = {player: None}
    queue = deque([player])
    while goal not in came:
        x, y = queue.popleft()
        for action, (dx, dy) in STEPS.items():
            step = (x + dx, y + dy)
            if step not in walls and twin.get(step, step) not in came:
                came[twin.get(step, step)] = ((x, y), action)
                queue.append(twin.get(step, step))
    keys: list[str] = []
    link = came[goal]
    while link is not None:
        keys.insert(0, link[1])
        link = came[link[0]]
    assert len(keys) == len(plan)
    for key in keys:
        session.step(Move(key))
    assert session.won


# The same halls with pair 0 one-way, from its first cell (row-major: (2, 1)) to its second (5, 1).
# Then the other way round: the exit on the left, so the one-way pair points away from it.
ONE_WAY = Level.make("portals", [[1] * 8, [1, 2, 4, 1, 0, 4, 3, 1], [1] * 8], oneway=1)
AGAINST = Level.make("portals", [[1] * 8, [1, 3, 4, 1, 0, 4, 2, 1], [1] * 8], oneway=1)


def test_a_one_way_pair_carries_the_player_from_its_ring_and_never_back() -> None:
    frame = Session(SPEC, ONE_WAY).frame
    assert _is_ring(_cell(frame, 2, 1), 8, 0)
    dots = _cell(frame, 5, 1)  # the exit end: the ring's corners and middle, 2x2 frame pixels each
    assert (dots[:2, :2] == 8).all() and (dots[2:4, 2:4] == 8).all() and (dots[:2, 2:4] == 0).all()
    session = Session(SPEC, ONE_WAY)
    session.step(RIGHT)
    assert (_cell(session.frame, 5, 1) == 9).all() and len(session.frames) == 2  # carried over
    session.step(LEFT)
    session.step(RIGHT)  # back into the exit end: an ordinary step, it carries nobody
    assert (_cell(session.frame, 5, 1) == 9).all() and len(session.frames) == 1
    session.step(RIGHT)
    assert session.won
    against = Session(SPEC, AGAINST)
    against.step(LEFT)  # into the exit end from the right-hand hall: nothing happens
    assert (_cell(against.frame, 5, 1) == 9).all() and not against.over
    assert SPEC.solve(AGAINST, SPEC.budget) is None
    assert SPEC.solve(Level.make("portals", AGAINST.grid), SPEC.budget) == (LEFT, LEFT)  # were it two-way


@pytest.mark.parametrize("seed", range(5))
def test_from_difficulty_three_a_one_way_pair_lengthens_the_shortest_way(seed: int) -> None:
    for difficulty in (3, 4):
        level, plan = draw_level(SPEC, ("one way", seed), difficulty)
        oneway = level.param("oneway", 0)
        assert bin(oneway).count("1") == 1
        two_way = SPEC.solve(Level.make("portals", level.grid), SPEC.budget)
        assert two_way is not None and len(two_way) < len(plan)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
    lower, _ = draw_level(SPEC, ("one way", seed), 2)
    assert lower.param("oneway", 0) == 0
