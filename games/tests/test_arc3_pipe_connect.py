"""pipe-connect: a hand-made board whose frames are worked out by hand, the solver against brute
force on small boards, and a human-style player that plans a route and turns each tile by sight."""

from __future__ import annotations

import random
from itertools import product

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session, replay
from frame_reading import Cell

SPEC = GAMES["pipe-connect"]

# Codes: 0 frame, 1 source, 2 drain, 4 + 4 kind + turns (kinds: straight, corner, tee). The source
# feeds a straight lying east-west (5), then a corner open north and east (8), which needs two turns
# to open west and south onto a straight lying east-west (5), which needs one turn to reach the drain.
BOARD = Level.make("pipe-connect", [[0, 0, 0, 0], [1, 5, 8, 0], [0, 12, 5, 0], [0, 0, 2, 0]])

# By hand: 64 // 4 = 16 pixels a cell, made odd: 15. The viewport is 60x60 pixels at scale 1, centred
# at offset (2, 2): cell (cx, cy) covers pixels 2 + 15 c .. 16 + 15 c. A pipe is a band of pixels 5-9
# (7 - 15 // 6 .. 7 + 15 // 6) from the middle to each open side. Tiles alternate grey 3 and 2.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[2 + 15 * cy : 17 + 15 * cy, 2 + 15 * cx : 17 + 15 * cx]


def _click(cx: int, cy: int) -> Move:
    return Move.click(2 + 15 * cx + 7, 2 + 15 * cy + 7)


def test_first_frame_shows_the_water_in_the_first_pipe_only() -> None:
    frame = Session(SPEC, BOARD).frame
    assert (frame[:2] == 4).all() and (frame[62:] == 4).all()  # the letterbox
    assert (_cell(frame, 0, 0) == 5).all()  # the frame is bare ground
    source = _cell(frame, 0, 1)
    assert (source[5:10, 5:] == 9).all() and (source[:5] == 5).all() and (source[5:10, :5] == 5).all()
    first = _cell(frame, 1, 1)
    assert (first[5:10] == 9).all() and (first[:5] == 3).all() and (first[10:] == 3).all()  # wet
    corner = _cell(frame, 2, 1)
    assert (corner[:10, 5:10] == 0).all() and (corner[5:10, 5:] == 0).all()  # dry, north and east
    assert (corner[5:10, :5] == 2).all() and (corner[10:, 5:10] == 2).all()
    assert (_cell(frame, 2, 3)[:10, 5:10] == 14).all()  # the drain, open north


def test_turning_tiles_lets_the_water_through_to_the_drain() -> None:
    session = Session(SPEC, BOARD)
    first = session.frame.copy()
    for x, y in [(5, 5), (2 + 7, 2 + 15 + 7), (2 + 15 * 3 + 7, 2 + 15 * 3 + 7)]:  # frame cells
        session.step(Move.click(x, y))
        assert np.array_equal(session.frame, first)
    session.step(_click(2, 1))
    corner = _cell(session.frame, 2, 1)
    assert (corner[:5, 5:10] == 2).all() and (corner[5:, 5:10] == 0).all()  # now east and south
    session.step(_click(2, 1))
    corner = _cell(session.frame, 2, 1)
    assert (corner[5:10, :10] == 9).all() and (corner[5:, 5:10] == 9).all()  # west and south, wet
    assert (_cell(session.frame, 2, 2)[5:10] == 0).all() and not session.over  # still east-west
    session.step(_click(2, 2))
    assert session.won and session.moves == 6
    assert (_cell(session.frame, 2, 2)[:, 5:10] == 9).all()
    assert replay(SPEC, BOARD, SPEC.solve(BOARD, SPEC.budget) or ())


def _opening(code: int, turns: int) -> int:
    """Open sides (N, E, S, W bits) of a tile given a number of extra quarter turns, by the rules."""
    if code < 4:
        return 0
    kind, first_turns = divmod(code - 4, 4)
    sides = {0: (0, 2), 1: (0, 1), 2: (0, 1, 2)}[kind]
    return sum(1 << ((s + first_turns + turns) % 4) for s in sides)


def _joined(grid: list[list[int]], turns: dict[Cell, int]) -> bool:
    """Whether water from the source reaches the drain with the tiles turned so."""
    steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    cells = {(x, y): v for y, row in enumerate(grid) for x, v in enumerate(row)}
    source = next(c for c, v in cells.items() if v == 1)
    side = next(s for s, (dx, dy) in enumerate(steps) if cells.get((source[0] + dx, source[1] + dy), 0) >= 3)
    todo, seen = [((source[0] + steps[side][0], source[1] + steps[side][1]), (side + 2) % 4)], set()
    while todo:
        cell, came_in = todo.pop()
        if cells.get(cell) == 2:
            return True
        sides = _opening(cells.get(cell, 0), turns.get(cell, 0))
        if cell in seen or not sides >> came_in & 1:
            continue
        seen.add(cell)
        todo += [
            ((cell[0] + dx, cell[1] + dy), (s + 2) % 4) for s, (dx, dy) in enumerate(steps) if sides >> s & 1
        ]
    return False


def test_solver_clicks_as_few_times_as_brute_force_on_small_boards() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 25:
        width, height = rng.choice([(2, 3), (3, 2), (3, 3)])
        grid = [[0] * (width + 2) for _ in range(height + 2)]
        tiles = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
        for x, y in tiles:
            grid[y][x] = rng.choice([3, *range(4, 16)])
        ends = [(0, y) for y in range(1, height + 1)] + [(width + 1, y) for y in range(1, height + 1)]
        ends += [(x, 0) for x in range(1, width + 1)] + [(x, height + 1) for x in range(1, width + 1)]
        (sx, sy), (dx, dy) = rng.sample(ends, 2)
        grid[sy][sx], grid[dy][dx] = 1, 2
        fewest = min(
            (
                sum(turns)
                for turns in product(range(4), repeat=len(tiles))
                if _joined(grid, dict(zip(tiles, turns, strict=True)))
            ),
            default=None,
        )
        level = Level.make("pipe-connect", grid)
        plan = SPEC.solve(level, SPEC.budget)
        assert (None if plan is None else len(plan)) == fewest, level.to_json()
        if plan:
            assert replay(SPEC, level, plan)
            checked += 1


def _tiles(frame: np.ndarray) -> tuple[int, Cell, dict[Cell, int]]:
    """The tile size, the board's top-left pixel, and every tile's open sides, read off the frame."""
    ys, xs = np.nonzero((frame == 2) | (frame == 3))
    left, top = int(xs.min()), int(ys.min())
    corner = int(frame[top, left])
    size = next(x - left for x in range(left + 1, 64) if frame[top, x] not in (corner, 0, 9))
    count = (int(xs.max()) + 1 - left) // size
    end, mid = size - 1, size // 2
    sides = {}
    for cx, cy in product(range(count), repeat=2):
        tile = frame[top + cy * size : top + (cy + 1) * size, left + cx * size : left + (cx + 1) * size]
        spots = ((0, mid), (mid, end), (end, mid), (mid, 0))
        sides[(cx, cy)] = sum(1 << s for s, (r, c) in enumerate(spots) if tile[r, c] in (0, 9))
    return size, (left, top), sides


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pipe_connect_by_planning_a_route_and_turning_each_tile_until_it_fits(seed: int) -> None:
    level, _ = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    size, (left, top), sides = _tiles(session.frame)
    steps = [(0, -1), (1, 0), (0, 1), (-1, 0)]

    def tile_of(colour: int) -> tuple[Cell, int]:
        """The board tile next to the source (blue) or drain (green) stub, and the side facing it."""
        ys, xs = np.nonzero(session.frame == colour)
        outside = [((int(x) - left) // size, (int(y) - top) // size) for x, y in zip(xs, ys, strict=True)]
        cx, cy = next(c for c in outside if c not in sides)
        side = next(s for s, (dx, dy) in enumerate(steps) if (cx + dx, cy + dy) in sides)
        return (cx + steps[side][0], cy + steps[side][1]), (side + 2) % 4

    def can_join(cell: Cell, a: int, b: int) -> bool:
        mask = sides[cell]
        count = bin(mask).count("1")
        straight = count == 2 and mask in (0b0101, 0b1010)
        return count == 3 or (count == 2 and straight == ((a - b) % 2 == 0))

    start, drain = tile_of(9), tile_of(14)
    # Route in the head: depth first, trying the way towards the drain first.
    stack: list[tuple[Cell, int, tuple[tuple[Cell, int, int], ...]]] = [(start[0], start[1], ())]
    route = None
    while stack and route is None:
        cell, came_in, done = stack.pop()
        if cell == drain[0] and can_join(cell, came_in, drain[1]):
            route = (*done, (cell, came_in, drain[1]))
            break
        used = {c for c, _, _ in done}
        options = sorted(
            range(4),
            key=lambda s: (
                -abs(cell[0] + steps[s][0] - drain[0][0]) - abs(cell[1] + steps[s][1] - drain[0][1])
            ),
        )
        for s in options:
            nxt = (cell[0] + steps[s][0], cell[1] + steps[s][1])
            if (
                s != came_in
                and nxt in sides
                and nxt not in used
                and nxt != cell
                and can_join(cell, came_in, s)
            ):
                stack.append((nxt, (s + 2) % 4, (*done, (cell, came_in, s))))
    assert route is not None
    for (cx, cy), a, b in route:  # turn each tile of the route, looking, until it opens both ways
        for _ in range(4):
            if sides[(cx, cy)] & (1 << a | 1 << b) == 1 << a | 1 << b or session.won:
                break
            session.step(Move.click(left + cx * size + size // 2, top + cy * size + size // 2))
            sides = _tiles(session.frame)[2] if not session.won else sides
    assert session.won


# BOARD with a pipe bolted (its code plus 12): the first straight, already right, or the corner,
# which needs two turns and now can never have them.
BOLTED_RIGHT = Level.make("pipe-connect", [[0, 0, 0, 0], [1, 17, 8, 0], [0, 12, 5, 0], [0, 0, 2, 0]])
BOLTED_WRONG = Level.make("pipe-connect", [[0, 0, 0, 0], [1, 5, 20, 0], [0, 12, 5, 0], [0, 0, 2, 0]])


def test_a_bolted_pipe_sits_on_maroon_and_never_turns() -> None:
    session = Session(SPEC, BOLTED_WRONG)
    first = session.frame.copy()
    assert _cell(first, 2, 1)[0, 0] == 13 and _cell(first, 1, 1)[0, 0] == 3  # maroon, and grey
    session.step(_click(2, 1))
    assert np.array_equal(session.frame, first)
    assert SPEC.solve(BOLTED_WRONG, SPEC.budget) is None
    plan = SPEC.solve(BOLTED_RIGHT, SPEC.budget)
    assert plan == (_click(2, 1), _click(2, 1), _click(2, 2))  # the corner twice, then the straight
    won = Session(SPEC, BOLTED_RIGHT)
    for move in plan:
        won.step(move)
    assert won.won


@pytest.mark.parametrize("seed", range(4))
def test_from_difficulty_two_three_pipes_are_bolted(seed: int) -> None:
    for difficulty in (1, 2, 3):
        level, plan = draw_level(SPEC, ("bolted", seed), difficulty)
        bolted = sum(16 <= code < 28 for row in level.grid for code in row)
        assert bolted == (3 if difficulty >= 2 else 0)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won


# BOARD with its corner turned one quarter on (9: open east and south) and on a purple tile (plus 24):
# clockwise it would need one click to open west and south, anticlockwise it needs three.
BACKWARDS = Level.make("pipe-connect", [[0, 0, 0, 0], [1, 5, 33, 0], [0, 12, 5, 0], [0, 0, 2, 0]])
FORWARDS = Level.make("pipe-connect", [[0, 0, 0, 0], [1, 5, 9, 0], [0, 12, 5, 0], [0, 0, 2, 0]])


def _open_sides(tile: np.ndarray, background: int) -> set[str]:
    """The sides whose edge middle the pipe's pixels reach (the tile is 15 pixels, its middle 7)."""
    spots = {"N": (0, 7), "E": (7, 14), "S": (14, 7), "W": (7, 0)}
    return {side for side, (r, c) in spots.items() if tile[r, c] != background}


def test_a_pipe_on_purple_turns_anticlockwise() -> None:
    session = Session(SPEC, BACKWARDS)
    tile = _cell(session.frame, 2, 1)
    assert tile[0, 0] == 15 and _open_sides(tile, 15) == {"E", "S"}
    session.step(_click(2, 1))
    assert _open_sides(_cell(session.frame, 2, 1), 15) == {"N", "E"}  # a quarter back, not on
    plan = SPEC.solve(BACKWARDS, SPEC.budget)
    assert plan == (_click(2, 1),) * 3 + (_click(2, 2),)
    assert SPEC.solve(FORWARDS, SPEC.budget) == (_click(2, 1), _click(2, 2))
    assert replay(SPEC, BACKWARDS, plan) and not replay(SPEC, BACKWARDS, (_click(2, 1), _click(2, 2)))


@pytest.mark.parametrize("seed", range(4))
def test_at_difficulty_three_two_pipes_turn_back(seed: int) -> None:
    for difficulty in (2, 3):
        level, plan = draw_level(SPEC, ("back", seed), difficulty)
        back = [(x, y) for y, row in enumerate(level.grid) for x, code in enumerate(row) if code >= 28]
        assert len(back) == (2 if difficulty == 3 else 0)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if back:  # the water runs through one at least, turned into place anticlockwise
            size = 64 // max(level.width, level.height)
            size -= 1 - size % 2
            left, top = (64 - size * level.width) // 2, (64 - size * level.height) // 2
            frame = session.frame
            wet = []
            for x, y in back:
                tile = frame[top + y * size : top + (y + 1) * size, left + x * size : left + (x + 1) * size]
                assert tile[0, 0] == 15
                wet.append(bool((tile == 9).any()))
            clicked = {(m.x, m.y) for m in plan}
            middles = {(left + x * size + size // 2, top + y * size + size // 2) for x, y in back}
            assert any(wet) and clicked & middles
