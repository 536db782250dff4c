"""What the transfer explorer pools across games: each game's notes, one level's worth, by kind of game.

A game is known by the alias a run gives it, which says nothing of the game; what does carry over
is its **signature**, the actions it offers (``ACTION1,ACTION2,ACTION3,ACTION4`` for a maze walked
with four arrows, ``ACTION6`` for a game played by clicking). Games of one signature tend to share
what `GameNotes` counts of their simple actions:
which way each arrow moves the mover, how often it changes the frame, loses or wins; which colour
moves (the player) and which colour a win covers (the exit); and whether a wrong move loses.

Clicks are counted per game only (`transferable` drops them): the explorer names a click by
the colour and size of the blob clicked, and what such a blob is (a tile that loses in count-click,
a pipe to turn in pipe-connect) is the game's own rule. Pooled, those counts reordered a new click
game's candidates for the worse (pipe-connect at seed 1: 64 charged against its reset's 38). What
a game passes on is whether wrong moves lose (`Pool.losing`), which sets how deep first a
new game is searched. (A game played by clicks alone is given no pool at all by the learner.)

`Pool` keeps nothing of its own: it is computed from the per-game notes and signatures the
learner keeps, so it cannot drift from them. Each game counts as one level's worth of evidence
(its counts divided by the levels it was played), so a game met often does not drown the others,
and the pool of a signature is the mean over its games. `prior_for` lays that pool, scaled
by a weight that shrinks with the levels the game itself was played, under a game's own notes: on
a new game the pool decides; on a returning game its own levels do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..explorer.notes import GameNotes

__all__ = ["Pool", "pool_for", "prior_for", "scaled", "signature", "transferable"]


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


def transferable(notes: GameNotes) -> GameNotes:
    """The part of a game's notes that is pooled: every count but those of clicks (keys ``c...``)."""
    return GameNotes(
        keys={k: list(v) for k, v in notes.keys.items() if not k.startswith("c")},
        moves=dict(notes.moves),
        mover=dict(notes.mover),
        goal=dict(notes.goal),
        plays=notes.plays,
    )


@dataclass(frozen=True)
class Pool:
    """The notes of several games pooled, one level's worth each.

    Attributes:
        notes: the mean of the games' transferable notes, each divided by the levels it was played.
        games: how many games were pooled.
        losing: the share of them on which some action has lost a level.
        winning: the share of them won at least once.
    """

    notes: GameNotes
    games: int
    losing: float
    winning: float = 0.0

    @classmethod
    def of(cls, games: Sequence[GameNotes]) -> Pool:
        """The pool of ``games`` (in the order given: counts are added, so the order cannot matter)."""
        pooled = GameNotes()
        for notes in games:
            pooled.merge(scaled(transferable(notes), 1.0 / (max(1, notes.plays) * len(games))))
        if not games:
            return cls(pooled, 0, 0.0, 0.0)
        losing = sum(1 for notes in games if notes.loses) / len(games)
        winning = sum(1 for notes in games if notes.wins) / len(games)
        return cls(pooled, len(games), losing, winning)


def pool_for(games: Mapping[str, GameNotes], signatures: Mapping[str, str], wanted: str) -> Pool:
    """The pool of the games of signature ``wanted``, or of every game when none has it."""
    names = sorted(name for name in games if signatures.get(name) == wanted)
    if not names:
        names = sorted(games)
    return Pool.of([games[name] for name in names])


def prior_for(own: GameNotes | None, pool: Pool, weight: float) -> GameNotes:
    """What an episode starts from: the pool under the game's own notes.

    The pool counts ``weight`` levels' worth on a new game and ``weight / (1 + plays)`` on one
    played before, so that a game's own levels take over from what other games suggested.
    """
    plays = own.plays if own is not None else 0
    prior = scaled(pool.notes, weight / (1 + plays))
    if own is not None:
        prior.merge(own)
    return prior
