"""The session adapter on hand-made levels whose frames are worked out by hand, and replay."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.session import Session, replay

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
