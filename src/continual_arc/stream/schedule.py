"""Schedules: which instance is served when, to whom, and whether the learner is wiped first.

A [`Schedule`][continual_arc.stream.schedule.Schedule] is a tuple of [`Slot`][continual_arc.stream.slots.Slot]
s and a meta block that says how it was built (configuration, seed, order, users, test and width, rounds cut)
and whether it is canonical. [`build_schedule`][continual_arc.stream.schedule.build_schedule] makes a stream
(with or without the epilogue, or wiped before every slot for the reset reference) and
[`test_schedule`][continual_arc.stream.schedule.test_schedule] one of the two frozen tests. A schedule is
saved as JSON with a format version; loading rebuilds it from its meta and refuses a file whose slots differ
from what the meta describes ([`Schedule.load`][continual_arc.stream.schedule.Schedule.load]).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..core.config import TESTS, Config, ScheduleError
from ..core.documents import DocumentError, parse_schedule_meta
from ..core.files import RecordsError, atomic_write_text, read_json
from ..core.records import ScheduleMeta
from ..tracks.track import Track
from .process import ORDERS
from .protocol_block import protocol_of
from .rows import epilogue_rows, fresh_rows, meta_block, stream_rows, test_rows
from .slots import Slot, annotate, check_history, check_numbering
from .users import track_of

__all__ = [
    "FORMAT",
    "Schedule",
    "ScheduleError",
    "build_schedule",
    "rebuild",
    "test_schedule",
    "verify_schedule",
]

FORMAT = 1
"""The schedule file format this release writes and reads."""


@dataclass(frozen=True)
class Schedule:
    """Slots and the meta block that says how they were made.

    The configuration is parsed from the meta once ([`config`][continual_arc.stream.schedule.Schedule.config])
    and the track resolved once ([`track`][continual_arc.stream.schedule.Schedule.track]): a schedule
    built here carries the track it was built from, and whoever plays or checks it takes the track
    from it instead of looking it up by name again.

    Attributes:
        slots: the slots, in serving order.
        meta: configuration, seed, order, users, test, width, rounds cut, sources, environment
            settings, process parameters and the protocol block.
        built_from: the track the schedule was built from (``None`` for a schedule read from a
            file, whose track is resolved from its configuration when first asked for); never
            compared, copied or pickled, since it is the registry's object, not the schedule's data.
    """

    slots: tuple[Slot, ...]
    meta: ScheduleMeta
    built_from: Track | None = field(default=None, compare=False, repr=False)

    @cached_property
    def config(self) -> Config:
        """The configuration the meta names, parsed once."""
        return Config.from_dict(self.meta["configuration"])

    @cached_property
    def track(self) -> Track:
        """The track the schedule draws from, resolved once.

        Raises:
            ScheduleError: the configuration's track is unknown or cannot run here.
        """
        return self.built_from if self.built_from is not None else track_of(self.config)

    def __getstate__(self) -> dict[str, object]:
        # A copy or a pickle (a schedule sent to a worker process) carries the data, not the track
        # object or the parsed configuration: the receiver resolves them again, once, if it asks.
        state = {k: v for k, v in self.__dict__.items() if k not in ("config", "track")}
        state["built_from"] = None
        return state

    @property
    def rounds(self) -> int:
        """The number of rounds."""
        return self.slots[-1].round + 1 if self.slots else 0

    def round_slots(self) -> list[tuple[Slot, ...]]:
        """The slots grouped by round, in order."""
        groups: dict[int, list[Slot]] = {}
        for slot in self.slots:
            groups.setdefault(slot.round, []).append(slot)
        return [tuple(groups[r]) for r in sorted(groups)]

    def first_rounds(self, rounds: int) -> Schedule:
        """Rounds ``0 .. rounds - 1`` of this schedule, a literal prefix of its slots.

        The meta records the cut, and the protocol block lists it as a deviation.
        """
        if rounds < 1:
            raise ScheduleError("a cut schedule needs at least one round")
        if rounds >= self.rounds:
            return self
        meta: ScheduleMeta = {**self.meta, "rounds_cut": rounds}
        meta["protocol"] = protocol_of(meta)
        return Schedule(tuple(s for s in self.slots if s.round < rounds), meta, self.built_from)

    def to_json(self) -> dict[str, Any]:
        """The schedule as a JSON document."""
        return {"format": FORMAT, "meta": dict(self.meta), "slots": [s.to_json() for s in self.slots]}

    def dumps(self) -> str:
        """The canonical text of the schedule file: the meta indented, one slot per line."""
        meta = json.dumps(dict(self.meta), indent=1, sort_keys=True).replace("\n", "\n ")
        lines = [json.dumps(s.to_json(), sort_keys=True, separators=(",", ":")) for s in self.slots]
        body = ",\n  ".join(lines)
        return f'{{\n "format": {FORMAT},\n "meta": {meta},\n "slots": [\n  {body}\n ]\n}}\n'

    def save(self, path: Path | str) -> None:
        """Write the schedule file atomically."""
        atomic_write_text(path, self.dumps())

    @classmethod
    def load(cls, path: Path | str, *, verify: bool = True) -> Schedule:
        """Read a schedule file.

        Args:
            path: the file.
            verify: rebuild the schedule from its meta and refuse it unless every slot matches.

        Raises:
            ScheduleError: the file does not parse, has another format version, lacks a field,
                or its slots contradict its meta; the message says which and where.
        """
        try:
            document = read_json(path)
        except RecordsError as err:
            raise ScheduleError(f"schedule {err}") from None
        except OSError as err:
            raise ScheduleError(f"cannot read schedule file {path}: {err.strerror}") from None
        return cls.from_json(document, verify=verify, name=str(path))

    @classmethod
    def from_json(cls, document: Any, *, verify: bool = True, name: str = "schedule") -> Schedule:
        """A schedule from its JSON document (see [`load`][continual_arc.stream.schedule.Schedule.load])."""
        if not isinstance(document, Mapping) or not {"format", "meta", "slots"} <= set(document):
            raise ScheduleError(f"{name}: not a schedule file (needs format, meta and slots)")
        if document["format"] != FORMAT:
            raise ScheduleError(
                f"{name}: schedule format {document['format']!r}; this release reads {FORMAT}"
            )
        if not isinstance(document["meta"], Mapping) or not isinstance(document["slots"], list):
            raise ScheduleError(f"{name}: meta must be an object and slots a list")
        slots = tuple(Slot.from_json(value, i) for i, value in enumerate(document["slots"]))
        try:
            meta = parse_schedule_meta(dict(document["meta"]), f"{name}: its meta")
        except DocumentError as err:
            raise ScheduleError(str(err)) from None
        schedule = cls(slots, meta)
        check_numbering(schedule.slots, name)
        if verify and schedule.meta.get("order") != "custom":
            verify_schedule(schedule, name)  # the strongest check: every slot as its meta builds it
        else:
            check_history(schedule.slots, name)
        return schedule


def build_schedule(
    config: Config,
    seed: int,
    *,
    order: str = "workstreams",
    epilogue: bool = True,
    reset_each: bool = False,
    rounds: int | None = None,
) -> Schedule:
    """The stream of ``config`` at ``seed``.

    Args:
        config: the configuration (with its number of users).
        seed: the run seed.
        order: ``workstreams`` (the benchmark's), ``sequential`` or ``random`` (ablations), or
            ``fresh`` (no stream: the held-out tasks alone, wiped before each, at the held-out
            test's own instances).
        epilogue: end with the held-out tasks once each, learning on (not for ``fresh``).
        reset_each: mark every slot ``reset_before`` (the reset reference's stream).
        rounds: keep only the first ``rounds`` rounds
            ([`Schedule.first_rounds`][continual_arc.stream.schedule.Schedule.first_rounds]).
    """
    if order not in ORDERS:
        raise ScheduleError(f"unknown order {order!r}; known: {', '.join(ORDERS)}")
    track = track_of(config)  # once, here at the edge, then passed down
    if order == "fresh":
        if config.users != 1:
            raise ScheduleError("--order fresh serves the held-out test's instances to one user")
        rows = fresh_rows(track, config, seed)
        meta = meta_block(track, config, seed, order="fresh", reset_each=True)
    else:
        rows = stream_rows(track, config, seed, order, reset_each)
        if epilogue:
            rows += epilogue_rows(track, config, seed, config.stream_tasks * config.supply, reset_each)
        meta = meta_block(track, config, seed, order=order, epilogue=epilogue, reset_each=reset_each)
    schedule = Schedule(annotate(rows), meta, track)
    return schedule.first_rounds(rounds) if rounds is not None else schedule


def test_schedule(config: Config, seed: int, test: str, *, width: int | None = None) -> Schedule:
    """One of the two frozen tests.

    ``held-out``: one instance of each held-out task. ``seen``: fresh instances of every user's
    tasks, ``max(seen_size, stream_tasks * users)`` in all, instance ``i`` a task of user
    ``i mod users``. By default the whole test is a single round, each instance its own user, so
    that every instance meets the same state; with ``width`` it is played ``width`` users a round,
    every slot marked ``reset_before``.
    """
    if test not in TESTS:
        raise ScheduleError(f"unknown test {test!r}; known: {', '.join(TESTS)}")
    if width is not None and width < 1:
        raise ScheduleError("--width must be at least 1")
    track = track_of(config)  # once, here at the edge, then passed down
    meta = meta_block(track, config, seed, test=test, width=width, order=None)
    return Schedule(annotate(test_rows(track, config, seed, test, width)), meta, track)


test_schedule.__test__ = False  # type: ignore[attr-defined]  # a contract name, not a pytest test


def rebuild(meta: ScheduleMeta) -> Schedule:
    """The schedule a meta block describes, built afresh."""
    config = Config.from_dict(meta["configuration"])
    if config.users != meta["users"]:
        raise ScheduleError(f"meta says {meta['users']} users but its configuration {config.users}")
    test = meta.get("test")
    if test is not None:
        return test_schedule(config, meta["seed"], test, width=meta.get("width"))
    order = meta["order"]
    if order is None:  # only a frozen test's schedule has no order, and this meta names no test
        raise ScheduleError("meta names neither a frozen test nor an order")
    return build_schedule(
        config,
        meta["seed"],
        order=order,
        epilogue=bool(meta["epilogue"]),
        reset_each=bool(meta["reset_each"]),
        rounds=meta.get("rounds_cut"),
    )


def verify_schedule(schedule: Schedule, name: str = "schedule") -> None:
    """Refuse a schedule whose slots or meta differ from what its meta describes.

    Raises:
        ScheduleError: naming the first slot or meta field that differs.
    """
    meta = schedule.meta
    if meta.get("order") == "custom":
        return
    try:
        expected = rebuild(meta)
    except KeyError as err:
        raise ScheduleError(f"{name}: meta lacks {err}") from None
    if len(schedule.slots) != len(expected.slots):
        count, want_count = len(schedule.slots), len(expected.slots)
        raise ScheduleError(f"{name}: {count} slots, but the schedule its meta describes has {want_count}")
    for got, want in zip(schedule.slots, expected.slots, strict=True):
        if got != want:
            names = [k for k in got.to_json() if getattr(got, k) != getattr(want, k)]
            diff = ", ".join(f"{k} {getattr(got, k)!r} (expected {getattr(want, k)!r})" for k in names)
            raise ScheduleError(f"{name}: slot {got.step} does not match its meta: {diff}")
    for key, wanted in expected.meta.items():
        found = meta.get(key)
        if key == "protocol" and isinstance(found, Mapping) and isinstance(wanted, Mapping):
            # a file from another release keeps its verdict
            found, wanted = {**found, "release": None}, {**wanted, "release": None}
        if found != wanted:
            raise ScheduleError(f"{name}: meta {key} is {meta.get(key)!r}, but its schedule has {wanted!r}")
