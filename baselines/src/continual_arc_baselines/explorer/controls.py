"""Controls for the transfer explorer: learners that carry one bit between games, and no game knowledge.

The transfer explorer's held-out saving says something only against what a learner saves that
learns nothing of the games. [`PriorControl`][continual_arc_baselines.explorer.controls.PriorControl] is the
explorer with every game's notes thrown away: what it keeps is one bit, set at the end of its first round (it
has "played before") and cleared by ``reset``. With the bit set, every level starts from a hand-written prior
instead of nothing:

- ``prior="blue-to-green"``: the colour that moves is blue (9) and the goal is green (14), as in
  most of this track's walking games, and no demonstration is bought (the prior counts one win);
- ``prior="no-demos"``: no demonstration is bought, and nothing else is assumed.

Its reset (the bit cleared) plays exactly as the explorer's reset, so the two share the reset
side of every comparison. What it saves against that reset is what a fixed prior and buying no
demonstrations save, which no learning explains.

The two controls go by their own names, so a protocol or a sweep names them as any learner:
``continual_arc_baselines.explorer:PriorControl`` (the blue-to-green prior) and
``continual_arc_baselines.explorer:DemoSkipControl`` (only skipping demonstrations).
"""

from __future__ import annotations

from pathlib import Path

from typing_extensions import Unpack

from continual_arc.env import GameObservation

from ..base import read_state, write_state
from ..json_types import JSONObject
from .episode import Episode, ExplorerKnobs
from .learner import GameExplorer
from .notes import GameNotes

__all__ = ["PRIORS", "DemoSkipControl", "PriorControl"]

PRIORS = ("blue-to-green", "no-demos")
"""The hand-written priors a control can switch on."""

_STATE_FILE = "control.json"
_BLUE, _GREEN = "9", "14"  # ARC-AGI-3's palette: the walking games' player and exit


def hand_prior(kind: str) -> GameNotes:
    """The notes a level starts from once the bit is set.

    Raises:
        ValueError: an unknown prior.
    """
    if kind not in PRIORS:
        raise ValueError(f"PriorControl's prior is one of {', '.join(PRIORS)}, not {kind!r}")
    if kind == "blue-to-green":
        return GameNotes(mover={_BLUE: 1.0}, goal={_GREEN: 1.0}, wins=1)
    return GameNotes(wins=1)


class PriorControl(GameExplorer):
    """The explorer keeping one bit and no game knowledge: a floor for what transfer saves.

    Args:
        prior: the hand-written prior the bit switches on (one of
            ``PRIORS``).
        keep: whether to keep the bit between rounds (``False``: its own reset, the explorer's).
        **explorer: the explorer's knobs (``max_clicks``, ``stuck_attempts``, ``max_demos``,
            ``goal_weight``, ``depth_weight``).

    Raises:
        ValueError: an unknown prior.
    """

    def __init__(
        self, prior: str = "blue-to-green", keep: bool = True, **explorer: Unpack[ExplorerKnobs]
    ) -> None:
        hand_prior(prior)  # refuses an unknown prior at once
        super().__init__(keep=keep, **explorer)
        self.prior = prior
        self.switched = False

    def reset(self) -> None:
        """Clear the bit."""
        super().reset()
        self.switched = False

    def end_round(self) -> None:
        """Set the bit once a round has ended an instance; forget what the instances taught."""
        if self.keep and self._done:
            self.switched = True
        self._done.clear()
        self._open.clear()

    def save_state(self, directory: str | Path) -> None:
        """Write the bit as ``control.json``."""
        write_state(directory, _STATE_FILE, self._state_json(), indent=None)

    def load_state(self, directory: str | Path) -> None:
        """Read the bit written by `save_state`."""
        self.switched = bool(read_state(directory, _STATE_FILE)["switched"])

    def _state_json(self) -> JSONObject:
        return {"format": 1, "keep": self.keep, "prior": self.prior, "switched": self.switched}

    def _episode(self, obs: GameObservation) -> Episode:
        opened = self._open.get(obs.user)
        if opened is None or opened[0] != obs.step:
            notes = hand_prior(self.prior) if self.switched else GameNotes()
            opened = (obs.step, Episode(notes, self.settings))
            self._open[obs.user] = opened
        return opened[1]


class DemoSkipControl(PriorControl):
    """The control that only skips demonstrations once it has played a round: the ``no-demos`` prior.

    Args:
        keep: whether to keep the bit between rounds (``False``: its own reset, the explorer's).
        **explorer: the explorer's knobs, as
            [`PriorControl`][continual_arc_baselines.explorer.controls.PriorControl] takes them.
    """

    def __init__(self, keep: bool = True, **explorer: Unpack[ExplorerKnobs]) -> None:
        super().__init__(prior="no-demos", keep=keep, **explorer)
