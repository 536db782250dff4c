"""Trivial learners, and a toy learner that really learns, for tests and for trying the benchmark.

[`GiveUpLearner`][continual_arc.play.toy_learners.GiveUpLearner],
[`DemoBuyerLearner`][continual_arc.play.toy_learners.DemoBuyerLearner],
[`RandomLearner`][continual_arc.play.toy_learners.RandomLearner] and
[`RandomPlayer`][continual_arc.play.toy_learners.RandomPlayer] (the floor of a game level, arc3) keep nothing;
[`ToyRuleLearner`][continual_arc.play.toy_learners.ToyRuleLearner] finds the rule of a toy task
([`continual_arc.tracks.toy`][continual_arc.tracks.toy]) from its demonstrations and keeps it, so a returning
toy task costs it nothing.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path

from ..core.actions import Action, Feedback, GiveUp, LearnerObservation, RequestDemos, Submit, SubmitFeedback
from ..core.games import CLICK, FRAME_SIDE, RESET, GameAction, GameObservation, decode_frame, frame_patches
from ..core.seeding import stable_rng
from ..tracks.toy import apply_rule
from .learner import BaseLearner

__all__ = ["DemoBuyerLearner", "GiveUpLearner", "RandomLearner", "RandomPlayer", "ToyRuleLearner"]


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


class RandomPlayer(BaseLearner):
    """Plays a game level (arc3) at random: the floor a game's levels must stand well above.

    Each action is drawn uniformly from the actions the game offers (never RESET: an attempt ends
    by a loss or its action cap anyway). Where a click (``ACTION6``) lands depends on ``mode``:
    on a uniformly drawn cell of the 64 x 64 frame (``"pixel"``), or on the centre of a uniformly
    drawn patch of the current frame, a connected patch of one colour
    ([frame_patches][continual_arc.core.games.frame_patches]) (``"patch"``), the random player
    that knows what a thing on the screen is. It never buys a demonstration and plays every
    attempt to its end.

    Args:
        seed: the seed of its draws (each draw is a function of the seed, the mode, the game's
            name, the step, the failed attempts and the attempt's actions, so a rerun plays the same).
        mode: ``"pixel"`` or ``"patch"``, where its clicks land.

    Raises:
        ValueError: an unknown mode.
    """

    stateless = True

    MODES = ("pixel", "patch")
    """Where a click can land: any cell, or a patch's centre."""

    def __init__(self, seed: int = 0, mode: str = "pixel") -> None:
        if mode not in self.MODES:
            raise ValueError(f"RandomPlayer's mode is one of {', '.join(self.MODES)}, not {mode!r}")
        self.seed = seed
        self.mode = mode

    def act(self, obs: LearnerObservation | GameObservation) -> GameAction | GiveUp:  # type: ignore[override]
        """A random offered action (a grid instance, which it cannot play, is given up)."""
        if not isinstance(obs, GameObservation):
            return GiveUp()
        # The pixel mode's draws leave the mode out, so they stay those of the player before modes.
        salt = () if self.mode == "pixel" else (self.mode,)
        rng = stable_rng(
            "random-player", self.seed, *salt, obs.task_id, obs.step, obs.attempts_used, obs.attempt_actions
        )
        offered = [a for a in obs.available_actions if a != RESET]
        if not offered:
            return GiveUp()
        name = rng.choice(offered)
        if name != CLICK:
            return GameAction(name)
        if self.mode == "patch":
            _, x, y = rng.choice(_patches(obs.frame))
            return GameAction(CLICK, x, y)
        return GameAction(CLICK, rng.randrange(FRAME_SIDE), rng.randrange(FRAME_SIDE))


@functools.lru_cache(maxsize=1024)
def _patches(frame: str) -> tuple[tuple[int, int, int], ...]:
    """A frame's patches, kept for the frames met again (a level's opening, every attempt)."""
    return tuple(frame_patches(decode_frame(frame)))


class ToyRuleLearner(BaseLearner):
    """A real learner on toy tasks: finds the rule that fits its demonstrations, and keeps it.

    It buys demonstrations until one toy rule fits them all, submits that rule's answer, and, if
    ``keep`` is set, remembers the rule under the task's name so that a returning task is answered
    at once, for free. What it learns on a round is folded in at ``end_round`` only.

    Args:
        keep: whether to keep rules between instances (``False``: its own reset).
    """

    concurrent_users = True
    stateless_when = (("keep", False),)  # stateless when it keeps no rule, read from the class

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

    def save_state(self, directory: Path | str) -> None:
        """Write the kept rules to ``rules.json``."""
        Path(directory, "rules.json").write_text(
            json.dumps(sorted((k, list(v)) for k, v in self.rules.items()))
        )

    def load_state(self, directory: Path | str) -> None:
        """Read the kept rules from ``rules.json``."""
        self.rules = {k: (v[0], v[1]) for k, v in json.loads(Path(directory, "rules.json").read_text())}
