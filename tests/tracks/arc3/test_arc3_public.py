"""The arc3-public track on two games the test writes into ARC Prize's toolkit's layout (no network)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")

from public_fixture import BASELINES, GAMES, write_game

from continual_arc.core.actions import RequestDemos
from continual_arc.core.environment import EnvSettings
from continual_arc.core.games import GameAction
from continual_arc.data.arc3_public import PublicFetchError, fetch_public_games, public_games_dir
from continual_arc.tracks.arc3.env import GameEnv, attempt_action_cap
from continual_arc.tracks.arc3.public import PublicSource, public_track
from continual_arc.tracks.track import Role, TrackUnavailableError
from continual_arc_games.base import Move
from continual_arc_games.public import PublicGameError, read_public_games
from continual_arc_games.session import Session

RIGHT, LEFT = Move("ACTION4"), Move("ACTION3")
TEST_SEED = 3 * 10**15 + 7  # a held-out test's seed range


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = public_games_dir(tmp_path)
    for game in GAMES:
        write_game(root, game)
    return root


def test_the_toolkit_s_folder_is_read_as_games_of_fixed_levels(folder: Path) -> None:
    games = read_public_games(folder)
    assert list(games) == list(GAMES)
    game = games["tt01"]
    assert (game.version, game.title, game.levels, game.actions) == (
        "0001",
        "TT01",
        2,
        ("ACTION3", "ACTION4"),
    )
    assert game.baselines == tuple(BASELINES) and game.baseline(1) == 5 and game.baseline(2) is None
    with pytest.raises(ValueError, match="levels 0 to 1"):
        game.level(2)
    with pytest.raises(ValueError, match="draws no fresh one"):
        game.generate(__import__("random").Random(0), 0)
    assert game.solve(game.level(0), 100) is None


def test_a_level_is_played_alone_and_a_reset_restarts_that_level(folder: Path) -> None:
    game = read_public_games(folder)["tt01"]
    session = Session(game, game.level(1))  # the goal 4 cells away
    for _ in range(3):
        session.step(RIGHT)
    assert not session.won
    session.step(RIGHT)
    assert session.won
    session.reset()
    session.step(RIGHT)
    session.step(RIGHT)  # level 0's goal would be here: level 1 is still the one played
    assert not session.won


def test_the_newest_version_of_a_game_is_kept(folder: Path) -> None:
    write_game(folder, "tt01", version="0002")
    assert read_public_games(folder)["tt01"].version == "0002"


def test_a_broken_game_folder_is_named(folder: Path) -> None:
    (folder / "tt02" / "0001" / "tt02.py").write_text("class Tt02: pass\n")
    with pytest.raises(PublicGameError, match=r"tt02\.py: defines no arcengine game class Tt02"):
        read_public_games(folder)


def test_the_track_streams_and_holds_out_games_and_serves_their_fixed_levels(folder: Path) -> None:
    track = public_track(folder)
    (config,) = track.configs
    assert (config.name, config.stream_tasks, config.held_out, config.supply) == ("arc3-public", 1, 1, 2)
    assert "never fresh" in track.summary
    stream, held = track.source(Role.STREAM), track.source(Role.HELD_OUT)
    assert isinstance(stream, PublicSource) and isinstance(held, PublicSource)
    assert (stream.task_ids(), held.task_ids()) == (("tt01",), ("tt02",))
    # The k-th meeting of a game on the stream is its level k, the last once they run out.
    assert [stream.instance("tt01", 10**15 + i, exposure=i).level.param("index") for i in range(4)] == [
        0,
        1,
        1,
        1,
    ]
    assert held.instance("tt02", TEST_SEED).level.param("index") in (0, 1)
    assert held.instance("tt02", TEST_SEED) == held.instance("tt02", TEST_SEED)
    assert stream.describe()["fresh_levels"] is False


def test_a_level_is_read_against_its_human_baseline_and_offers_no_demonstration(folder: Path) -> None:
    instance = public_track(folder).source(Role.STREAM).instance("tt01", 10**15, exposure=1)
    env = GameEnv(instance, EnvSettings())
    opening = env.opening()
    assert (opening["baseline_actions"], opening["baseline_source"]) == (5, "human")
    assert env.attempt_action_cap == attempt_action_cap(5)
    feedback = env.step(RequestDemos())
    assert feedback.refused  # no solver, so nothing to demonstrate
    for _ in range(4):
        env.step(GameAction("ACTION4"))
    assert env.done and env.result().solved
    fields = env.record_fields([{"action": "ACTION4"}] * 3 + [{"action": "ACTION4", "ended": "won"}], True)
    assert fields == {
        "baseline_actions": 5,
        "baseline_source": "human",
        "level_actions": 4,
        "level_score": 1.0,
    }


def test_fewer_than_two_games_leave_the_track_unavailable_with_how_to_fetch(tmp_path: Path) -> None:
    root = public_games_dir(tmp_path)
    write_game(root, "tt01")
    with pytest.raises(TrackUnavailableError, match="continual-arc data fetch --track arc3-public"):
        public_track(root)


class _FakeArcade:
    """ARC Prize's toolkit's ``Arcade`` as the fetch drives it: ``make`` writes the game it is asked for."""

    made: ClassVar[list[tuple[str, str, str]]] = []

    def __init__(self, arc_api_key: str, environments_dir: str) -> None:
        self.key, self.folder = arc_api_key, Path(environments_dir)

    def make(self, game_id: str) -> object | None:
        self.made.append((self.key, str(self.folder), game_id))
        if game_id.startswith("tt"):
            write_game(self.folder, game_id)
            return object()
        return None


@pytest.fixture
def toolkit(monkeypatch: pytest.MonkeyPatch) -> type[_FakeArcade]:
    module: Any = types.ModuleType("arc_agi")
    module.Arcade = _FakeArcade
    _FakeArcade.made = []
    monkeypatch.setitem(sys.modules, "arc_agi", module)
    return _FakeArcade


def test_the_fetch_drives_the_toolkit_with_the_user_s_key_into_the_data_directory(
    tmp_path: Path, toolkit: type[_FakeArcade], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARC_API_KEY", "secret-key")
    result = fetch_public_games(GAMES, root=tmp_path)
    folder = public_games_dir(tmp_path)
    assert toolkit.made == [("secret-key", str(folder), game) for game in GAMES]
    assert result["games"] == list(GAMES)
    assert list(read_public_games(folder)) == list(GAMES)  # what the track then reads
    with pytest.raises(PublicFetchError, match="delivered no game ls20"):
        fetch_public_games(["ls20"], root=tmp_path)


def test_the_fetch_says_what_is_missing_without_a_key_or_a_toolkit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARC_API_KEY", raising=False)
    with pytest.raises(PublicFetchError, match=r"\$ARC_API_KEY"):
        fetch_public_games(GAMES, root=tmp_path)
    monkeypatch.setitem(sys.modules, "arc_agi", None)  # not installed
    with pytest.raises(PublicFetchError, match="pip install arc-agi"):
        fetch_public_games(GAMES, key="k", root=tmp_path)
    assert not public_games_dir(tmp_path).exists()


def test_the_command_line_fetches_through_the_toolkit(
    tmp_path: Path,
    toolkit: type[_FakeArcade],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from continual_arc.cli import main

    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(tmp_path))
    monkeypatch.setenv("ARC_API_KEY", "k")
    assert main(["data", "fetch", "--track", "arc3-public", "--game", "tt01", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == ["tt01"] and printed["folder"] == str(public_games_dir(tmp_path))
    assert main(["data", "fetch", "--track", "arc1", "--game", "tt01"]) == 2  # --game is arc3-public's
