"""What the program-library learner carries between instances, and its notes on an open one.

Besides the per-task memory ([`LibraryMemory`][continual_arc_baselines.library.memory.LibraryMemory]) and the
prior over programs (kept by the learner), a learner that learns across tasks keeps `EarlyAnswers`: how often
an answer that every program fitting two demonstrations agreed on turned out right. It is learnt from
instances where the learner went on to buy more demonstrations anyway, so it costs nothing to
gather, and once it shows such answers to be reliable the learner stops buying the third.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from continual_arc.grids import Grid, Pair, from_json, to_json

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

    def to_json(self) -> dict[str, Any]:
        """The memory as readable JSON: programs as text, demonstrations as grids."""
        return {
            "programs": dict(sorted(self.programs.items())),
            "demos": {k: [[to_json(a), to_json(b)] for a, b in v] for k, v in sorted(self.demos.items())},
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> LibraryMemory:
        """The memory from `to_json`'s form (grids validated)."""
        demos = {k: [(from_json(a), from_json(b)) for a, b in v] for k, v in value.get("demos", {}).items()}
        return cls(programs=dict(value.get("programs", {})), demos=demos)


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
    log: list[dict[str, Any]] = field(default_factory=list)


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

    def to_json(self) -> dict[str, int]:
        """The counts as JSON."""
        return {"right": self.right, "wrong": self.wrong}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> EarlyAnswers:
        """The counts from `to_json`'s form."""
        right, wrong = value.get("right", 0), value.get("wrong", 0)
        if not (isinstance(right, int) and isinstance(wrong, int) and right >= 0 and wrong >= 0):
            raise ValueError("early answers need non-negative integer counts")
        return cls(right, wrong)
