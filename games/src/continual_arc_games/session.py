"""Play one level in the engine: reset, step moves, read frames; and a text encoding of frames.

`Session` is the only place the rest of the benchmark touches ``arcengine`` at play time. It
asks the engine for raw numpy frames (the engine's list-of-lists frames cost a conversion per
frame) and keeps the last one as a read-only 64x64 ``uint8`` array.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
from arcengine import ActionInput, FrameDataRaw, GameAction, GameState

from .base import ACTIONS, CLICK, RESET, GameSpec, Level, Move

__all__ = ["FRAME_SIDE", "Session", "decode_frame", "encode_frame", "replay"]

#: Frames are square, of this side, with colours 0-15.
FRAME_SIDE = 64

_SIMPLE = {name: ActionInput(id=GameAction.from_name(name)) for name in ACTIONS if name != CLICK}


class Session:
    """One level of one game, live in the engine, starting from a RESET.

    Args:
        spec: the game.
        level: the level to play.

    Attributes:
        spec: the game.
        level: the level being played.
        moves: the moves played since the last reset (RESET itself not counted).
    """

    def __init__(self, spec: GameSpec, level: Level) -> None:
        self.spec = spec
        self.level = level
        self._game = spec.build(level)
        self._frame = np.zeros((FRAME_SIDE, FRAME_SIDE), dtype=np.uint8)
        self._frames: tuple[np.ndarray, ...] = ()
        self._state = GameState.NOT_PLAYED
        self._actions: tuple[str, ...] = ()
        self.moves = 0
        self.reset()

    def reset(self) -> np.ndarray:
        """Restart the level from its first frame (the engine's RESET); returns that frame."""
        self._apply(_SIMPLE[RESET])
        self.moves = 0
        return self._frame

    def step(self, move: Move) -> np.ndarray:
        """Play one move and return the frame it ends on; a RESET move is `reset`.

        Raises:
            ValueError: the game does not offer this action, or the play has already ended.
        """
        if move.action == RESET:
            return self.reset()
        if move.action not in self._actions:
            raise ValueError(f"{self.spec.id} does not offer {move.action}; it offers {self._actions}")
        if self.over:
            raise ValueError("the play has ended (won or lost): reset before another move")
        if move.action == CLICK:
            self._apply(ActionInput(id=GameAction.ACTION6, data={"x": move.x, "y": move.y}))
        else:
            self._apply(_SIMPLE[move.action])
        self.moves += 1
        return self._frame

    def _apply(self, action: ActionInput) -> None:
        data = self._game.perform_action(action, raw=True)
        if not isinstance(data, FrameDataRaw):  # the engine's return type is a union
            raise TypeError("the engine ignored raw=True")
        self._state = data.state
        self._actions = tuple(ACTIONS[i] for i in data.available_actions)
        self._frames = tuple(_read_only(frame) for frame in data.frame)
        if self._frames:
            self._frame = self._frames[-1]

    @property
    def frame(self) -> np.ndarray:
        """The current 64x64 frame (read-only ``uint8``, colours 0-15)."""
        return self._frame

    @property
    def frames(self) -> tuple[np.ndarray, ...]:
        """Every frame the last move rendered, in order; animations render more than one."""
        return self._frames

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions the game offers (RESET is always allowed besides these)."""
        return self._actions

    @property
    def won(self) -> bool:
        """Whether the level is won."""
        return self._state is GameState.WIN

    @property
    def lost(self) -> bool:
        """Whether the level is lost (only some games can be)."""
        return self._state is GameState.GAME_OVER

    @property
    def over(self) -> bool:
        """Whether the play has ended, won or lost; only a reset continues it."""
        return self.won or self.lost


def _read_only(frame: np.ndarray) -> np.ndarray:
    out = frame.astype(np.uint8)
    out.setflags(write=False)
    return out


def replay(spec: GameSpec, level: Level, moves: Iterable[Move]) -> bool:
    """Whether ``moves``, played in order from the level's start, win it.

    Play stops at the first win or loss; moves after a win are not played and do not undo it.
    """
    session = Session(spec, level)
    for move in moves:
        if session.over:
            break
        session.step(move)
    return session.won


# Colours 0-15 are the letters a-p; each letter is followed by its run length when that is not 1.
_LETTERS = "abcdefghijklmnop"
_RUN = re.compile(r"([a-p])(\d*)")
_HEADER = "f1:"


def encode_frame(frame: np.ndarray) -> str:
    """A compact, deterministic text of a 64x64 frame: run lengths over its row-major cells.

    The text is ``f1:`` followed by runs, each a colour letter (``a`` = 0 ... ``p`` = 15) and its
    length in decimal when longer than one, e.g. ``f1:f4032e64`` for 63 rows of 5 then a row of 4.

    Raises:
        ValueError: the frame is not 64x64 or holds a value outside 0-15.
    """
    cells = np.asarray(frame)
    if cells.shape != (FRAME_SIDE, FRAME_SIDE):
        raise ValueError(f"a frame is {FRAME_SIDE}x{FRAME_SIDE}, got {cells.shape}")
    flat = cells.astype(np.int64).ravel()
    if np.any((flat < 0) | (flat > 15)):
        raise ValueError("frame colours are 0-15")
    # Run starts: the first cell and every cell that differs from the one before it.
    starts = np.flatnonzero(np.concatenate(([True], flat[1:] != flat[:-1])))
    lengths = np.diff(np.append(starts, flat.size))
    parts = [_LETTERS[flat[s]] + (str(n) if n > 1 else "") for s, n in zip(starts, lengths, strict=True)]
    return _HEADER + "".join(parts)


def decode_frame(text: str) -> np.ndarray:
    """The 64x64 ``uint8`` frame that `encode_frame` encoded.

    Raises:
        ValueError: the text is not a well-formed encoding of 4096 cells.
    """
    if not text.startswith(_HEADER):
        raise ValueError("not a frame encoding (expected the f1: header)")
    body = text[len(_HEADER) :]
    values: list[int] = []
    lengths: list[int] = []
    position = 0
    for match in _RUN.finditer(body):
        if match.start() != position or match.group(2).startswith("0"):
            break
        values.append(_LETTERS.index(match.group(1)))
        lengths.append(int(match.group(2) or 1))
        position = match.end()
    if position != len(body) or sum(lengths) != FRAME_SIDE * FRAME_SIDE:
        raise ValueError("a frame encoding must spell out exactly 4096 cells")
    flat = np.repeat(np.array(values, dtype=np.uint8), lengths)
    return flat.reshape(FRAME_SIDE, FRAME_SIDE)
