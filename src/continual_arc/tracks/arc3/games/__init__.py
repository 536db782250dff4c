"""The arc3 track's games, written for this benchmark on ARC Prize's open engine ``arcengine``.

Each game is a :class:`~.base.GameSpec`: rules to discover, a seeded level generator, an engine
game for a level, and a solver over an abstract model of the level. :data:`GAMES` lists them by id.
This package depends only on ``arcengine``, ``numpy`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .base import GameSpec, Level, Move, RejectLevel
from .colour_gates import ColourGates
from .conveyor import Conveyor
from .drop_stack import DropStack
from .guard_patrol import GuardPatrol
from .keys_doors import KeysDoors
from .magnet import Magnet
from .mirror_beam import MirrorBeam
from .pipe_connect import PipeConnect
from .push_blocks import PushBlocks
from .shape_fit import ShapeFit
from .tilt_gravity import TiltGravity
from .toggle_pattern import TogglePattern

__all__ = ["GAMES", "GameSpec", "Level", "Move", "RejectLevel"]


def _registry(*specs: GameSpec) -> Mapping[str, GameSpec]:
    games = {spec.id: spec for spec in specs}
    if len(games) != len(specs):
        raise ValueError("two games share an id")
    return MappingProxyType(games)


#: Every game by its id, read-only.
GAMES: Mapping[str, GameSpec] = _registry(
    KeysDoors(), PushBlocks(), TiltGravity(), TogglePattern(), ShapeFit(),
    MirrorBeam(),
    PipeConnect(),
    Conveyor(),
    GuardPatrol(),
    ColourGates(),
    DropStack(),
    Magnet(),
)
