"""The arc3 track's games, written for this benchmark on ARC Prize's open engine ``arcengine``.

Each game is a `GameSpec`: rules to discover, a seeded level generator, an engine
game for a level, and a solver over an abstract model of the level. `GAMES` lists them by id.
This package depends only on ``arcengine``, ``numpy`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .base import GameSpec, Level, Move, RejectLevel
from .bridge_switches import BridgeSwitches
from .coin_gate import CoinGate
from .colour_gates import ColourGates
from .colour_sort import ColourSort
from .conveyor import Conveyor
from .count_click import CountClick
from .crumble_floor import CrumbleFloor
from .drop_stack import DropStack
from .guard_patrol import GuardPatrol
from .ice_slide import IceSlide
from .keys_doors import KeysDoors
from .lever_lift import LeverLift
from .magnet import Magnet
from .mirror_beam import MirrorBeam
from .odd_one_out import OddOneOut
from .paint_trail import PaintTrail
from .pipe_connect import PipeConnect
from .portals import Portals
from .push_blocks import PushBlocks
from .sequence_tiles import SequenceTiles
from .shape_fit import ShapeFit
from .slide_puzzle import SlidePuzzle
from .symmetry_draw import SymmetryDraw
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
    KeysDoors(),
    PushBlocks(),
    TiltGravity(),
    TogglePattern(),
    ShapeFit(),
    # Six more: a picture to mirror, odd ones out, coins to count, tiles to slide, a show to repeat,
    # and a lift to work.
    SymmetryDraw(),
    OddOneOut(),
    CoinGate(),
    SlidePuzzle(),
    SequenceTiles(),
    LeverLift(),
    # Seven more: a trail to paint, ice, portals, switches, tokens to sort, counts, crumbling floors.
    PaintTrail(),
    IceSlide(),
    Portals(),
    BridgeSwitches(),
    ColourSort(),
    CountClick(),
    CrumbleFloor(),
    # Seven more: a beam and mirrors, pipes to turn, belts, guards, colour gates, falling blocks, a magnet.
    MirrorBeam(),
    PipeConnect(),
    Conveyor(),
    GuardPatrol(),
    ColourGates(),
    DropStack(),
    Magnet(),
)
