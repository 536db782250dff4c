"""Every game: deterministic generation across processes, and solutions that win in the engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import combinations
from statistics import mean

import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES, GameSpec
from continual_arc_games.base import Level, Move, RejectLevel
from continual_arc_games.draw import level_rng
from continual_arc_games.session import Session

IDS = sorted(GAMES)

# Prints, for every game, the JSON of levels for a few seeds at every difficulty.
_DUMP = """
import json
from continual_arc_games import GAMES
from continual_arc_games.base import RejectLevel
from continual_arc_games.draw import level_rng

out = {}
for game_id, spec in sorted(GAMES.items()):
    texts = []
    for difficulty in range(spec.max_difficulty + 1):
        for seed in range(3):
            try:
                rng = level_rng(game_id, difficulty, ("hash", seed), 0)
                texts.append(spec.generate(rng, difficulty).to_json())
            except RejectLevel:
                texts.append("rejected")
    out[game_id] = texts
print(json.dumps(out))
"""


def _dump(hash_seed: str) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", _DUMP], env=env, capture_output=True, text=True, check=True)
    result: dict[str, list[str]] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def dumps() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    return _dump("0"), _dump("4242")


@pytest.mark.parametrize("game_id", IDS)
def test_generation_is_the_same_in_processes_with_different_hash_seeds(
    game_id: str, dumps: tuple[dict[str, list[str]], dict[str, list[str]]]
) -> None:
    first, second = dumps
    assert first[game_id] == second[game_id]
    assert "rejected" not in first[game_id]
    levels = [Level.from_json(text) for text in first[game_id]]
    assert all(level.game == game_id for level in levels)
    assert len(set(levels)) == len(levels)  # different seeds and difficulties, different levels


def _fresh(spec: GameSpec, count: int) -> list[tuple[int, Level]]:
    """``count`` fresh levels at every difficulty in turn, from seeds of this test's own."""
    levels: list[tuple[int, Level]] = []
    seed = 0
    while len(levels) < count:
        difficulty = len(levels) % (spec.max_difficulty + 1)
        seed += 1
        try:
            levels.append(
                (difficulty, spec.generate(level_rng(spec.id, difficulty, ("fresh", seed), 0), difficulty))
            )
        except RejectLevel:
            continue
    assert seed <= count + count // 10, "the generator rejects more than one draw in ten"
    return levels


def _plays_to_a_win_on_the_last_move(spec: GameSpec, level: Level, moves: tuple[Move, ...]) -> bool:
    session = Session(spec, level)
    assert not session.over
    for move in moves:
        assert move.action in spec.actions and not session.over
        session.step(move)
    return session.won


@pytest.mark.parametrize("game_id", IDS)
def test_solver_solves_fifty_fresh_levels_and_every_plan_wins_in_the_engine(game_id: str) -> None:
    spec = GAMES[game_id]
    lengths: dict[int, list[int]] = {}
    for difficulty, level in _fresh(spec, 50):
        plan = spec.solve(level, spec.budget)
        assert plan, f"unsolved or already won: {level.to_json()}"
        assert _plays_to_a_win_on_the_last_move(spec, level, plan), level.to_json()
        assert not _plays_to_a_win_on_the_last_move(spec, level, plan[:-1])
        lengths.setdefault(difficulty, []).append(len(plan))
    # The hardest difficulty asks for longer plans than the easiest.
    assert mean(lengths[spec.max_difficulty]) > mean(lengths[0])


@pytest.mark.parametrize("game_id", IDS)
def test_solver_gives_up_when_its_budget_is_too_small(game_id: str) -> None:
    spec = GAMES[game_id]
    level = spec.generate(level_rng(game_id, spec.max_difficulty, ("tiny",), 0), spec.max_difficulty)
    assert spec.solve(level, 1) is None or game_id == "toggle-pattern"
    assert spec.solve(level, 0) is None or game_id == "toggle-pattern"


def _flips(n: int, tiles: tuple[int, ...]) -> int:
    """The tiles (as a bitmask) that clicking ``tiles`` flips, by the rules as written."""
    flipped = 0
    for tile in tiles:
        r, c = divmod(tile, n)
        for rr, cc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n:
                flipped ^= 1 << (rr * n + cc)
    return flipped


def test_toggle_pattern_plans_are_the_fewest_clicks() -> None:
    spec = GAMES["toggle-pattern"]
    for difficulty, level in _fresh(spec, 12):
        if difficulty > 1:
            continue  # 3x3 and 4x4 boards: small enough to try every smaller set of clicks
        n = level.width
        cells = [v for row in level.grid for v in row]
        wrong = sum(((v & 1) ^ (v >> 1 & 1)) << i for i, v in enumerate(cells))
        plan = spec.solve(level, spec.budget)
        assert plan is not None
        shorter = (
            tiles
            for k in range(len(plan))
            for tiles in combinations(range(n * n), k)
            if _flips(n, tiles) == wrong
        )
        assert next(shorter, None) is None
