"""The committed screen files of the tracks, read and written (the screening itself is :mod:`.screen`).

Apart from :mod:`.screen` so that a track, which needs only its screened pool, does not import the
generators' screening machinery (a process pool among it) when a command starts.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..core.files import atomic_write_text, dumps_json

__all__ = ["SCREENED_TRACKS", "dumps_screen", "load_screen", "screen_path", "screened_pool", "write_screen"]

SCREENED_TRACKS = ("arc1", "arc2")
"""The tracks that have a screen."""

_SCREENS = Path(__file__).parent / "screens"


def dumps_screen(document: dict[str, Any]) -> str:
    """The screen document as the canonical text that is committed (sorted keys, final newline)."""
    return dumps_json(document)


def write_screen(document: dict[str, Any], path: Path) -> None:
    """Write a screen document atomically."""
    atomic_write_text(path, dumps_screen(document))


def screen_path(track: str = "arc1") -> Path:
    """The committed screen file of a track."""
    return _SCREENS / f"{track}.json"


@cache
def load_screen(track: str = "arc1") -> dict[str, Any]:
    """The committed screen document of a track."""
    document: dict[str, Any] = json.loads(screen_path(track).read_text())
    return document


def screened_pool(track: str = "arc1") -> tuple[str, ...]:
    """The sorted task ids that pass a track's screen."""
    return tuple(load_screen(track)["pool"])
