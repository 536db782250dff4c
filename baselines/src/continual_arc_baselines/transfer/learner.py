"""The transfer explorer: the explorer's search, started on every game from what all games taught.

[`TransferExplorer`][continual_arc_baselines.transfer.learner.TransferExplorer] plays a level exactly as
[`GameExplorer`][continual_arc_baselines.explorer.learner.GameExplorer] does (`episode`), and keeps the same
per-game notes, but each level starts from more than its own game's notes: under them lies the pool of every
game of the same signature (the actions offered; `pool`), so that a game never met is played from
the first action with what its kind of game taught: which way each arrow moves the mover and how
often each changes the frame, loses or wins; which colour moves and which colour a win covers (so
the mover is steered toward the goal); and how likely a wrong move is to lose (so a kind of game
that loses is searched deep first, in proportion). Clicks are counted per game only (a blob's
meaning is the game's own rule; `pool` says why), and a game played by clicks alone is
played from its own notes, as the explorer plays it. A returning game's own levels outweigh the
pool. As the explorer buys no demonstration for a game it has won, this learner buys none for a
game of a kind it has won: what a demonstration would teach (the mover, the goal, the arrows'
moves), the kind already taught.

What an instance teaches is folded in at ``end_round`` only; ``reset`` forgets every game and so
the pool; ``save_state`` writes the games' notes and signatures, from which the pool is rebuilt.
"""

from __future__ import annotations

from pathlib import Path

from typing_extensions import Unpack

from continual_arc.env import GameObservation, GameReply

from ..base import read_state, write_state
from ..explorer.episode import Episode, ExplorerKnobs
from ..explorer.learner import GameExplorer, games_of
from ..explorer.notes import GameNotes
from ..json_types import JSONObject
from .pool import Pool, pool_for, prior_for, signature

__all__ = ["TransferExplorer"]

_STATE_FILE = "transfer.json"
_CLICK = "ACTION6"  # the one action that takes a frame cell


class TransferExplorer(GameExplorer):
    """The explorer with memory pooled across games by signature, used first on every game.

    Args:
        pool_weight: how many levels' worth of evidence the pool counts for under a new game's
            notes (divided by one plus the levels the game was played).
        keep: whether to keep notes between instances (``False``: its own reset, kept nothing).
        **explorer: the explorer's knobs (``max_clicks``, ``stuck_attempts``, ``max_demos``,
            ``goal_weight``, ``depth_weight``).
    """

    def __init__(
        self, pool_weight: float = 1.0, keep: bool = True, **explorer: Unpack[ExplorerKnobs]
    ) -> None:
        super().__init__(keep=keep, **explorer)
        self.pool_weight = pool_weight
        self.signatures: dict[str, str] = {}
        self._pools: dict[str, Pool] = {}
        self._pending: list[tuple[int, str, str]] = []
        self._sig_open: dict[int, str] = {}

    # -- the protocol ---------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every game, and so the pool."""
        super().reset()
        self.signatures = {}
        self._pools.clear()
        self._pending.clear()
        self._sig_open.clear()

    def end_round(self) -> None:
        """Fold the round's instances into their games' notes and note each game's signature."""
        if self.keep:
            for _, game, sig in sorted(self._pending):
                self.signatures[game] = sig
        self._pending.clear()
        self._sig_open.clear()
        self._pools.clear()  # the games changed: pools are rebuilt when next asked for
        super().end_round()

    def load_state(self, directory: str | Path) -> None:
        """Read the notes and signatures written by `save_state`."""
        state = read_state(directory, _STATE_FILE)
        self.games = games_of(state)
        signatures = state.get("signatures")
        if not isinstance(signatures, dict):
            raise ValueError("a transfer explorer's state holds its games' signatures as an object")
        self.signatures = {name: str(value) for name, value in signatures.items()}
        self._pools.clear()

    def save_state(self, directory: str | Path) -> None:
        """Write the notes and signatures as ``transfer.json``."""
        write_state(directory, _STATE_FILE, self._state_json())

    # -- pooled knowledge -----------------------------------------------------------------------

    def pool(self, sig: str) -> Pool:
        """The pool of the kept games of signature ``sig`` (of every kept game if none has it).

        A game played by clicks alone gets an empty pool, and so is played as the explorer plays
        it: what a click game taught (which blob to click, whether a wrong one loses) pooled by
        colour and size reordered other click games' searches for the worse (docs/arc3.md).
        """
        if sig not in self._pools:
            simple = any(action != _CLICK for action in sig.split(",") if action)
            self._pools[sig] = pool_for(self.games, self.signatures, sig) if simple else Pool.of([])
        return self._pools[sig]

    def prior(self, game: str, sig: str) -> GameNotes:
        """What a level of ``game`` (of signature ``sig``) starts from: the pool under its own notes.

        A game never won whose kind has been won counts one win, so that, as on a game it has won,
        no demonstration is bought: what one would teach (the mover, the goal, the arrows' moves)
        the kind already taught.
        """
        prior = prior_for(self.games.get(game), self.pool(sig), self.pool_weight)
        if not prior.wins and self.pool(sig).winning:
            prior.wins = 1
        return prior

    def depth(self, game: str, sig: str) -> float:
        """How strongly a level of ``game`` is searched deep first.

        The explorer's rule for a game with notes of its own (deep when it has lost); for a game
        never met, the depth weight times the share of its signature's games that lose.
        """
        own = self.games.get(game)
        if own is not None and own.plays:
            return self.settings.depth_weight if own.loses else 0.0
        return self.settings.depth_weight * self.pool(sig).losing

    # -- the parts ------------------------------------------------------------------------------

    def _state_json(self) -> JSONObject:
        state = super()._state_json()
        state["signatures"] = dict(sorted(self.signatures.items()))
        state["pool_weight"] = self.pool_weight
        return state

    def _episode(self, obs: GameObservation) -> Episode:
        opened = self._open.get(obs.user)
        if opened is None or opened[0] != obs.step:
            sig = signature(obs.available_actions)
            if self.keep:
                episode = Episode(self.prior(obs.task_id, sig), self.settings)
                episode.deep = self.depth(obs.task_id, sig)
            else:
                episode = Episode(GameNotes(), self.settings)
            opened = (obs.step, episode)
            self._open[obs.user] = opened
            self._sig_open[obs.user] = sig
        return opened[1]

    def _close(self, obs: GameObservation, episode: Episode, feedback: GameReply) -> None:
        self._pending.append((obs.step, obs.task_id, self._sig_open.pop(obs.user, "")))
        super()._close(obs, episode, feedback)
        self._logs[obs.user]["pool"] = {"signature": self._pending[-1][2], "deep": episode.deep}
