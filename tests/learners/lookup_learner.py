"""A lookup learner: it recognises a public task by running the Re-ARC verifiers on its demonstrations.

It learns nothing about a rule: it buys one demonstration, runs every Re-ARC verifier (one per
ARC-AGI-1 training task) on its input, keeps those whose output is the demonstration's, buys more
demonstrations while several disagree on the test input, and submits what the matching verifier
gives. On the public track that looks near perfect; on a rule pack no verifier matches and it
gives up. It remembers, per task name, the verifier that answered right (kept as a file by
``save_state``), so a returning public task costs it nothing. Used by the verification tests and
the table of docs/VERIFY.md: ``PYTHONPATH=tests/learners``, ``--learner lookup_learner:ReArcLookup``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from continual_arc.core.actions import (
    Action,
    Feedback,
    GiveUp,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
)
from continual_arc.data.pinned import load_rearc
from continual_arc.play.learner import BaseLearner

Grid = tuple[tuple[int, ...], ...]

SLOW = frozenset(
    {"feca6190", "447fd412"}
    | {"007bbfb7", "1b60fb0c", "681b3aeb", "6aa20dc0", "7df24a62", "8d510a79", "ac0a08a4"}
    | {"b190f7f5", "c3e719e8", "c3f564a4", "caa06a1f", "d22278a0", "d687bc17"}
)
"""Verifiers left out, as too slow on a foreign grid: the first two take a quarter of a second on a
mid-sized grid, the others took over 0.2 CPU-s on some rule's grid of ``packs/demo``. Together they
took 47 CPU-s on one axis-mirror grid, where the kept ones took 1.5
(``python benchmarks/lookup_verifiers.py --rule axis-mirror``).
None of them is a task of arc1-smoke's stream at the seed of docs/VERIFY.md.
"""


def _answer(verifier: Callable[[Grid], Any], grid: Grid) -> Grid | None:
    try:
        return tuple(tuple(int(x) for x in row) for row in verifier(grid))
    except Exception:  # a verifier run on a foreign grid may fail in any way: it simply does not match
        return None


class ReArcLookup(BaseLearner):
    """Matches demonstrations against the Re-ARC verifiers and submits what the matching one gives."""

    concurrent_users = False

    def __init__(self) -> None:
        rearc = load_rearc()
        self.verifiers = {k: v for k, v in sorted(rearc.verifiers.items()) if k not in SLOW}
        self.known: dict[str, str] = {}
        self._pending: dict[str, str] = {}
        self._candidates: list[str] | None = None
        self._submitted: str | None = None
        self._seen = 0
        self._answers: dict[tuple[str, Grid], Grid | None] = {}

    def reset(self) -> None:
        """Forget every task recognised."""
        self.known.clear()
        self._pending.clear()

    def _answer(self, task: str, grid: Grid) -> Grid | None:
        """What ``task``'s verifier makes of ``grid``, run once per instance (inputs are asked again)."""
        key = (task, grid)
        if key not in self._answers:
            self._answers[key] = _answer(self.verifiers[task], grid)
        return self._answers[key]

    def _narrow(self, obs: LearnerObservation) -> list[str]:
        # only the verifiers that matched every earlier demonstration of the instance are run
        grid, output = obs.demos[-1]
        pool = self.verifiers if self._candidates is None else self._candidates
        return [k for k in pool if self._answer(k, grid) == output]

    def act(self, obs: LearnerObservation) -> Action:
        """A remembered verifier first; else buy demonstrations until the matching verifiers agree."""
        kept = self.known.get(obs.task_id)
        if kept is not None and obs.demos_used == 0 and obs.attempts_used == 0:
            return self._submit(kept, obs.input)
        if not obs.demos:
            return RequestDemos()
        if self._candidates is None or len(obs.demos) > self._seen:
            self._candidates, self._seen = self._narrow(obs), len(obs.demos)
        if not self._candidates or obs.attempts_used > 0:
            return GiveUp()
        answers = {self._answer(k, obs.input) for k in self._candidates}
        if len(answers) == 1 or obs.demos_used >= obs.demo_cap:
            return self._submit(self._candidates[0], obs.input)
        return RequestDemos()

    def _submit(self, task: str, grid: Grid) -> Action:
        answer = self._answer(task, grid)
        if answer is None:
            return GiveUp()
        self._submitted = task
        return Submit([list(row) for row in answer])

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Note a verifier that answered right, for ``end_round``; forget the instance when it ends."""
        if isinstance(feedback, SubmitFeedback) and feedback.correct and self._submitted is not None:
            self._pending[obs.task_id] = self._submitted
        if feedback.done:
            self._candidates, self._submitted, self._seen = None, None, 0
            self._answers.clear()

    def end_round(self) -> None:
        """Keep the tasks recognised this round."""
        self.known.update(self._pending)
        self._pending.clear()

    def resources(self) -> Mapping[str, float]:
        """How many task names it has recognised."""
        return {"recognised": float(len(self.known))}

    def save_state(self, directory: Any) -> None:
        """Write what it recognised to ``known.json``."""
        Path(directory, "known.json").write_text(json.dumps(sorted(self.known.items())))

    def load_state(self, directory: Any) -> None:
        """Read what it recognised from ``known.json``."""
        self.known = dict(json.loads(Path(directory, "known.json").read_text()))
