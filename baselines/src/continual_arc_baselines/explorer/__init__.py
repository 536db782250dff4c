"""The model-free explorer of the arc3 track's game levels (`GameExplorer`).

Modules: `frames` (what it reads in a frame), `graph` (a level's states and known
moves), `notes` (what it keeps per game), `episode` (its policy on one level),
`learner` (the learner), `controls` (the controls that keep one bit and no game
knowledge, floors for the transfer explorer).
"""

from .controls import DemoSkipControl, PriorControl
from .episode import ExplorerKnobs, ExplorerSettings
from .learner import GameExplorer

__all__ = ["DemoSkipControl", "ExplorerKnobs", "ExplorerSettings", "GameExplorer", "PriorControl"]
