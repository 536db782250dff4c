"""The transfer explorer (`TransferExplorer`): the explorer, memory pooled across games.

Modules: `pool` (what is pooled, by the actions a game offers, and how it is laid under a
game's own notes), `learner` (the learner).
"""

from .learner import TransferExplorer

__all__ = ["TransferExplorer"]
