"""The committed screen files of the tracks, read and written (the screening itself is `screen`).

Apart from [`screen`][continual_arc.data.screen] so that a track, which needs only its screened pool, does not
import the generators' screening machinery (a process pool among it) when a command starts.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import NotRequired, TypedDict

from ..core.files import atomic_write_text, dumps_json
from ..core.records import JSONObject

__all__ = [
    "SCREENED_TRACKS",
    "ScreenDocument",
    "ScreenEntry",
    "dumps_screen",
    "load_screen",
    "screen_path",
    "screened_pool",
    "write_screen",
]

SCREENED_TRACKS = ("arc1", "arc2")
"""The tracks that have a screen."""

_SCREENS = Path(__file__).parent / "screens"


ScreenEntry = TypedDict(
    "ScreenEntry",
    {
        "draws": int,
        "sub_draws": int,
        "exhausted": int,
        "rejection_rate": float,
        "distinct_input_share": float,
        "rejections": dict[str, int],
        "pass": bool,
        "stopped": NotRequired[str],
        "budget_spent_share": NotRequired[float],
    },
)
"""What a screen keeps of one generator's draws (``pass``, a keyword, hence this form)."""


class ScreenDocument(TypedDict):
    """A track's screen file: its source, the criteria, each task's entry, and the pool that passes."""

    format: int
    track: str
    source: dict[str, str]
    candidates: NotRequired[int]
    no_generator: NotRequired[list[str]]
    criteria: JSONObject
    passed: int
    failed: int
    pool: list[str]
    tasks: dict[str, ScreenEntry]


def dumps_screen(document: ScreenDocument) -> str:
    """The screen document as the canonical text that is committed (sorted keys, final newline)."""
    return dumps_json(document)


def write_screen(document: ScreenDocument, path: Path) -> None:
    """Write a screen document atomically."""
    atomic_write_text(path, dumps_screen(document))


def screen_path(track: str = "arc1") -> Path:
    """The committed screen file of a track."""
    return _SCREENS / f"{track}.json"


@cache
def load_screen(track: str = "arc1") -> ScreenDocument:
    """The committed screen document of a track."""
    document: ScreenDocument = json.loads(screen_path(track).read_text())
    return document


def screened_pool(track: str = "arc1") -> tuple[str, ...]:
    """The sorted task ids that pass a track's screen."""
    return tuple(load_screen(track)["pool"])
