"""What a track is: the sources of its tasks, its configurations, and the environment its instances need.

A track serves two sources of tasks: one for the stream and the seen test (``"stream"``), one for
the held-out test and the epilogue (``"held-out"``);
[`PHASE_SOURCES`][continual_arc.tracks.track.PHASE_SOURCES] says which serves each phase. It declares its
configurations (its canonical one, named as the track, and a smoke one for tests) and the environment an
instance is played in (a grid, or a game level). The runner opens every instance through
[`Track.open`][continual_arc.tracks.track.Track.open], so it never needs to know which kind it serves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..core.config import Config, ProcessParams, ScheduleError
from ..core.environment import AnyEnvironment, EnvSettings
from ..core.records import Phase
from .sources import TaskSource, UnknownTaskError

__all__ = ["PHASE_SOURCES", "ROLES", "Role", "Track", "TrackUnavailableError", "smoke_config"]


class Role(StrEnum):
    """The role a source of a track plays: the stream's tasks (the seen test's too), or the held-out ones."""

    STREAM = "stream"
    HELD_OUT = "held-out"


ROLES = tuple(Role)
"""The two roles of a track's sources."""

PHASE_SOURCES: Mapping[str, Role] = {
    Phase.STREAM: Role.STREAM,
    Phase.SEEN: Role.STREAM,
    Phase.EPILOGUE: Role.HELD_OUT,
    Phase.HELD_OUT: Role.HELD_OUT,
}
"""Which of a track's two sources serves each phase."""


@dataclass(frozen=True, eq=False)
class Track:
    """A track of the benchmark (one object per name in a process, compared and hashed by identity).

    Attributes:
        name: the track's name (``arc1``, ...), also the name of its canonical configuration.
        roles: the name of the source that plays each role (``"stream"``, ``"held-out"``).
        factories: every source the track offers, by name, each built on first use.
        configs: its configurations.
        environment: builds the environment of one instance from the instance and the rules.
        summary: one line about the track, for listings.
        kind: what its instances are: ``"grid"`` (a test input to answer) or ``"game"`` (a level
            to play, arc3), which is how the checker replays them.
        rising: whether an instance depends on its user's exposure to the task (arc3's levels
            rise in difficulty): its sources' ``instance`` then takes ``exposure``.
        code: the importable packages whose code draws the instances, beyond what the sources'
            data versions say (arc3's games, edited in place by a developer); a cached floor is
            keyed by their sources too, so an edit never reads a floor drawn by the old code.
    """

    name: str
    roles: Mapping[str, str]
    factories: Mapping[str, Callable[[], TaskSource]]
    configs: tuple[Config, ...]
    environment: Callable[[Any, EnvSettings], AnyEnvironment]
    summary: str = ""
    kind: str = "grid"
    rising: bool = False
    code: tuple[str, ...] = ()
    _built: dict[str, TaskSource] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def __post_init__(self) -> None:
        if set(self.roles) != set(ROLES) or not set(self.roles.values()) <= set(self.factories):
            raise ValueError(f"track {self.name} must name a known source for each of {ROLES}")

    def source_named(self, name: str) -> TaskSource:
        """The source called ``name`` (built once per process, then shared).

        Raises:
            UnknownTaskError: the track offers no source of that name.
        """
        with self._lock:
            if name not in self._built:
                if name not in self.factories:
                    known = ", ".join(sorted(self.factories))
                    raise UnknownTaskError(f"track {self.name} has no source {name!r}; it has {known}")
                self._built[name] = self.factories[name]()
            return self._built[name]

    @property
    def sources(self) -> dict[str, str]:
        """The name of the source playing each role, the roles as plain strings (as a schedule holds them)."""
        return {str(role): name for role, name in self.roles.items()}

    def source(self, role: Role) -> TaskSource:
        """The source playing ``role``."""
        return self.source_named(self.roles[role])

    def source_for(self, phase: str) -> TaskSource:
        """The source that serves ``phase`` ([`PHASE_SOURCES`][continual_arc.tracks.track.PHASE_SOURCES])."""
        return self.source(PHASE_SOURCES[phase])

    def open(
        self, phase: str, task_id: str, seed: int, settings: EnvSettings, exposure: int | None = 0
    ) -> AnyEnvironment:
        """The environment of instance ``seed`` of ``task_id``, served in ``phase``, under ``settings``.

        ``exposure`` is the times its user met the task before (the slot's ``user_exposure_index``;
        ``None`` or 0 outside a schedule); only a `rising` track reads it.
        """
        source = self.source_for(phase)
        if self.rising:
            instance = source.instance(task_id, seed, exposure=exposure or 0)  # type: ignore[call-arg]
        else:
            instance = source.instance(task_id, seed)
        return self.environment(instance, settings)

    def describe_sources(self) -> dict[str, Any]:
        """Each role's source described (name, kind, data versions), as a run's ``meta.json`` records it."""
        return {role: self.source(role).describe() for role in ROLES}


class TrackUnavailableError(ScheduleError):
    """A declared track that cannot run here: its one sentence says what to install.

    Raised by the function an entry point of ``continual_arc.tracks`` names, instead of returning
    the track, when what the track needs is missing.

    Attributes:
        configs: the names of the track's configurations, so that asking for one says the same.
    """

    def __init__(self, message: str, configs: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.configs = configs


def smoke_config(name: str, track: str, task_seed: int) -> Config:
    """A small configuration for tests: 3 stream tasks of 3 instances, 4 held-out tasks, 6 seen instances."""
    return Config(
        name=name,
        track=track,
        stream_tasks=3,
        supply=3,
        held_out=4,
        seen_size=6,
        task_seed=task_seed,
        process=ProcessParams(
            arrival_rate=0.5, max_active=2, spell_mean=2.0, rest_median=3.0, rest_sigma=0.5
        ),
        smoke=True,
    )
