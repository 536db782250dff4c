"""The one registry of tracks and their configurations, built once at import and never changed.

Every schedule names its track and configuration; :func:`get_track` and :func:`get_config` find
them here, and :func:`get_source` finds any track's source by the name a schedule records. A track
whose optional dependency is missing (arc3's engine, which needs Python 3.12) is listed in
:data:`UNAVAILABLE` with the sentence that says what to install, and asking for it raises that.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..core.config import Config, ScheduleError
from .arc1 import ARC1
from .arc2 import ARC2
from .sources import TaskSource, UnknownTaskError
from .toy import TOY
from .track import Track

ARC3: Track | None
try:  # arc3 runs on ARC Prize's engine, an optional extra that installs only on Python 3.12+
    from .arc3.track import ARC3
except ModuleNotFoundError as missing:
    if missing.name != "arcengine":
        raise
    ARC3 = None

__all__ = ["CONFIGS", "TRACKS", "UNAVAILABLE", "get_config", "get_source", "get_track", "source_names"]

TRACKS: Mapping[str, Track] = MappingProxyType(
    {track.name: track for track in (ARC1, ARC2, TOY, ARC3) if track is not None}
)
"""Every track that can run here, by name."""

_ARC3_MISSING = (
    "the arc3 track needs ARC Prize's game engine, which runs on Python 3.12 or later: "
    "install continual-arc[arc3] in a Python 3.12 environment"
)

UNAVAILABLE: Mapping[str, str] = MappingProxyType({} if ARC3 is not None else {"arc3": _ARC3_MISSING})
"""Each known track that cannot run here, with the one sentence that says what to install."""

_UNAVAILABLE_CONFIGS = {"arc3": "arc3", "arc3-smoke": "arc3"}

CONFIGS: Mapping[str, Config] = MappingProxyType(
    {config.name: config for track in TRACKS.values() for config in track.configs}
)
"""Every named configuration: each track's canonical one and its smoke configurations."""

_SOURCE_TRACK: Mapping[str, Track] = MappingProxyType(
    {name: track for track in TRACKS.values() for name in track.factories}
)


def get_track(name: str) -> Track:
    """The track called ``name``.

    Raises:
        ScheduleError: no track has that name.
    """
    if name in UNAVAILABLE:
        raise ScheduleError(UNAVAILABLE[name])
    if name not in TRACKS:
        raise ScheduleError(f"no track named {name!r}; known: {', '.join(sorted(TRACKS))}")
    return TRACKS[name]


def get_config(name: str) -> Config:
    """The configuration named ``name``.

    Raises:
        ScheduleError: no configuration has that name.
    """
    if name not in CONFIGS and _UNAVAILABLE_CONFIGS.get(name) in UNAVAILABLE:
        raise ScheduleError(UNAVAILABLE[_UNAVAILABLE_CONFIGS[name]])
    if name not in CONFIGS:
        raise ScheduleError(f"no configuration named {name!r}; known: {', '.join(sorted(CONFIGS))}")
    return CONFIGS[name]


def get_source(name: str) -> TaskSource:
    """The source a schedule records by ``name`` (``"arc1/rearc"``, ...), built once, then shared.

    Raises:
        UnknownTaskError: no track offers a source of that name.
    """
    if name not in _SOURCE_TRACK:
        raise UnknownTaskError(f"no task source named {name!r}; known: {', '.join(source_names())}")
    return _SOURCE_TRACK[name].source_named(name)


def source_names() -> tuple[str, ...]:
    """Every source name, sorted."""
    return tuple(sorted(_SOURCE_TRACK))
