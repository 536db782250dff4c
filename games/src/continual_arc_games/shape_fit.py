"""shape-fit: slide and turn a piece until it fills the one hole of its own shape.

Legend of the level grid: 0 floor, 1 wall, 2 a cell of the piece (as it starts, unturned), 3 a cell
of the hole it fits, 4 a cell of a decoy hole (a shape the piece cannot become by turning), 5 lava
(a move or turn that puts any cell of the piece on it loses the level). The param ``fuel``, from
difficulty 5, is how many actions an attempt may spend (a bar below the room; see ``engine.py``).

What each difficulty adds: 0 a piece, its hole and a decoy hole; 1 inner walls; 2 a second decoy; 3
a piece of five cells; 4 a wide room thick with walls; 5 fuel; 6 lava, some of it where the
fewest moves would pass were there none.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, USE, Level, Move, RejectLevel, fuelled, knobs_at, retry
from .engine import DELTAS, FUEL_RULE, GridGame, layer_sprite
from .layouts import Cell, bordered_room, ordered
from .search import bfs

__all__ = ["ShapeFit"]

FLOOR, WALL, PIECE, HOLE, DECOY, LAVA = range(6)
MAGENTA, SHADE, STONE, GROUND, EDGE, EMBER = 6, 1, 3, 5, 4, 8

_TURN = Move(USE)

Shape = tuple[Cell, ...]


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    cells: int  # cells of the piece
    decoys: int
    walls: int  # inner wall cells
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)
    lava: int = 0  # lava cells; when any, the fewest moves must go round some


# Difficulty 4 (a wider room, more walls) is what keeps a random player below one win in three;
# 5 adds fuel, and 6 a piece of six cells.
_KNOBS = (
    _Knobs(8, 3, 1, 0),
    _Knobs(9, 4, 1, 3),
    _Knobs(10, 4, 2, 6),
    _Knobs(11, 5, 3, 8),
    _Knobs(16, 5, 3, 34),
    _Knobs(16, 5, 3, 34, spare=4),
    _Knobs(16, 5, 3, 22, spare=3, lava=6),
)


def normal(cells: list[Cell] | Shape) -> Shape:
    """A shape moved to touch the top and left edges, its cells sorted."""
    x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
    return tuple(sorted((x - x0, y - y0) for x, y in cells))


def turned(shape: Shape, quarter_turns: int = 1) -> Shape:
    """A normal shape turned clockwise, its box's top-left corner kept where it was.

    This is how the engine turns a sprite: ``Sprite.render`` rotates its pixel box in place.
    """
    for _ in range(quarter_turns % 4):
        height = 1 + max(y for _, y in shape)
        shape = tuple(sorted((height - 1 - y, x) for x, y in shape))
    return shape


def _grow(rng: random.Random, size: int) -> Shape:
    """A random connected shape of ``size`` cells."""
    cells = [(0, 0)]
    while len(cells) < size:
        x, y = rng.choice(cells)
        dx, dy = rng.choice(list(DELTAS.values()))
        if (x + dx, y + dy) not in cells:
            cells.append((x + dx, y + dy))
    return normal(cells)


class ShapeFit:
    """The shape-fit game (see the module docstring for its level legend)."""

    id = "shape-fit"
    title = "Fit the piece"
    rules = (
        "The magenta piece moves one cell at a time with ACTION1-4 (up, down, left, right) and turns "
        "a quarter clockwise with ACTION5, pivoting on the top-left corner of its bounding box; walls "
        "stop a move or a turn that would overlap them. The light holes on the floor can be crossed; "
        "red lava cannot: a move or a turn that puts the piece on lava loses the level. "
        "Exactly one hole has the piece's shape in some turn; the others are shapes it can never "
        "become, such as its mirror image. The level is won when the piece covers that hole exactly."
        + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 8 to 16 cells a side, a piece of 3 to 5 cells, 1 to 3 decoys, 0 to 34 walls.

        From difficulty 5 the level has fuel: 4, then 3, actions beyond the fewest. Difficulty 6
        adds 6 lava cells, two of them where the fewest moves would pass were there no lava.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        piece = _grow(rng, knobs.cells)
        turns = {turned(piece, k) for k in range(4)}
        if len(turns) == 1:
            raise RejectLevel("the piece looks the same in every turn")
        hole = turned(piece, rng.choice([k for k in (1, 2, 3) if turned(piece, k) != piece]))
        decoys: list[Shape] = []
        mirror = normal([(-x, y) for x, y in piece])
        if mirror not in turns:
            decoys.append(turned(mirror, rng.randrange(4)))
        for _ in range(50):  # bounded: three cells make only six shapes
            if len(decoys) >= knobs.decoys:
                break
            other = _grow(rng, knobs.cells)
            if other not in turns and other not in decoys:
                decoys.append(other)
        if len(decoys) < knobs.decoys:
            raise RejectLevel("too few shapes unlike the piece")
        grid = bordered_room(knobs.side, knobs.side, WALL, FLOOR)
        taken: set[Cell] = set()
        for shape, code in [(piece, PIECE), (hole, HOLE)] + [(d, DECOY) for d in decoys[: knobs.decoys]]:
            _place(rng, grid, shape, code, taken)
        free = ordered((x, y) for y in range(1, knobs.side - 1) for x in range(1, knobs.side - 1))
        for x, y in rng.sample([c for c in free if c not in taken], knobs.walls):
            grid[y][x] = WALL
        level = Level.make(self.id, grid)
        plan = self.solve(level, self.budget)
        if plan is None:
            raise RejectLevel("the walls keep the piece from its hole")
        if knobs.lava:
            level, plan = self._lava(rng, grid, plan, taken, knobs.lava)
        return fuelled(level, plan, knobs.spare)

    def _lava(
        self, rng: random.Random, grid: list[list[int]], plan: tuple[Move, ...], taken: set[Cell], count: int
    ) -> tuple[Level, tuple[Move, ...]]:
        """The level with ``count`` lava cells, two of them on bare floor the fewest moves crossed.

        So the way the piece would take were there no lava loses; another way must be found.

        Raises:
            RejectLevel: the lava cut the piece off from its hole.
        """
        crossed = sorted(swept(Level.make(self.id, grid), plan) - taken)
        if len(crossed) < 2:
            raise RejectLevel("the piece crosses no bare floor on its way")
        hot = rng.sample(crossed, 2)
        floor = [(x, y) for y, row in enumerate(grid) for x, code in enumerate(row) if code == FLOOR]
        hot += rng.sample([c for c in floor if c not in taken and c not in hot], count - 2)
        for x, y in hot:
            grid[y][x] = LAVA
        level = Level.make(self.id, grid)
        guarded = self.solve(level, self.budget)
        if guarded is None:
            raise RejectLevel("the lava cut the piece off from its hole")
        return level, guarded

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the piece is one sprite, turned by the engine's own sprite rotation."""
        return _ShapeGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves and turns, by breadth-first search over (x, y, turns) of the piece.

        A position on lava loses, so the search treats lava as it treats walls.
        """
        walls = frozenset(level.cells(WALL) + level.cells(LAVA))
        cells = level.cells(PIECE)
        piece = normal(cells)
        goal = frozenset(level.cells(HOLE))
        x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
        shapes = [turned(piece, k) for k in range(4)]

        def fits(x: int, y: int, k: int) -> bool:
            return not any((x + cx, y + cy) in walls for cx, cy in shapes[k])

        def successors(state: tuple[int, int, int]) -> Iterator[tuple[Move, tuple[int, int, int]]]:
            x, y, k = state
            for action, (dx, dy) in DELTAS.items():
                if fits(x + dx, y + dy, k):
                    yield ARROWS[action], (x + dx, y + dy, k)
            if fits(x, y, (k + 1) % 4):
                yield _TURN, (x, y, (k + 1) % 4)

        def won(state: tuple[int, int, int]) -> bool:
            x, y, k = state
            return {(x + cx, y + cy) for cx, cy in shapes[k]} == goal

        return bfs((x0, y0, 0), successors, won, budget)


def swept(level: Level, plan: tuple[Move, ...]) -> set[Cell]:
    """Every cell the piece covers at some point of ``plan`` (by the solver's model: no collisions)."""
    cells = level.cells(PIECE)
    piece = normal(cells)
    x, y, k = min(x for x, _ in cells), min(y for _, y in cells), 0
    steps = {move: DELTAS[action] for action, move in ARROWS.items()}
    covered: set[Cell] = set()
    for move in (None, *plan):
        if move == _TURN:
            k = (k + 1) % 4
        elif move is not None:
            x, y = x + steps[move][0], y + steps[move][1]
        covered |= {(x + cx, y + cy) for cx, cy in turned(piece, k)}
    return covered


def _place(rng: random.Random, grid: list[list[int]], shape: Shape, code: int, taken: set[Cell]) -> None:
    """Paint a shape where it and a one-cell margin around it touch nothing placed before."""
    side = len(grid)
    width, height = 1 + max(x for x, _ in shape), 1 + max(y for _, y in shape)
    spots = [(x, y) for y in range(1, side - height) for x in range(1, side - width)]
    for x, y in rng.sample(spots, len(spots)):
        cells = [(x + cx, y + cy) for cx, cy in shape]
        if not any((cx + dx, cy + dy) in taken for cx, cy in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            for cx, cy in cells:
                grid[cy][cx] = code
                taken.add((cx, cy))
            return
    raise RejectLevel("no room left for a shape")


class _ShapeGame(GridGame):
    """The engine side of shape-fit."""

    def __init__(self, level: Level) -> None:
        size = (level.width, level.height)
        cells = level.cells(PIECE)
        shape = normal(cells)
        pixels = np.full((1 + max(y for _, y in shape), 1 + max(x for x, _ in shape)), -1, dtype=np.int8)
        for x, y in shape:
            pixels[y, x] = MAGENTA
        x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
        holes = [(x, y, SHADE) for x, y in level.cells(HOLE) + level.cells(DECOY)]
        holes += [(x, y, EMBER) for x, y in level.cells(LAVA)]
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in level.cells(WALL)), "walls", size),
            layer_sprite(holes, "holes", size).set_interaction(InteractionMode.INTANGIBLE),
            Sprite(pixels, name="piece", x=x0, y=y0, layer=2, tags=[]),
        ]
        self.goal = frozenset(level.cells(HOLE))
        self.lava = frozenset(level.cells(LAVA))
        super().__init__(
            ShapeFit.id,
            sprites,
            size,
            actions=(1, 2, 3, 4, 5),
            background=GROUND,
            letterbox=EDGE,
            fuel=level.param("fuel", 0),
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Move or turn the piece unless that would overlap a wall; check for lava, then the fit."""
        piece = self.sprite("piece")
        if action == 5:
            piece.rotate(90)
            if any(piece.collides_with(other) for other in self.current_level.get_sprites()):
                piece.rotate(-90)
        else:
            self.try_move_sprite(piece, *DELTAS[action])
        rows, cols = np.nonzero(piece.render() >= 0)
        covered = {(piece.x + int(c), piece.y + int(r)) for r, c in zip(rows, cols, strict=True)}
        if covered & self.lava:
            self.lose()
        elif covered == self.goal:
            self.next_level()
        return True
