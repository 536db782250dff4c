"""The arc3 track: games on ARC Prize's engine, written for this benchmark.

The core's ``continual_arc.tracks`` entry point ``arc3`` names
[`load_track`][continual_arc.tracks.arc3.load_track] (not ``track``: that is the submodule
[`track`][continual_arc.tracks.arc3.track]), which imports the track (and the engine) only when the engine is
installed, and otherwise says in one sentence what to install. The track's configuration names are
[`CONFIG_NAMES`][continual_arc.tracks.arc3.names.CONFIG_NAMES], here and in
[`track`][continual_arc.tracks.arc3.track].
"""

from __future__ import annotations

import importlib.util

from ..track import Track, TrackUnavailableError
from .names import CONFIG_NAMES

__all__ = ["CONFIG_NAMES", "MISSING", "load_public", "load_track"]

MISSING = (
    "the arc3 track needs ARC Prize's game engine and the games on it, which run on Python 3.12 or "
    'later: pip install -e ./games -e ".[arc3]" in a Python 3.12 environment'
)
"""What to install, said when the engine or the games are missing."""


def load_track() -> Track:
    """The arc3 track ([`ARC3`][continual_arc.tracks.arc3.track.ARC3]).

    Raises:
        TrackUnavailableError: the engine (``arcengine``, the arc3 extra) or the games package
            (``continual_arc_games``, from ``games/``) is not installed.
    """
    if any(importlib.util.find_spec(name) is None for name in ("arcengine", "continual_arc_games")):
        raise TrackUnavailableError(MISSING, configs=CONFIG_NAMES)
    # Only now: the track's module imports the engine and the games, known by here to be installed.
    from .track import ARC3

    return ARC3


def load_public() -> Track:
    """The arc3-public track over the games fetched into the data directory.

    See [`public_track`][continual_arc.tracks.arc3.public.public_track].

    Raises:
        TrackUnavailableError: the engine or the games package is missing, or the public games are not
            fetched into the data directory (the sentence says how to fetch them).
    """
    if any(importlib.util.find_spec(name) is None for name in ("arcengine", "continual_arc_games")):
        raise TrackUnavailableError(MISSING, configs=("arc3-public",))
    # only now: the module imports the games package (and so the engine), known by here to be installed
    from .public import load_public_track

    return load_public_track()
