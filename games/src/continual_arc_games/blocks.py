"""Rooms of blocks and targets, shared by push-blocks and magnet: one legend, one layout, one look.

Both games draw a walled room with a player, blocks and target rings, and differ only in how the
blocks move (pushed ahead, or pulled in line). Legend of their level grids: 0 floor, 1 wall, 2 the
player's start, 3 a block, 4 a target, 5 a block on a target, 6 the start on a target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arcengine import InteractionMode, Sprite

from .base import Level
from .engine import block, layer_sprite, patch
from .layouts import Cell, Grid, ordered

__all__ = [
    "BLOCK",
    "BLOCK_ON_TARGET",
    "CELL",
    "FLOOR",
    "START",
    "START_ON_TARGET",
    "TARGET",
    "WALL",
    "BlockRoom",
    "BlockState",
    "place_pieces",
    "room_sprites",
]

FLOOR, WALL, START, BLOCK, TARGET, BLOCK_ON_TARGET, START_ON_TARGET = range(7)
CELL = 3  # pixels per cell: a target is drawn as a ring, so it shows under a block
_PLAYER, _MARK, _STONE = 9, 14, 3  # blue player, green rings, dark grey walls


@dataclass(frozen=True)
class BlockRoom:
    """A level's walls, targets, blocks (sorted) and the player's start."""

    walls: frozenset[Cell]
    targets: frozenset[Cell]
    blocks: tuple[Cell, ...]
    start: Cell

    @classmethod
    def read(cls, level: Level) -> BlockRoom:
        """The room a level's grid holds."""
        targets = level.cells(TARGET) + level.cells(BLOCK_ON_TARGET) + level.cells(START_ON_TARGET)
        blocks = tuple(sorted(level.cells(BLOCK) + level.cells(BLOCK_ON_TARGET)))
        start = (level.cells(START) + level.cells(START_ON_TARGET))[0]
        return cls(frozenset(level.cells(WALL)), frozenset(targets), blocks, start)


#: A solver's state of a room: the player's cell and the sorted cells of the blocks.
BlockState = tuple[Cell, tuple[Cell, ...]]


def place_pieces(grid: Grid, targets: Sequence[Cell], blocks: Sequence[Cell], player: Cell) -> None:
    """Write the targets, then the blocks and the player (on a target or not) into ``grid``."""
    for x, y in targets:
        grid[y][x] = TARGET
    for x, y in blocks:
        grid[y][x] = BLOCK_ON_TARGET if grid[y][x] == TARGET else BLOCK
    px, py = player
    grid[py][px] = START_ON_TARGET if grid[py][px] == TARGET else START


def room_sprites(
    room: BlockRoom, size: tuple[int, int], colour: int, target_tags: Sequence[str] = ()
) -> list[Sprite]:
    """The walls (one sprite), the target rings, the blocks (``colour``, tagged "block"), the player."""
    ring = [[_MARK, _MARK, _MARK], [_MARK, -1, _MARK], [_MARK, _MARK, _MARK]]
    sprites = [layer_sprite(((x, y, _STONE) for x, y in room.walls), "walls", size, cell=CELL)]
    for i, (x, y) in enumerate(ordered(room.targets)):
        # Rings sit above everything, so a target stays visible under a block or the player.
        target = patch(ring, f"target{i}", x, y, cell=CELL, layer=4, tags=target_tags)
        sprites.append(target.set_interaction(InteractionMode.INTANGIBLE))
    for i, (x, y) in enumerate(room.blocks):
        sprites.append(block(colour, f"block{i}", x, y, cell=CELL, layer=2, tags=["block"]))
    sprites.append(block(_PLAYER, "player", *room.start, cell=CELL, layer=3))
    return sprites
