"""The transfer explorer (:class:`~.learner.TransferExplorer`): the explorer, memory pooled across games.

Modules: :mod:`~.pool` (what is pooled, by the actions a game offers, and how it is laid under a
game's own notes), :mod:`~.learner` (the learner).
"""

from .learner import TransferExplorer

__all__ = ["TransferExplorer"]
