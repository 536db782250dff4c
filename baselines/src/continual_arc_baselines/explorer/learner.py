"""The model-free explorer of the arc3 track: search a level by acting, keep per game what worked.

On a level it searches by acting (`episode`): frames are states, each frame's candidate
actions are tried best first, the known graph is walked to the nearest frame with an untried
action, and a lost move is never taken again; demonstrations are bought when a game it never won
keeps failing. Between instances it keeps, per game (under the name the run shows it), counts over
its plays (`GameNotes`): which actions and which clicked colours changed the frame,
lost, or were part of a win; which colour moves and how far each action moves it; which colour a
winning move covers. A returning game's actions are then tried in that order, with the mover
steered toward the goal colour; a game known to lose on a wrong move is searched deep first (past
the moves that went right), and no demonstration is bought for a game it has won. What an
instance teaches is folded in at ``end_round`` only; ``reset`` forgets everything.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from typing_extensions import Unpack

from continual_arc.env import GameFeedback, GameMove, GameObservation, GameReply

from ..base import GameBase, read_state, write_state
from ..json_types import JSONObject
from .episode import Episode, ExplorerKnobs, ExplorerSettings
from .notes import GameNotes

__all__ = ["GameExplorer"]

_STATE_FILE = "explorer.json"


class GameExplorer(GameBase):
    """Explores game levels by acting, and keeps per game what worked.

    Args:
        keep: whether to keep notes between instances (``False``: its own reset, kept nothing).
        **explorer: the explorer's knobs
            ([ExplorerKnobs][continual_arc_baselines.explorer.episode.ExplorerKnobs]: ``max_clicks``,
            ``stuck_attempts``, ``max_demos``, ``goal_weight``, ``depth_weight``), each not given at
            its default ([ExplorerSettings][continual_arc_baselines.explorer.episode.ExplorerSettings]).
    """

    stateless_when: tuple[tuple[str, object], ...] | None = (("keep", False),)
    concurrent_users = False

    def __init__(self, keep: bool = True, **explorer: Unpack[ExplorerKnobs]) -> None:
        super().__init__()
        self.keep = keep
        self.stateless = not keep
        self.settings = ExplorerSettings.of(explorer)
        self.games: dict[str, GameNotes] = {}
        self._open: dict[int, tuple[int, Episode]] = {}
        self._done: list[tuple[int, str, GameNotes]] = []

    # -- the protocol ---------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every game."""
        self.games = {}
        self._open.clear()
        self._done.clear()

    def act(self, obs: GameObservation) -> GameMove:
        """The next action on a game level.

        Raises:
            TypeError: the observation is not a game level's (this learner plays arc3 only).
        """
        _refuse_grids(obs)
        return self._episode(obs).act(obs)

    def observe(self, obs: GameObservation, action: GameMove, feedback: GameReply) -> None:
        """Take one feedback into the instance's notes; an ended instance waits for ``end_round``."""
        opened = self._open.get(obs.user)
        if opened is None or opened[0] != obs.step:
            return
        episode = opened[1]
        episode.observe(obs, action, feedback)
        if feedback.done:
            self._close(obs, episode, feedback)

    def end_round(self) -> None:
        """Fold the round's instances into the games' notes, in the order they were served."""
        if self.keep:
            for _, game, notes in sorted(self._done, key=lambda item: item[0]):
                self.games.setdefault(game, GameNotes()).merge(notes)
        self._done.clear()
        self._open.clear()

    def resources(self) -> Mapping[str, float]:
        """What the notes hold."""
        return {
            "games_known": float(len(self.games)),
            "state_bytes": float(len(json.dumps(self._state_json()))),
        }

    # -- optional hooks the runner uses ----------------------------------------------------------

    def save_state(self, directory: str | Path) -> None:
        """Write the notes as ``explorer.json``."""
        write_state(directory, _STATE_FILE, self._state_json())

    def load_state(self, directory: str | Path) -> None:
        """Read the notes written by `save_state`."""
        self.games = games_of(read_state(directory, _STATE_FILE))

    def memory(self) -> JSONObject:
        """What it keeps, as JSON."""
        return self._state_json()

    # -- the parts ------------------------------------------------------------------------------

    def _state_json(self) -> JSONObject:
        return {
            "format": 1,
            "keep": self.keep,
            "games": {k: v.to_json() for k, v in sorted(self.games.items())},
        }

    def _episode(self, obs: GameObservation) -> Episode:
        opened = self._open.get(obs.user)
        if opened is None or opened[0] != obs.step:
            prior = self.games.get(obs.task_id, GameNotes()) if self.keep else GameNotes()
            opened = (obs.step, Episode(prior, self.settings))
            self._open[obs.user] = opened
        return opened[1]

    def _close(self, obs: GameObservation, episode: Episode, feedback: GameReply) -> None:
        self._done.append((obs.step, obs.task_id, episode.notes))
        self._logs[obs.user] = {
            **episode.log,
            "won": isinstance(feedback, GameFeedback) and feedback.ended == "won",
            "states": len(episode.graph.candidates),
            "demos_read": episode.demos_read,
        }
        del self._open[obs.user]


def _refuse_grids(obs: object) -> None:
    """Raise unless ``obs`` shows a game level: the explorer plays nothing else."""
    if not isinstance(obs, GameObservation):
        raise TypeError("GameExplorer plays game levels (the arc3 track) only")


def games_of(state: JSONObject) -> dict[str, GameNotes]:
    """The games' notes of a state `GameExplorer.save_state` wrote.

    Raises:
        ValueError: the state has no object of games' notes.
    """
    games = state.get("games")
    if not isinstance(games, dict):
        raise ValueError("an explorer's state holds its games' notes as an object")
    return {name: GameNotes.from_json(value) for name, value in games.items()}
