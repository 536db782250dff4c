"""The draw: seeding from SHA-256, the redraw rule, its bound, and the engine check of solutions."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arcengine import ARCBaseGame

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move, RejectLevel
from continual_arc_games.draw import (
    DrawError,
    GameModelError,
    draw_level,
    level_rng,
)

# A tilt-gravity level won by down then right, and lost by right (see test_arc3_session).
BOARD = [[1] * 6, [1, 2, 0, 0, 4, 1], [1, 0, 0, 0, 3, 1], [1] * 6]
WIN, LOSE = (Move("ACTION2"), Move("ACTION4")), (Move("ACTION4"),)


class ScriptedSpec:
    """A game whose sub-draws go as scripted: rejected, unsolved, already won, lying, or fine."""

    id = "scripted"
    title = "Scripted"
    rules = "For tests only."
    actions = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")
    max_difficulty = 2
    budget = 7

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.draws: list[float] = []  # the first number each sub-draw's rng gave
        self.budgets: list[int] = []

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        self.draws.append(rng.random())
        if self.script[len(self.draws) - 1] == "reject":
            raise RejectLevel("scripted")
        return Level.make("tilt-gravity", BOARD, draw=len(self.draws) - 1)

    def build(self, level: Level) -> ARCBaseGame:
        return GAMES["tilt-gravity"].build(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        self.budgets.append(budget)
        outcome = self.script[level.param("draw")]
        return {"unsolved": None, "won": (), "lying": LOSE, "ok": WIN}[outcome]


def _expected_first_number(game_id: str, difficulty: int, parts: list[object], subdraw: int) -> float:
    text = json.dumps([game_id, difficulty, parts, subdraw], separators=(",", ":"))
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    return random.Random(seed).random()


def test_level_rng_is_sha256_of_the_documented_text() -> None:
    expected = _expected_first_number("keys-doors", 1, ["arc3", 7], 2)
    assert level_rng("keys-doors", 1, ("arc3", 7), 2).random() == expected
    assert level_rng("keys-doors", 1, ("arc3", 7), 3).random() != expected
    with pytest.raises(TypeError):
        level_rng("keys-doors", 1, ("arc3", 0.5), 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        level_rng("keys-doors", 1, (True,), 0)


def test_the_first_sub_draw_that_passes_is_served() -> None:
    spec = ScriptedSpec(["reject", "unsolved", "won", "ok", "ok"])
    level, solution = draw_level(spec, ("t", 5), 1)
    assert level.param("draw") == 3 and solution == WIN
    assert spec.draws == [_expected_first_number("scripted", 1, ["t", 5], i) for i in range(4)]
    assert spec.budgets == [7, 7, 7]  # the game's own budget; the rejected draw was never solved
    draw_level(ScriptedSpec(["ok"]), ("t", 5), 1, budget=99)


def test_an_error_names_the_reasons_once_the_bound_is_reached() -> None:
    spec = ScriptedSpec(["reject", "unsolved", "won", "reject", "ok"])
    with pytest.raises(DrawError) as error:
        draw_level(spec, ("t",), 0, max_subdraws=4)
    assert len(spec.draws) == 4
    message = str(error.value)
    assert "2 rejected by the generator (scripted)" in message
    assert "1 unsolved within 7 expansions" in message and "1 already won" in message


def test_a_plan_that_loses_in_the_engine_is_a_bug_not_a_redraw() -> None:
    with pytest.raises(GameModelError, match="does not win"):
        draw_level(ScriptedSpec(["lying", "ok"]), ("t",), 0)
    _, solution = draw_level(ScriptedSpec(["lying"]), ("t",), 0, verify=False)
    assert solution == LOSE


def test_out_of_range_difficulties_are_refused() -> None:
    with pytest.raises(ValueError, match="difficulty"):
        draw_level(ScriptedSpec(["ok"]), ("t",), 3)
    with pytest.raises(ValueError, match="difficulty"):
        draw_level(ScriptedSpec(["ok"]), ("t",), -1)


def test_real_draws_depend_on_the_parts_and_nothing_else() -> None:
    spec = GAMES["shape-fit"]
    first = draw_level(spec, ("arc3", "shape-fit", 0), 1)
    assert draw_level(spec, ("arc3", "shape-fit", 0), 1) == first
    others = {draw_level(spec, ("arc3", "shape-fit", seed), 1)[0] for seed in range(1, 6)}
    assert first[0] not in others and len(others) == 5
