"""push-blocks: push every block onto a target square (the mechanics of Sokoban).

The level grid's legend is `blocks`'s, shared with the other game of blocks and targets, and one
code of this game's own: 7 ice, floor on which a pushed block slides on (a cell a frame) until a
wall or another block stops it; the player walks on ice as on floor.

What each difficulty adds: 0 one block; 1 inner walls; 2 a second block; 3 ice, which the fewest
moves slide a block across.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .blocks import CELL, FLOOR, WALL, BlockRoom, BlockState, place_pieces, room_sprites
from .engine import DELTAS, GridGame, layer_sprite
from .layouts import Cell, bordered_room, distances, inner_cells, ordered, passable
from .search import astar

__all__ = ["PushBlocks"]

CRATE, GROUND, EDGE, FROST = 12, 0, 4, 10  # orange blocks on white, grey letterbox, light blue ice
ICE = 7


@dataclass(frozen=True)
class _Knobs:
    size: tuple[int, int]  # the room with its wall ring
    blocks: int
    walls: int  # inner wall cells
    scramble: int  # pulls made backwards from the solved position
    shortest: int  # fewest moves a served level needs
    ice: int = 0  # ice cells; when any, the fewest moves must slide a block across one


_KNOBS = (
    _Knobs((6, 6), 1, 0, 4, 4),
    _Knobs((7, 7), 1, 3, 6, 6),
    _Knobs((7, 7), 2, 3, 8, 10),
    _Knobs((8, 7), 2, 5, 12, 12, ice=5),
)


def _slide(
    walls: frozenset[Cell], ice: frozenset[Cell], blocks: tuple[Cell, ...], cell: Cell, step: Cell
) -> Cell:
    """Where a block pushed onto ``cell`` going ``step`` comes to rest.

    It goes on while it is on ice and the cell ahead holds no wall and no other block.
    """
    x, y = cell
    dx, dy = step
    while (x, y) in ice and (x + dx, y + dy) not in walls and (x + dx, y + dy) not in blocks:
        x, y = x + dx, y + dy
    return x, y


class PushBlocks:
    """The push-blocks game (see the module docstring for its level legend)."""

    id = "push-blocks"
    title = "Push the blocks home"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); walls stop it. Walking into an orange block pushes it one cell ahead, unless a wall "
        "or another block is behind it, in which case nothing moves; blocks can be pushed but never "
        "pulled. A block pushed onto light blue ice slides on until a wall or another block stops "
        "it; the player walks on ice as on floor. The level is won when every green target ring is "
        "covered by a block."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 30_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 6x6 to 8x7 cells with 1-2 blocks, drawn by pulling blocks off their targets."""
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        width, height = knobs.size
        grid = bordered_room(width, height, WALL, FLOOR)
        inside = inner_cells(width, height)
        for x, y in rng.sample(inside, knobs.walls):
            grid[y][x] = WALL
        floor = [c for c in inside if grid[c[1]][c[0]] == FLOOR]
        if len(distances(floor[0], passable(grid, WALL), width, height)) != len(floor):
            raise RejectLevel("the inner walls cut the room in two")
        targets = rng.sample(floor, knobs.blocks)
        player = rng.choice([c for c in floor if c not in targets])
        blocks = _scramble(
            rng, frozenset(c for c in inside if grid[c[1]][c[0]] == WALL), targets, player, knobs
        )
        if set(blocks[1]) == set(targets):
            raise RejectLevel("the scramble left every block on its target")
        place_pieces(grid, targets, blocks[1], blocks[0])
        # Ice goes on bare floor only, after the scramble, so it may make the level unsolvable; in
        # the rows and columns of the blocks, where a push is likelier to slide one across it.
        bare = [c for c in inside if grid[c[1]][c[0]] == FLOOR]
        lines = [c for c in bare if any(c[0] == bx or c[1] == by for bx, by in blocks[1])]
        for x, y in rng.sample(lines if len(lines) >= knobs.ice else bare, knobs.ice):
            grid[y][x] = ICE
        level = Level.make(self.id, grid)
        plan = self.solve(level, self.budget)
        if knobs.ice and plan is None:
            raise RejectLevel("the ice left no way home")
        if plan is not None and len(plan) < knobs.shortest:
            raise RejectLevel(f"solved in {len(plan)} moves, fewer than {knobs.shortest}")
        if knobs.ice and plan is not None and not slides(level, plan):
            raise RejectLevel("the fewest moves never slide a block on ice")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: walls, blocks, the player, and the target rings drawn over them."""
        return _PushBlocksGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest plan, by A* over (player, blocks) with the blocks' distances to targets.

        Blocks pushed into a corner that is not a target can never leave it, so such states are cut.
        On a level with ice a push may move a block several cells, so the heuristic is then the
        blocks off their targets (each needs a push), which never overestimates either.
        """
        layout = BlockRoom.read(level)
        walls, targets = layout.walls, layout.targets
        ice = frozenset(level.cells(ICE))
        dead = frozenset(
            (x, y)
            for y in range(level.height)
            for x in range(level.width)
            if (x, y) not in targets
            and ((x - 1, y) in walls or (x + 1, y) in walls)
            and ((x, y - 1) in walls or (x, y + 1) in walls)
        )

        def successors(state: BlockState) -> Iterator[tuple[Move, BlockState]]:
            (x, y), blocks = state
            for action, (dx, dy) in DELTAS.items():
                ahead = (x + dx, y + dy)
                if ahead in walls:
                    continue
                if ahead in blocks:
                    beyond = (ahead[0] + dx, ahead[1] + dy)
                    if beyond in walls or beyond in blocks:
                        continue
                    rest = _slide(walls, ice, blocks, beyond, (dx, dy))
                    if rest in dead:
                        continue
                    yield ARROWS[action], (ahead, tuple(sorted(rest if b == ahead else b for b in blocks)))
                else:
                    yield ARROWS[action], (ahead, blocks)

        def heuristic(state: BlockState) -> int:
            if ice:
                return sum(b not in targets for b in state[1])
            # Each push moves one block by one cell, so this never overestimates the moves left.
            return sum(min(abs(bx - tx) + abs(by - ty) for tx, ty in targets) for bx, by in state[1])

        return astar(
            (layout.start, layout.blocks), successors, lambda s: targets.issuperset(s[1]), heuristic, budget
        )


def slides(level: Level, plan: tuple[Move, ...]) -> int:
    """How many of the plan's pushes slide a block on from where the push put it (by the model)."""
    layout = BlockRoom.read(level)
    ice = frozenset(level.cells(ICE))
    steps = {move: DELTAS[action] for action, move in ARROWS.items()}
    (x, y), blocks, count = layout.start, layout.blocks, 0
    for move in plan:
        dx, dy = steps[move]
        ahead = (x + dx, y + dy)
        if ahead in layout.walls:
            continue
        if ahead in blocks:
            beyond = (ahead[0] + dx, ahead[1] + dy)
            if beyond in layout.walls or beyond in blocks:
                continue
            rest = _slide(layout.walls, ice, blocks, beyond, (dx, dy))
            count += rest != beyond
            blocks = tuple(sorted(rest if b == ahead else b for b in blocks))
        x, y = ahead
    return count


def _scramble(
    rng: random.Random, walls: frozenset[Cell], targets: list[Cell], player: Cell, knobs: _Knobs
) -> tuple[Cell, tuple[Cell, ...]]:
    """Play backwards from the solved position: walk to a block and pull it, ``scramble`` times.

    A pull (the player steps back from a block, which follows it) undoes a push, and walking undoes
    walking, so the position reached can always be pushed back to the solved one.
    """
    width, height = knobs.size
    blocks = list(targets)

    def free(cell: Cell) -> bool:
        return (
            0 < cell[0] < width - 1 and 0 < cell[1] < height - 1 and cell not in walls and cell not in blocks
        )

    for _ in range(knobs.scramble):
        reach = distances(player, free, width, height)
        pulls = [
            (i, (dx, dy))
            for i, (bx, by) in enumerate(blocks)
            for dx, dy in DELTAS.values()
            if (bx + dx, by + dy) in reach and free((bx + 2 * dx, by + 2 * dy))
        ]
        if not pulls:
            break
        i, (dx, dy) = rng.choice(pulls)
        bx, by = blocks[i]
        blocks[i] = (bx + dx, by + dy)
        player = (bx + 2 * dx, by + 2 * dy)
    player = rng.choice(ordered(distances(player, free, width, height)))
    return player, tuple(sorted(blocks))


class _PushBlocksGame(GridGame):
    """The engine side of push-blocks."""

    def __init__(self, level: Level) -> None:
        layout = BlockRoom.read(level)
        size = (level.width, level.height)
        sprites = room_sprites(layout, size, CRATE, target_tags=["target"])
        self.ice = frozenset(level.cells(ICE))
        if self.ice:
            frost = layer_sprite(((x, y, FROST) for x, y in ordered(self.ice)), "ice", size, cell=CELL)
            sprites.insert(0, frost.set_interaction(InteractionMode.INTANGIBLE))
        self.targets = layout.targets
        super().__init__(
            PushBlocks.id, sprites, size, actions=(1, 2, 3, 4), cell=CELL, background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start has no block sliding."""
        self.sliding: Sprite | None = None

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player, pushing a block ahead of it when the cell beyond is free.

        A block pushed onto ice goes on a cell a frame (the action is not done) until it stops.
        """
        dx, dy = DELTAS[action]
        if self.sliding is not None:
            return self._slide_on(self.sliding, dx, dy)
        player = self.sprite("player")
        hits = self.try_move_sprite(player, dx * CELL, dy * CELL)
        if not hits:
            return True
        if len(hits) != 1 or "block" not in hits[0].tags:
            return True
        if self.try_move_sprite(hits[0], dx * CELL, dy * CELL):
            return True  # the block is stuck, so the player stays too
        player.move(dx * CELL, dy * CELL)
        return self._rest_or_slide(hits[0], dx, dy)

    def _slide_on(self, crate: Sprite, dx: int, dy: int) -> bool:
        """Move a sliding block one more cell (the cell is free: `_can_slide` said so)."""
        crate.move(dx * CELL, dy * CELL)
        return self._rest_or_slide(crate, dx, dy)

    def _rest_or_slide(self, crate: Sprite, dx: int, dy: int) -> bool:
        """Whether the action is done: the block stops (and the room is judged) or slides on."""
        if self.cell_of(crate) in self.ice and self._can_slide(crate, dx, dy):
            self.sliding = crate
            return False
        self.sliding = None
        self._judge()
        return True

    def _can_slide(self, crate: Sprite, dx: int, dy: int) -> bool:
        blocked = self.try_move_sprite(crate, dx * CELL, dy * CELL)
        if not blocked:
            crate.move(-dx * CELL, -dy * CELL)  # only a probe: put it back
        return not blocked

    def _judge(self) -> None:
        covered = {self.cell_of(s) for s in self.current_level.get_sprites_by_tag("block")}
        if covered >= self.targets:
            self.next_level()
