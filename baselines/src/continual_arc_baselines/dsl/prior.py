"""A prior over programs, learned from the programs that answered right.

The search ranks what it tries by a description length: a program costs the sum of its steps'
costs, in bits. With no experience a step costs its family's hand-set cost (`family.Op`),
which is the empty prior. A learned prior keeps the *skeletons* of programs that answered right
(their steps without fitted constants, so ``pick(8,big) | map(c1>c2)`` and
``pick(8,big) | map(c1>c3)`` are one skeleton) and turns them into costs:

* **steps**: a step used in ``n`` of the prior's weight out of ``N`` gets the probability
  ``(n + alpha * q) / (N + alpha)``, where ``q`` is its base probability (``2 ** -cost``,
  normalised); its cost moves by ``log2(q / p)`` from its base cost, by at most
  `MAX_DISCOUNT` down and `MAX_PENALTY` up, so that a step never seen stays within
  reach of a search that needs it;
* **macros**: a run of two or three steps that appears in skeletons of weight at least
  `MACRO_MIN` becomes a step of its own, costing the sum of its parts less ``log2(1 + m)``
  for its weight ``m`` (and, in the search, one token's price rather than one per part);
  applying one spends one application per step it holds.

A skeleton that answered right ``k`` times weighs ``1 + log2(k)``, so a task that returns often
does not drown the tasks met once. A prior is immutable: `Prior.learn` returns a new one.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

__all__ = [
    "ALPHA",
    "MACRO_MIN",
    "MAX_DISCOUNT",
    "MAX_PENALTY",
    "Macro",
    "Prior",
    "skeleton",
    "token",
]

ALPHA = 24.0
"""How many programs' worth of weight the base costs carry against what was learned."""

MAX_DISCOUNT = 1.5
"""The most bits a step's cost may fall below its base cost."""

MAX_PENALTY = 0.5
"""The most bits a step's cost may rise above its base cost when the prior never saw it."""

MACRO_MIN = 2.0
"""The skeleton weight a run of steps needs to become a macro."""

MAX_MACROS = 48
"""The most macros a prior offers (the heaviest first)."""

MIN_STEP_COST = 0.5
"""No step, and no step of a macro, costs less than this (keeps the search's order well founded)."""

_RESOLUTION = 16
"""Costs are rounded to 1/16 bit, so ties break the same way whatever the platform's ``log2``."""

_UNLEARNED = ("map(", "bg0", "bg(")


def token(step: str) -> str:
    """The step without its fitted constants: ``window(tl){3,4}`` is ``window(tl)``."""
    return step.split("{", 1)[0]


def skeleton(text: str) -> tuple[str, ...]:
    """The learnable steps of a program's text: tokens, without colour maps and background steps."""
    steps = (s.strip() for s in text.split("|"))
    return tuple(token(s) for s in steps if s and not s.startswith(_UNLEARNED))


def _round(bits: float) -> float:
    return round(bits * _RESOLUTION) / _RESOLUTION


@dataclass(frozen=True)
class Macro:
    """A run of steps that the prior offers as one step.

    Attributes:
        steps: the tokens it applies, in order.
        cost: its cost in bits under the prior.
    """

    steps: tuple[str, ...]
    cost: float


@dataclass(frozen=True)
class Prior:
    """What the search has learned to try first.

    Attributes:
        skeletons: each skeleton (its steps joined by `` | ``) and how many times a program of that
            skeleton answered right.
    """

    skeletons: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def empty(cls) -> Prior:
        """The prior of a learner that has learnt nothing: every step at its base cost."""
        return cls({})

    @property
    def is_empty(self) -> bool:
        """Whether it has learnt nothing."""
        return not self.skeletons

    def learn(self, texts: Iterable[str]) -> Prior:
        """A new prior that also holds the skeletons of ``texts`` (programs that answered right)."""
        counts = dict(self.skeletons)
        for text in texts:
            steps = skeleton(text)
            if steps:
                key = " | ".join(steps)
                counts[key] = counts.get(key, 0) + 1
        return Prior(dict(sorted(counts.items())))

    # -- what the search reads -------------------------------------------------------------------

    @cached_property
    def _weights(self) -> dict[tuple[str, ...], float]:
        return {
            tuple(key.split(" | ")): 1.0 + math.log2(count)
            for key, count in sorted(self.skeletons.items())
            if count > 0
        }

    @cached_property
    def _token_weights(self) -> dict[str, float]:
        weights: dict[str, float] = {}
        for steps, weight in self._weights.items():
            for step in steps:
                weights[step] = weights.get(step, 0.0) + weight
        return weights

    def step_costs(self, base: Mapping[str, float]) -> dict[str, float]:
        """Each token's cost in bits, given every token's base cost (the empty prior's)."""
        if self.is_empty:
            return dict(base)
        z = sum(2.0**-c for c in base.values())
        learned = self._token_weights
        total = sum(learned.get(t, 0.0) for t in base)
        costs = {}
        for name, cost in base.items():
            q = 2.0**-cost / z
            p = (learned.get(name, 0.0) + ALPHA * q) / (total + ALPHA)
            shift = min(MAX_PENALTY, max(-MAX_DISCOUNT, math.log2(q / p)))
            costs[name] = _round(max(MIN_STEP_COST, cost + shift))
        return costs

    def macros(self, costs: Mapping[str, float]) -> tuple[Macro, ...]:
        """The runs of two or three steps frequent enough to be steps of their own, heaviest first.

        Args:
            costs: each token's cost under this prior (`step_costs`); a run holding a token
                not in it (a fitted step of another task) is left out.
        """
        runs: dict[tuple[str, ...], float] = {}
        for steps, weight in self._weights.items():
            found = {steps[i : i + n] for n in (2, 3) for i in range(len(steps) - n + 1)}
            for run in sorted(found):
                runs[run] = runs.get(run, 0.0) + weight
        kept = sorted(
            (run for run, weight in runs.items() if weight >= MACRO_MIN and all(t in costs for t in run)),
            key=lambda run: (-runs[run], run),
        )[:MAX_MACROS]
        return tuple(
            Macro(
                run,
                _round(
                    max(MIN_STEP_COST * len(run), sum(costs[t] for t in run) - math.log2(1.0 + runs[run]))
                ),
            )
            for run in kept
        )

    # -- saving ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The prior as readable JSON: each skeleton's text and count."""
        return {"format": 1, "skeletons": dict(sorted(self.skeletons.items()))}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Prior:
        """The prior from `to_json`'s form.

        Raises:
            ValueError: the value is not a prior's JSON.
        """
        skeletons = value.get("skeletons")
        if value.get("format") != 1 or not isinstance(skeletons, Mapping):
            raise ValueError("not a prior: expected {'format': 1, 'skeletons': {...}}")
        counts: dict[str, int] = {}
        for key, count in skeletons.items():
            if not isinstance(key, str) or not isinstance(count, int) or count < 1:
                raise ValueError(f"a prior's skeleton needs a text and a positive count, got {key!r}")
            counts[key] = count
        return cls(dict(sorted(counts.items())))

    def fingerprint(self) -> str:
        """A short hash of the prior's content (``"empty"`` for the empty prior), for cache keys."""
        if self.is_empty:
            return "empty"
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def learned_from(programs: Sequence[str]) -> Prior:
    """The prior learned from a list of program texts, each counted once per appearance."""
    return Prior.empty().learn(programs)
