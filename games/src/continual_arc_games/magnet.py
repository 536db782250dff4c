"""magnet: pull metal blocks onto their targets with a magnet that draws along rows and columns.

The level grid's legend is `blocks`'s, shared with the other game of blocks and targets, and three
codes of this game's own: 7 a grate (blocks slide over it, the player cannot step on it), 8 a heavy
block (a pull moves it one cell only) and 9 a heavy block on a target.

What each difficulty adds: 0 one block; 1 a second block; 2 grates that bar the player but not the
blocks; 3 a third block, one of them heavy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, USE, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .blocks import BLOCK_ON_TARGET, CELL, FLOOR, WALL, BlockRoom, place_pieces, room_sprites
from .engine import DELTAS, GridGame, block, layer_sprite
from .layouts import Cell, bordered_room, distances, inner_cells, ordered
from .search import astar
from .symmetry import SYMMETRIES, turned_grid

__all__ = ["Magnet", "pull", "pull_heavy"]

METAL, GROUND, EDGE, RUST, BARS = 1, 5, 4, 13, 2  # light grey blocks on black, maroon heavy ones
GRATE, HEAVY, HEAVY_ON_TARGET = 7, 8, 9

_PULL = Move(USE)


@dataclass(frozen=True)
class _Knobs:
    size: tuple[int, int]  # the room with its wall ring
    blocks: int
    walls: int  # inner wall cells
    pulls: int  # pulls in the random play that puts the targets where the blocks end up
    shortest: int  # fewest moves a served level needs
    grates: int = 0  # grate cells
    barring: bool = False  # whether the grates must lengthen the fewest moves
    heavy: int = 0  # of the blocks, how many are heavy (each must move in the random play)


_KNOBS = (
    _Knobs((7, 6), 1, 1, 3, 4),
    _Knobs((7, 7), 2, 3, 4, 6),
    _Knobs((8, 7), 2, 3, 6, 8, grates=3, barring=True),
    _Knobs((7, 7), 3, 3, 6, 10, grates=2, heavy=1),  # a third block costs more states: kept cramped
)

# A solver's state: the player's cell, the light blocks' cells and the heavy blocks' cells (sorted).
_State = tuple[Cell, tuple[Cell, ...], tuple[Cell, ...]]


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


def pull_heavy(
    walls: frozenset[Cell], player: Cell, light: tuple[Cell, ...], heavy: tuple[Cell, ...]
) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """The light and the heavy blocks (each sorted) after a pull at ``player``.

    As `pull`, nearest first, but a heavy block moves one cell at most.
    """
    if not heavy:
        return pull(walls, player, light), heavy
    px, py = player
    everything = light + heavy
    settled = [b for b in everything if b[0] != px and b[1] != py]
    if len(settled) == len(everything):
        return light, heavy  # nothing in line: the common case in a search, so kept cheap
    moved: list[tuple[Cell, bool]] = []
    pulled = sorted(
        ((b, b in heavy) for b in everything if b[0] == px or b[1] == py),
        key=lambda item: abs(item[0][0] - px) + abs(item[0][1] - py),
    )
    for (x, y), is_heavy in pulled:
        dx, dy = (px > x) - (px < x), (py > y) - (py < y)
        while (
            (x + dx, y + dy) not in walls and (x + dx, y + dy) not in settled and (x + dx, y + dy) != player
        ):
            x, y = x + dx, y + dy
            if is_heavy:
                break
        settled.append((x, y))
        moved.append(((x, y), is_heavy))
    kept_light = [b for b in light if b[0] != px and b[1] != py] + [c for c, h in moved if not h]
    kept_heavy = [b for b in heavy if b[0] != px and b[1] != py] + [c for c, h in moved if h]
    return tuple(sorted(kept_light)), tuple(sorted(kept_heavy))


class Magnet:
    """The magnet game (see the module docstring for its level legend)."""

    id = "magnet"
    title = "Magnet"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); walls and the metal blocks stop it, and it cannot push them; it cannot step onto a "
        "grate (a grey cell with holes) either, though blocks slide over grates. ACTION5 switches "
        "its magnet on for a moment: every block in the player's row or column slides towards the "
        "player, a cell a frame, until a wall, another block or the player itself stops it; a heavy "
        "(maroon) block moves one cell a pull at most. The level is won when every green target "
        "ring has a block on it."
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 30_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 7x6 to 8x7 cells with 1 to 3 blocks and 1 to 3 inner walls.

        The targets are where the blocks end up after 3 to 6 pulls from random cells the player
        can walk to, so every level can be won; a served level needs at least 4, 6, 8 or 10 moves.
        Difficulty 2 adds 3 grates, served only where they lengthen the fewest moves; 3 keeps 2
        grates (wherever they fall) and makes one of three blocks heavy (it moves in the random
        play, so it starts off its target). The
        room is then turned or mirrored at random.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        width, height = knobs.size
        grid = bordered_room(width, height, WALL, FLOOR)
        inside = inner_cells(width, height)
        picks = rng.sample(inside, knobs.walls + knobs.grates + knobs.blocks + 1)
        walls = frozenset(picks[: knobs.walls]) | {
            (x, y) for y in range(height) for x in range(width) if grid[y][x] == WALL
        }
        grates = frozenset(picks[knobs.walls : knobs.walls + knobs.grates])
        blocks = picks[knobs.walls + knobs.grates : -1]
        light, heavy = tuple(sorted(blocks[knobs.heavy :])), tuple(sorted(blocks[: knobs.heavy]))
        player = picks[-1]
        targets = _random_play(rng, walls, grates, player, (light, heavy), knobs.pulls, knobs.size)
        if grates & set(targets):
            raise RejectLevel("a block came to rest on a grate: a target there would hide it")
        for x, y in picks[: knobs.walls]:
            grid[y][x] = WALL
        for x, y in grates:
            grid[y][x] = GRATE
        place_pieces(grid, targets, light + heavy, player)
        for x, y in heavy:
            grid[y][x] = HEAVY_ON_TARGET if grid[y][x] == BLOCK_ON_TARGET else HEAVY
        # Served in any of the eight orientations, so that no two layouts are alike by habit.
        rows = turned_grid(grid, rng.randrange(SYMMETRIES))
        level = Level.make(self.id, rows)
        plan = long_plan(self, level, knobs.shortest)
        if knobs.barring:
            open_rows = [[FLOOR if code == GRATE else code for code in row] for row in rows]
            barless = self.solve(Level.make(self.id, open_rows), self.budget)
            if barless is not None and len(barless) == len(plan):
                raise RejectLevel("the grates lengthen no fewest plan")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a pull is an animation, the blocks sliding a cell a frame."""
        return _MagnetGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves and pulls, by A* over (player, light blocks, heavy blocks).

        A block off its target moves only when pulled with the player in its row or column, so a
        level not yet won needs at least one pull, and first a walk to the row or column of some
        block off target: that never overestimates (grates only lengthen walks).
        """
        room = _Room.read(level)
        barred = room.walls | room.grates

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            (x, y), light, heavy = state
            for action, (dx, dy) in DELTAS.items():
                ahead = (x + dx, y + dy)
                if ahead not in barred and ahead not in light and ahead not in heavy:
                    yield ARROWS[action], (ahead, light, heavy)
            after = pull_heavy(room.walls, (x, y), light, heavy)
            if after != (light, heavy):
                yield _PULL, ((x, y), *after)

        def heuristic(state: _State) -> int:
            (x, y), light, heavy = state
            away = [min(abs(x - bx), abs(y - by)) for bx, by in light + heavy if (bx, by) not in room.targets]
            return 1 + min(away) if away else 0

        def won(state: _State) -> bool:
            return room.targets.issuperset(state[1] + state[2])

        return astar((room.start, room.light, room.heavy), successors, won, heuristic, budget)


@dataclass(frozen=True)
class _Room:
    """A magnet level read back: `BlockRoom`'s fields, with the heavy blocks apart, and the grates."""

    walls: frozenset[Cell]
    grates: frozenset[Cell]
    targets: frozenset[Cell]
    light: tuple[Cell, ...]
    heavy: tuple[Cell, ...]
    start: Cell

    @classmethod
    def read(cls, level: Level) -> _Room:
        room = BlockRoom.read(level)
        heavy = tuple(sorted(level.cells(HEAVY) + level.cells(HEAVY_ON_TARGET)))
        targets = room.targets | frozenset(level.cells(HEAVY_ON_TARGET))
        return cls(room.walls, frozenset(level.cells(GRATE)), targets, room.blocks, heavy, room.start)


def _random_play(
    rng: random.Random,
    walls: frozenset[Cell],
    grates: frozenset[Cell],
    player: Cell,
    blocks: tuple[tuple[Cell, ...], tuple[Cell, ...]],
    pulls: int,
    size: tuple[int, int],
) -> tuple[Cell, ...]:
    """Where the blocks (light, heavy) end up after ``pulls`` pulls from random cells the player reaches.

    Raises:
        RejectLevel: the blocks ended where they started, or a heavy block did.
    """
    start = blocks
    for _ in range(pulls):
        reach = distances(player, _free(walls | grates | frozenset(blocks[0] + blocks[1])), *size)
        options = [c for c in ordered(reach) if pull_heavy(walls, c, *blocks) != blocks]
        if not options:
            break
        player = rng.choice(options)
        blocks = pull_heavy(walls, player, *blocks)
    if blocks == start or set(blocks[1]) & set(start[1]):
        raise RejectLevel("the random play left every block, or a heavy one, where it was")
    return tuple(sorted(blocks[0] + blocks[1]))


def _free(taken: frozenset[Cell]) -> Callable[[Cell], bool]:
    """A test for the cells the player may walk on: those not ``taken`` by a wall or a block."""
    return lambda cell: cell not in taken


class _MagnetGame(GridGame):
    """The engine side of magnet: the blocks slide by collisions with walls, blocks and the player."""

    def __init__(self, level: Level) -> None:
        room = _Room.read(level)
        size = (level.width, level.height)
        sprites = room_sprites(BlockRoom(room.walls, room.targets, room.light, room.start), size, METAL)
        if room.grates:
            # A grate is drawn as bars with holes; blocks pass it, so it stops nothing by collision.
            bars = [
                (x * CELL + i, y * CELL + j, BARS)
                for x, y in ordered(room.grates)
                for i in (0, 2)
                for j in range(CELL)
            ]
            grate = layer_sprite(bars, "grates", (size[0] * CELL, size[1] * CELL))
            sprites.insert(1, grate.set_interaction(InteractionMode.INTANGIBLE))
        for i, (x, y) in enumerate(room.heavy):
            sprites.append(block(RUST, f"heavy{i}", x, y, cell=CELL, layer=2, tags=["block", "heavy"]))
        self.targets = room.targets
        self.grates = room.grates
        super().__init__(
            Magnet.id, sprites, size, actions=(1, 2, 3, 4, 5), cell=CELL, background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start is between pulls."""
        self.pulling = False
        self.stepped: set[str] = set()  # heavy blocks that have moved their one cell this pull

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player; or, for ACTION5, slide the blocks in line with it a cell a frame."""
        player = self.sprite("player")
        if action != 5:
            dx, dy = DELTAS[action]
            x, y = self.cell_of(player)
            if (x + dx, y + dy) not in self.grates:
                self.try_move_sprite(player, dx * CELL, dy * CELL)
            return True
        if not self.pulling:
            self.pulling, self.stepped = True, set()
        px, py = self.cell_of(player)
        pulled = [
            b
            for b in self.current_level.get_sprites_by_tag("block")
            if (px == b.x // CELL or py == b.y // CELL) and b.name not in self.stepped
        ]
        pulled.sort(key=lambda b: abs(b.x // CELL - px) + abs(b.y // CELL - py))  # nearest first
        for metal in pulled:
            if not self.try_move_sprite(metal, *self._towards(metal, px, py)) and "heavy" in metal.tags:
                self.stepped.add(metal.name)
        if any(metal.name not in self.stepped and self._can_slide(metal, px, py) for metal in pulled):
            return False  # another frame
        self.pulling = False
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
