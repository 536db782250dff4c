"""magnet: pull metal blocks onto their targets with a magnet that draws along rows and columns.

The level grid's legend is `blocks`'s, shared with the other game of blocks and targets.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, USE, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .blocks import CELL, FLOOR, WALL, BlockRoom, BlockState, place_pieces, room_sprites
from .engine import DELTAS, GridGame
from .layouts import Cell, bordered_room, distances, inner_cells, ordered
from .search import astar
from .symmetry import SYMMETRIES, turned_grid

__all__ = ["Magnet", "pull"]

METAL, GROUND, EDGE = 1, 5, 4  # light grey blocks on black, grey letterbox

_PULL = Move(USE)


@dataclass(frozen=True)
class _Knobs:
    size: tuple[int, int]  # the room with its wall ring
    blocks: int
    walls: int  # inner wall cells
    pulls: int  # pulls in the random play that puts the targets where the blocks end up
    shortest: int  # fewest moves a served level needs


_KNOBS = (
    _Knobs((7, 6), 1, 1, 3, 4),
    _Knobs((7, 7), 2, 3, 4, 6),
    _Knobs((8, 7), 2, 4, 6, 8),
    _Knobs((7, 7), 3, 4, 6, 10),  # a third block costs more states than a larger room: kept cramped
)


def pull(walls: frozenset[Cell], player: Cell, blocks: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The blocks (sorted) after a pull at ``player``: those in its row or column slide towards it.

    Nearest first, each slides until the next cell is a wall, a block or the player; a block beyond
    a wall stops at the wall.
    """
    px, py = player
    settled = [b for b in blocks if b[0] != px and b[1] != py]
    if len(settled) == len(blocks):
        return blocks  # nothing in line: the common case in a search, so kept cheap
    pulled = sorted((b for b in blocks if b not in settled), key=lambda b: abs(b[0] - px) + abs(b[1] - py))
    for x, y in pulled:
        dx, dy = (px > x) - (px < x), (py > y) - (py < y)
        while (
            (x + dx, y + dy) not in walls and (x + dx, y + dy) not in settled and (x + dx, y + dy) != player
        ):
            x, y = x + dx, y + dy
        settled.append((x, y))
    return tuple(sorted(settled))


class Magnet:
    """The magnet game (see the module docstring for its level legend)."""

    id = "magnet"
    title = "Magnet"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); walls and the grey metal blocks stop it, and it cannot push them. ACTION5 switches "
        "its magnet on for a moment: every block in the player's row or column slides towards the "
        "player, a cell a frame, until a wall, another block or the player itself stops it. The "
        "level is won when every green target ring has a block on it."
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 30_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 7x6 to 8x7 cells with 1 to 3 blocks and 1 to 4 inner walls.

        The targets are where the blocks end up after 3 to 6 pulls from random cells the player
        can walk to, so every level can be won; a served level needs at least 4, 6, 8 or 10 moves.
        The room is then turned or mirrored at random.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        width, height = knobs.size
        grid = bordered_room(width, height, WALL, FLOOR)
        inside = inner_cells(width, height)
        picks = rng.sample(inside, knobs.walls + knobs.blocks + 1)
        walls = frozenset(picks[: knobs.walls]) | {
            (x, y) for y in range(height) for x in range(width) if grid[y][x] == WALL
        }
        blocks = tuple(sorted(picks[knobs.walls : -1]))
        player = picks[-1]
        targets = _random_play(rng, walls, player, blocks, knobs.pulls, knobs.size)
        for x, y in picks[: knobs.walls]:
            grid[y][x] = WALL
        place_pieces(grid, targets, blocks, player)
        # Served in any of the eight orientations, so that no two layouts are alike by habit.
        level = Level.make(self.id, turned_grid(grid, rng.randrange(SYMMETRIES)))
        long_plan(self, level, knobs.shortest)
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a pull is an animation, the blocks sliding a cell a frame."""
        return _MagnetGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves and pulls, by A* over (player, blocks).

        A block off its target moves only when pulled with the player in its row or column, so a
        level not yet won needs at least one pull, and first a walk to the row or column of some
        block off target: that never overestimates.
        """
        room = BlockRoom.read(level)

        def successors(state: BlockState) -> Iterator[tuple[Move, BlockState]]:
            (x, y), blocks = state
            for action, (dx, dy) in DELTAS.items():
                ahead = (x + dx, y + dy)
                if ahead not in room.walls and ahead not in blocks:
                    yield ARROWS[action], (ahead, blocks)
            after = pull(room.walls, (x, y), blocks)
            if after != blocks:
                yield _PULL, ((x, y), after)

        def heuristic(state: BlockState) -> int:
            (x, y), blocks = state
            away = [min(abs(x - bx), abs(y - by)) for bx, by in blocks if (bx, by) not in room.targets]
            return 1 + min(away) if away else 0

        return astar(
            (room.start, room.blocks), successors, lambda s: room.targets.issuperset(s[1]), heuristic, budget
        )


def _random_play(
    rng: random.Random,
    walls: frozenset[Cell],
    player: Cell,
    blocks: tuple[Cell, ...],
    pulls: int,
    size: tuple[int, int],
) -> tuple[Cell, ...]:
    """Where the blocks end up after ``pulls`` pulls, each from a random cell the player can reach.

    Raises:
        RejectLevel: the blocks ended where they started.
    """
    start = blocks
    for _ in range(pulls):
        reach = distances(player, _free(walls | frozenset(blocks)), *size)
        options = [c for c in ordered(reach) if pull(walls, c, blocks) != blocks]
        if not options:
            break
        player = rng.choice(options)
        blocks = pull(walls, player, blocks)
    if blocks == start:
        raise RejectLevel("the random play left every block where it was")
    return blocks


def _free(taken: frozenset[Cell]) -> Callable[[Cell], bool]:
    """A test for the cells the player may walk on: those not ``taken`` by a wall or a block."""
    return lambda cell: cell not in taken


class _MagnetGame(GridGame):
    """The engine side of magnet: the blocks slide by collisions with walls, blocks and the player."""

    def __init__(self, level: Level) -> None:
        room = BlockRoom.read(level)
        size = (level.width, level.height)
        sprites = room_sprites(room, size, METAL)
        self.targets = room.targets
        super().__init__(
            Magnet.id, sprites, size, actions=(1, 2, 3, 4, 5), cell=CELL, background=GROUND, letterbox=EDGE
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player; or, for ACTION5, slide the blocks in line with it a cell a frame."""
        player = self.sprite("player")
        if action != 5:
            dx, dy = DELTAS[action]
            self.try_move_sprite(player, dx * CELL, dy * CELL)
            return True
        px, py = self.cell_of(player)
        pulled = [
            b
            for b in self.current_level.get_sprites_by_tag("block")
            if px == b.x // CELL or py == b.y // CELL
        ]
        pulled.sort(key=lambda b: abs(b.x // CELL - px) + abs(b.y // CELL - py))  # nearest first
        for metal in pulled:
            self.try_move_sprite(metal, *self._towards(metal, px, py))
        if any(self._can_slide(metal, px, py) for metal in pulled):
            return False  # another frame
        covered = {self.cell_of(b) for b in self.current_level.get_sprites_by_tag("block")}
        if covered >= self.targets:
            self.next_level()
        return True

    def _towards(self, metal: Sprite, px: int, py: int) -> tuple[int, int]:
        """The pixel step of a block one cell towards the player's cell (px, py)."""
        bx, by = self.cell_of(metal)
        return ((px > bx) - (px < bx)) * CELL, ((py > by) - (py < by)) * CELL

    def _can_slide(self, metal: Sprite, px: int, py: int) -> bool:
        dx, dy = self._towards(metal, px, py)
        blocked = self.try_move_sprite(metal, dx, dy)
        if not blocked:
            metal.move(-dx, -dy)  # only a probe: put it back
        return not blocked
