"""Line art inside a board cell: a band from the cell's middle out to some of its sides.

Pipes, beams and belts are all drawn this way. Sides are bits 0-3: north, east, south, west, which a
quarter turn clockwise moves one on; `SIDE_STEPS` gives each side's (dx, dy).
"""

from __future__ import annotations

import numpy as np

from .engine import frame_point
from .layouts import Cell

__all__ = ["SIDE_STEPS", "arms", "band", "middle_of", "odd_cell", "paste"]

#: (dx, dy) of the sides north, east, south, west, by their bit.
SIDE_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def odd_cell(width: int, height: int) -> int:
    """Pixels per cell: the largest odd size that fits ``width`` x ``height`` cells in 64 pixels.

    Odd, so that a cell has a middle pixel a band can run through; the camera then shows the board
    at scale 1 whenever the board is 7 or more cells a side.
    """
    size = 64 // max(width, height)
    return size - 1 + size % 2


def middle_of(cell: Cell, width: int, height: int) -> tuple[int, int]:
    """The frame pixel to click for a cell of a ``width`` x ``height`` board drawn ``odd_cell`` big."""
    size = odd_cell(width, height)
    return frame_point((width * size, height * size), cell[0] * size + size // 2, cell[1] * size + size // 2)


def band(size: int) -> tuple[int, int]:
    """The first and past-the-last pixel of the band across a cell of ``size``: thicker when large."""
    half = size // 6
    return size // 2 - half, size // 2 + half + 1


def arms(sides: int, size: int, colour: int) -> np.ndarray:
    """A cell's pixels: the middle square and a band out to each side in ``sides``; clear elsewhere."""
    lo, hi = band(size)
    pixels = np.full((size, size), -1, dtype=np.int8)
    pixels[lo:hi, lo:hi] = colour
    reach = (
        (slice(0, hi), slice(lo, hi)),
        (slice(lo, hi), slice(lo, size)),
        (slice(lo, size), slice(lo, hi)),
        (slice(lo, hi), slice(0, hi)),
    )
    for side, (rows, cols) in enumerate(reach):
        if sides >> side & 1:
            pixels[rows, cols] = colour
    return pixels


def paste(canvas: np.ndarray, pattern: np.ndarray, x: int, y: int) -> None:
    """Copy a cell's pattern onto ``canvas`` at cell (x, y), leaving the canvas where it is clear."""
    size = pattern.shape[0]
    spot = canvas[y * size : (y + 1) * size, x * size : (x + 1) * size]
    spot[pattern >= 0] = pattern[pattern >= 0]
