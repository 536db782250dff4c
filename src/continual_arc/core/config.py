"""What a configuration is: a track's tasks, the stream process's parameters and the environment's rules.

The configurations themselves are declared by the tracks (`continual_arc.tracks`); the
schedules built from them are the stream stage's (`continual_arc.stream`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .environment import EnvSettings
from .errors import ContinualArcError
from .records import Phase

__all__ = [
    "CANONICAL_SEEDS",
    "CANONICAL_USERS",
    "TESTS",
    "Config",
    "ProcessParams",
    "ScheduleError",
]

CANONICAL_USERS = (1, 2, 4, 8, 16)
"""The canonical numbers of users."""

CANONICAL_SEEDS = (0, 1, 2)
"""The canonical seeds (the leaderboard compares seed 0)."""

TESTS = (Phase.HELD_OUT, Phase.SEEN)
"""The two frozen tests."""


class ScheduleError(ContinualArcError, ValueError):
    """A configuration or schedule that cannot be built, or a schedule file that cannot be trusted."""


@dataclass(frozen=True)
class ProcessParams:
    """The parameters of the stream process ([`continual_arc.stream.process`][continual_arc.stream.process]).

    Attributes:
        arrival_rate: new tasks per step (Poisson).
        max_active: the most tasks in a spell at once.
        spell_mean: the mean length of a spell, in instances (geometric, at least 1).
        rest_median: the median rest after a spell, in steps (log-normal).
        rest_sigma: the log-normal's sigma.
    """

    arrival_rate: float = 0.5
    max_active: int = 5
    spell_mean: float = 4.0
    rest_median: float = 30.0
    rest_sigma: float = 0.8

    def __post_init__(self) -> None:
        if self.arrival_rate <= 0 or self.max_active < 1 or self.spell_mean < 1 or self.rest_median <= 0:
            raise ScheduleError(f"invalid stream process parameters: {self}")


@dataclass(frozen=True)
class Config:
    """A named configuration.

    Attributes:
        name: its name (a track's canonical configuration is named as the track).
        track: the track whose sources it draws from.
        stream_tasks: tasks per user on the stream.
        supply: instances of each stream task.
        held_out: held-out tasks (the held-out test, the epilogue, ``--order fresh``).
        seen_size: the seen test's size when the users bring fewer tasks than this.
        task_seed: the seed of the draws of tasks (stream and held-out).
        process: the stream process's parameters.
        env: the environment's rules.
        users: the number of users (a setting of the run: ``stream.users.with_users``).
        smoke: whether it is a small configuration for tests.
        held_out_instances: instances of each held-out task in the held-out test (arc3 plays
            four fresh levels of each held-out game); left out of
            [`to_dict`][continual_arc.core.config.Config.to_dict] at its default of 1, so the schedules of the
            tracks that serve one keep their bytes.
    """

    name: str
    track: str
    stream_tasks: int = 25
    supply: int = 8
    held_out: int = 100
    seen_size: int = 100
    task_seed: int = 0
    process: ProcessParams = field(default_factory=ProcessParams)
    env: EnvSettings = field(default_factory=EnvSettings)
    users: int = 1
    smoke: bool = False
    held_out_instances: int = 1

    def __post_init__(self) -> None:
        if self.held_out_instances < 1:
            raise ScheduleError(f"{self.name}: held_out_instances must be at least 1")

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON (``env`` includes the derived ``max_cost``)."""
        out = dataclasses.asdict(self)
        out["env"] = self.env.to_dict()
        if self.held_out_instances == 1:
            del out["held_out_instances"]
        return out

    @classmethod
    def from_dict(cls, value: Mapping[str, Any]) -> Config:
        """A configuration from [`to_dict`][continual_arc.core.config.Config.to_dict]'s form.

        Raises:
            ScheduleError: a field is unknown, missing or of the wrong kind.
        """
        try:
            known = {f.name for f in dataclasses.fields(cls)}
            extra = set(value) - known
            if extra:
                raise ScheduleError(f"unknown configuration fields: {', '.join(sorted(extra))}")
            return cls(
                **{
                    **value,
                    "process": ProcessParams(**value["process"]),
                    "env": EnvSettings.from_dict(value["env"]),
                }
            )
        except (TypeError, KeyError, ValueError) as err:
            raise ScheduleError(f"not a valid configuration: {err}") from None
