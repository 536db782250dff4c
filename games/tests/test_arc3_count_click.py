"""count-click: a hand-made two-question level's frames worked out by hand, and a player who counts."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arc3_frame_reading import blobs, box, pixels
from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session

SPEC = GAMES["count-click"]


def _question(picture: list[list[int]], tiles: list[int]) -> list[list[int]]:
    return [row + [0] * (15 - len(row)) for row in picture] + [tiles + [0] * (15 - len(tiles))]


# Question 1: a red cell, a yellow pair and a green cell: three objects in four cells; the tiles show
# four dots (the cell count) and three. Question 2: one purple cell; the tiles show one and two.
TWO_QUESTIONS = Level.make(
    "count-click",
    _question([[1], [0, 0, 0, 2, 2], [0] * 14 + [3]], [4, 3]) + _question([[0], [0, 4], [0]], [1, 2]),
    picture_height=3,
)

# By hand: the viewport is max(15, 2 tiles x 8 - 1) = 15 pixels wide and 3 + 1 + 7 + 2 = 13 high (the
# picture, a gap, the tiles, a gap, the marks); the camera scales it by min(64 // 15, 64 // 13) = 4
# and centres it at offsets (2, 6). Viewport pixel (vx, vy) is frame columns 2 + 4 vx .. 5 + 4 vx and
# rows 6 + 4 vy .. 9 + 4 vy. Tile i spans vx 8 i .. 8 i + 6 and vy 4 .. 10; its dot k (row-major in a
# 3x3 grid) is at (8 i + 1 + 2 (k % 3), 5 + 2 (k // 3)). The marks are at vy 12, vx 0 and 2.


def _px(frame: np.ndarray, vx: int, vy: int) -> np.ndarray:
    return frame[6 + 4 * vy : 10 + 4 * vy, 2 + 4 * vx : 6 + 4 * vx]


def _click(vx: int, vy: int) -> Move:
    return Move.click(2 + 4 * vx + 2, 6 + 4 * vy + 2)


def _dots(frame: np.ndarray, tile: int) -> set[tuple[int, int]]:
    return {
        (vx, vy)
        for vx in range(8 * tile, 8 * tile + 7)
        for vy in range(4, 11)
        if (_px(frame, vx, vy) == 0).all()
    }


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, TWO_QUESTIONS).frame
    assert (frame[:6] == 4).all() and (frame[58:] == 4).all() and (frame[:, :2] == 4).all()
    assert (_px(frame, 0, 0) == 8).all() and (_px(frame, 3, 1) == 11).all() and (_px(frame, 4, 1) == 11).all()
    assert (_px(frame, 14, 2) == 14).all() and (_px(frame, 1, 0) == 5).all()
    assert (_px(frame, 0, 4) == 2).all() and (_px(frame, 6, 10) == 2).all() and (_px(frame, 7, 7) == 5).all()
    assert _dots(frame, 0) == {(1, 5), (3, 5), (5, 5), (1, 7)}
    assert _dots(frame, 1) == {(9, 5), (11, 5), (13, 5)}
    assert (
        (_px(frame, 0, 12) == 3).all() and (_px(frame, 1, 12) == 5).all() and (_px(frame, 2, 12) == 3).all()
    )


def test_the_right_tile_moves_on_and_wins_clicks_elsewhere_do_nothing() -> None:
    session = Session(SPEC, TWO_QUESTIONS)
    first = session.frame.copy()
    for vx, vy in [(3, 1), (7, 7), (11, 12)]:  # the picture, the gap between tiles, the marks
        session.step(_click(vx, vy))
        assert np.array_equal(session.frame, first) and not session.over
    session.step(_click(11, 7))  # three dots: right
    assert (_px(session.frame, 0, 12) == 14).all() and (_px(session.frame, 2, 12) == 3).all()
    assert (_px(session.frame, 1, 1) == 15).all() and (_px(session.frame, 0, 0) == 5).all()
    assert _dots(session.frame, 0) == {(1, 5)} and _dots(session.frame, 1) == {(9, 5), (11, 5)}
    session.step(_click(3, 7))
    assert session.won


def test_counting_cells_instead_of_objects_loses() -> None:
    session = Session(SPEC, TWO_QUESTIONS)
    session.step(_click(3, 7))  # four dots: the cells, not the objects
    assert session.lost


def _answer(frame: np.ndarray) -> Move:
    """Click the middle of the framed tile holding as many dots as the picture above has objects."""
    tiles = [box(blob) for blob in blobs(pixels(frame, 2))]
    top = min(y0 for _, y0, _, _ in tiles)
    picture = [(x, y) for y in range(top) for x in range(64) if frame[y, x] not in (4, 5)]
    objects = len(blobs(picture))
    for x0, y0, x1, y1 in tiles:
        dots = [(x, y) for x, y in pixels(frame, 0) if x0 <= x <= x1 and y0 <= y <= y1]
        if len(blobs(dots)) == objects:
            return Move.click((x0 + x1) // 2, (y0 + y1) // 2)
    raise AssertionError(f"no tile shows {objects} dots")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("difficulty", [0, 3])
def test_count_click_by_counting_the_objects_and_the_dots(seed: int, difficulty: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), difficulty)
    session = Session(SPEC, level)
    while not session.over and session.moves <= len(plan):
        session.step(_answer(session.frame))
    assert session.won and session.moves == len(plan)


@pytest.mark.parametrize("seed", range(4))
def test_what_difficulties_two_and_three_add(seed: int) -> None:
    """From 2 a tile counts the coloured cells (when that is wrong); at 3 another counts the colours."""
    for difficulty in (1, 2, 3):
        level, plan = draw_level(SPEC, ("adds", seed), difficulty)
        rows = level.param("picture_height")
        for top in range(0, level.height, rows + 1):
            picture = level.grid[top : top + rows]
            tiles = [v for v in level.grid[top + rows] if v]
            coloured = [(x, y) for y, row in enumerate(picture) for x, v in enumerate(row) if v]
            objects, colours = len(blobs(coloured)), len({v for row in picture for v in row if v})
            assert tiles.count(objects) == 1
            if difficulty >= 2 and len(coloured) != objects and len(coloured) <= 9:
                assert len(coloured) in tiles
            if difficulty == 3:
                assert colours < objects and colours in tiles
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
