"""The baselines' generic base: the hooks it gives every learner, its logs, state files and JSON readers."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.actions import GiveUp, LearnerObservation
from continual_arc.core.games import GameAction, GameObservation, encode_frame
from continual_arc.play.learner import (
    LoadsState,
    LogsInstances,
    SavesState,
    ShowsMemory,
    load_learner,
    misnamed_members,
    missing_members,
)
from continual_arc_baselines.base import GameBase, GridBase, read_state, write_state
from continual_arc_baselines.explorer import GameExplorer
from continual_arc_baselines.explorer.notes import GameNotes
from continual_arc_baselines.json_types import JSONObject, json_list, json_object
from continual_arc_baselines.library.memory import EarlyAnswers, LibraryMemory
from continual_arc_baselines.transfer import TransferExplorer


class _Silent(GameBase):
    """A game learner that says nothing itself: every hook is the base's."""


class _Noting(GridBase):
    """A grid learner that gives up and notes the instance's step for its user."""

    def act(self, obs: LearnerObservation) -> GiveUp:
        self._logs[obs.user] = {"step": obs.step}
        return GiveUp()


def _grid_obs(user: int, step: int) -> LearnerObservation:
    grid = ((1, 2), (3, 4))
    return LearnerObservation("t", grid, 0, 3, 0, 3, (), step, 0, user)


def _game_obs() -> GameObservation:
    frame = encode_frame(np.zeros((64, 64), dtype=np.uint8).tolist())
    return GameObservation("g", frame, (frame,), ("ACTION1",), 0, 8, 0, 2, 0, 2, (), 0, 0, 0)


def test_a_subclass_without_act_is_told_so_and_every_other_hook_does_nothing() -> None:
    learner = _Silent()
    with pytest.raises(NotImplementedError, match="_Silent must implement act"):
        learner.act(_game_obs())
    learner.reset()
    learner.begin_round()
    learner.end_round()
    assert (learner.resources(), learner.user_resources(3), learner.instance_log(0)) == ({}, {}, None)
    assert (learner.concurrent_users, learner.stateless) == (False, False)
    assert missing_members(learner) == [] and misnamed_members(learner) == []


def test_a_users_log_lasts_until_the_next_round_begins() -> None:
    learner = _Noting()
    learner.begin_round()
    learner.act(_grid_obs(user=0, step=4))
    learner.act(_grid_obs(user=1, step=5))
    assert (learner.instance_log(0), learner.instance_log(1), learner.instance_log(2)) == (
        {"step": 4},
        {"step": 5},
        None,
    )
    learner.begin_round()
    assert learner.instance_log(0) is None


@pytest.mark.parametrize("kind", [GameExplorer, TransferExplorer])
def test_the_explorers_have_the_optional_members_the_runner_asks_for(kind: type[GameExplorer]) -> None:
    learner = kind()
    for protocol in (SavesState, LoadsState, LogsInstances, ShowsMemory):
        assert isinstance(learner, protocol), protocol.__name__
    assert misnamed_members(learner) == []
    built = load_learner(f"{kind.__module__}:{kind.__name__}", {"keep": False, "max_clicks": 7})
    assert isinstance(built, kind) and built.settings.max_clicks == 7 and built.stateless


def test_the_explorer_refuses_a_grid_instance_in_one_sentence() -> None:
    with pytest.raises(TypeError, match="plays game levels"):
        GameExplorer().act(_grid_obs(0, 0))  # type: ignore[arg-type]


def test_a_state_file_is_sorted_json_indented_or_compact_with_one_newline(tmp_path: Path) -> None:
    state: JSONObject = {"b": [1, 2], "a": {"y": None, "x": True}}
    write_state(tmp_path, "s.json", state)
    assert (tmp_path / "s.json").read_text() == (
        '{\n "a": {\n  "x": true,\n  "y": null\n },\n "b": [\n  1,\n  2\n ]\n}\n'
    )
    write_state(tmp_path, "c.json", state, indent=None)
    assert (tmp_path / "c.json").read_text() == '{"a": {"x": true, "y": null}, "b": [1, 2]}\n'
    assert read_state(tmp_path, "s.json") == read_state(tmp_path, "c.json") == state


def test_a_state_file_that_holds_no_object_is_refused(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text("[1, 2]\n")
    with pytest.raises(ValueError, match="holds no JSON object"):
        read_state(tmp_path, "s.json")


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(), _json, max_size=5), st.sampled_from([None, 1, 2]))
def test_what_write_state_writes_read_state_reads_back(state: JSONObject, indent: int | None) -> None:
    # hypothesis runs many examples: a folder each, not pytest's one tmp_path
    with tempfile.TemporaryDirectory() as folder:
        write_state(folder, "s.json", state, indent=indent)
        assert read_state(folder, "s.json") == state
        assert Path(folder, "s.json").read_text() == json.dumps(state, indent=indent, sort_keys=True) + "\n"


def test_the_json_readers_pass_their_kind_and_name_the_wrong_one() -> None:
    assert json_object({"a": 1}, "x") == {"a": 1} and json_list([1], "x") == [1]
    with pytest.raises(ValueError, match="the notes is not a JSON object"):
        json_object([1], "the notes")
    with pytest.raises(ValueError, match="the demos is not a JSON array"):
        json_list({"a": 1}, "the demos")


def test_game_notes_read_with_counts_missing_as_zero_and_refuse_what_is_not_notes() -> None:
    notes = GameNotes.from_json({"keys": {"ACTION1": [1, 1, 0, 0]}, "plays": 2})
    assert notes == GameNotes(keys={"ACTION1": [1.0, 1.0, 0.0, 0.0]}, plays=2)
    assert isinstance(notes.keys["ACTION1"][0], float)
    with pytest.raises(ValueError, match="game notes that do not read"):
        GameNotes.from_json([1, 2])
    with pytest.raises(ValueError, match="game notes that do not read"):
        GameNotes.from_json({"plays": "many"})


def test_the_librarys_memory_reads_its_own_form_and_refuses_another() -> None:
    memory = LibraryMemory(programs={"t": "identity"}, demos={"t": [(((1,),), ((2,),))]})
    assert LibraryMemory.from_json(json.loads(json.dumps(memory.to_json()))) == memory
    assert LibraryMemory.from_json({}) == LibraryMemory()
    with pytest.raises(ValueError, match="the demonstrations of t is not a JSON array"):
        LibraryMemory.from_json({"demos": {"t": {"a": 1}}})
    with pytest.raises(ValueError, match="the early answers is not a JSON object"):
        EarlyAnswers.from_json([3, 1])


def test_a_game_explorer_plays_a_level_through_the_generic_base_as_before() -> None:
    explorer = GameExplorer()
    explorer.begin_round()
    action = explorer.act(_game_obs())
    assert isinstance(action, GameAction) and action.action == "ACTION1"
