"""The tracks' stateless floors: each default learner's search, keeping nothing between instances.

A floor is played beside every model-free result on each frozen test, one instance at a time, and
a reset that plays below it by more than its interval is flagged
([reset_flags][continual_arc.measure.reset_flags]). It is what a learner's reset should reach with
no model at all: the search the track's default learner runs, with nothing kept. The baselines
declare these classes to the core as ``floor-grid`` and ``floor-game`` among the reference
learners (``continual_arc.play.declared``); each is built with no arguments, so a floor is named by
its class alone and depends on nothing a result's author chooses.
"""

from __future__ import annotations

from .library import ProgramLibraryLearner
from .transfer import TransferExplorer

__all__ = ["GameFloorLearner", "GridFloorLearner"]


class GridFloorLearner(ProgramLibraryLearner):
    """The grid tracks' floor: the program library's DSL search keeping nothing between instances.

    Exactly [ProgramLibraryLearner][continual_arc_baselines.library.ProgramLibraryLearner] with
    ``keep="nothing"`` at every other default: it buys demonstrations and searches afresh on every
    instance, as the library's own reset does.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = ()

    def __init__(self) -> None:
        super().__init__(keep="nothing")


class GameFloorLearner(TransferExplorer):
    """The game track's floor: the transfer explorer keeping no notes between instances.

    Exactly [TransferExplorer][continual_arc_baselines.transfer.TransferExplorer] with
    ``keep=False`` at every other default: it explores every level from nothing.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = ()

    def __init__(self) -> None:
        super().__init__(keep=False)
