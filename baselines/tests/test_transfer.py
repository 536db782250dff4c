"""The transfer explorer: what it pools across games, its use on a new game first, and its contract."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from continual_arc.core.games import GameAction, GameFeedback, GameObservation, encode_frame
from continual_arc_baselines.explorer.notes import GameNotes
from continual_arc_baselines.transfer import TransferExplorer
from continual_arc_baselines.transfer.pool import Pool, pool_for, signature

needs_engine = pytest.mark.skipif(
    importlib.util.find_spec("arcengine") is None,
    reason="the arc3 track needs Python 3.12 and continual-arc[arc3]",
)

ARROWS = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")
STEP = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}
BLUE, GREEN, RED, YELLOW, GREY = 9, 3, 2, 4, 5


def _text(cells: dict[tuple[int, int], int]) -> str:
    grid = np.full((64, 64), GREY, dtype=np.uint8)
    for (x, y), colour in cells.items():
        grid[y, x] = colour
    return encode_frame(grid.tolist())


class _Level:
    """A hand-built level: a fixed picture, and the cell each action takes it to (or a win or a loss)."""

    def __init__(self, game: str, actions: tuple[str, ...], step: int, cap: int = 64) -> None:
        self.game, self.actions, self.step_index, self.cap = game, actions, step, cap
        self.attempt_actions, self.attempts, self.done, self.first = 0, 0, False, ""

    def frame(self) -> str:
        raise NotImplementedError

    def move(self, action: GameAction) -> str | None:
        """Change the level; the attempt's end (``"won"``, ``"lost"``) or ``None``."""
        raise NotImplementedError

    def restart(self) -> None:
        raise NotImplementedError

    def view(self) -> GameObservation:
        frame = self.frame()
        return GameObservation(
            self.game, frame, (frame,), self.actions, self.attempt_actions, self.cap, self.attempts, 8,
            0, 8, (), self.step_index, 0, 0,
        )  # fmt: skip

    def play(self, action: GameAction) -> GameFeedback:
        assert isinstance(action, GameAction)
        self.attempt_actions += 1
        ended = self.move(action)
        frame = self.frame()
        if ended is None and self.attempt_actions >= self.cap:
            ended = "action cap"
        if ended in ("lost", "action cap"):
            self.attempts += 1
        self.done = ended == "won" or self.attempts >= 8
        state = {"won": "won", "lost": "lost"}.get(ended or "", "playing")
        if ended is not None and ended != "won":
            self.restart()
            self.attempt_actions = 0
        return GameFeedback(
            (frame,), state, ended, self.attempt_actions, self.attempts, self.attempts, self.done
        )


class _Walk(_Level):
    """A blue cell walked by the four arrows (ACTION1 up .. ACTION4 right) to a green cell.

    With ``corridor`` (the first and last column it may stand on) it walks a row: ACTION1 and
    ACTION2 change nothing, so a learner that has met nothing finds the goal in a few dozen moves.
    With ``down_loses``, ACTION2 loses the level.
    """

    def __init__(
        self,
        game: str,
        start: tuple[int, int],
        goal: tuple[int, int],
        step: int,
        corridor: tuple[int, int] | None = None,
        down_loses: bool = False,
    ) -> None:
        super().__init__(game, ARROWS, step)
        self.start, self.at, self.goal = start, start, goal
        self.corridor, self.down_loses = corridor, down_loses

    def frame(self) -> str:
        return _text({self.goal: GREEN, self.at: BLUE})

    def move(self, action: GameAction) -> str | None:
        if self.down_loses and action.action == "ACTION2":
            return "lost"  # a pit below the walk
        dx, dy = STEP[action.action]
        low, high = self.corridor or (0, 63)
        if self.corridor is not None:
            dy = 0
        self.at = (min(high, max(low, self.at[0] + dx)), min(63, max(0, self.at[1] + dy)))
        return "won" if self.at == self.goal else None

    def restart(self) -> None:
        self.at = self.start


class _Pick(_Level):
    """Two 2 x 2 squares to click: the red one loses, the yellow one wins."""

    def __init__(self, game: str, red: tuple[int, int], yellow: tuple[int, int], step: int) -> None:
        super().__init__(game, ("ACTION6",), step)
        self.red, self.yellow = red, yellow

    def frame(self) -> str:
        cells = {
            (x + i, y + j): c
            for (x, y), c in ((self.red, RED), (self.yellow, YELLOW))
            for i in (0, 1)
            for j in (0, 1)
        }
        return _text(cells)

    def move(self, action: GameAction) -> str | None:
        for (x, y), end in ((self.red, "lost"), (self.yellow, "won")):
            if x <= (action.x or 0) <= x + 1 and y <= (action.y or 0) <= y + 1:
                return end
        return None

    def restart(self) -> None:
        pass


def _play(learner: TransferExplorer, level: _Level) -> list[GameAction]:
    """Play ``level`` to its end as one round; the actions taken."""
    taken = []
    learner.begin_round()
    while not level.done:
        obs = level.view()
        action = learner.act(obs)
        assert isinstance(action, GameAction), action
        taken.append(action)
        learner.observe(obs, action, level.play(action))
    learner.end_round()
    return taken


def _first(learner: TransferExplorer, level: _Level) -> GameAction:
    action = learner.act(level.view())
    assert isinstance(action, GameAction)
    return action


def test_a_signature_is_the_actions_offered_besides_reset() -> None:
    assert signature(("RESET", "ACTION4", "ACTION1")) == "ACTION1,ACTION4"
    assert signature(("ACTION6",)) == signature(("ACTION6", "RESET"))


def test_a_pool_counts_each_game_as_one_level_and_takes_the_mean() -> None:
    often, once = GameNotes(plays=2), GameNotes(plays=1)
    often.mover["9"] = 4.0  # 2 a level
    often.count("ACTION1", 2)  # it lost once: a losing game
    once.mover["2"] = 1.0
    pool = Pool.of([often, once])
    assert pool.notes.mover == {"9": 1.0, "2": 0.5}  # (4 / 2) / 2 and (1 / 1) / 2
    assert pool.notes.keys["ACTION1"] == [0.0, 0.0, 0.25, 0.0]  # (1 / 2) / 2
    assert (pool.games, pool.losing, pool.notes.plays, pool.notes.wins) == (2, 0.5, 0, 0)
    assert pool.winning == 0.0  # neither was won
    once.wins = 1
    assert Pool.of([often, once]).winning == 0.5
    once.count("c4s4", 0)
    assert "c4s4" not in Pool.of([often, once]).notes.keys  # a click's meaning is its game's own
    games = {"a": often, "b": once, "c": GameNotes(plays=1)}
    assert pool_for(games, {"a": "x", "b": "y", "c": "y"}, "x").games == 1
    assert pool_for(games, {"a": "x", "b": "y", "c": "y"}, "z").games == 3  # no game of it: every game


def test_what_a_walk_taught_on_game_a_steers_the_first_move_on_game_b() -> None:
    # On game B the green cell is three cells left of the blue one, so the move toward it is
    # ACTION3 (left, in the level's own rule). A learner that has met no game tries its candidates
    # in the order offered (ACTION1 first); one that won game A, where ACTION4 moved the blue cell
    # right onto the green one, knows which colour moves, which it must reach and which way each
    # arrow goes, and starts game B with ACTION3.
    learner = TransferExplorer()
    _play(learner, _Walk("a", (10, 10), (13, 10), step=0, corridor=(8, 13)))
    assert learner.games["a"].wins == 1 and learner.signatures == {"a": ",".join(ARROWS)}
    level_b = _Walk("b", (30, 20), (27, 20), step=1)
    assert _first(TransferExplorer(), level_b).action == "ACTION1"
    assert _first(learner, level_b).action == "ACTION3"
    taken = _play(learner, _Walk("b", (30, 20), (27, 20), step=2))
    assert [a.action for a in taken] == ["ACTION3"] * 3  # straight there: the shortest walk


def test_a_move_that_lost_on_game_a_is_shunned_on_game_b_and_b_is_searched_deep_first() -> None:
    # On game A, ACTION2 (down) falls into a pit and loses. Game B offers the same four arrows:
    # the learner starts it with A's loss counted against ACTION2 (its candidate score is the
    # lowest of the four, where a fresh learner scores all four alike) and searches it deep first
    # with the explorer's full depth weight, since every game of its kind met so far loses.
    learner = TransferExplorer()
    _play(learner, _Walk("a", (10, 10), (13, 10), step=0, corridor=(8, 13), down_loses=True))
    assert learner.games["a"].loses and learner.pool(",".join(ARROWS)).losing == 1.0
    level_b = _Walk("b", (30, 20), (27, 20), step=1)
    fresh = TransferExplorer()
    for player in (learner, fresh):
        _first(player, level_b)
    episode, blank = learner._open[0][1], fresh._open[0][1]
    frame = level_b.frame()
    scores = {a: episode._score((a, -1, -1), frame) for a in ARROWS}
    assert min(scores, key=lambda a: scores[a]) == "ACTION2"
    assert len({blank._score((a, -1, -1), frame) for a in ARROWS}) == 1
    assert (episode.deep, blank.deep) == (learner.settings.depth_weight, 0.0)


def test_a_game_played_by_clicks_alone_is_played_as_the_explorer_plays_it() -> None:
    # Click game A's red square (on top, so clicked first) lost. A new click game B gets no pool:
    # B's first click is the fresh learner's (the top square, which loses there too), B is searched
    # breadth first, and A's counts are not pooled.
    learner = TransferExplorer()
    _play(learner, _Pick("a", red=(10, 10), yellow=(40, 40), step=0))
    assert learner.games["a"].loses
    level_b = _Pick("b", red=(20, 5), yellow=(20, 30), step=1)
    assert _first(TransferExplorer(), level_b) == _first(learner, level_b)
    assert level_b.move(_first(learner, level_b)) == "lost"
    assert learner._open[0][1].deep == 0.0
    assert learner.pool("ACTION6").games == 0 and learner.pool("ACTION6").notes.keys == {}


def test_a_returning_game_and_a_new_one_both_start_from_the_pool() -> None:
    learner = TransferExplorer()
    _play(learner, _Walk("a", (10, 10), (13, 10), step=0, corridor=(8, 13)))
    pooled = learner.pool(",".join(ARROWS)).notes
    assert learner.prior("new", ",".join(ARROWS)).mover == pooled.mover  # nothing of its own
    own = learner.prior("a", ",".join(ARROWS))
    # Played once, game A's prior holds the pool at half weight (1 / (1 + 1 play)) under its own notes.
    assert own.mover[str(BLUE)] == pooled.mover[str(BLUE)] / 2 + learner.games["a"].mover[str(BLUE)]
    # A new game of a kind that has been won counts one win: like a won game, it buys no demonstration.
    assert own.wins == 1 and learner.prior("new", ",".join(ARROWS)).wins == 1
    assert learner.pool(",".join(ARROWS)).winning == 1.0


def test_learning_waits_for_end_round_and_reset_forgets_everything() -> None:
    learner = TransferExplorer()
    level = _Walk("a", (10, 10), (13, 10), step=0, corridor=(8, 13))
    learner.begin_round()
    while not level.done:
        obs = level.view()
        action = learner.act(obs)
        learner.observe(obs, action, level.play(action))  # type: ignore[arg-type]
    assert learner.games == {} and learner.signatures == {}  # the instance is not folded in yet
    learner.end_round()
    assert set(learner.games) == {"a"}
    learner.reset()
    assert learner.games == {} and learner.signatures == {}
    assert _first(learner, _Walk("b", (30, 20), (27, 20), step=1)).action == "ACTION1"


def test_state_round_trips_and_plays_the_same(tmp_path: Path) -> None:
    learner = TransferExplorer(pool_weight=2.0)
    _play(learner, _Walk("a", (10, 10), (13, 10), step=0, corridor=(8, 13)))
    _play(learner, _Pick("c", red=(10, 10), yellow=(40, 40), step=1))
    learner.save_state(tmp_path)
    other = TransferExplorer(pool_weight=2.0)
    other.load_state(tmp_path)
    assert (other.games, other.signatures) == (learner.games, learner.signatures)
    assert json.loads((tmp_path / "transfer.json").read_text())["signatures"] == {
        "a": ",".join(ARROWS),
        "c": "ACTION6",
    }
    level_b = _Walk("b", (30, 20), (27, 20), step=2)
    assert _first(other, level_b) == _first(learner, level_b) == GameAction("ACTION3")


def test_its_reset_form_keeps_nothing() -> None:
    forgetful = TransferExplorer(keep=False)
    _play(forgetful, _Walk("a", (10, 10), (13, 10), step=0, corridor=(8, 13)))
    assert forgetful.games == {} and forgetful.signatures == {} and forgetful.stateless


@needs_engine
def test_the_transfer_explorer_passes_check_learner_on_arc3() -> None:
    from continual_arc.testing import check_learner

    assert check_learner(TransferExplorer, config="arc3-smoke", users=1) == []


@needs_engine
@pytest.mark.slow
def test_the_arc3_smoke_protocol_plays_and_checks_with_every_game_filed_by_its_actions(
    tmp_path: Path,
) -> None:
    from continual_arc.core.files import atomic_write_json, read_json
    from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
    from continual_arc.submit.check import check_submission
    from continual_arc_games import GAMES

    out = tmp_path / "transfer"
    learner = "continual_arc_baselines.transfer:TransferExplorer"
    play_protocol(ProtocolSpec.named(learner, "arc3-smoke"), ProtocolOptions(out=out, jobs=2, resamples=200))
    submission = read_json(out / "submission.json")
    submission.update(student="none", code="https://example.org/transfer@abc123", contact="a@example.org")
    atomic_write_json(out / "submission.json", submission)
    result = check_submission(out, resamples=200, allow_ablation=True)
    assert result.ok, result.problems
    # Every streamed game is filed under its alias with the actions its spec says it offers.
    records = [json.loads(line) for line in (out / "stream" / "records.jsonl").read_text().splitlines()]
    offered = {r["alias"]: ",".join(sorted(GAMES[r["task_id"]].actions)) for r in records}
    memory = read_json(out / "stream" / "memory.json")
    assert memory["signatures"] == offered
    # Each held-out level started from the pool of its signature: the instance log says which.
    held = [json.loads(line) for line in (out / "held-out" / "records.jsonl").read_text().splitlines()]
    for record in held:
        log = read_json(out / "held-out" / "i" / f"{record['step']}.json")["learner_log"]
        assert log["pool"]["signature"] == ",".join(sorted(GAMES[record["task_id"]].actions))


_PLAY_TWO_GAMES = """
import json
from continual_arc.core.environment import EnvSettings
from continual_arc.tracks.registry import get_track
from continual_arc_baselines.transfer import TransferExplorer

learner, track, out = TransferExplorer(), get_track("arc3"), []
levels = [("stream", "keys-doors", 10**15), ("stream", "coin-gate", 10**15 + 1)]
for step, (phase, game, seed) in enumerate(levels + [("held-out", "portals", 3 * 10**15)]):
    env = track.open(phase, game, seed, EnvSettings())
    learner.begin_round()
    actions = []
    while not env.done:
        obs = env.view(game[:4], step, step, 0)
        action = learner.act(obs)
        actions.append(repr(action))
        learner.observe(obs, action, env.step(action))
    learner.end_round()
    out.append([env.result().charge, actions])
print(json.dumps({"plays": out, "memory": learner.memory()}, sort_keys=True))
"""


@needs_engine
@pytest.mark.slow
def test_two_processes_with_different_hash_seeds_play_the_same_actions_and_keep_the_same_pool() -> None:
    # Two stream games walked with arrows, then a held-out one played from their pool: every
    # action, charge and kept note must be the same whatever the process's hash seed.
    import os
    import subprocess
    import sys

    def play(hash_seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _PLAY_TWO_GAMES], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout

    first, second = play("0"), play("4242")
    assert first == second
    plays = json.loads(first)["plays"]
    assert len(plays) == 3 and all(0 <= charge <= 16 and actions for charge, actions in plays)
    assert set(json.loads(first)["memory"]["signatures"].values()) == {",".join(ARROWS)}
