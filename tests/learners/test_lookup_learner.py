"""The lookup learner of the verification tests: it recognises a public task, and nothing of a pack's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lookup_learner import ReArcLookup

from continual_arc.core.actions import GiveUp, LearnerObservation, RequestDemos, Submit
from continual_arc.core.grids import Grid, Pair, validate_grid
from continual_arc.data import rearc
from continual_arc.data.pack import load_pack

DEMO = Path(__file__).resolve().parents[2] / "packs" / "demo"


def _obs(test_input: Grid, demos: tuple[Pair, ...]) -> LearnerObservation:
    return LearnerObservation(
        task_id="t", input=test_input, attempts_used=0, attempt_cap=8, demos_used=len(demos),
        demo_cap=8, demos=demos, step=0, round=0, user=0,
    )  # fmt: skip


@pytest.mark.slow
def test_it_answers_a_public_task_and_gives_up_on_a_pack_rule() -> None:
    learner = ReArcLookup()
    test_input, output = rearc.instance("d511f180", 3)  # a public task: swap two colours
    demos = rearc.demonstrations("d511f180", 3, 2, test_input)
    action = learner.act(_obs(test_input, demos[:1]))
    while isinstance(action, RequestDemos):
        action = learner.act(_obs(test_input, demos))
    assert isinstance(action, Submit) and validate_grid(action.grid) == output
    pair = load_pack(DEMO).rules["pinwheel"].generate(random.Random(0), 0.0, 1.0)
    grids = validate_grid(pair["input"]), validate_grid(pair["output"])
    assert isinstance(ReArcLookup().act(_obs(grids[0], (grids,))), GiveUp)
