"""Frames as text, fast and once each: the encoder the environment uses, and a trajectory's frame table.

The text is [`continual_arc.core.games.encode_frame`][continual_arc.core.games.encode_frame]'s (``f1:`` then
colour runs), computed here from the engine's numpy frame with the runs found by NumPy. A level revisits the
same frames again and again (every attempt starts from the same one), so
[`FrameTexts`][continual_arc.tracks.arc3.frames.FrameTexts] encodes each distinct frame once, keyed by its
bytes. [`FrameTable`][continual_arc.tracks.arc3.frames.FrameTable] numbers the distinct texts of one instance
in the order they first appear, so a trajectory stores each frame once and its events refer to frames by
number.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["FrameTable", "FrameTexts", "frame_text"]

_LETTERS = "abcdefghijklmnop"


def frame_text(frame: np.ndarray) -> str:
    """The text of a 64 x 64 frame of colours 0-15 (see `continual_arc.core.games.encode_frame`).

    Raises:
        ValueError: the frame is not 64 x 64 or holds a colour outside 0-15.
    """
    cells = np.asarray(frame)
    if cells.shape != (64, 64):
        raise ValueError(f"a frame is 64x64, got {cells.shape}")
    flat = cells.ravel()
    if flat.min() < 0 or flat.max() > 15:
        raise ValueError("frame colours are 0-15")
    starts = np.flatnonzero(np.concatenate(([True], flat[1:] != flat[:-1])))
    lengths = np.diff(np.append(starts, flat.size)).tolist()
    colours = flat[starts].tolist()
    runs = [_LETTERS[c] + (str(n) if n > 1 else "") for c, n in zip(colours, lengths, strict=True)]
    return "f1:" + "".join(runs)


class FrameTexts:
    """Encodes frames to text, each distinct frame once (a cache keyed by the frame's bytes)."""

    def __init__(self) -> None:
        self._texts: dict[bytes, str] = {}

    def encode(self, frame: np.ndarray) -> str:
        """The text of ``frame``."""
        key = frame.tobytes()
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = frame_text(frame)
        return text

    def encode_all(self, frames: Iterable[np.ndarray]) -> tuple[str, ...]:
        """The texts of ``frames``, in order."""
        return tuple(self.encode(frame) for frame in frames)


class FrameTable:
    """The distinct frame texts of one instance, numbered in the order they first appear."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def id(self, text: str) -> int:
        """The number of ``text``, given the next number the first time it is seen."""
        number = self._ids.get(text)
        if number is None:
            number = self._ids[text] = len(self._ids)
        return number

    def texts(self) -> list[str]:
        """Every text, by number."""
        return list(self._ids)
