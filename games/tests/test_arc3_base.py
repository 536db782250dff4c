"""The contract's values (Move, Level), the registry, and the budgeted searches."""

from __future__ import annotations

import json
import pkgutil
import random
import re
from collections.abc import Iterator

import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

import continual_arc_games as games
from continual_arc_games import GAMES, GameSpec
from continual_arc_games.base import Level, Move, RejectLevel, retry
from continual_arc_games.search import astar, bfs
from continual_arc_games.session import Session


def test_moves_validate_their_coordinates() -> None:
    assert Move.click(3, 63) == Move("ACTION6", 3, 63)
    assert str(Move("ACTION2")) == "ACTION2"
    assert str(Move.click(3, 4)) == "ACTION6(3,4)"
    for bad in [("ACTION8", None, None), ("ACTION6", None, None), ("ACTION6", 64, 0), ("ACTION1", 1, 1)]:
        with pytest.raises(ValueError):
            Move(*bad)
    with pytest.raises(ValueError):
        Move("ACTION6", True, 0)


def test_moves_round_trip_through_dicts() -> None:
    for move in [Move("RESET"), Move("ACTION5"), Move.click(0, 17)]:
        text = json.dumps(move.as_dict())
        assert Move.from_dict(json.loads(text)) == move
    assert Move.click(5, 6).as_dict() == {"action": "ACTION6", "x": 5, "y": 6}


def test_levels_are_frozen_hashable_values_with_canonical_json() -> None:
    level = Level.make("demo", [[0, 1], [2, 3]], b=2, a=1)
    assert level.params == (("a", 1), ("b", 2))
    assert level.width == 2 and level.height == 2
    assert level.cells(3) == ((1, 1),)
    assert level.param("b") == 2 and level.param("zz", 7) == 7
    with pytest.raises(KeyError):
        level.param("zz")
    text = level.to_json()
    assert text == '{"game":"demo","grid":[[0,1],[2,3]],"params":{"a":1,"b":2}}'
    again = Level.from_json(text)
    assert again == level and hash(again) == hash(level)
    with pytest.raises(AttributeError):
        level.game = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    "grid",
    [(), ((),), ((0, 1), (0,)), ((256,),), ((-1,),), ((True,),), tuple((0,) for _ in range(65))],
)
def test_levels_refuse_malformed_grids(grid: tuple[tuple[int, ...], ...]) -> None:
    with pytest.raises(ValueError):
        Level("demo", grid)


def test_levels_refuse_unsorted_or_repeated_params() -> None:
    with pytest.raises(ValueError):
        Level("demo", ((0,),), (("b", 1), ("a", 2)))
    with pytest.raises(ValueError):
        Level("demo", ((0,),), (("a", 1), ("a", 2)))


def test_retry_returns_the_first_accepted_attempt_and_reraises_the_last_rejection() -> None:
    calls: Iterator[RejectLevel | Level] = iter(
        [RejectLevel("one"), RejectLevel("two"), Level.make("demo", [[1]])]
    )

    def attempt() -> Level:
        outcome = next(calls)
        if isinstance(outcome, RejectLevel):
            raise outcome
        return outcome

    assert retry(attempt, 5) == Level.make("demo", [[1]])
    tries: list[int] = []

    def never() -> Level:
        tries.append(len(tries))
        raise RejectLevel(f"try {len(tries)}")

    with pytest.raises(RejectLevel, match="try 2"):
        retry(never, 2)
    assert len(tries) == 2


# The package's modules that are not games.
_FRAMEWORK = {
    *("base", "blocks", "draw", "engine", "exits", "layouts", "mazes", "render", "search", "session"),
    *("strokes", "symmetry"),
    *("human", "public"),  # human action counts, and ARC Prize's public games: not games of this package
}


def test_registry_is_read_only_and_every_spec_meets_the_protocol() -> None:
    modules = [m.name for m in pkgutil.iter_modules(games.__path__) if m.name not in _FRAMEWORK]
    assert len(GAMES) == len(modules) == 25  # every game module is registered, once
    with pytest.raises(TypeError):
        GAMES["x"] = GAMES["keys-doors"]  # type: ignore[index]
    for game_id, spec in GAMES.items():
        assert isinstance(spec, GameSpec)
        assert spec.id == game_id and re.fullmatch(r"[a-z]+(-[a-z]+)*", game_id)
        assert spec.title and len(spec.rules) > 150 and spec.budget > 0 and spec.max_difficulty >= 1
        with pytest.raises(ValueError):
            spec.generate(random.Random(0), spec.max_difficulty + 1)


def test_each_engine_game_offers_exactly_the_actions_its_spec_names() -> None:
    for spec in GAMES.values():
        level = spec.generate(random.Random(1), 0)
        assert Session(spec, level).actions == spec.actions


# A 4x4 open grid: the shortest path from corner to corner is 6 moves, whatever the search.
def _grid_successors(cell: tuple[int, int]) -> list[tuple[Move, tuple[int, int]]]:
    x, y = cell
    steps = [("ACTION1", 0, -1), ("ACTION2", 0, 1), ("ACTION3", -1, 0), ("ACTION4", 1, 0)]
    return [(Move(a), (x + dx, y + dy)) for a, dx, dy in steps if 0 <= x + dx < 4 and 0 <= y + dy < 4]


def test_bfs_and_astar_find_shortest_paths_and_respect_their_budgets() -> None:
    goal = (3, 3)
    found = bfs((0, 0), _grid_successors, lambda c: c == goal, 100)
    assert found is not None and len(found) == 6
    assert found.count(Move("ACTION2")) == 3 and found.count(Move("ACTION4")) == 3
    manhattan = lambda c: abs(3 - c[0]) + abs(3 - c[1])  # noqa: E731
    best = astar((0, 0), _grid_successors, lambda c: c == goal, manhattan, 100)
    assert best is not None and len(best) == 6
    assert bfs((0, 0), _grid_successors, lambda c: c == goal, 3) is None
    assert astar((0, 0), _grid_successors, lambda c: c == goal, lambda c: 0, 3) is None
    assert bfs((3, 3), _grid_successors, lambda c: c == goal, 0) == ()
    assert bfs((0, 0), _grid_successors, lambda c: c == (9, 9), 10_000) is None
