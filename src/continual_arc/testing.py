"""Data-free task sources and trivial learners, for tests and for trying the benchmark quickly.

The toy tasks are tiny hand-made rules: each applies one of the eight rotations and reflections of
the square, then shifts every non-background colour by a fixed amount. ``toy/generative`` serves
63 such tasks with fresh random grids (every pair drawn from a stable seed, like Re-ARC's), and
``toy/fixed`` serves 24 tasks with their own fixed train and test pairs, like ARC's evaluation set.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .env import Action, Feedback, GiveUp, LearnerObservation, RequestDemos, Submit, SubmitFeedback
from .grids import Grid, Pair, to_json
from .learner import BaseLearner
from .seeding import stable_rng
from .tasks import FixedSource, GenerativeSource

__all__ = [
    "DemoBuyerLearner",
    "GiveUpLearner",
    "RandomLearner",
    "ToyRuleLearner",
    "apply_rule",
    "check_learner",
    "toy_fixed_source",
    "toy_generative_source",
    "toy_rule",
]

_TOY_IDS = tuple(f"toy-d{d}-c{c}" for d in range(8) for c in range(8) if (d, c) != (0, 0))
_FIXED_IDS = tuple(f"toyfix-{i:02d}" for i in range(24))


def _dihedral(grid: Grid, d: int) -> Grid:
    rows = [list(row) for row in grid]
    if d & 4:
        rows = [list(col) for col in zip(*rows, strict=True)]  # transpose
    for _ in range(d & 3):
        rows = [list(col) for col in zip(*rows[::-1], strict=True)]  # rotate a quarter turn
    return tuple(tuple(row) for row in rows)


def apply_rule(grid: Grid, rule: tuple[int, int]) -> Grid:
    """Apply a toy rule ``(d, c)``: dihedral transform ``d``, then colours 1-9 shifted by ``c``."""
    d, c = rule
    return tuple(tuple(0 if x == 0 else (x - 1 + c) % 9 + 1 for x in row) for row in _dihedral(grid, d))


def toy_rule(task_id: str) -> tuple[int, int]:
    """The rule of a toy task id."""
    if task_id.startswith("toyfix-"):
        index = int(task_id.removeprefix("toyfix-"))
        return _TOY_RULES_FIXED[index]
    d, c = task_id.removeprefix("toy-d").split("-c")
    return int(d), int(c)


_TOY_RULES_FIXED = tuple(((i * 3) % 8, (i * 5 + 1) % 8) for i in range(24))


def _random_grid(rng: random.Random) -> Grid:
    height, width = rng.randint(2, 6), rng.randint(2, 6)
    return tuple(
        tuple(rng.choice((1, 2, 3, 4)) if rng.random() < 0.45 else 0 for _ in range(width))
        for _ in range(height)
    )


def _toy_pair(task_id: str, seed: int, purpose: str, index: int, avoid: frozenset[Grid]) -> Pair:
    rule = toy_rule(task_id)
    for sub in range(1000):
        grid = _random_grid(stable_rng("toy", task_id, seed, purpose, index, sub))
        out = apply_rule(grid, rule)
        if out != grid and grid not in avoid:
            return grid, out
    raise RuntimeError(f"no toy pair for {task_id} seed {seed}")  # pragma: no cover - unreachable


def _toy_test(task_id: str, seed: int) -> Pair:
    return _toy_pair(task_id, seed, "test", 0, frozenset())


def _toy_demos(task_id: str, seed: int, count: int, test_input: Grid) -> tuple[Pair, ...]:
    avoid = {test_input}
    pairs = []
    for k in range(count):
        pair = _toy_pair(task_id, seed, "demo", k, frozenset(avoid))
        avoid.add(pair[0])
        pairs.append(pair)
    return tuple(pairs)


def toy_generative_source() -> GenerativeSource:
    """63 generative toy tasks (``toy-d<d>-c<c>``)."""
    return GenerativeSource("toy/generative", _TOY_IDS, _toy_test, _toy_demos, versions=lambda: {"toy": "1"})


def toy_fixed_source() -> FixedSource:
    """24 fixed toy tasks (``toyfix-NN``), with 2 to 5 train pairs and 1 or 2 test pairs each."""
    tasks: dict[str, dict[str, Any]] = {}
    for i, task_id in enumerate(_FIXED_IDS):
        train_n, test_n = 2 + i % 4, 1 + (i % 3 == 0)
        pairs = _toy_demos(task_id, 0, train_n + test_n, ())
        as_json = [{"input": to_json(a), "output": to_json(b)} for a, b in pairs]
        tasks[task_id] = {"train": as_json[:train_n], "test": as_json[train_n:]}
    return FixedSource("toy/fixed", tasks, versions=lambda: {"toy": "1"})


class GiveUpLearner(BaseLearner):
    """Gives up at once on every instance (charged the whole budget each time)."""

    stateless = True

    def act(self, obs: LearnerObservation) -> Action:
        """Give up."""
        return GiveUp()


class DemoBuyerLearner(BaseLearner):
    """Buys every demonstration the instance offers, then gives up."""

    stateless = True

    def act(self, obs: LearnerObservation) -> Action:
        """Request a demonstration until the cap, then give up."""
        return RequestDemos() if obs.demos_used < obs.demo_cap else GiveUp()


class RandomLearner(BaseLearner):
    """Submits random grids the shape of the input, in the input's colours, until the cap.

    Args:
        seed: the seed of its guesses (each guess is a function of the seed, the task name, the
            step and the attempt, so a rerun guesses the same).
    """

    stateless = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, obs: LearnerObservation) -> Action:
        """Submit a random grid."""
        rng = stable_rng("random-learner", self.seed, obs.task_id, obs.step, obs.attempts_used)
        colours = sorted({x for row in obs.input for x in row})
        return Submit([[rng.choice(colours) for _ in row] for row in obs.input])


class ToyRuleLearner(BaseLearner):
    """A real learner on toy tasks: finds the rule that fits its demonstrations, and keeps it.

    It buys demonstrations until one toy rule fits them all, submits that rule's answer, and, if
    ``keep`` is set, remembers the rule under the task's name so that a returning task is answered
    at once, for free. What it learns on a round is folded in at ``end_round`` only.

    Args:
        keep: whether to keep rules between instances (``False``: its own reset).
    """

    concurrent_users = True

    def __init__(self, keep: bool = True) -> None:
        self.keep = keep
        self.stateless = not keep
        self.rules: dict[str, tuple[int, int]] = {}
        self._pending: dict[str, tuple[int, int]] = {}
        self._tried: dict[tuple[int, int], set[tuple[int, int]]] = {}

    def reset(self) -> None:
        """Forget every kept rule."""
        self.rules.clear()
        self._pending.clear()

    def _fits(self, obs: LearnerObservation, tried: set[tuple[int, int]]) -> list[tuple[int, int]]:
        candidates = [(d, c) for d in range(8) for c in range(9) if (d, c) not in tried]
        return [rule for rule in candidates if all(apply_rule(a, rule) == b for a, b in obs.demos)]

    def act(self, obs: LearnerObservation) -> Action:
        """Answer with a kept rule, else with the one rule that fits the demonstrations."""
        tried = self._tried.setdefault((obs.step, obs.user), set())
        kept = self.rules.get(obs.task_id)
        if kept is not None and kept not in tried and obs.demos_used == 0:
            tried.add(kept)
            return Submit(apply_rule(obs.input, kept))
        fits = self._fits(obs, tried) if obs.demos else []
        if len(fits) == 1 or (fits and obs.demos_used >= obs.demo_cap):
            tried.add(fits[0])
            return Submit(apply_rule(obs.input, fits[0]))
        return RequestDemos() if obs.demos_used < obs.demo_cap else GiveUp()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """On a correct answer, note the rule for ``end_round``."""
        if isinstance(feedback, SubmitFeedback) and feedback.correct and isinstance(action, Submit):
            for rule in self._tried.get((obs.step, obs.user), ()):
                if apply_rule(obs.input, rule) == tuple(tuple(r) for r in action.grid):
                    self._pending[obs.task_id] = rule
        if feedback.done:
            self._tried.pop((obs.step, obs.user), None)

    def end_round(self) -> None:
        """Keep the rules learnt this round (if keeping)."""
        if self.keep:
            self.rules.update(self._pending)
        self._pending.clear()

    def resources(self) -> Mapping[str, float]:
        """The number of rules kept."""
        return {"rules": float(len(self.rules))}

    def save_state(self, directory: Any) -> None:
        """Write the kept rules to ``rules.json``."""
        import json
        from pathlib import Path

        Path(directory, "rules.json").write_text(
            json.dumps(sorted((k, list(v)) for k, v in self.rules.items()))
        )

    def load_state(self, directory: Any) -> None:
        """Read the kept rules from ``rules.json``."""
        import json
        from pathlib import Path

        self.rules = {k: (v[0], v[1]) for k, v in json.loads(Path(directory, "rules.json").read_text())}


# -- a checker for learner authors -------------------------------------------------------------------


def _snapshot(learner: Any) -> bytes | None:
    """The learner's saved state as bytes (every file, in name order), or ``None`` if it cannot save."""
    import tempfile
    from pathlib import Path

    if not callable(getattr(learner, "save_state", None)):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        learner.save_state(tmp)
        return b"".join(
            p.name.encode() + b"\0" + p.read_bytes() for p in sorted(Path(tmp).rglob("*")) if p.is_file()
        )


class _Watch(BaseLearner):
    """Wraps a learner and notes when its saved state changes outside ``end_round`` and ``reset``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.concurrent_users = False  # one action at a time: the check reads the state between them
        self.problems: list[str] = []
        self._state: bytes | None = None

    def _check(self, where: str) -> None:
        now = _snapshot(self.inner)
        if self._state is not None and now != self._state and not self.problems:
            self.problems.append(f"what the learner saves changed in {where}, not in end_round")

    def reset(self) -> None:
        self.inner.reset()

    def begin_round(self) -> None:
        self.inner.begin_round()
        self._state = _snapshot(self.inner)

    def act(self, obs: LearnerObservation) -> Action:
        action: Action = self.inner.act(obs)
        self._check("act")
        return action

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        self.inner.observe(obs, action, feedback)
        self._check("observe")

    def end_round(self) -> None:
        self.inner.end_round()

    def resources(self) -> Mapping[str, float]:
        return dict(self.inner.resources())


def check_learner(factory: Any, *, config: str = "toy-smoke", users: int = 3, seed: int = 0) -> list[str]:
    """Check a learner against the contract the runner relies on; each problem in one line.

    Args:
        factory: makes a fresh learner (its class, or a function of no arguments).
        config: the configuration whose stream it plays (data-free by default).
        users: users a round, so that several instances share each round.
        seed: the stream's seed.

    Checks that it has every member of the protocol; that two fresh copies play the same stream
    to the same records (it is deterministic); that what it saves changes only in ``end_round``
    (every instance of a round meets the state the round began with); that ``reset`` brings it
    back to a fresh learner's state; and that ``save_state`` then ``load_state`` gives back the
    same state.
    """
    import shutil
    import tempfile
    from pathlib import Path

    from .configs import build_schedule, get_config, with_users
    from .learner import _MEMBERS
    from .runner import run

    problems = [f"it lacks {name}" for name in _MEMBERS if not hasattr(factory(), name)]
    if problems:
        return problems
    schedule = build_schedule(with_users(get_config(config), users), seed, epilogue=False)
    with tempfile.TemporaryDirectory() as tmp:
        first, second = factory(), factory()
        a = run(first, schedule, Path(tmp, "a")).records
        Path(tmp, "b").mkdir()
        shutil.copy(Path(tmp, "a", "alias-salt"), Path(tmp, "b"))
        b = run(second, schedule, Path(tmp, "b")).records
        if [_strip(r) for r in a] != [_strip(r) for r in b]:
            problems.append("two fresh copies played the same stream differently: it is not deterministic")
        watched = _Watch(factory())
        run(watched, schedule, Path(tmp, "c"))
        problems += watched.problems
        problems += _check_saving(first, factory)
    return problems


def _strip(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("wall_time", "alias")}


def _check_saving(played: Any, factory: Any) -> list[str]:
    problems = []
    state = _snapshot(played)
    if state is None:
        return (
            []
            if getattr(played, "stateless", False)
            else ["it keeps state but has no save_state: runs cannot resume"]
        )
    other = factory()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        played.save_state(tmp)
        other.load_state(tmp)
    if _snapshot(other) != state:
        problems.append("save_state then load_state did not give back the same state")
    played.reset()
    if _snapshot(played) != _snapshot(factory()):
        problems.append("reset() did not bring it back to a fresh learner's state")
    return problems
