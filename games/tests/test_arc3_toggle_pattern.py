"""toggle-pattern: what each kind of tile flips, read off the frames, and what each difficulty adds."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import level_rng
from continual_arc_games.session import Session

SPEC = GAMES["toggle-pattern"]

# A 3x3 board, every tile dark and due lit, of four kinds (bits 2-3): a line tile top middle, a
# cross tile middle left, a pinned tile in the middle, plain tiles elsewhere. By hand: the viewport
# is 4 * 3 - 1 + 2 = 13 pixels high and 11 + 8 + 8 = 27 wide, scaled by min(64 // 27, 64 // 13) = 2
# and centred at offsets (5, 19); tile (c, r) covers viewport pixels 1 + 4c .. 3 + 4c, so frame
# columns 7 + 8c .. 12 + 8c and rows 21 + 8r .. 26 + 8r, its middle at frame (9 + 8c, 23 + 8r).
KINDS = [[0, 3, 0], [2, 1, 0], [0, 0, 0]]
BOARD = Level.make("toggle-pattern", [[kind << 2 | 2 for kind in row] for row in KINDS])


def _lit(frame: np.ndarray) -> set[tuple[int, int]]:
    """The (c, r) of every board tile showing any yellow."""
    return {
        (c, r)
        for r in range(3)
        for c in range(3)
        if (frame[21 + 8 * r : 27 + 8 * r, 7 + 8 * c : 13 + 8 * c] == 11).any()
    }


@pytest.mark.parametrize(
    ("tile", "flipped"),
    [
        ((0, 0), {(0, 0), (1, 0), (0, 1)}),  # plain, in a corner: itself and its two neighbours
        ((1, 0), {(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)}),  # line: its row and its column
        ((0, 1), {(0, 1), (1, 0), (1, 2)}),  # cross: itself and the tiles at its corners
        ((1, 1), set()),  # pinned: nothing
        ((2, 2), {(2, 2), (1, 2), (2, 1)}),  # plain
    ],
)
def test_a_click_flips_what_the_tiles_kind_says(tile: tuple[int, int], flipped: set[tuple[int, int]]) -> None:
    session = Session(SPEC, BOARD)
    assert _lit(session.frame) == set()
    c, r = tile
    session.step(Move.click(9 + 8 * c, 23 + 8 * r))
    assert _lit(session.frame) == flipped
    assert not session.over
    session.reset()  # a reset shows the board as the level starts again
    assert _lit(session.frame) == set()


def test_each_kind_wears_its_own_blue_mark() -> None:
    frame = Session(SPEC, BOARD).frame
    marked = {
        (c, r): int((frame[21 + 8 * r : 27 + 8 * r, 7 + 8 * c : 13 + 8 * c] == 9).sum())
        for r in range(3)
        for c in range(3)
    }
    # Scaled by 2, a mark pixel is 4 frame cells: the dot 1 pixel, the X and the + five each.
    assert {tile: count for tile, count in marked.items() if count} == {(1, 0): 20, (0, 1): 20, (1, 1): 4}


def _flips(n: int, kinds: list[int], tile: int) -> set[int]:
    """The tiles a click on ``tile`` flips, by the rules as written in the game's rules text."""
    r, c = divmod(tile, n)
    kind = kinds[tile]
    if kind == 1:
        return set()
    if kind == 3:
        return {r * n + k for k in range(n)} | {k * n + c for k in range(n)}
    steps = ((-1, -1), (-1, 1), (1, -1), (1, 1)) if kind == 2 else ((-1, 0), (1, 0), (0, -1), (0, 1))
    return {tile} | {(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n}


@pytest.mark.parametrize("difficulty", range(4))
def test_each_difficulty_holds_the_kind_it_adds_and_every_drawn_level_is_won(difficulty: int) -> None:
    added = {0: 0, 1: 1, 2: 2, 3: 3}[difficulty]  # plain, pinned, cross, line
    for seed in range(12):
        level = SPEC.generate(level_rng(SPEC.id, difficulty, ("kinds", seed), 0), difficulty)
        n = level.width
        codes = [v for row in level.grid for v in row]
        kinds = [v >> 2 & 3 for v in codes]
        assert set(kinds) == set(range(added + 1))  # every kind up to the newest, and none beyond
        plan = SPEC.solve(level, SPEC.budget)
        assert plan
        session = Session(SPEC, level)
        for move in plan:
            assert not session.over
            session.step(move)
        assert session.won
        # The plan, read back to tiles, flips exactly the wrong tiles by the written rules ...
        wrong = {t for t, v in enumerate(codes) if (v & 1) != (v >> 1 & 1)}
        tiles = [_tile_of(level, move) for move in plan]
        flipped: set[int] = set()
        for tile in tiles:
            flipped ^= _flips(n, kinds, tile)
        assert flipped == wrong
        # ... and needs the newest kind: it clicks one (cross, line) or must change a pinned tile.
        if added == 1:
            assert any(kinds[t] == 1 for t in wrong)
        elif added > 1:
            assert any(kinds[t] == added for t in tiles)


def _tile_of(level: Level, move: Move) -> int:
    """The tile under a click, by the layout worked out above for any n: the viewport is 7n + 6 by
    4n + 1 pixels, scaled by the largest whole factor that fits 64 and centred (a click meant for a
    tile's middle pixel lands in the tile even if the centring rounds the other way)."""
    n = level.width
    width, height = 7 * n + 6, 4 * n + 1
    scale = min(64 // width, 64 // height)
    assert move.x is not None and move.y is not None
    x = (move.x - (64 - scale * width) // 2) // scale
    y = (move.y - (64 - scale * height) // 2) // scale
    c, r = (x - 1) // 4, (y - 1) // 4
    assert 0 <= c < n and 0 <= r < n and (x - 1) % 4 < 3 and (y - 1) % 4 < 3
    return r * n + c
