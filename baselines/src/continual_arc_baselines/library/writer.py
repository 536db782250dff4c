"""Program writers: what proposes programs for the program-library learner.

A writer gets the demonstrations the learner holds and the test input, and returns programs that
reproduce every demonstration, each with its prediction on the test input. The learner's policy
and memory are the same whatever writes the programs: the model-free writer here searches a grid
DSL (:mod:`continual_arc_baselines.dsl`); a model writer asks a model for Python programs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from continual_arc.core.grids import Grid, Pair, to_json, validate_grid

__all__ = ["DslWriter", "ProgramWriter", "WriteRequest", "WriterResult", "WrittenProgram"]


@dataclass(frozen=True)
class WrittenProgram:
    """A program that reproduces every demonstration held.

    Attributes:
        text: the program, in the writer's language, with any fitted constants in it, so that it
            runs again on a fresh input with no demonstrations.
        prediction: its output on the test input.
        weight: how simple it is (lower is simpler; the DSL's cost).
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


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).hexdigest()


class DslWriter:
    """The model-free writer: an enumerative search over the grid DSL.

    The search is bounded by a count of primitive applications, so that the same call gives the
    same programs on any machine.

    Args:
        budget: primitive applications per search.
        max_candidates: fitting programs kept per search.
        time_cap: seconds; a safety net only (logged in the result's note when it fires).
        cache_dir: a directory where search results are kept by the hash of their inputs. The
            search is a pure function of them, so the cache changes no result, only the time.
    """

    name = "dsl"

    def __init__(
        self,
        budget: int | None = None,
        max_candidates: int = 16,
        time_cap: float = 30.0,
        cache_dir: str | Path | None = None,
    ) -> None:
        from ..dsl import DEFAULT_BUDGET

        self.budget = DEFAULT_BUDGET if budget is None else budget
        self.max_candidates = max_candidates
        self.time_cap = time_cap
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.searches = 0
        self.applications = 0
        self.cache_hits = 0

    def _search(self, request: WriteRequest) -> WriterResult:
        from ..dsl import search

        result = search(
            list(request.demos),
            request.test_input,
            budget=self.budget,
            time_cap=self.time_cap,
            max_candidates=self.max_candidates,
        )
        programs = tuple(
            WrittenProgram(c.program.text, c.prediction, float(c.program.cost)) for c in result.candidates
        )
        note = "the search's time cap fired" if result.hit_time_cap else None
        return WriterResult(programs, result.applications, note)

    def write(self, request: WriteRequest) -> WriterResult:
        """Search the DSL for programs that fit every demonstration."""
        self.searches += 1
        path = self._cache_path(request)
        cached = _read_cached(path) if path else None
        if cached is not None:
            self.cache_hits += 1
            result = cached
        else:
            result = self._search(request)
            if path is not None and result.note is None:  # a capped search depends on the machine
                _write_cached(path, result)
        self.applications += result.work
        return result

    def _cache_path(self, request: WriteRequest) -> Path | None:
        if self.cache_dir is None:
            return None
        from ..dsl import __version__ as dsl_version

        demos = [[to_json(a), to_json(b)] for a, b in request.demos]
        key = _key(dsl_version, self.budget, self.max_candidates, demos, to_json(request.test_input))
        return self.cache_dir / key[:2] / f"{key}.json"

    def run(self, text: str, grid: Grid, instance: str) -> Grid | None:
        """Run a kept DSL program on a fresh input."""
        from ..dsl import ProgramError, execute, parse

        try:
            return execute(parse(text), grid)
        except ProgramError:
            return None

    def resources(self) -> dict[str, float]:
        """Searches, primitive applications and cache hits so far."""
        return {"searches": float(self.searches), "applications": float(self.applications)}


def _read_cached(path: Path) -> WriterResult | None:
    try:
        data = json.loads(path.read_text())
        programs = tuple(
            WrittenProgram(p["text"], validate_grid(p["prediction"]), float(p["weight"]))
            for p in data["programs"]
        )
        return WriterResult(programs, int(data["work"]), None)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # a missing or damaged entry is simply searched again


def _write_cached(path: Path, result: WriterResult) -> None:
    from continual_arc.core.files import atomic_write_text

    data = {
        "programs": [
            {"text": p.text, "prediction": to_json(p.prediction), "weight": p.weight} for p in result.programs
        ],
        "work": result.work,
    }
    with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
        atomic_write_text(path, json.dumps(data, separators=(",", ":")), fsync=False)


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
