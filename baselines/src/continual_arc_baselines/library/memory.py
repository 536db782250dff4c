"""What the program-library learner carries between instances, and its notes on an open one.

Besides the per-task memory ([`LibraryMemory`][continual_arc_baselines.library.memory.LibraryMemory]) and the
prior over programs (kept by the learner), a learner that learns across tasks keeps `EarlyAnswers`: how often
an answer that every program fitting two demonstrations agreed on turned out right. It is learnt from
instances where the learner went on to buy more demonstrations anyway, so it costs nothing to
gather, and once it shows such answers to be reliable the learner stops buying the third.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from continual_arc.grids import Grid, Pair, from_json

from ..json_types import JSONObject, JSONValue, grid_json, json_list, json_object
from .writer import WrittenProgram

__all__ = ["EARLY_MIN", "EARLY_PRECISION", "EarlyAnswers", "LibraryMemory", "Notes"]

EARLY_MIN = 8
"""Unanimous two-demonstration answers whose outcome must be known before they are trusted."""

EARLY_PRECISION = 0.75
"""The share of them that must have been right (the mean of a uniform prior updated by them). An
early answer saves a demonstration when right and costs a wrong attempt when wrong, so anything
above one half pays; the margin keeps a short lucky run from passing."""


@dataclass
class LibraryMemory:
    """What the learner carries between instances, keyed by the task names it was shown."""

    programs: dict[str, str] = field(default_factory=dict)
    demos: dict[str, list[Pair]] = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        """The memory as readable JSON: programs as text, demonstrations as grids."""
        return {
            "programs": dict(sorted(self.programs.items())),
            "demos": {k: [[grid_json(a), grid_json(b)] for a, b in v] for k, v in sorted(self.demos.items())},
        }

    @classmethod
    def from_json(cls, value: JSONObject) -> LibraryMemory:
        """The memory from `to_json`'s form (grids validated).

        Raises:
            ValueError: a part of it is not of the form `to_json` writes, or a grid is invalid.
        """
        kept = json_object(value.get("demos", {}), "the kept demonstrations")
        demos = {
            k: [_pair(pair) for pair in json_list(v, f"the demonstrations of {k}")] for k, v in kept.items()
        }
        programs = json_object(value.get("programs", {}), "the kept programs")
        return cls(programs={k: str(v) for k, v in programs.items()}, demos=demos)


@dataclass
class Notes:
    """The learner's working notes on one open instance."""

    step: int
    alias: str
    kept: list[Pair]
    kept_program: str | None
    tried_kept: bool = False
    searched_with: int = -1
    groups: list[list[WrittenProgram]] = field(default_factory=list)
    wrong: list[Grid] = field(default_factory=list)
    want_more: bool = False
    submitted: str | None = None
    written: set[str] = field(default_factory=set)
    solved_by: str | None = None
    kept_failed: bool = False
    early: Grid | None = None
    answer: Grid | None = None
    log: list[JSONValue] = field(default_factory=list)


@dataclass(frozen=True)
class EarlyAnswers:
    """How often a unanimous answer from two demonstrations was right, across every task met.

    Attributes:
        right: such answers that were right.
        wrong: such answers that were wrong.
    """

    right: int = 0
    wrong: int = 0

    def trusted(self) -> bool:
        """Whether they have been right often enough to answer from two demonstrations."""
        seen = self.right + self.wrong
        return seen >= EARLY_MIN and (self.right + 1) / (seen + 2) >= EARLY_PRECISION

    def add(self, right: int, wrong: int) -> EarlyAnswers:
        """These counts with more outcomes added."""
        return EarlyAnswers(self.right + right, self.wrong + wrong)

    def to_json(self) -> JSONObject:
        """The counts as JSON."""
        return {"right": self.right, "wrong": self.wrong}

    @classmethod
    def from_json(cls, value: JSONValue) -> EarlyAnswers:
        """The counts from `to_json`'s form."""
        counts = json_object(value, "the early answers")
        right, wrong = counts.get("right", 0), counts.get("wrong", 0)
        if not (isinstance(right, int) and isinstance(wrong, int) and right >= 0 and wrong >= 0):
            raise ValueError("early answers need non-negative integer counts")
        return cls(right, wrong)


def _pair(value: JSONValue) -> Pair:
    """A demonstration from its JSON form, ``[input, output]`` (grids validated)."""
    grid_in, grid_out = json_list(value, "a demonstration")
    return from_json(grid_in), from_json(grid_out)
