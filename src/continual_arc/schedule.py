"""Schedules, as a learner author meets them (a stable import path).

Defined in `continual_arc.stream`: [`Schedule`][continual_arc.stream.schedule.Schedule] and its file,
[`Slot`][continual_arc.stream.slots.Slot], and the builders of a stream and of the two frozen tests.
"""

from .core.config import ScheduleError
from .stream.schedule import Schedule, build_schedule, test_schedule
from .stream.slots import Slot

__all__ = ["Schedule", "ScheduleError", "Slot", "build_schedule", "test_schedule"]
