"""colour-sort: a hand-made room's frames worked out by hand, a brute-force check of the solver, and
a player who carries the tokens home one by one."""

from __future__ import annotations

from collections import deque
from itertools import permutations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arc3_frame_reading import STEPS, Cell, cells, lattice, route
from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level, level_rng
from continual_arc_games.session import Session

SPEC = GAMES["colour-sort"]
UP, DOWN, LEFT, RIGHT = (Move(a) for a in STEPS)
DROP = Move("ACTION5")

# Codes: 1 wall, 2 start, 3 a red token, 4 a green token, 6 the red bin, 7 the green bin.
ROOM = Level.make("colour-sort", [[1] * 6, [1, 2, 3, 0, 6, 1], [1, 4, 0, 0, 7, 1], [1] * 6])

# By hand: cells are 3 pixels, the viewport 18x12; the camera scales it by min(64 // 18, 64 // 12)
# = 3 and centres it at offsets (5, 14): cell (cx, cy) is frame columns 5 + 9 cx .. 13 + 9 cx and
# rows 14 + 9 cy .. 22 + 9 cy, each of its 3x3 pixels a 3x3 square of the frame.
PLUS = np.kron(np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool), np.ones((3, 3), dtype=bool))
MIDDLE = np.kron(np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], dtype=bool), np.ones((3, 3), dtype=bool))


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[14 + 9 * cy : 23 + 9 * cy, 5 + 9 * cx : 14 + 9 * cx]


def _shows(block: np.ndarray, mask: np.ndarray, inside: int, outside: int) -> bool:
    return bool((block[mask] == inside).all() and (block[~mask] == outside).all())


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, ROOM).frame
    assert (frame[:14] == 4).all() and (frame[:, :5] == 4).all() and (frame[50:] == 4).all()
    assert (_cell(frame, 0, 0) == 3).all() and (_cell(frame, 1, 1) == 9).all()
    assert _shows(_cell(frame, 2, 1), PLUS, 8, 0) and _shows(_cell(frame, 1, 2), PLUS, 14, 0)  # tokens
    assert _shows(_cell(frame, 4, 1), MIDDLE, 0, 8) and _shows(_cell(frame, 4, 2), MIDDLE, 0, 14)  # bins
    assert (_cell(frame, 3, 1) == 0).all()


def test_carry_block_and_drop_only_into_the_bin_of_the_tokens_colour() -> None:
    session = Session(SPEC, ROOM)
    session.step(RIGHT)  # pick up the red token
    assert _shows(_cell(session.frame, 2, 1), MIDDLE, 8, 9)
    session.step(LEFT)
    session.step(DOWN)  # the green token stops a player who carries one
    assert _shows(_cell(session.frame, 1, 1), MIDDLE, 8, 9) and _shows(
        _cell(session.frame, 1, 2), PLUS, 14, 0
    )
    session.step(DROP)  # not on a bin: nothing
    assert _shows(_cell(session.frame, 1, 1), MIDDLE, 8, 9)
    for key in (RIGHT, RIGHT, RIGHT, DOWN, DROP):  # onto the green bin: refused
        session.step(key)
    assert _shows(_cell(session.frame, 4, 2), MIDDLE, 8, 9)
    for key in (UP, DROP, LEFT):  # into the red bin
        session.step(key)
    assert _shows(_cell(session.frame, 4, 1), MIDDLE, 0, 8) and (_cell(session.frame, 3, 1) == 9).all()
    for key in (DOWN, LEFT, LEFT, RIGHT, RIGHT, RIGHT, DROP):
        session.step(key)
    assert session.won


def _fewest_moves(level: Level) -> int:
    """By brute force, rules as written: breadth-first search over single moves.

    The state: (cell, token carried, its colour, tokens binned, black ring used). Codes: 3-5 and 9
    (grey, colour 3) tokens, 6-8 rings, 10-12 pads, 13 the black ring.
    """
    walls = set(level.cells(1))
    tokens = [(cell, hue) for hue in range(4) for cell in level.cells((3, 4, 5, 9)[hue])]
    bins = {cell: hue for hue in range(3) for cell in level.cells(6 + hue)}
    pads = {cell: hue for hue in range(3) for cell in level.cells(10 + hue)}
    black = level.cells(13)
    start = (level.cells(2)[0], -1, -1, frozenset[int](), False)
    depth = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        (x, y), carried, colour, binned, used = state
        if len(binned) == len(tokens):
            return depth[state]
        lying = {cell: i for i, (cell, _) in enumerate(tokens) if i not in binned and i != carried}
        after = []
        for dx, dy in STEPS.values():
            cell = (x + dx, y + dy)
            if cell in walls or (cell in lying and carried >= 0):
                continue
            if cell in lying:
                after.append((cell, lying[cell], tokens[lying[cell]][1], binned, used))
            else:
                after.append((cell, carried, pads.get(cell, colour) if carried >= 0 else -1, binned, used))
        if carried >= 0 and bins.get((x, y)) == colour:
            after.append(((x, y), -1, -1, binned | {carried}, used))
        if carried >= 0 and not used and (x, y) in black:
            after.append(((x, y), -1, -1, binned | {carried}, True))
        for nxt in after:
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                queue.append(nxt)
    raise AssertionError("no way to bin every token")


def test_solver_plans_are_as_short_as_a_brute_force_search_finds() -> None:
    for difficulty in (0, 1, 2, 3):
        for seed in range(4):
            level = SPEC.generate(level_rng(SPEC.id, difficulty, ("brute", seed), 0), difficulty)
            plan = SPEC.solve(level, SPEC.budget)
            assert plan is not None and len(plan) == _fewest_moves(level)


def _read(frame: np.ndarray) -> tuple[Cell, set[Cell], dict[Cell, int], dict[int, Cell]]:
    """The player, the walls, the tokens (cell: colour) and the bins (colour: cell) from a frame."""
    size, origin = lattice(frame)
    third = size // 3
    walls, tokens, bins = set(), {}, {}
    for c, block in cells(frame, size, origin).items():
        corner, middle = int(block[0, 0]), int(block[third, third])
        if (block == 9).all():
            player = c
        elif corner in (3, 4) or (block == 4).any():
            walls.add(c)
        elif corner == 0 and middle != 0:
            tokens[c] = middle
        elif corner != 0:
            bins[corner] = c
    return player, walls, tokens, bins


def _tour(player: Cell, walls: set[Cell], tokens: dict[Cell, int], bins: dict[int, Cell]) -> list[str]:
    """The first order of fetching the tokens that works, each walk round the tokens still lying."""
    floor = {(x, y) for x in range(16) for y in range(16)} - walls
    for order in permutations(sorted(tokens)):
        at, keys, lying = player, [], set(tokens)
        for token in order:
            lying.discard(token)
            fetch = route(at, token, floor - lying)
            carry = route(token, bins[tokens[token]], floor - lying)
            if (not fetch and at != token) or not carry:
                break
            keys += [*fetch, *carry, "ACTION5"]
            at = bins[tokens[token]]
        else:
            return keys
    return []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_colour_sort_by_fetching_the_tokens_in_an_order_that_works(seed: int) -> None:
    level, _ = draw_level(SPEC, ("players", seed), 0)  # no pads nor grey tokens, which _read knows not
    session = Session(SPEC, level)
    keys = _tour(*_read(session.frame))
    assert keys
    for key in keys:
        session.step(Move(key))
    assert session.won


# Codes: 9 a grey token, 11 a green pad, 13 the black ring; 3 a red token, 6 and 7 the red and green
# rings. The grey token must be painted green on the pad, or go into the black ring.
PAINTING = Level.make("colour-sort", [[1] * 6, [1, 2, 9, 11, 7, 1], [1, 3, 0, 0, 6, 1], [1] * 6])
BLACK_RING = Level.make("colour-sort", [[1] * 6, [1, 2, 9, 13, 0, 1], [1, 3, 0, 0, 6, 1], [1] * 6])


def test_a_pad_paints_the_token_carried_and_a_grey_token_fits_no_ring_before() -> None:
    session = Session(SPEC, PAINTING)
    session.step(RIGHT)  # the grey token, shown grey in the player's middle
    assert _shows(_cell(session.frame, 2, 1), MIDDLE, 2, 9)
    for key in (DOWN, RIGHT, RIGHT, UP):  # round the pad, onto the green ring: grey, refused
        session.step(key)
    session.step(DROP)
    assert _shows(_cell(session.frame, 4, 1), MIDDLE, 2, 9)
    session.step(LEFT)  # onto the green pad: painted green
    assert _shows(_cell(session.frame, 3, 1), MIDDLE, 14, 9)
    for key in (RIGHT, DROP):
        session.step(key)
    assert (_cell(session.frame, 4, 1) == 9).all()  # dropped: the player's middle is blue again
    # By hand, the red token first: down, right, right, right, drop; then up, left, left (the grey
    # token), right (painted green), right, drop.
    assert SPEC.solve(PAINTING, SPEC.budget) == (
        DOWN,
        RIGHT,
        RIGHT,
        RIGHT,
        DROP,
        UP,
        LEFT,
        LEFT,
        RIGHT,
        RIGHT,
        DROP,
    )


def test_the_black_ring_takes_one_token_of_any_colour_and_is_gone() -> None:
    session = Session(SPEC, BLACK_RING)
    assert _shows(_cell(session.frame, 3, 1), MIDDLE, 0, 5)
    for key in (RIGHT, RIGHT, DROP):  # the grey token into the black ring
        session.step(key)
    session.step(RIGHT)
    assert (_cell(session.frame, 3, 1) == 0).all()  # the ring is gone
    for key in (LEFT, LEFT, LEFT, DOWN, UP, RIGHT, RIGHT, DROP):  # red, where the black ring was
        session.step(key)
    assert not session.over and _shows(_cell(session.frame, 3, 1), MIDDLE, 8, 9)  # still carried
    for key in (DOWN, RIGHT, DROP):
        session.step(key)
    assert session.won
    assert len(SPEC.solve(BLACK_RING, SPEC.budget) or ()) == _fewest_moves(BLACK_RING) == 10


def _without(level: Level, code: int) -> Level:
    return Level.make(level.game, [[0 if v == code else v for v in row] for row in level.grid])


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_each_difficulty_draws_its_element_and_its_plans_win(difficulty: int) -> None:
    for seed in range(4):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)
        codes = [v for row in level.grid for v in row]
        assert sum(1 for code in (6, 7, 8) if code in codes) == 2 + (difficulty >= 2)  # rings
        assert codes.count(9) == (0, 1, 1, 2)[difficulty]  # grey tokens
        assert sum(1 for code in (10, 11, 12) if code in codes) == (0, 1, 2, 2)[difficulty]  # pads
        assert codes.count(13) == (difficulty == 3)
        if difficulty == 3:  # the black ring shortens the shortest plan
            assert _fewest_moves(_without(level, 13)) > len(plan)
        assert len(plan) == _fewest_moves(level)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
