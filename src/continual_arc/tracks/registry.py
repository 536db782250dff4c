"""The one registry of tracks and their configurations, built once at import and never changed.

Every schedule names its track and configuration; :func:`get_track` and :func:`get_config` find
them here, and :func:`get_source` finds any track's source by the name a schedule records.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..core.config import Config, ScheduleError
from .arc1 import ARC1
from .sources import TaskSource, UnknownTaskError
from .toy import TOY
from .track import Track

__all__ = ["CONFIGS", "TRACKS", "get_config", "get_source", "get_track", "source_names"]

TRACKS: Mapping[str, Track] = MappingProxyType({track.name: track for track in (ARC1, TOY)})
"""Every track, by name."""

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
    if name not in TRACKS:
        raise ScheduleError(f"no track named {name!r}; known: {', '.join(sorted(TRACKS))}")
    return TRACKS[name]


def get_config(name: str) -> Config:
    """The configuration named ``name``.

    Raises:
        ScheduleError: no configuration has that name.
    """
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
