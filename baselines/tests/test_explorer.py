"""The arc3 explorer: what it reads in frames, its graph and notes, and the learner's contract on arc3."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from continual_arc.core.games import GameAction, GameObservation, encode_frame
from continual_arc_baselines.explorer import DemoSkipControl, GameExplorer, PriorControl
from continual_arc_baselines.explorer.episode import ExplorerKnobs, ExplorerSettings, knob_names
from continual_arc_baselines.explorer.frames import blobs, changed_before, decode, moved_colour
from continual_arc_baselines.explorer.graph import LOSS, LevelGraph
from continual_arc_baselines.explorer.notes import GameNotes
from continual_arc_baselines.library import ProgramLibraryLearner
from continual_arc_baselines.transfer import TransferExplorer

needs_engine = pytest.mark.skipif(
    importlib.util.find_spec("arcengine") is None,
    reason="the arc3 track needs Python 3.12 and continual-arc[arc3]",
)


def _frame(cells: dict[tuple[int, int], int], background: int = 5) -> np.ndarray:
    grid = np.full((64, 64), background, dtype=np.uint8)
    for (x, y), colour in cells.items():
        grid[y, x] = colour
    return grid


def test_decode_reads_the_core_s_text() -> None:
    grid = _frame({(0, 0): 9, (63, 63): 14})
    assert np.array_equal(decode(encode_frame(grid.tolist())), grid)


def test_blobs_join_cells_of_a_colour_and_click_near_their_middle() -> None:
    cells = {(x, y): 9 for x in range(10, 13) for y in range(20, 23)}
    cells[(30, 30)] = 9  # a blob of its own: it touches no other 9
    found = blobs(_frame(cells))
    sizes = sorted(b.size for b in found.found)
    assert sizes == [1, 9, 4096 - 10]
    nine = found.at(11, 21)
    assert (nine.colour, nine.size, nine.x, nine.y) == (9, 9, 11, 21)
    assert found.at(30, 30).size == 1


def test_a_diagonal_line_is_one_blob_clicked_on_its_middle() -> None:
    """A mirror drawn as a diagonal of single pixels (they meet only at corners) is one target."""
    slash = {(40 - k, 10 + k): 0 for k in range(7)}  # a / from (40, 10) down-left to (34, 16)
    found = blobs(_frame(slash))
    assert sorted(b.size for b in found.found) == [7, 4096 - 7]
    line = found.at(40, 10)
    assert found.at(34, 16) == line and (line.x, line.y) == (37, 13)  # the run of its middle row


def test_the_moving_colour_and_what_a_move_covered() -> None:
    before = _frame({(5, 5): 9, (6, 5): 14})
    after = _frame({(6, 5): 9})
    assert moved_colour(before, after) == 9
    assert changed_before(before, after)[:2] == [9, 14]
    assert moved_colour(before, before) is None


def test_routes_avoid_losses_and_prefer_the_cheapest_frontier() -> None:
    graph = LevelGraph()
    a, b, c, d = "a", "b", "c", "d"
    up, down, left = ("ACTION1", -1, -1), ("ACTION2", -1, -1), ("ACTION3", -1, -1)
    for state in (a, b, c, d):
        graph.add_state(state, [up, down, left])
    for key in (up, down, left):
        graph.record(a, key, {up: b, down: LOSS, left: a}[key])
    graph.record(b, up, c)
    graph.record(b, down, a)
    graph.record(b, left, b)
    assert graph.route(a, 10) == ([up, up], c)  # b is exhausted; c is the nearest frontier
    graph.record(c, up, d)
    assert graph.route(a, 10, lambda state, distance: 0.0 if state == d else 100.0) == ([up, up, up], d)
    assert graph.route(a, 1) is None  # c is two moves away


def test_notes_merge_by_adding_and_survive_json() -> None:
    one, two = GameNotes(), GameNotes()
    one.count("ACTION1", 0)
    one.moved("ACTION1", 0.0, -4.0)
    one.mover["9"] = 3.0
    two.count("ACTION1", 3)
    two.goal["14"] = 1.0
    two.wins = 1
    one.merge(two)
    assert one.keys["ACTION1"] == [1.0, 0.0, 0.0, 1.0] and one.step("ACTION1") == (0.0, -4.0)
    assert (one.mover_colour, one.goal_colour, one.wins) == (9, 14, 1)
    assert GameNotes.from_json(json.loads(json.dumps(one.to_json()))) == one


@pytest.mark.parametrize("kind", [GameExplorer, PriorControl, DemoSkipControl, TransferExplorer])
def test_every_knob_is_a_keyword_of_every_explorer_and_only_the_knobs_are(kind: type[GameExplorer]) -> None:
    typed, held = knob_names()
    assert typed == held == {"max_clicks", "stuck_attempts", "max_demos", "goal_weight", "depth_weight"}
    given: ExplorerKnobs = {
        "max_clicks": 7,
        "stuck_attempts": 5,
        "max_demos": 0,
        "goal_weight": 0.5,
        "depth_weight": 4.0,
    }
    assert kind(keep=False, **given).settings == ExplorerSettings(7, 5, 0, 0.5, 4.0)
    assert kind().settings == ExplorerSettings(40, 2, 3, 1.0, 2.0)
    with pytest.raises(TypeError, match="max_click"):
        kind(max_click=7)  # type: ignore[call-arg]


def test_the_explorer_refuses_grids() -> None:
    with pytest.raises(TypeError, match="arc3"):
        GameExplorer().act(object())  # type: ignore[arg-type]


@needs_engine
def test_the_explorer_passes_check_learner_on_arc3() -> None:
    from continual_arc.testing import check_learner

    assert check_learner(GameExplorer, config="arc3-smoke", users=1) == []


def _play(learner: GameExplorer, game: str, seed: int) -> tuple[int, int]:
    """Play one stream level of ``game`` as one round; its charge and the demonstrations bought."""
    from continual_arc.core.environment import EnvSettings
    from continual_arc.tracks.registry import get_track

    env = get_track("arc3").open("stream", game, seed, EnvSettings())
    learner.begin_round()
    while not env.done:
        obs = env.view(game[0], seed, seed, 0)
        action = learner.act(obs)
        learner.observe(obs, action, env.step(action))
    learner.end_round()
    result = env.result()
    return result.charge, result.demos_bought


@needs_engine
def test_a_returning_game_is_played_with_what_the_explorer_kept(tmp_path: Path) -> None:
    def play(learner: GameExplorer, seed: int) -> int:
        return _play(learner, "keys-doors", seed)[0]

    learner = GameExplorer()
    charges = [play(learner, 10**15 + k) for k in range(3)]
    assert min(charges) < 16  # it wins keys-doors levels
    notes = learner.games["k"]
    assert notes.plays == 3 and notes.mover_colour == 9  # the blue player moves
    learner.save_state(tmp_path)
    other = GameExplorer()
    other.load_state(tmp_path)
    assert other.games == learner.games
    learner.reset()
    assert learner.games == {}
    forgetful = GameExplorer(keep=False)
    play(forgetful, 10**15)
    assert forgetful.games == {} and forgetful.stateless


@needs_engine
def test_a_game_known_to_lose_costs_less_when_it_returns() -> None:
    # count-click loses on a wrong tile. The first level teaches that; from then on the explorer
    # searches past the tiles it answered right instead of trying every tile of the first picture,
    # and it buys no demonstration of a game it has won. Its reset, which keeps nothing, plays
    # every level as a first sight: the first level costs both the same.
    seeds = [10**15 + k for k in range(4)]
    learner = GameExplorer()
    kept = [_play(learner, "count-click", seed) for seed in seeds]
    fresh = [_play(GameExplorer(keep=False), "count-click", seed) for seed in seeds]
    assert kept[0] == fresh[0] and kept[0][0] == 16  # the first sight: nothing known, unsolved
    assert learner.games["c"].loses and learner.games["c"].wins >= 1
    assert sum(c for c, _ in kept[1:]) < sum(c for c, _ in fresh[1:])
    assert all(demos == 0 for _, demos in kept[2:])  # won at the second level: no more demos
    # Pinned at GAME_DATA_VERSION 2 (difficulty 1, the stream half): the reset never wins a level.
    assert [c for c, _ in kept] == [16, 9, 5, 3] and [c for c, _ in fresh] == [16, 16, 16, 16]


def test_depths_count_moves_from_the_start_around_losses() -> None:
    graph = LevelGraph()
    up, down = ("ACTION1", -1, -1), ("ACTION2", -1, -1)
    graph.start = "a"
    graph.record("a", up, "b")
    graph.record("a", down, LOSS)
    graph.record("b", up, "c")
    graph.record("b", down, "a")
    assert graph.depths() == {"a": 0, "b": 1, "c": 2}
    assert LevelGraph().depths() == {}


def test_the_model_free_library_refuses_a_game_level_in_one_sentence() -> None:
    flat = encode_frame([[0] * 64] * 64)
    obs = GameObservation("t", flat, (flat,), ("ACTION1",), 0, 16, 0, 8, 0, 8, (), 0, 0, 0)
    with pytest.raises(NotImplementedError, match="GameExplorer"):
        ProgramLibraryLearner().act(obs)  # type: ignore[arg-type]


def test_a_frame_reached_by_an_attempt_s_last_action_is_a_frontier_for_the_next() -> None:
    # The attempt's cap (2) ends it on the frame two moves in; the next observation opens the
    # level again, so that frame is never observed. It still has untried moves, and a route from
    # the start must lead to it (two known moves, then a third within a fresh attempt's cap).
    from continual_arc.core.games import GameFeedback
    from continual_arc_baselines.explorer.episode import Episode, ExplorerSettings

    start, one, two = (encode_frame(_frame({(x, 0): 9}).tolist()) for x in range(3))
    up = ("ACTION1", -1, -1)

    def obs(frame: str, taken: int, failed: int) -> GameObservation:
        return GameObservation("t", frame, (frame,), ("ACTION1",), taken, 3, failed, 8, 0, 8, (), 0, 0, 0)

    episode = Episode(GameNotes(), ExplorerSettings())
    for frame, after, taken, ended in ((start, one, 0, None), (one, two, 1, "action cap")):
        seen = obs(frame, taken, 0)
        action = episode.act(seen)
        assert action == GameAction("ACTION1")
        feedback = GameFeedback((after,), "playing", ended, taken + 1, int(ended is not None), 0, False)
        episode.observe(seen, action, feedback)
    assert episode.graph.knows(two) and episode.graph.untried(two) == [up]
    assert episode.graph.route(start, 2) == ([up, up], two)
