"""A teacher's move, written as the student's reply, reads back as the same move (no model needed)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.games import GAME_ACTIONS, GameAction
from continual_arc.env import GiveUp
from continual_arc_baselines.game_play import parse_game_action
from continual_arc_baselines.prompts import parse_grid
from continual_arc_baselines.trained.moves import game_line, grid_reply
from continual_arc_baselines.trained.qd import Pair

cells = st.integers(min_value=0, max_value=63)
actions = st.one_of(
    st.builds(GameAction, st.sampled_from([a for a in GAME_ACTIONS if a != "ACTION6"])),
    st.builds(GameAction.click, cells, cells),
    st.just(GiveUp()),
)
grids = st.integers(1, 30).flatmap(
    lambda width: st.lists(
        st.lists(st.integers(0, 9), min_size=width, max_size=width), min_size=1, max_size=30
    )
)


@given(actions)
def test_a_game_move_reads_back_as_the_same_action(action: GameAction | GiveUp) -> None:
    assert parse_game_action(game_line(action)) == action


@given(grids)
def test_a_grid_move_reads_back_as_the_same_grid(rows: list[list[int]]) -> None:
    grid = tuple(map(tuple, rows))
    assert parse_grid(grid_reply(grid)) == grid
    assert grid_reply(grid) == "```\n" + "\n".join(" ".join(map(str, row)) for row in rows) + "\n```"


@given(st.lists(st.text(), max_size=4), st.text(), st.sampled_from(["grid", "game"]))
def test_a_pair_survives_its_json_line(contents: list[str], move: str, kind: str) -> None:
    messages = tuple({"role": "user", "content": c} for c in contents)
    pair = Pair("game" if kind == "game" else "grid", "task/0/0", messages, move)
    assert Pair.from_json(pair.to_json()) == pair
