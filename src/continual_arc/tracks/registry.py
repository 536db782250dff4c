"""The registry of tracks and configurations, built once at import; and the packs given to this process.

Every schedule names its track and configuration; :func:`get_track` and :func:`get_config` find
them here, and :func:`get_source` finds any track's source by the name a schedule records. A track
whose optional dependency is missing (arc3's engine, which needs Python 3.12) is listed in
:data:`UNAVAILABLE` with the sentence that says what to install, and asking for it raises that.

A rule pack's track (``pack-<name>``, :mod:`continual_arc.tracks.pack`) is not in the repository's
registry: a pack, private or public, is known to a process only once it is given by its folder
(:func:`use_pack`, what ``--pack DIR`` does), and then for the rest of the process. A second pack
of the same name but other files is refused, so a name always means one set of rules.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from ..core.config import Config, ScheduleError
from ..data.pack import PackError, RulePack, load_pack
from .arc1 import ARC1
from .arc2 import ARC2
from .pack import pack_track, track_name
from .sources import TaskSource, UnknownTaskError
from .toy import TOY
from .track import Track

ARC3: Track | None = None
# arc3 runs on ARC Prize's engine and the games package on it (games/), an optional extra that
# installs only on Python 3.12+. Where either is not installed, the track's modules (NumPy among them)
# are not imported at all, so the other tracks' commands start without paying for them.
if all(importlib.util.find_spec(name) is not None for name in ("arcengine", "continual_arc_games")):
    from .arc3.track import ARC3

__all__ = [
    "CONFIGS",
    "CONFIG_ALIASES",
    "TRACKS",
    "UNAVAILABLE",
    "config_alias_note",
    "get_config",
    "get_source",
    "get_track",
    "pack_in_use",
    "source_names",
    "use_pack",
]

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

CONFIG_ALIASES: Mapping[str, str] = MappingProxyType({"arc1-small": "arc1"})
"""Older names of configurations, still accepted: the paper's runs name arc1 ``arc1-small``."""

_SOURCE_TRACK: Mapping[str, Track] = MappingProxyType(
    {name: track for track in TRACKS.values() for name in track.factories}
)

_PACKS: dict[str, tuple[RulePack, Track]] = {}
"""The packs given to this process and their tracks, by track name."""

_PACK_HINT = "a rule pack's track is known once its pack is given (--pack DIR)"


def use_pack(root: Path | str) -> tuple[RulePack, Track]:
    """Load a pack from its folder and make its track known to this process; the pack and its track.

    Raises:
        PackError: the pack cannot be loaded (:func:`~continual_arc.data.pack.load_pack`), or a pack
            of the same name but another manifest was given before.
    """
    pack = load_pack(root)
    name = track_name(pack.name)
    if name in _PACKS:
        used, track = _PACKS[name]
        if used.digest != pack.digest:
            raise PackError(
                f"a pack named {pack.name} with another manifest is already in use in this process"
            )
        return pack, track
    track = pack_track(pack)
    _PACKS[name] = (pack, track)
    return pack, track


def pack_in_use(track: str) -> RulePack | None:
    """The pack given to this process whose track is called ``track`` (None: no such pack given)."""
    return _PACKS[track][0] if track in _PACKS else None


def _pack_tracks() -> dict[str, Track]:
    return {name: track for name, (_, track) in _PACKS.items()}


def get_track(name: str) -> Track:
    """The track called ``name``.

    Raises:
        ScheduleError: no track has that name.
    """
    if name in UNAVAILABLE:
        raise ScheduleError(UNAVAILABLE[name])
    tracks = {**TRACKS, **_pack_tracks()}
    if name not in tracks:
        raise ScheduleError(f"no track named {name!r}; known: {', '.join(sorted(tracks))} ({_PACK_HINT})")
    return tracks[name]


def get_config(name: str) -> Config:
    """The configuration named ``name`` (or by an older name, :data:`CONFIG_ALIASES`).

    Raises:
        ScheduleError: no configuration has that name.
    """
    name = CONFIG_ALIASES.get(name, name)
    if name not in CONFIGS and _UNAVAILABLE_CONFIGS.get(name) in UNAVAILABLE:
        raise ScheduleError(UNAVAILABLE[_UNAVAILABLE_CONFIGS[name]])
    configs = {**CONFIGS, **{c.name: c for track in _pack_tracks().values() for c in track.configs}}
    if name not in configs:
        raise ScheduleError(
            f"no configuration named {name!r}; known: {', '.join(sorted(configs))} ({_PACK_HINT})"
        )
    return configs[name]


def config_alias_note(name: str) -> str | None:
    """A note when ``name`` is an older name of a configuration (:data:`CONFIG_ALIASES`), else ``None``."""
    if name not in CONFIG_ALIASES:
        return None
    return (
        f"{name} is the paper's name of {CONFIG_ALIASES[name]} (runs before v0.6.0 named configurations "
        f"by size); playing {CONFIG_ALIASES[name]}, whose streams are the same slot for slot"
    )


def get_source(name: str) -> TaskSource:
    """The source a schedule records by ``name`` (``"arc1/rearc"``, ...), built once, then shared.

    Raises:
        UnknownTaskError: no track offers a source of that name.
    """
    owners = {**_SOURCE_TRACK, **{n: t for t in _pack_tracks().values() for n in t.factories}}
    if name not in owners:
        raise UnknownTaskError(
            f"no task source named {name!r}; known: {', '.join(source_names())} ({_PACK_HINT})"
        )
    return owners[name].source_named(name)


def source_names() -> tuple[str, ...]:
    """Every source name, sorted (the given packs' too)."""
    return tuple(sorted({*_SOURCE_TRACK, *(n for t in _pack_tracks().values() for n in t.factories)}))
