"""The protocol's plan, written once: its six plays, their schedules, what each waits for, and their order.

Every path that plays a protocol consumes [`PLAN`][continual_arc.protocol.plan.PLAN]:
``continual-arc protocol`` in this process or in a pool of processes ([`play`][continual_arc.protocol.play]),
a sweep's units ([`continual_arc.sweep.units`][continual_arc.sweep.units]) and ``verify``
([`continual_arc.submit.verify`][continual_arc.submit.verify]). None of them lists the plays again.

* ``stream``: the learner on the configuration's stream (no epilogue), from nothing;
* ``held-out``, ``seen``: each frozen test, from the stream's end (its saved state and its task
  names), so each waits for the stream;
* ``stream-reset``, ``held-out-reset``, ``seen-reset``: the same learner built anew and reset
  before every instance: the stream wiped before every slot, each test one instance at a time.
  They wait for nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.config import TESTS, Config
from ..core.records import Phase, Play
from ..play.aliases import SALT_FILE
from ..stream.schedule import Schedule, build_schedule, test_schedule

__all__ = ["PLAN", "PlannedPlay", "ProtocolPlan", "stream_start"]


@dataclass(frozen=True)
class PlannedPlay:
    """One play of the protocol.

    Attributes:
        name: the play's name, which is also its directory's in the protocol directory.
        test: the frozen test it plays, or ``None`` for the stream.
        reset: the learner is reset before every instance (the reference the learner is read against).
        after: the plays it waits for.
    """

    name: Play
    test: Phase | None
    reset: bool
    after: tuple[Play, ...] = ()

    @property
    def from_stream(self) -> bool:
        """Whether it starts from the stream's end, its saved state and task names (a test, not a reset)."""
        return self.test is not None and not self.reset

    def schedule(self, config: Config, seed: int, *, test_width: int | None = None) -> Schedule:
        """Its schedule at ``config`` and ``seed``; a learner's test ``test_width`` instances a round."""
        if self.test is None:
            return build_schedule(config, seed, epilogue=False, reset_each=self.reset)
        return test_schedule(config, seed, self.test, width=1 if self.reset else test_width)


@dataclass(frozen=True)
class ProtocolPlan:
    """The plays of a protocol, in the order they are started.

    The order is a dependency order (a play comes after every play it waits for), and among the
    plays that wait for nothing, the order that lets a learner whose searches are cached (the
    program library) serve repeats rather than run them twice: the held-out test's reset, which
    shares nothing with the stream, starts beside the stream; the stream's reset, which repeats
    the stream's first searches, and the seen test's reset come after; the tests, which repeat
    searches of every kind, start last. The order changes no result.
    """

    plays: tuple[PlannedPlay, ...]

    def __post_init__(self) -> None:
        started: set[str] = set()
        for play in self.plays:
            if play.name in started or not set(play.after) <= started:
                raise ValueError(f"play {play.name!r} is listed twice or before a play it waits for")
            started.add(play.name)

    def __iter__(self) -> Iterator[PlannedPlay]:
        return iter(self.plays)

    def __getitem__(self, name: str) -> PlannedPlay:
        for play in self.plays:
            if play.name == name:
                return play
        raise KeyError(f"no play {name!r} in the protocol; its plays: {', '.join(self.names)}")

    @property
    def names(self) -> tuple[Play, ...]:
        """The plays' names, in order."""
        return tuple(play.name for play in self.plays)

    @property
    def resets(self) -> tuple[PlannedPlay, ...]:
        """The reset plays, in order."""
        return tuple(play for play in self.plays if play.reset)

    def reset_of(self, name: str) -> PlannedPlay:
        """The reset play read against play ``name`` (the stream's or the test's)."""
        test = self[name].test
        return next(play for play in self.resets if play.test == test)

    def schedules(self, config: Config, seed: int, *, test_width: int | None = None) -> dict[str, Schedule]:
        """Every play's schedule, by name (`PlannedPlay.schedule`)."""
        return {play.name: play.schedule(config, seed, test_width=test_width) for play in self.plays}

    def one_by_one(self) -> tuple[PlannedPlay, ...]:
        """The order to play them one after another: the stream, the plays that start from it, the rest.

        A learner that keeps its state only in memory hands the stream's end to the tests before
        anything else is played.
        """
        first = tuple(p for p in self.plays if p.name == Play.STREAM or p.from_stream)
        return first + tuple(p for p in self.plays if p not in first)

    def ready(self, finished: set[str]) -> tuple[PlannedPlay, ...]:
        """The plays not yet ``finished`` whose every play waited for is, in order."""
        return tuple(p for p in self.plays if p.name not in finished and set(p.after) <= finished)


def _protocol_plan() -> ProtocolPlan:
    resets = {test: PlannedPlay(Play.of(test, reset=True), test, reset=True) for test in TESTS}
    return ProtocolPlan(
        (
            PlannedPlay(Play.STREAM, None, reset=False),
            resets[Phase.HELD_OUT],
            PlannedPlay(Play.STREAM_RESET, None, reset=True),
            *(play for test, play in resets.items() if test != Phase.HELD_OUT),
            *(PlannedPlay(Play.of(test), test, reset=False, after=(Play.STREAM,)) for test in TESTS),
        )
    )


PLAN = _protocol_plan()
"""The protocol every path plays."""


def stream_start(out: Path, play: PlannedPlay, state: Path | None) -> tuple[Path | None, Path | None]:
    """Where ``play`` starts in protocol directory ``out``: the saved state and the task names to play under.

    A test starts from ``state`` (the stream's end; ``None`` for a learner that keeps none) under
    the stream's ``alias-salt``; any other play starts from nothing under names of its own.
    """
    if not play.from_stream:
        return None, None
    return state, out / Play.STREAM / SALT_FILE
