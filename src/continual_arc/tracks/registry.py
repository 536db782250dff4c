"""The registry of tracks and configurations: one call registers a track, one entry-point group finds more.

Every schedule names its track and configuration; [`get_track`][continual_arc.tracks.registry.get_track] and
[`get_config`][continual_arc.tracks.registry.get_config] find them here, and
[`get_source`][continual_arc.tracks.registry.get_source] finds any track's source by the name a schedule
records.

Tracks come in three ways, all through [`register_track`][continual_arc.tracks.registry.register_track]:

* the built-in tracks (arc1, arc2, toy) are registered when this module is imported;
* an installed package declares more in the entry-point group
  [`ENTRY_POINT_GROUP`][continual_arc.tracks.registry.ENTRY_POINT_GROUP], each entry naming a
  [`Track`][continual_arc.tracks.track.Track] or a function that returns one. The group is read the first time
  a name is not already known (or the whole registry is listed), so a command that plays arc1 never imports
  another track's modules. An entry whose function raises
  [`TrackUnavailableError`][continual_arc.tracks.track.TrackUnavailableError] (arc3 where its engine is not
  installed) is listed in [`UNAVAILABLE`][continual_arc.tracks.registry.UNAVAILABLE] with its one sentence,
  and asking for it raises that sentence;
* a rule pack's track (``pack-<name>``, [`continual_arc.tracks.pack`][continual_arc.tracks.pack]) is
  registered once its pack is given by its folder ([`use_pack`][continual_arc.tracks.registry.use_pack], what
  ``--pack DIR`` does), for the rest of the process. A second pack of the same name but other files is
  refused, so a name always means one set of rules.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TypeVar

from ..core.config import Config, ScheduleError
from ..data.pack import PackError, RulePack, load_pack
from .arc1 import ARC1
from .arc2 import ARC2
from .pack import pack_track, track_name
from .sources import TaskSource, UnknownTaskError
from .toy import TOY
from .track import Track, TrackUnavailableError

__all__ = [
    "CONFIGS",
    "CONFIG_ALIASES",
    "ENTRY_POINT_GROUP",
    "TRACKS",
    "UNAVAILABLE",
    "config_alias_note",
    "find_config",
    "get_config",
    "get_source",
    "get_track",
    "pack_in_use",
    "register_track",
    "source_names",
    "use_pack",
]

ENTRY_POINT_GROUP = "continual_arc.tracks"
"""The entry-point group where installed packages declare tracks (``name = "module:TRACK"``)."""

CONFIG_ALIASES: Mapping[str, str] = {"arc1-small": "arc1"}
"""Older names of configurations, still accepted: the paper's runs name arc1 ``arc1-small``."""

_V = TypeVar("_V")

_PACK_HINT = "a rule pack's track is known once its pack is given (--pack DIR)"


class _Registry:
    """The tracks this process knows, the packs behind some of them, and the tracks that cannot run here."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._tracks: dict[str, Track] = {}
        self._packs: dict[str, RulePack] = {}
        self._unavailable: dict[str, TrackUnavailableError] = {}
        self._discovered = False

    def register(self, track: Track, pack: RulePack | None) -> Track:
        """Add ``track`` (``pack``'s, if given); the track now registered under its name."""
        with self._lock:
            known = self._tracks.get(track.name)
            if known is not None and known is not track:
                raise ScheduleError(f"a track named {track.name} is already registered in this process")
            self._tracks[track.name] = track
            self._unavailable.pop(track.name, None)
            if pack is not None:
                self._packs[track.name] = pack
            return track

    def discover(self) -> None:
        """Read the entry-point group once: register each track it declares, or note why it cannot run."""
        with self._lock:
            if self._discovered:
                return
            self._discovered = True
            for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
                if entry.name in self._tracks:
                    continue
                try:
                    self.register(_load(entry), None)
                except TrackUnavailableError as why:
                    self._unavailable[entry.name] = why

    def tracks(self, *, packs: bool) -> dict[str, Track]:
        """Every track registered (the packs' too, if ``packs``), after reading the entry points."""
        self.discover()
        with self._lock:
            return {n: t for n, t in self._tracks.items() if packs or n not in self._packs}

    def known(self) -> list[Track]:
        """The tracks registered so far, without reading the entry points."""
        with self._lock:
            return list(self._tracks.values())

    def lookup(self, name: str) -> Track | None:
        """The track ``name``, reading the entry points only when it is not already known."""
        if name not in self._tracks:
            self.discover()
        return self._tracks.get(name)

    def unavailable(self) -> dict[str, TrackUnavailableError]:
        """The declared tracks that cannot run here, each with why."""
        self.discover()
        return dict(self._unavailable)

    def unavailable_config(self, name: str) -> TrackUnavailableError | None:
        """Why the configuration ``name`` cannot run here, when it belongs to an unavailable track."""
        return next((why for why in self.unavailable().values() if name in why.configs), None)

    def pack(self, name: str) -> RulePack | None:
        """The pack behind the track ``name`` (None: not a pack's track, or none given)."""
        return self._packs.get(name)


def _load(entry: EntryPoint) -> Track:
    """The track an entry point declares (a track, or a function returning one).

    Raises:
        TrackUnavailableError: it cannot run here, cannot be imported, or names no track.
    """
    try:
        declared = entry.load()
    except ImportError as err:
        raise TrackUnavailableError(f"the track {entry.name} cannot be loaded here ({err})") from None
    track = declared() if callable(declared) and not isinstance(declared, Track) else declared
    if not isinstance(track, Track):
        raise TrackUnavailableError(f"the entry point {entry.name} ({entry.value}) declares no track")
    return track


_REGISTRY = _Registry()
"""The one registry of this process (the only mutable state of this module)."""


def register_track(track: Track, *, pack: RulePack | None = None) -> Track:
    """Make ``track`` known to this process by its name (a rule pack's track with its ``pack``); the track.

    Registering the same object again changes nothing.

    Raises:
        ScheduleError: another track of that name is registered.
    """
    return _REGISTRY.register(track, pack)


for _builtin in (ARC1, ARC2, TOY):
    register_track(_builtin)


class _View(Mapping[str, _V]):
    """A read-only mapping computed afresh from the registry at each use."""

    def __init__(self, read: Callable[[], Mapping[str, _V]]) -> None:
        self._read = read

    def __getitem__(self, key: str) -> _V:
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def _configs() -> dict[str, Config]:
    return {c.name: c for track in _REGISTRY.tracks(packs=False).values() for c in track.configs}


TRACKS: Mapping[str, Track] = _View(lambda: _REGISTRY.tracks(packs=False))
"""Every installed track that can run here, by name (the packs' tracks are not listed)."""

UNAVAILABLE: Mapping[str, str] = _View(lambda: {n: str(why) for n, why in _REGISTRY.unavailable().items()})
"""Each declared track that cannot run here, with the one sentence that says what to install."""

CONFIGS: Mapping[str, Config] = _View(_configs)
"""Every named configuration of the installed tracks: each track's canonical one and its smoke ones."""


def use_pack(root: Path | str) -> tuple[RulePack, Track]:
    """Load a pack from its folder and register its track in this process; the pack and its track.

    Raises:
        PackError: the pack cannot be loaded ([`load_pack`][continual_arc.data.pack.load_pack]), or a pack
            of the same name but another manifest was given before.
    """
    pack = load_pack(root)
    name = track_name(pack.name)
    used = _REGISTRY.pack(name)
    if used is not None:
        if used.digest != pack.digest:
            raise PackError(
                f"a pack named {pack.name} with another manifest is already in use in this process"
            )
        return pack, _REGISTRY.tracks(packs=True)[name]
    return pack, register_track(pack_track(pack), pack=pack)


def pack_in_use(track: str) -> RulePack | None:
    """The pack given to this process whose track is called ``track`` (None: no such pack given)."""
    return _REGISTRY.pack(track)


def get_track(name: str) -> Track:
    """The track called ``name``.

    Raises:
        ScheduleError: no track has that name, or it cannot run here (the sentence says what to install).
    """
    track = _REGISTRY.lookup(name)
    if track is not None:
        return track
    unavailable = _REGISTRY.unavailable()
    if name in unavailable:
        raise ScheduleError(str(unavailable[name]))
    known = ", ".join(sorted(_REGISTRY.tracks(packs=True)))
    raise ScheduleError(f"no track named {name!r}; known: {known} ({_PACK_HINT})")


def find_config(name: str) -> Config | None:
    """The configuration named ``name`` among every registered track's (None: no such configuration).

    The entry points are read only when no track already known has it.
    """
    for tracks in (_REGISTRY.known, lambda: list(_REGISTRY.tracks(packs=True).values())):
        found = next((c for track in tracks() for c in track.configs if c.name == name), None)
        if found is not None:
            return found
    return None


def get_config(name: str) -> Config:
    """The configuration named ``name`` (or by an older name, `CONFIG_ALIASES`).

    Raises:
        ScheduleError: no configuration has that name, or its track cannot run here.
    """
    name = CONFIG_ALIASES.get(name, name)
    config = find_config(name)
    if config is not None:
        return config
    why = _REGISTRY.unavailable_config(name)
    if why is not None:
        raise ScheduleError(str(why))
    known = sorted(c.name for t in _REGISTRY.tracks(packs=True).values() for c in t.configs)
    raise ScheduleError(f"no configuration named {name!r}; known: {', '.join(known)} ({_PACK_HINT})")


def config_alias_note(name: str) -> str | None:
    """A note when ``name`` is an older name of a configuration (`CONFIG_ALIASES`), else ``None``."""
    if name not in CONFIG_ALIASES:
        return None
    return (
        f"{name} is the paper's name of {CONFIG_ALIASES[name]} (runs before v0.6.0 named configurations "
        f"by size); playing {CONFIG_ALIASES[name]}, whose streams are the same slot for slot"
    )


def _source_owners() -> dict[str, Track]:
    return {name: track for track in _REGISTRY.tracks(packs=True).values() for name in track.factories}


def get_source(name: str) -> TaskSource:
    """The source a schedule records by ``name`` (``"arc1/rearc"``, ...), built once, then shared.

    Raises:
        UnknownTaskError: no track offers a source of that name.
    """
    owner = next((t for t in _REGISTRY.known() if name in t.factories), None)
    owner = owner or _source_owners().get(name)
    if owner is None:
        known = ", ".join(source_names())
        raise UnknownTaskError(f"no task source named {name!r}; known: {known} ({_PACK_HINT})")
    return owner.source_named(name)


def source_names() -> tuple[str, ...]:
    """Every source name, sorted (the given packs' too)."""
    return tuple(sorted(_source_owners()))
