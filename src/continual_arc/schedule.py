"""Schedules: which instance is served when, to whom, and whether the learner is wiped first.

A :class:`Schedule` is a tuple of :class:`Slot` s and a meta block that says how it was built
(configuration, seed, order, users, test and width, rounds cut) and whether it is canonical. It
is saved as JSON with a format version; loading rebuilds it from its meta and refuses a file whose
slots differ from what the meta describes (:meth:`Schedule.load`).

The one stream process (:func:`stream_process`) serves one user's tasks as work arrives: new tasks
arrive by a Poisson process into a queue of ready tasks; at most ``max_active`` tasks are in a
spell at once, filled from the queue in order of readiness; each step serves a task chosen
uniformly among those in a spell; a spell lasts a geometric (discrete exponential) number of
instances; a task whose spell ends rests a log-normal number of steps before it is ready again; a
task leaves once its supply is served; and when no task is in a spell, the earliest resting one
starts early (or, before any rests, the next arrival comes forward). The orders ``sequential`` and
``random`` rearrange the same visits (one task at a time, or shuffled).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

__all__ = [
    "FORMAT",
    "ORDERS",
    "PHASES",
    "ProcessParams",
    "ProcessTrace",
    "Schedule",
    "ScheduleError",
    "Slot",
    "annotate",
    "reorder",
    "stream_process",
    "trace_statistics",
]

FORMAT = 1
"""The schedule file format this release writes and reads."""

PHASES = ("stream", "epilogue", "held-out", "seen")
"""The phases a slot may belong to; ``held-out`` and ``seen`` are the frozen tests."""

ORDERS = ("workstreams", "sequential", "random", "fresh")
"""The orders a schedule may be built in (``workstreams`` is the benchmark's)."""


class ScheduleError(ValueError):
    """A schedule that cannot be built, or a schedule file that cannot be trusted."""


@dataclass(frozen=True)
class Slot:
    """One instance served in a schedule.

    Attributes:
        step: the slot's index in the schedule.
        round: the round it belongs to (one instance per user per round).
        user: whose instance it is.
        phase: ``stream``, ``epilogue``, ``held-out`` or ``seen``.
        task_id: the real task id.
        seed: the instance seed.
        reset_before: whether the learner is reset before this slot.
        exposure_index: rounds, over the whole team, in which the task was served before.
        gap: rounds since the task was last served to anyone (``None`` on its first exposure).
        user_exposure_index: times this user met the task before.
        user_gap: this user's own steps since they last met the task (``None`` the first time).
    """

    step: int
    round: int
    user: int
    phase: str
    task_id: str
    seed: int
    reset_before: bool
    exposure_index: int = 0
    gap: int | None = None
    user_exposure_index: int = 0
    user_gap: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The slot as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, value: Any, index: int) -> Slot:
        """A slot from its JSON object, with an error naming the slot when a field is wrong."""
        if not isinstance(value, Mapping):
            raise ScheduleError(f"slot {index} is not a JSON object")
        names = {f.name for f in fields(cls)}
        missing = names - set(value)
        if missing:
            raise ScheduleError(f"slot {index} lacks {', '.join(sorted(missing))}")
        for name in ("step", "round", "user", "seed", "exposure_index", "user_exposure_index"):
            if not isinstance(value[name], int) or isinstance(value[name], bool):
                raise ScheduleError(f"slot {index}: {name} is {value[name]!r}, not an integer")
        for name in ("gap", "user_gap"):
            if value[name] is not None and (
                not isinstance(value[name], int) or isinstance(value[name], bool)
            ):
                raise ScheduleError(f"slot {index}: {name} is {value[name]!r}, not an integer or null")
        if not isinstance(value["reset_before"], bool):
            raise ScheduleError(f"slot {index}: reset_before is {value['reset_before']!r}, not true or false")
        if not isinstance(value["task_id"], str) or value["phase"] not in PHASES:
            raise ScheduleError(
                f"slot {index}: task_id must be a string and phase one of {', '.join(PHASES)}"
            )
        return cls(**{name: value[name] for name in names})


@dataclass(frozen=True)
class ProcessParams:
    """The parameters of the stream process (see the module docstring).

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


@dataclass
class ProcessTrace:
    """What the stream process did: the visits it served and the draws behind them.

    Attributes:
        visits: the task served at each step.
        spells: the length of every spell started, in instances.
        rests: the length of every rest drawn, in steps.
        active: the number of tasks in a spell at each step.
    """

    visits: list[str] = field(default_factory=list)
    spells: list[int] = field(default_factory=list)
    rests: list[int] = field(default_factory=list)
    active: list[int] = field(default_factory=list)


def _geometric(rng: random.Random, mean: float) -> int:
    """A geometric draw (support 1, 2, ...) with the given mean, by inversion."""
    if mean <= 1:
        return 1
    p = 1.0 / mean
    return 1 + int(math.log(1.0 - rng.random()) / math.log(1.0 - p))


class _Process:
    """The state of one run of the stream process."""

    def __init__(self, tasks: Sequence[str], supply: int, params: ProcessParams, rng: random.Random) -> None:
        self.params, self.rng = params, rng
        order = sorted(tasks)
        rng.shuffle(order)
        self.arrivals: list[tuple[float, str]] = []
        clock = 0.0
        for i, task in enumerate(order):
            clock += rng.expovariate(params.arrival_rate) if i else 0.0
            self.arrivals.append((clock, task))
        self.left = dict.fromkeys(order, supply)
        self.ready: list[tuple[float, int, str]] = []
        self.resting: dict[str, int] = {}
        self.active: list[list[Any]] = []  # [task, instances left in the spell]
        self.trace = ProcessTrace()
        self._seq = 0

    def _make_ready(self, when: float, task: str) -> None:
        self.ready.append((when, self._seq, task))
        self._seq += 1

    def _start(self, task: str) -> None:
        length = min(_geometric(self.rng, self.params.spell_mean), self.left[task])
        self.active.append([task, length])
        self.trace.spells.append(length)

    def _fill(self, step: int) -> None:
        while self.arrivals and self.arrivals[0][0] <= step:
            self._make_ready(*self.arrivals.pop(0))
        for task, when in sorted(self.resting.items(), key=lambda item: (item[1], item[0])):
            if when <= step:
                del self.resting[task]
                self._make_ready(when, task)
        self.ready.sort()
        while len(self.active) < self.params.max_active and self.ready:
            self._start(self.ready.pop(0)[2])
        if not self.active:
            if self.resting:
                task = min(self.resting, key=lambda t: (self.resting[t], t))
                del self.resting[task]
            else:
                task = self.arrivals.pop(0)[1]
            self._start(task)

    def step(self, step: int) -> str:
        self._fill(step)
        self.trace.active.append(len(self.active))
        index = self.rng.randrange(len(self.active))
        task = self.active[index][0]
        self.left[task] -= 1
        self.active[index][1] -= 1
        if self.left[task] == 0:
            self.active.pop(index)
        elif self.active[index][1] == 0:
            self.active.pop(index)
            p = self.params
            rest = max(1, round(math.exp(self.rng.gauss(math.log(p.rest_median), p.rest_sigma))))
            self.resting[task] = step + 1 + rest
            self.trace.rests.append(rest)
        self.trace.visits.append(task)
        return str(task)


def stream_process(
    tasks: Sequence[str], supply: int, params: ProcessParams, rng: random.Random
) -> ProcessTrace:
    """Run the stream process over one user's tasks; every task is served exactly ``supply`` times.

    Args:
        tasks: the user's task ids (their order does not matter: they are sorted, then shuffled).
        supply: instances of each task.
        params: the process parameters.
        rng: the process's random stream (consumed).
    """
    if supply < 1 or not tasks:
        raise ScheduleError("a stream needs at least one task and a supply of at least one")
    process = _Process(tasks, supply, params, rng)
    for step in range(supply * len(tasks)):
        process.step(step)
    return process.trace


def reorder(visits: Sequence[str], order: str, rng: random.Random) -> list[str]:
    """The same visits in another order.

    ``workstreams`` keeps them as served, ``sequential`` serves one task at a time (tasks in the
    order they were first served), ``random`` shuffles them.
    """
    if order == "workstreams":
        return list(visits)
    if order == "sequential":
        first = {task: i for i, task in reversed(list(enumerate(visits)))}
        return sorted(visits, key=lambda task: first[task])
    if order == "random":
        shuffled = list(visits)
        rng.shuffle(shuffled)
        return shuffled
    raise ScheduleError(f"order {order!r} has no visits to rearrange; known: {', '.join(ORDERS)}")


def annotate(rows: Iterable[tuple[int, int, str, str, int, bool]]) -> tuple[Slot, ...]:
    """Number the rows and add their exposure metadata.

    Args:
        rows: ``(round, user, phase, task_id, seed, reset_before)`` in serving order (round by
            round, users in order within a round).

    Returns:
        The slots, with exposure index and gap counted in rounds over the whole team (two users
        meeting a task in the same round share both), and the user's own count and gap in the
        user's own steps.
    """
    slots: list[Slot] = []
    team_count: dict[str, int] = {}
    team_last: dict[str, int] = {}
    user_count: dict[tuple[int, str], int] = {}
    user_last: dict[tuple[int, str], int] = {}
    user_steps: dict[int, int] = {}
    pending: set[str] = set()
    current = -1
    for step, (round_, user, phase, task, seed, reset) in enumerate(rows):
        if round_ != current:
            for done in pending:  # a round counts once per task, however many users met it
                team_count[done] = team_count.get(done, 0) + 1
                team_last[done] = current
            pending, current = set(), round_
        own = user_steps.get(user, 0)
        key = (user, task)
        slots.append(
            Slot(
                step=step,
                round=round_,
                user=user,
                phase=phase,
                task_id=task,
                seed=seed,
                reset_before=reset,
                exposure_index=team_count.get(task, 0),
                gap=round_ - team_last[task] if task in team_last else None,
                user_exposure_index=user_count.get(key, 0),
                user_gap=own - user_last[key] if key in user_last else None,
            )
        )
        pending.add(task)
        user_count[key] = user_count.get(key, 0) + 1
        user_last[key] = own
        user_steps[user] = own + 1
    return tuple(slots)


@dataclass(frozen=True)
class Schedule:
    """Slots and the meta block that says how they were made.

    Attributes:
        slots: the slots, in serving order.
        meta: configuration, seed, order, users, test, width, rounds cut, sources, environment
            settings, process parameters and the protocol block.
    """

    slots: tuple[Slot, ...]
    meta: Mapping[str, Any]

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
        from .configs import protocol_of

        meta = {**self.meta, "rounds_cut": rounds}
        meta["protocol"] = protocol_of(meta)
        return Schedule(tuple(s for s in self.slots if s.round < rounds), meta)

    def to_json(self) -> dict[str, Any]:
        """The schedule as a JSON document."""
        return {"format": FORMAT, "meta": dict(self.meta), "slots": [s.to_json() for s in self.slots]}

    def dumps(self) -> str:
        """The canonical text of the schedule file: the meta indented, one slot per line."""
        import json

        meta = json.dumps(dict(self.meta), indent=1, sort_keys=True).replace("\n", "\n ")
        lines = [json.dumps(s.to_json(), sort_keys=True, separators=(",", ":")) for s in self.slots]
        body = ",\n  ".join(lines)
        return f'{{\n "format": {FORMAT},\n "meta": {meta},\n "slots": [\n  {body}\n ]\n}}\n'

    def save(self, path: Path | str) -> None:
        """Write the schedule file atomically."""
        from .records import atomic_write_text

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
        from .records import RecordsError, read_json

        try:
            document = read_json(path)
        except RecordsError as err:
            raise ScheduleError(f"schedule {err}") from None
        except OSError as err:
            raise ScheduleError(f"cannot read schedule file {path}: {err.strerror}") from None
        return cls.from_json(document, verify=verify, name=str(path))

    @classmethod
    def from_json(cls, document: Any, *, verify: bool = True, name: str = "schedule") -> Schedule:
        """A schedule from its JSON document (see :meth:`load`)."""
        if not isinstance(document, Mapping) or not {"format", "meta", "slots"} <= set(document):
            raise ScheduleError(f"{name}: not a schedule file (needs format, meta and slots)")
        if document["format"] != FORMAT:
            raise ScheduleError(
                f"{name}: schedule format {document['format']!r}; this release reads {FORMAT}"
            )
        if not isinstance(document["meta"], Mapping) or not isinstance(document["slots"], list):
            raise ScheduleError(f"{name}: meta must be an object and slots a list")
        slots = tuple(Slot.from_json(value, i) for i, value in enumerate(document["slots"]))
        schedule = cls(slots, dict(document["meta"]))
        _check_numbering(schedule, name)
        if verify and schedule.meta.get("order") != "custom":
            from .configs import verify_schedule

            verify_schedule(schedule, name)  # the strongest check: every slot as its meta builds it
        else:
            _check_history(schedule, name)
        return schedule


def _check_numbering(schedule: Schedule, name: str) -> None:
    """Refuse slots whose steps, rounds, users or phases are inconsistent among themselves."""
    previous_round = -1
    round_users: set[int] = set()
    round_phase = ""
    for i, slot in enumerate(schedule.slots):
        if slot.step != i:
            raise ScheduleError(f"{name}: slot {i} has step {slot.step}")
        if slot.round not in (previous_round, previous_round + 1):
            raise ScheduleError(f"{name}: slot {i} jumps from round {previous_round} to {slot.round}")
        if slot.round != previous_round:
            previous_round, round_users, round_phase = slot.round, set(), slot.phase
        if slot.user in round_users:
            raise ScheduleError(f"{name}: slot {i} serves user {slot.user} twice in round {slot.round}")
        if slot.phase != round_phase:
            raise ScheduleError(f"{name}: round {slot.round} spans phases {round_phase} and {slot.phase}")
        round_users.add(slot.user)


def _check_history(schedule: Schedule, name: str) -> None:
    """Refuse exposure metadata that the slots' own history contradicts, and shared instance seeds."""
    expected = annotate((s.round, s.user, s.phase, s.task_id, s.seed, s.reset_before) for s in schedule.slots)
    for slot, want in zip(schedule.slots, expected, strict=True):
        if slot != want:
            raise ScheduleError(
                f"{name}: slot {slot.step} has exposure metadata that its history contradicts"
            )
    seen: dict[int, int] = {}
    for slot in schedule.slots:
        if slot.seed in seen:
            raise ScheduleError(
                f"{name}: slots {seen[slot.seed]} and {slot.step} share instance seed {slot.seed}"
            )
        seen[slot.seed] = slot.step


def trace_statistics(trace: ProcessTrace) -> dict[str, float]:
    """The statistics the leaderboard describes a stream by, from one run of the process.

    Returns:
        ``median_gap`` and ``max_gap`` (steps between consecutive instances of a task),
        ``mean_active`` (tasks in a spell per step), ``mean_spell`` (instances per spell),
        ``median_rest`` (steps), ``last_new`` (the step of the last task's first instance) and
        ``min_supply``/``max_supply`` (instances per task).
    """
    import statistics

    last: dict[str, int] = {}
    first: dict[str, int] = {}
    gaps: list[int] = []
    for step, task in enumerate(trace.visits):
        if task in last:
            gaps.append(step - last[task])
        else:
            first[task] = step
        last[task] = step
    counts = [trace.visits.count(task) for task in first]
    return {
        "median_gap": float(statistics.median(gaps)) if gaps else 0.0,
        "max_gap": float(max(gaps, default=0)),
        "mean_active": statistics.fmean(trace.active),
        "mean_spell": statistics.fmean(trace.spells),
        "median_rest": float(statistics.median(trace.rests)) if trace.rests else 0.0,
        "last_new": float(max(first.values())),
        "min_supply": float(min(counts)),
        "max_supply": float(max(counts)),
    }
