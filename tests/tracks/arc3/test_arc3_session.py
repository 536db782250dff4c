"""The session adapter on hand-made levels whose frames are worked out by hand, and replay."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc.tracks.arc3.games import GAMES
from continual_arc.tracks.arc3.games.base import Level, Move
from continual_arc.tracks.arc3.games.session import Session, replay

UP, DOWN, RIGHT = Move("ACTION1"), Move("ACTION2"), Move("ACTION4")

# keys-doors codes: 1 wall, 2 start, 3 exit, 4 key of hue 0 (yellow, 11), 7 door of hue 0.
KEY_THEN_DOOR = Level.make("keys-doors", [[1] * 6, [1, 2, 4, 7, 3, 1], [1] * 6])
DOOR_THEN_KEY = Level.make("keys-doors", [[1] * 6, [1, 2, 7, 4, 3, 1], [1] * 6])

# By hand: cells are 2 pixels, the maze is 6x3 cells plus a strip row, so the viewport is 12x8
# pixels; the camera scales it by min(64 // 12, 64 // 8) = 5 and centres it at offsets (2, 12).
# Cell (cx, cy) so covers frame columns 2 + 10 cx .. 11 + 10 cx and rows 12 + 10 cy .. 21 + 10 cy.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[12 + 10 * cy : 22 + 10 * cy, 2 + 10 * cx : 12 + 10 * cx]


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(GAMES["keys-doors"], KEY_THEN_DOOR).frame
    assert frame.shape == (64, 64) and frame.dtype == np.uint8
    assert (frame[:12] == 4).all() and (frame[:, :2] == 4).all()  # the letterbox
    assert (_cell(frame, 0, 0) == 2).all()  # a wall
    assert (_cell(frame, 1, 1) == 9).all()  # the player
    key = _cell(frame, 2, 1)
    assert (key[:5, :5] == 11).all() and (key[5:, 5:] == 11).all() and (key[:5, 5:] == 5).all()
    assert (_cell(frame, 3, 1) == 11).all()  # the door, solid
    assert (_cell(frame, 4, 1) == 14).all()  # the exit
    assert (frame[42:52, 2:62] == 5).all()  # the strip: no key carried yet


def test_stepping_picks_up_the_key_opens_the_door_and_wins() -> None:
    session = Session(GAMES["keys-doors"], KEY_THEN_DOOR)
    first = session.frame.copy()
    assert session.actions == ("ACTION1", "ACTION2", "ACTION3", "ACTION4")
    session.step(UP)  # into a wall: nothing changes, but the move counts
    assert np.array_equal(session.frame, first) and session.moves == 1
    session.step(RIGHT)
    assert (_cell(session.frame, 2, 1) == 9).all()
    assert (session.frame[42:47, 2:7] == 11).all()  # the key now shows in the strip
    session.step(RIGHT)
    assert (_cell(session.frame, 3, 1) == 9).all() and (session.frame[42:52, 2:62] == 5).all()
    assert (session.won, session.over) == (False, False)
    session.step(RIGHT)
    assert (session.won, session.lost, session.over, session.moves) == (True, False, True, 4)
    with pytest.raises(ValueError, match="ended"):
        session.step(RIGHT)
    assert np.array_equal(session.reset(), first)
    assert (session.won, session.moves) == (False, 0)


def test_a_door_without_its_key_is_a_wall() -> None:
    session = Session(GAMES["keys-doors"], DOOR_THEN_KEY)
    before = session.frame.copy()
    session.step(RIGHT)
    assert np.array_equal(session.frame, before)
    assert not replay(GAMES["keys-doors"], DOOR_THEN_KEY, [RIGHT] * 5)


def test_unoffered_actions_are_refused_and_frames_are_read_only() -> None:
    session = Session(GAMES["keys-doors"], KEY_THEN_DOOR)
    with pytest.raises(ValueError, match="does not offer"):
        session.step(Move.click(10, 10))
    with pytest.raises(ValueError, match="does not offer"):
        session.step(Move("ACTION5"))
    with pytest.raises(ValueError):
        session.frame[0, 0] = 1
    assert session.step(Move("RESET")) is session.frame and session.moves == 0


# tilt-gravity codes: 1 wall, 2 ball, 3 goal, 4 pit. The viewport is 6x4 pixels, scaled by 10.
PIT_OR_GOAL = Level.make("tilt-gravity", [[1] * 6, [1, 2, 0, 0, 4, 1], [1, 0, 0, 0, 3, 1], [1] * 6])


def test_a_tilt_is_an_animation_of_one_frame_per_cell_rolled() -> None:
    session = Session(GAMES["tilt-gravity"], PIT_OR_GOAL)
    assert int((session.frame == 8).sum()) == 100  # one ball, one 10x10 square
    session.step(DOWN)  # one cell down to the wall: one frame
    assert [int((frame == 8).sum()) for frame in session.frames] == [100]
    session.step(RIGHT)  # three cells right, the last into the hole: three frames, the ball gone
    assert [int((frame == 8).sum()) for frame in session.frames] == [100, 100, 0]
    assert session.won and np.array_equal(session.frame, session.frames[-1])


def test_rolling_into_a_pit_loses_until_a_reset() -> None:
    session = Session(GAMES["tilt-gravity"], PIT_OR_GOAL)
    session.step(RIGHT)
    assert (session.won, session.lost, session.over, len(session.frames)) == (False, True, True, 3)
    with pytest.raises(ValueError, match="ended"):
        session.step(DOWN)
    session.reset()
    assert (session.won, session.lost, session.over) == (False, False, False)
    session.step(DOWN)
    session.step(RIGHT)
    assert session.won


def test_replay_stops_at_the_first_win_or_loss() -> None:
    spec = GAMES["tilt-gravity"]
    assert replay(spec, PIT_OR_GOAL, [DOWN, RIGHT])
    assert replay(spec, PIT_OR_GOAL, [DOWN, RIGHT, UP])
    assert not replay(spec, PIT_OR_GOAL, [RIGHT, DOWN, RIGHT])
    assert not replay(spec, PIT_OR_GOAL, [])


# sequence-tiles: a 2x2 board whose show lights the top-left tile (bit 0) then the bottom-right
# (bit 1). By hand: the viewport is 5 * 2 + 1 = 11 by 5 * 2 + 3 = 13 pixels, scaled by
# min(64 // 11, 64 // 13) = 4 and centred at offsets (10, 6); tile (c, r) covers viewport pixels
# 1 + 5c .. 4 + 5c, so frame columns 14 + 20c .. 29 + 20c and rows 10 + 20r .. 25 + 20r; the marks
# sit on viewport row 11 (frame rows 50-53), mark k at viewport column 1 + 2k (frame 14 + 8k).
SHOW = Level.make("sequence-tiles", [[1, 0], [0, 2]])


def _tile(frame: np.ndarray, c: int, r: int) -> np.ndarray:
    return frame[10 + 20 * r : 26 + 20 * r, 14 + 20 * c : 30 + 20 * c]


def _mark(frame: np.ndarray, k: int) -> np.ndarray:
    return frame[50:54, 14 + 8 * k : 18 + 8 * k]


def _lit(frame: np.ndarray) -> list[tuple[int, int, int]]:
    """(c, r, colour) of every tile not dark grey."""
    return [
        (c, r, int(_tile(frame, c, r)[0, 0]))
        for r in (0, 1)
        for c in (0, 1)
        if (_tile(frame, c, r) != 3).any()
    ]


def test_the_show_is_the_reset_animation_and_a_wrong_click_loses() -> None:
    session = Session(GAMES["sequence-tiles"], SHOW)
    assert [_lit(frame) for frame in session.frames] == [[(0, 0, 11)], [], [(1, 1, 11)], []]
    first = session.frames[0]
    assert (_tile(first, 0, 0) == 11).all() and (first[:6] == 4).all() and (first[:, :10] == 4).all()
    assert (first[26:30, 14:50] == 5).all()  # the gap between the rows of tiles
    assert (_mark(first, 0) == 2).all() and (_mark(first, 1) == 2).all() and (first[50:54, 18:22] == 5).all()
    session.step(Move.click(40, 20))  # the top-right tile, which never lights
    assert session.lost and _lit(session.frame) == [(1, 0, 8)]
    session.reset()
    assert len(session.frames) == 4 and not session.over


def test_right_clicks_flash_their_tile_and_fill_the_marks() -> None:
    session = Session(GAMES["sequence-tiles"], SHOW)
    session.step(Move.click(5, 5))  # the letterbox: nothing happens
    assert _lit(session.frame) == [] and (_mark(session.frame, 0) == 2).all()
    session.step(Move.click(20, 20))
    assert [_lit(frame) for frame in session.frames] == [[(0, 0, 11)], []]
    assert (_mark(session.frame, 0) == 14).all() and (_mark(session.frame, 1) == 2).all()
    session.step(Move.click(44, 40))
    assert session.won and (_mark(session.frame, 1) == 14).all()


# odd-one-out rows: [round, slot, form, hue, size, turn]. Round 0: two red T's (form 0, hue 0) and a
# blue one (hue 1) in slots 0, 4 and 8; round 1: three small blue L's (form 1) and a large one.
ODD = Level.make(
    "odd-one-out",
    [
        [0, 0, 0, 0, 1, 0],
        [0, 4, 0, 0, 1, 0],
        [0, 8, 0, 1, 1, 0],
        [1, 1, 1, 1, 1, 0],
        [1, 3, 1, 1, 1, 0],
        [1, 5, 1, 1, 2, 0],
        [1, 7, 1, 1, 1, 0],
    ],
)
# By hand: the viewport is 24 x 27 pixels (a 3-pixel strip over a 3x3 board of 8-pixel slots),
# scaled by min(64 // 24, 64 // 27) = 2 at offsets (8, 5): viewport (vx, vy) is frame (8 + 2 vx,
# 5 + 2 vy). A small T is 3 x 2 pixels, centred in its slot at (+2, +3): slot 0's bar covers viewport
# (2-4, 6), frame columns 12-17 and rows 17-18, and its stem viewport (3, 7), frame (14-15, 19-20).
# Round k's mark is viewport (1 + 3k .. 2 + 3k, 1), frame columns 10 + 6k .. 13 + 6k, rows 7-8.


def test_odd_one_out_first_frame_by_hand_and_a_wrong_click_loses() -> None:
    session = Session(GAMES["odd-one-out"], ODD)
    frame = session.frame
    assert (frame[17:19, 12:18] == 8).all() and (frame[19:21, 14:16] == 8).all()
    assert (frame[19:21, 12:14] == 5).all() and (frame[19:21, 16:18] == 5).all()
    assert (frame[17 + 16 : 19 + 16, 12 + 16 : 18 + 16] == 8).all()  # slot 4, one slot down and right
    assert (frame[17 + 32 : 19 + 32, 12 + 32 : 18 + 32] == 9).all()  # slot 8, the blue one
    assert (
        (frame[7:9, 10:14] == 3).all() and (frame[7:9, 16:20] == 3).all() and (frame[7:9, 22:26] == 5).all()
    )
    assert int((frame == 8).sum()) == 2 * 16 and int((frame == 9).sum()) == 16
    session.step(Move.click(12 + 32 + 8, 17 + 8))  # slot 2: empty, nothing happens
    assert np.array_equal(session.frame, frame) and not session.over
    session.step(Move.click(16, 18))  # slot 0: a red T, not the odd one
    assert session.lost and (session.frame[7:9, 10:14] == 8).all()


def test_odd_one_out_right_clicks_show_the_next_round_then_win() -> None:
    session = Session(GAMES["odd-one-out"], ODD)
    session.step(Move.click(50, 52))  # slot 8, anywhere in its square
    frame = session.frame
    assert (frame[7:9, 10:14] == 0).all() and (frame[7:9, 16:20] == 3).all() and not session.over
    assert int((frame == 8).sum()) == 0 and int((frame == 9).sum()) == 3 * 16 + 64  # three small L's, a large
    session.step(Move.click(8 + 32 + 6, 5 + 22 + 6))  # slot 5 (row 1, column 2): the large L
    assert session.won and (session.frame[7:9, 16:20] == 0).all()


# symmetry-draw: a 4x2 board, a vertical axis, the left half fixed; palette 1 red (8), 2 blue (9),
# red selected. The right half lacks a red cell at (3, 0) and a blue one at (2, 1).
MIRROR = Level.make(
    "symmetry-draw", [[1, 0, 0, 0], [2, 2, 0, 2]], axis=0, locked=0, hue1=8, hue2=9, selected=1
)
# By hand: the viewport is 3 * 4 + 1 = 13 by 3 * 2 + 5 = 11 pixels, scaled by min(64 // 13, 64 // 11)
# = 4 at offsets (6, 10). Cell (c, r) is viewport (1 + 3c, 1 + 3r), 2x2 pixels: frame columns
# 10 + 12c .. 17 + 12c, rows 14 + 12r .. 21 + 12r. The axis is viewport column 6 (frame 30-33) over
# rows 0-6 (frame 10-37); swatch e is viewport (1 + 3(e - 1), 7), frame columns 10 + 12(e - 1) on
# rows 38-45; the mark is viewport row 9, frame rows 46-49, under the selected swatch.


def _board_cell(frame: np.ndarray, c: int, r: int) -> np.ndarray:
    return frame[14 + 12 * r : 22 + 12 * r, 10 + 12 * c : 18 + 12 * c]


def test_symmetry_draw_first_frame_by_hand() -> None:
    frame = Session(GAMES["symmetry-draw"], MIRROR).frame
    expected = {(0, 0): 8, (1, 0): 3, (2, 0): 2, (3, 0): 2, (0, 1): 9, (1, 1): 9, (2, 1): 2, (3, 1): 9}
    for (c, r), colour in expected.items():
        assert (_board_cell(frame, c, r) == colour).all(), (c, r)
    assert (frame[10:38, 30:34] == 0).all() and (frame[38:42, 30:34] == 5).all()
    assert (frame[38:46, 10:18] == 8).all() and (frame[38:46, 22:30] == 9).all()
    assert (frame[46:50, 10:18] == 0).all() and (frame[46:50, 22:30] == 5).all()
    assert (frame[:10] == 4).all() and (frame[:, :6] == 4).all()


def test_symmetry_draw_clicks_paint_undo_select_and_win() -> None:
    session = Session(GAMES["symmetry-draw"], MIRROR)
    first = session.frame.copy()
    session.step(Move.click(26, 18))  # the fixed half: nothing happens
    assert np.array_equal(session.frame, first)
    session.step(Move.click(38, 18))  # (2, 0) takes the selected red ...
    assert (_board_cell(session.frame, 2, 0) == 8).all()
    session.step(Move.click(38, 18))  # ... and a second click empties it again
    assert np.array_equal(session.frame, first)
    session.step(Move.click(50, 18))  # (3, 0): red, as its mirror
    session.step(Move.click(26, 42))  # select blue: the mark moves under it
    assert (session.frame[46:50, 22:30] == 0).all() and (session.frame[46:50, 10:18] == 5).all()
    assert not session.over
    session.step(Move.click(38, 30))  # (2, 1): blue, and the board mirrors itself
    assert session.won and (_board_cell(session.frame, 2, 1) == 9).all()


# slide-puzzle: a 2x2 board (the generator never makes one, but the rules hold) of red (8), blue
# (9) and green (14) tiles, the hole bottom right; the picture wants the hole bottom left. A code is
# the colour now plus 16 times the colour the picture shows.
SLIDE = Level.make("slide-puzzle", [[8 + 16 * 8, 9 + 16 * 9], [14, 16 * 14]])
# By hand: the board's rim is 11x11 pixels and the picture's 7x7, two pixels to its right, so the
# viewport is 20 x 11, scaled by min(64 // 20, 64 // 11) = 3 at offsets (2, 15). Board tile (c, r)
# is viewport (1 + 5c, 1 + 5r), 4x4: frame columns 5 + 15c .. 16 + 15c, rows 18 + 15r .. 29 + 15r.
# Picture tile (c, r) is viewport (14 + 3c, 1 + 3r), 2x2: frame columns 44 + 9c .. 49 + 9c, rows
# 18 + 9r .. 23 + 9r.


def _slide_tile(frame: np.ndarray, c: int, r: int) -> np.ndarray:
    return frame[18 + 15 * r : 30 + 15 * r, 5 + 15 * c : 17 + 15 * c]


def test_slide_puzzle_frame_by_hand_and_arrows_move_tiles_their_way() -> None:
    session = Session(GAMES["slide-puzzle"], SLIDE)
    frame = session.frame.copy()
    assert [int(_slide_tile(frame, c, r)[0, 0]) for r in (0, 1) for c in (0, 1)] == [8, 9, 14, 5]
    assert all(
        (_slide_tile(frame, c, r) == _slide_tile(frame, c, r)[0, 0]).all() for r in (0, 1) for c in (0, 1)
    )
    picture = [int(frame[18 + 9 * r, 44 + 9 * c]) for r in (0, 1) for c in (0, 1)]
    assert picture == [8, 9, 5, 14] and (frame[18:24, 44:50] == 8).all()
    assert (frame[15:18, 2:35] == 2).all() and (frame[15:48, 2:5] == 2).all()  # the board's rim
    assert (frame[15:36, 41:44] == 2).all() and (frame[:15] == 4).all()  # the picture's rim, the letterbox
    for key in (UP, Move("ACTION3")):  # no tile below or right of the hole: nothing moves
        session.step(key)
        assert np.array_equal(session.frame, frame)
    session.step(DOWN)  # the blue tile above the hole comes down
    assert [int(_slide_tile(session.frame, c, r)[0, 0]) for r in (0, 1) for c in (0, 1)] == [8, 5, 14, 9]
    session.step(UP)
    assert np.array_equal(session.frame, frame) and not session.over
    session.step(RIGHT)  # the green tile left of the hole slides right: the picture
    assert session.won
    assert [int(_slide_tile(session.frame, c, r)[0, 0]) for r in (0, 1) for c in (0, 1)] == [8, 9, 5, 14]


# coin-gate: 1 wall, 2 start, 3 exit, 4 coin, 5 gate. The gate asks for one coin, but the straight
# way to it takes two; the way round below takes one.
COINS = Level.make("coin-gate", [[1] * 7, [1, 2, 4, 4, 5, 3, 1], [1, 0, 0, 0, 1, 1, 1], [1] * 7], need=1)
# By hand: cells are 2 pixels, the maze 7x4 plus a strip row, so the viewport is 14 x 10 pixels,
# scaled by min(64 // 14, 64 // 10) = 4 at offsets (4, 12): cell (cx, cy) covers frame columns
# 4 + 8cx .. 11 + 8cx and rows 12 + 8cy .. 19 + 8cy; the strip is cell row 4.


def _coin_cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[12 + 8 * cy : 20 + 8 * cy, 4 + 8 * cx : 12 + 8 * cx]


def test_coin_gate_frame_by_hand_and_the_gate_opens_only_at_the_count() -> None:
    session = Session(GAMES["coin-gate"], COINS)
    frame = session.frame
    expected = {
        (0, 0): 2,
        (1, 1): 9,
        (2, 1): 11,
        (3, 1): 11,
        (4, 1): 12,
        (5, 1): 14,
        (1, 2): 5,
        (0, 4): 12,
        (1, 4): 5,
    }
    for (cx, cy), colour in expected.items():
        assert (_coin_cell(frame, cx, cy) == colour).all(), (cx, cy)
    session.step(RIGHT)  # one coin: the first socket turns yellow and the gate shows a checker
    assert (_coin_cell(session.frame, 0, 4) == 11).all()
    gate = _coin_cell(session.frame, 4, 1)
    assert (gate[:4, :4] == 12).all() and (gate[4:, 4:] == 12).all() and (gate[:4, 4:] == 5).all()
    session.step(RIGHT)  # a second coin: one too many, shown red; the gate shuts again
    assert (_coin_cell(session.frame, 1, 4) == 8).all() and (_coin_cell(session.frame, 4, 1) == 12).all()
    before = session.frame.copy()
    session.step(RIGHT)  # the shut gate stops the player
    assert np.array_equal(session.frame, before) and not session.over
    session.reset()
    for key in (DOWN, RIGHT, RIGHT, UP, RIGHT):  # round below, one coin, then through the open gate
        session.step(key)
    assert (_coin_cell(session.frame, 4, 1)[:4, :4] == 9).all() and not session.won
    session.step(RIGHT)
    assert session.won


# lever-lift: 1 rock, 2 start, 3 door, 4 a lever raising lift A, 8 lift A's platform, 9 its shaft.
# The player starts on a pillar; the ground beyond the shaft is two cells above the ground before it.
LIFT = Level.make(
    "lever-lift",
    [
        [1, 1, 1, 1, 1, 1],
        [1, 0, 0, 9, 0, 1],
        [1, 2, 0, 9, 3, 1],
        [1, 1, 0, 9, 1, 1],
        [1, 1, 4, 9, 1, 1],
        [1, 1, 1, 8, 1, 1],
        [1, 1, 1, 1, 1, 1],
    ],
)
# By hand: cells are 4 pixels, so the viewport is 24 x 28, scaled by min(64 // 24, 64 // 28) = 2 at
# offsets (8, 4): cell (cx, cy) covers frame columns 8 + 8cx .. 15 + 8cx, rows 4 + 8cy .. 11 + 8cy.


def _lift_cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[4 + 8 * cy : 12 + 8 * cy, 8 + 8 * cx : 16 + 8 * cx]


def _player_cell(frame: np.ndarray) -> tuple[int, int]:
    ys, xs = np.nonzero(frame == 9)
    return (int(xs.min()) - 8) // 8, (int(ys.min()) - 4) // 8


def test_lever_lift_frame_by_hand() -> None:
    frame = Session(GAMES["lever-lift"], LIFT).frame
    assert (_lift_cell(frame, 0, 0) == 3).all() and (_lift_cell(frame, 1, 2) == 9).all()
    assert (_lift_cell(frame, 2, 2) == 5).all() and (_lift_cell(frame, 3, 5) == 12).all()
    assert all((_lift_cell(frame, 3, cy) == 4).all() for cy in (1, 2, 3, 4))  # the shaft
    door = _lift_cell(frame, 4, 2)
    assert (door[:2] == 14).all() and (door[2:, :2] == 14).all() and (door[2:, 2:6] == 5).all()
    lever = _lift_cell(frame, 2, 4)  # a triangle pointing up: two pixels wide, then four
    assert (lever[:2] == 5).all() and (lever[2:4, 2:6] == 12).all() and (lever[2:4, :2] == 5).all()
    assert (lever[4:6] == 12).all() and (lever[6:] == 5).all()
    assert (frame[:4] == 4).all() and (frame[:, :8] == 4).all()


def test_lever_lift_falls_animate_a_lever_moves_the_lift_and_steps_are_climbed() -> None:
    session = Session(GAMES["lever-lift"], LIFT)
    session.step(RIGHT)  # off the pillar: a frame for the step, then one per cell fallen
    assert [_player_cell(frame) for frame in session.frames] == [(2, 2), (2, 3), (2, 4)]
    before = session.frame.copy()
    session.step(Move("ACTION3"))  # back left is a two-cell wall: nothing happens
    assert np.array_equal(session.frame, before)
    session.step(RIGHT)  # the platform is down in the shaft: the player steps over and stands on it
    assert _player_cell(session.frame) == (3, 4) and len(session.frames) == 1
    session.step(Move("ACTION5"))  # not on a lever: nothing happens
    session.step(Move("ACTION3"))
    session.step(Move("ACTION5"))  # on the lever: the platform rises a cell
    assert (_lift_cell(session.frame, 3, 4) == 12).all() and (_lift_cell(session.frame, 3, 5) == 4).all()
    session.step(RIGHT)  # a one-cell step up onto the platform ...
    assert _player_cell(session.frame) == (3, 3) and not session.over
    session.step(RIGHT)  # ... and another up to the door
    assert session.won and _player_cell(session.frame) == (4, 2)


def test_lever_lift_climbs_a_step_only_with_headroom() -> None:
    low = Level.make("lever-lift", [[1] * 5, [1, 1, 0, 0, 1], [1, 2, 1, 3, 1], [1] * 5])
    high = Level.make("lever-lift", [[1] * 5, [1, 0, 0, 0, 1], [1, 2, 1, 3, 1], [1] * 5])
    assert not replay(GAMES["lever-lift"], low, [RIGHT, RIGHT])  # rock over the player's head
    assert replay(GAMES["lever-lift"], high, [RIGHT, RIGHT])
    assert GAMES["lever-lift"].solve(low, 100) is None
