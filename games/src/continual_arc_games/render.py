"""Pictures of levels for the docs: a level's first frame as a PNG in ARC-AGI-3's palette."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .base import GameSpec, Level
from .session import Session

__all__ = ["PALETTE", "frame_to_rgb", "save_frame_png", "save_level_png"]

#: RGB of colours 0-15 as ARC-AGI-3 shows them: white, four greys, black, magenta, pink, red, blue,
#: light blue, yellow, orange, maroon, green, purple.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (0xFF, 0xFF, 0xFF),
    (0xCC, 0xCC, 0xCC),
    (0x99, 0x99, 0x99),
    (0x66, 0x66, 0x66),
    (0x33, 0x33, 0x33),
    (0x00, 0x00, 0x00),
    (0xE5, 0x3A, 0xA3),
    (0xFF, 0x7B, 0xCC),
    (0xF9, 0x3C, 0x31),
    (0x1E, 0x93, 0xFF),
    (0x88, 0xD8, 0xF1),
    (0xFF, 0xDC, 0x00),
    (0xFF, 0x85, 0x1B),
    (0x92, 0x12, 0x31),
    (0x4F, 0xCC, 0x30),
    (0xA3, 0x56, 0xD0),  # purple: ARC-AGI-3 palette A356D0
)


def frame_to_rgb(frame: np.ndarray, pixel: int = 8) -> np.ndarray:
    """An (H * pixel, W * pixel, 3) ``uint8`` image of a frame, each cell a crisp pixel x pixel square.

    Raises:
        ValueError: a colour is outside 0-15 or ``pixel`` is not positive.
    """
    cells = np.asarray(frame)
    if pixel < 1:
        raise ValueError("pixel must be at least 1")
    if np.any((cells < 0) | (cells > 15)):
        raise ValueError("frame colours are 0-15")
    rgb = np.array(PALETTE, dtype=np.uint8)[cells.astype(np.intp)]
    return np.repeat(np.repeat(rgb, pixel, axis=0), pixel, axis=1)


def save_frame_png(frame: np.ndarray, path: str | Path, pixel: int = 8) -> Path:
    """Write a frame as a PNG (needs matplotlib) and return its path."""
    # matplotlib is heavy and only the docs need pictures, so it is imported here, on demand.
    import matplotlib.pyplot as plt

    out = Path(path)
    plt.imsave(out, frame_to_rgb(frame, pixel), format="png")
    return out


def save_level_png(spec: GameSpec, level: Level, path: str | Path, pixel: int = 8) -> Path:
    """Write the first frame of a level (as a player sees it after RESET) as a PNG."""
    return save_frame_png(Session(spec, level).frame, path, pixel)
