"""The model-free explorer of the arc3 track's game levels (:class:`~.learner.GameExplorer`).

Modules: :mod:`~.frames` (what it reads in a frame), :mod:`~.graph` (a level's states and known
moves), :mod:`~.notes` (what it keeps per game), :mod:`~.episode` (its policy on one level),
:mod:`~.learner` (the learner), :mod:`~.controls` (the controls that keep one bit and no game
knowledge, floors for the transfer explorer).
"""

from .controls import PriorControl
from .learner import GameExplorer

__all__ = ["GameExplorer", "PriorControl"]
