"""Program writers: what proposes programs for the program-library learner.

A writer gets the demonstrations the learner holds and the test input, and returns programs that
reproduce every demonstration, each with its prediction on the test input. The learner's policy
and memory are the same whatever writes the programs: the model-free writer
(`dsl_writer`) searches a grid DSL; a model writer asks a model for Python programs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from continual_arc.grids import Grid, Pair

__all__ = ["ProgramWriter", "WriteRequest", "WriterResult", "WrittenProgram", "group_by_prediction"]


@dataclass(frozen=True)
class WrittenProgram:
    """A program that reproduces every demonstration held.

    Attributes:
        text: the program, in the writer's language, with any fitted constants in it, so that it
            runs again on a fresh input with no demonstrations.
        prediction: its output on the test input.
        weight: how simple it is (lower is simpler; the DSL's cost in bits under its prior).
    """

    text: str
    prediction: Grid
    weight: float


@dataclass(frozen=True)
class WriterResult:
    """What one call of a writer found.

    Attributes:
        programs: the fitting programs, best first.
        work: the work it took, in the writer's unit (primitive applications, model calls).
        note: anything worth logging (a time cap that fired, a refused call).
    """

    programs: tuple[WrittenProgram, ...]
    work: int
    note: str | None = None


@dataclass(frozen=True)
class WriteRequest:
    """Everything a writer may use for one call.

    Attributes:
        demos: the demonstrations the learner holds (bought, or kept from earlier instances).
        test_input: the instance's input.
        instance: a key naming the instance (for a model client's per-instance mark).
        wrong: predictions already answered wrong on this instance.
    """

    demos: tuple[Pair, ...]
    test_input: Grid
    instance: str
    wrong: tuple[Grid, ...] = field(default_factory=tuple)


@runtime_checkable
class ProgramWriter(Protocol):
    """The part of the program-library learner that writes programs."""

    name: str

    def write(self, request: WriteRequest) -> WriterResult:
        """Programs that reproduce every demonstration of ``request``, best first."""
        ...

    def run(self, text: str, grid: Grid, instance: str) -> Grid | None:
        """Run a kept program on a fresh input (``None`` when it does not apply or fails)."""
        ...

    def resources(self) -> dict[str, float]:
        """Cumulative counters of the writer's work."""
        ...

    def resume(self, counts: Mapping[str, float]) -> None:
        """Continue a resumed run's counters from ``counts`` (its last record's resources)."""
        ...


def group_by_prediction(
    programs: Sequence[WrittenProgram], wrong: Sequence[Grid]
) -> list[list[WrittenProgram]]:
    """The programs grouped by their prediction, best group first, leaving out wrong predictions.

    A group's rank is its simplest program's weight, then its size (more programs agreeing is
    more evidence), then the order the writer gave.
    """
    groups: dict[Grid, list[WrittenProgram]] = {}
    for program in programs:
        if program.prediction not in wrong:
            groups.setdefault(program.prediction, []).append(program)
    order = list(groups)
    return sorted(
        groups.values(), key=lambda g: (min(p.weight for p in g), -len(g), order.index(g[0].prediction))
    )
