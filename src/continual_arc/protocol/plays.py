"""The six plays of a protocol: the learner's stream and tests, and its reset on each, with their schedules.

A protocol directory (what ``continual-arc protocol`` writes, and what a submission holds) has one
subdirectory per play, named in [`PROTOCOL_PLAYS`][continual_arc.protocol.plays.PROTOCOL_PLAYS], and their
schedules in ``schedules/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..core.config import Config
from ..core.errors import ContinualArcError
from ..core.records import Phase, Play
from ..measure.summary import Stopped
from ..play.rundir import STOPPED, SUMMARY
from ..play.runner import stop_sentence
from ..stream.schedule import Schedule
from ..stream.users import with_users
from .plan import PLAN

__all__ = [
    "PROTOCOL_PLAYS",
    "ProtocolError",
    "ProtocolStopped",
    "is_protocol_dir",
    "play_finished",
    "protocol_schedules",
    "reset_problem",
    "schedules_for",
]

PROTOCOL_PLAYS: dict[str, Play] = {play.name: play.name for play in PLAN}
"""The directory of each play of a protocol ([`PLAN`][continual_arc.protocol.plan.PLAN]), by name."""


def is_protocol_dir(path: Path) -> bool:
    """Whether ``path`` is laid out as a protocol directory: its schedules, and its stream's play."""
    return (path / "schedules").is_dir() and (path / PROTOCOL_PLAYS[Play.STREAM]).is_dir()


class ProtocolError(ContinualArcError, RuntimeError):
    """A protocol that cannot be played or read as asked."""


class ProtocolStopped(ProtocolError):
    """The spend cap stopped one play or more: the protocol ends there, every committed round kept.

    Attributes:
        stopped: each stopped play's stop (its ``stopped.json``), by play name.
    """

    def __init__(self, stopped: Mapping[str, Stopped]) -> None:
        self.stopped = dict(stopped)
        super().__init__(
            "; ".join(f"{PROTOCOL_PLAYS[name]}: {stop_sentence(stop)}" for name, stop in self.stopped.items())
        )


def play_finished(play_dir: Path) -> bool:
    """Whether the play in ``play_dir`` ended: its ``summary.json`` written, and not by a stop at the cap."""
    return (play_dir / SUMMARY).exists() and not (play_dir / STOPPED).exists()


def protocol_schedules(config: Config, seed: int, users: int) -> dict[str, Schedule]:
    """The schedule of each play of ``config`` served to ``users`` users (`schedules_for`)."""
    return schedules_for(with_users(config, users), seed)


def schedules_for(config: Config, seed: int, *, test_width: int | None = None) -> dict[str, Schedule]:
    """The schedule of each play: the stream (no epilogue), its reset, each test and its reset (width 1).

    Args:
        config: the configuration, with its number of users.
        seed: the run seed.
        test_width: play the learner's tests this many instances a round (every one after a reset
            that restores the end of the stream), instead of one round.
    """
    return PLAN.schedules(config, seed, test_width=test_width)


def reset_problem(run: Mapping[str, object], reset: Mapping[str, object], test: str | None) -> str | None:
    """Why ``reset`` is not the reset reference of ``run`` (their schedules' meta blocks), or ``None``.

    On the stream (``test`` None) the reset plays the same stream wiped before every slot
    (``--reset-each``); on a test, the same test one instance at a time (width 1), or the held-out
    test's instances alone (``--order fresh``). Either way at the run's configuration and seed.
    """
    for key in ("config", "seed"):
        if run.get(key) != reset.get(key):
            return f"the reset was played at {key} {reset.get(key)!r}, the run at {run.get(key)!r}"
    if test is None:
        if run.get("test") is not None or run.get("reset_each"):
            return "the run is not a stream played without resets"
        if reset.get("test") is not None or not reset.get("reset_each"):
            return "the reset is not the stream wiped before every slot (schedule make --reset-each)"
        return None
    fresh = test == Phase.HELD_OUT and reset.get("order") == "fresh"
    if not fresh and (reset.get("test") != test or reset.get("width") != 1):
        return f"the reset is not the {test} test played one instance at a time (--width 1)"
    return None
