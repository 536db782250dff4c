"""What the transfer explorer pools across games: each game's notes, one level's worth, by kind of game.

A game is known by the alias a run gives it, which says nothing of the game; what does carry over
is its **signature**, the actions it offers (``ACTION1,ACTION2,ACTION3,ACTION4`` for a maze walked
with four arrows, ``ACTION6`` for a game played by clicking). Games of one signature tend to share
what :class:`~continual_arc_baselines.explorer.notes.GameNotes` counts: which way each arrow moves
the mover, which colour moves (the player), which colour a win covers (the exit), which clicked
colours change the frame, and whether a wrong move loses.

:class:`Pool` keeps nothing of its own: it is computed from the per-game notes and signatures the
learner keeps, so it cannot drift from them. Each game counts as one level's worth of evidence
(its counts divided by the levels it was played), so a game met often does not drown the others,
and the pool of a signature is the mean over its games. :func:`prior_for` lays that pool, scaled
by a weight, under a game's own notes: on a new game the pool decides; on a returning game its
own levels soon outweigh it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..explorer.notes import GameNotes

__all__ = ["Pool", "pool_for", "prior_for", "scaled", "signature"]


def signature(actions: Sequence[str]) -> str:
    """A game's signature: the actions it offers besides RESET, sorted and joined by commas."""
    return ",".join(sorted({a for a in actions if a != "RESET"}))


def scaled(notes: GameNotes, factor: float) -> GameNotes:
    """The counts of ``notes`` times ``factor``; plays, wins, demonstrations and win lengths left out.

    The left-out fields drive the explorer's own-game decisions (no demonstration for a game it has
    won), which another game's wins must not make.
    """
    return GameNotes(
        keys={k: [v * factor for v in values] for k, values in notes.keys.items()},
        moves={k: [v * factor for v in values] for k, values in notes.moves.items()},
        mover={k: v * factor for k, v in notes.mover.items()},
        goal={k: v * factor for k, v in notes.goal.items()},
    )


@dataclass(frozen=True)
class Pool:
    """The notes of several games pooled, one level's worth each.

    Attributes:
        notes: the mean of the games' notes, each divided by the levels it was played.
        games: how many games were pooled.
        losing: the share of them on which some action has lost a level.
    """

    notes: GameNotes
    games: int
    losing: float

    @classmethod
    def of(cls, games: Sequence[GameNotes]) -> Pool:
        """The pool of ``games`` (in the order given: counts are added, so the order cannot matter)."""
        pooled = GameNotes()
        for notes in games:
            pooled.merge(scaled(notes, 1.0 / (max(1, notes.plays) * len(games))))
        losing = sum(1 for notes in games if notes.loses) / len(games) if games else 0.0
        return cls(pooled, len(games), losing)


def pool_for(games: Mapping[str, GameNotes], signatures: Mapping[str, str], wanted: str) -> Pool:
    """The pool of the games of signature ``wanted``, or of every game when none has it."""
    names = sorted(name for name in games if signatures.get(name) == wanted)
    if not names:
        names = sorted(games)
    return Pool.of([games[name] for name in names])


def prior_for(own: GameNotes | None, pool: Pool, weight: float) -> GameNotes:
    """What an episode starts from: the pool scaled by ``weight``, under the game's own notes."""
    prior = scaled(pool.notes, weight)
    if own is not None:
        prior.merge(own)
    return prior
