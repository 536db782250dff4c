"""What a protocol plays: the learner, the configuration, the seed and the users, resolved once.

A [`ProtocolSpec`][continual_arc.protocol.spec.ProtocolSpec] is made at the edge (the command line, a sweep,
a verifier) from names, and handed down whole: the plays, their schedules and the protocol's end read it and
never look a configuration up again. How the protocol is played (where, in how many processes, with which run
options) is [`ProtocolOptions`][continual_arc.protocol.options.ProtocolOptions]'s, not the spec's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..core.config import Config
from ..core.learner_ref import LearnerRef
from ..core.records import JSONValue
from ..tracks.registry import get_config

__all__ = ["ProtocolSpec"]


@dataclass(frozen=True)
class ProtocolSpec:
    """What to play.

    Attributes:
        learner: the learner by import path and arguments (the reset gets the same).
        config: the configuration, resolved (its own number of users is not used: ``users`` is).
        seed: the run seed.
        users: the number of users.
    """

    learner: LearnerRef
    config: Config
    seed: int = 0
    users: int = 1

    @classmethod
    def named(
        cls,
        learner: str,
        config: str = "arc1",
        *,
        kwargs: Mapping[str, JSONValue] | None = None,
        seed: int = 0,
        users: int = 1,
    ) -> ProtocolSpec:
        """The spec of a learner and a configuration given by name (the edge that resolves them).

        Raises:
            ScheduleError: no configuration is called ``config``.
        """
        return cls(LearnerRef(learner, kwargs or {}), get_config(config), seed, users)
