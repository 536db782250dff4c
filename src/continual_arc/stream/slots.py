"""Slots: one instance served in a schedule, numbered, with its exposure metadata, and their checks.

[`annotate`][continual_arc.stream.slots.annotate] numbers rows and counts their exposures;
[`check_numbering`][continual_arc.stream.slots.check_numbering] and
[`check_history`][continual_arc.stream.slots.check_history] refuse slots that contradict themselves (a
schedule file edited by hand, or built by a tool other than this package).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..core.config import ScheduleError
from ..core.records import Phase, SlotFields

__all__ = ["PHASES", "Row", "Slot", "annotate", "check_history", "check_numbering"]

PHASES = tuple(Phase)
"""The phases a slot may belong to; ``held-out`` and ``seen`` are the frozen tests."""

Row = tuple[int, int, str, str, int, bool]
"""``(round, user, phase, task_id, seed, reset_before)``: a slot before it is numbered."""


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

    def to_json(self) -> SlotFields:
        """The slot as a JSON object (its fields in declaration order), as records open with it."""
        # Written out field by field: asdict's recursive deep copy took half of ``schedule make``'s time.
        return {
            "step": self.step,
            "round": self.round,
            "user": self.user,
            "phase": Phase(self.phase),
            "task_id": self.task_id,
            "seed": self.seed,
            "reset_before": self.reset_before,
            "exposure_index": self.exposure_index,
            "gap": self.gap,
            "user_exposure_index": self.user_exposure_index,
            "user_gap": self.user_gap,
        }

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


def annotate(rows: Iterable[Row]) -> tuple[Slot, ...]:
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


def check_numbering(slots: Sequence[Slot], name: str) -> None:
    """Refuse slots whose steps, rounds, users or phases are inconsistent among themselves."""
    previous_round = -1
    round_users: set[int] = set()
    round_phase = ""
    for i, slot in enumerate(slots):
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


def check_history(slots: Sequence[Slot], name: str) -> None:
    """Refuse exposure metadata that the slots' own history contradicts, and shared instance seeds."""
    expected = annotate((s.round, s.user, s.phase, s.task_id, s.seed, s.reset_before) for s in slots)
    for slot, want in zip(slots, expected, strict=True):
        if slot != want:
            raise ScheduleError(
                f"{name}: slot {slot.step} has exposure metadata that its history contradicts"
            )
    seen: dict[int, int] = {}
    for slot in slots:
        if slot.seed in seen:
            raise ScheduleError(
                f"{name}: slots {seen[slot.seed]} and {slot.step} share instance seed {slot.seed}"
            )
        seen[slot.seed] = slot.step
