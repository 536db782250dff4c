"""pipe-connect: click pipe tiles to turn them until water can run from the source to the drain.

Legend of the level grid (the board ringed by a frame one cell wide): 0 the frame, 1 the source and
2 the drain (set in the frame, open towards the board), 3 an empty tile, and 4 + 4 k + r a pipe of
kind k (0 straight, 1 corner, 2 tee) turned r quarters clockwise from its first position (a straight
open north and south, a corner north and east, a tee north, east and south); 16 + 4 k + r the same
pipe bolted down (on a maroon tile: a click does not turn it); 28 + 4 k + r the same pipe on a
purple tile, which a click turns a quarter anticlockwise.

What each difficulty adds: 0 straights and corners; 1 tees; 2 bolted pipes, one of them set right
on the water's way and two anywhere as they fell; 3 two pipes that turn anticlockwise, one on the way
the board was laid along, where that changes the clicks it needs, and one anywhere; the fewest
clicks turn one at least (on a larger, more winding board).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .engine import GridGame, layer_sprite
from .layouts import Cell, new_grid, ordered
from .strokes import SIDE_STEPS as STEP
from .strokes import arms, middle_of, odd_cell
from .symmetry import SYMMETRIES, turned_grid, turned_side

__all__ = ["PipeConnect"]

FRAME, SOURCE, DRAIN, EMPTY, PIPES = range(5)
TILES, DRY, WET, TAP, SINK, GROUND, EDGE, BOLTED_TILE, BACK_TILE = (3, 2), 0, 9, 9, 14, 5, 4, 13, 15
BOLTED = PIPES + 12  # a bolted pipe's code is its free twin's plus 12
BACK = BOLTED + 12  # a pipe turning anticlockwise: its free twin's code plus 24

# Sides are bits 0-3, north, east, south, west (see strokes); STEP[side] is its (dx, dy).
_FIRST = (0b0101, 0b0011, 0b0111)  # straight, corner, tee in their first position


def openings(code: int) -> int:
    """The sides (bits N, E, S, W) a tile of this code is open on."""
    if code < PIPES:
        return 0
    kind, turns = divmod((code - PIPES) % 12, 4)
    mask = _FIRST[kind]
    return ((mask << turns) | (mask >> (4 - turns))) & 0b1111


def _fewest_turns(code: int, side_in: int, side_out: int) -> int | None:
    """The fewest quarter turns that open a tile on both sides; None when no turn does."""
    if code < PIPES or side_in == side_out:
        return None
    kind, turns = divmod((code - PIPES) % 12, 4)
    need = (1 << side_in) | (1 << side_out)
    way = -1 if code >= BACK else 1  # each click turns it a quarter back (anticlockwise) or on
    fits = (t for t in range(4) if openings(PIPES + 4 * kind + (turns + way * t) % 4) & need == need)
    fewest = next(fits, None)
    return fewest if not BOLTED <= code < BACK or fewest == 0 else None  # a bolted pipe never turns


# _fewest_turns by [code][side in][side out], as a table: the searches ask it thousands of times.
_TURNS = [[[_fewest_turns(code, a, b) for b in range(4)] for a in range(4)] for code in range(BACK + 12)]


@dataclass(frozen=True)
class _Knobs:
    side: int  # tiles a side of the square board
    wiggle: int  # the path is cheapest under random cell weights 1..wiggle: higher winds more
    empty: float  # share of tiles off the path left empty
    tees: float  # share of the path's tiles made tees
    shortest: int  # fewest clicks a served level needs
    bolted: int = 0  # bolted pipes: one set right on the path, the others anywhere as they fell
    back: int = 0  # pipes turning anticlockwise: one on the path needing other clicks, the rest anywhere


_KNOBS = (
    _Knobs(4, 2, 0.4, 0.0, 2),
    _Knobs(5, 4, 0.3, 0.1, 4),
    _Knobs(6, 6, 0.2, 0.2, 6, bolted=3),
    _Knobs(7, 8, 0.1, 0.3, 8, bolted=3, back=2),
)


@dataclass(frozen=True)
class _Board:
    codes: dict[Cell, int]  # every tile of the board, by cell (the frame is not in it)
    source: Cell
    drain: Cell

    @classmethod
    def read(cls, level: Level) -> _Board:
        codes = {(x, y): v for y, row in enumerate(level.grid) for x, v in enumerate(row) if v >= EMPTY}
        return cls(codes, level.cells(SOURCE)[0], level.cells(DRAIN)[0])

    def inward(self, cell: Cell) -> int:
        """The side of a frame cell that faces the board."""
        return next(s for s, (dx, dy) in enumerate(STEP) if (cell[0] + dx, cell[1] + dy) in self.codes)


class PipeConnect:
    """The pipe-connect game (see the module docstring for its level legend)."""

    id = "pipe-connect"
    title = "Connect the pipes"
    rules = (
        "The board is a square of tiles, most holding a piece of pipe: a straight, a corner or a tee. "
        "Clicking a tile (ACTION6) turns it a quarter clockwise, or anticlockwise on a purple tile; "
        "clicks on an empty tile, on a pipe bolted to a maroon tile, or off the board do nothing. "
        "Water flows from the blue source in the frame through every pipe joined to it, two pipes "
        "being joined where both are open on the side they share, and the pipes it reaches turn "
        "blue. The level is won when the water reaches the green drain."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A board of 4 to 7 tiles a side with a path laid for the water, every tile turned at random.

        With difficulty the path winds more (cell weights 1..2 to 1..8), fewer tiles off it are
        empty (0.4 to 0.1), more of its tiles are tees (0 to 0.3), and a served level needs at
        least 2, 4, 6 or 8 clicks. From difficulty 2 three pipes are bolted: one of the path's, set
        right, and two other tiles' pipes as they fell. At difficulty 3 two pipes turn anticlockwise:
        one of the path's, chosen among those that then need a different number of clicks (a corner
        one or three quarters away), and one anywhere; the fewest clicks turn one at least. The board is
        then turned or mirrored at random.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40 if knobs.back else 20)  # fewer fit at 3

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        n = knobs.side
        grid = new_grid(n + 2, n + 2, FRAME)
        ends = [(0, i) for i in range(1, n + 1)] + [(n + 1, i) for i in range(1, n + 1)]
        ends += [(i, 0) for i in range(1, n + 1)] + [(i, n + 1) for i in range(1, n + 1)]
        source, drain = rng.sample(ends, 2)
        path = _wiggly_path(rng, n, _inside(source, n), _inside(drain, n), knobs.wiggle)
        laid = {}
        fixed = rng.randrange(len(path)) if knobs.bolted else -1  # the path's bolted tile
        sided: dict[Cell, tuple[int, int]] = {}
        for i, (before, here, after) in enumerate(
            zip([source, *path[:-1]], path, [*path[1:], drain], strict=True)
        ):
            sides = (_side(here, before), _side(here, after))
            sided[here] = sides
            kind = 2 if rng.random() < knobs.tees else int((sides[0] - sides[1]) % 2 == 1)
            # A path tile starts turned away from its place, so the path must be mended all along;
            # but for the bolted one, which is set right.
            right = [t for t in range(4) if _TURNS[PIPES + 4 * kind + t][sides[0]][sides[1]] == 0]
            wrong = [t for t in range(4) if t not in right]
            laid[here] = PIPES + 4 * kind + rng.choice(right if i == fixed else wrong) + 12 * (i == fixed)
        for x, y in ordered((x, y) for y in range(1, n + 1) for x in range(1, n + 1)):
            if (x, y) in laid:
                grid[y][x] = laid[(x, y)]
            else:
                empty = rng.random() < knobs.empty
                grid[y][x] = EMPTY if empty else PIPES + 4 * rng.randrange(3) + rng.randrange(4)
        pipes = [(x, y) for y in range(1, n + 1) for x in range(1, n + 1) if PIPES <= grid[y][x] < BOLTED]
        for x, y in rng.sample(pipes, min(len(pipes), max(knobs.bolted - 1, 0))):
            grid[y][x] += 12
        if knobs.back:
            # Turning it the other way changes its clicks (one quarter becomes three, or back).
            changed = [
                (x, y)
                for (x, y), (a, b) in sided.items()
                if PIPES <= grid[y][x] < BOLTED
                and _TURNS[grid[y][x]][a][b] != _TURNS[grid[y][x] + BACK - PIPES][a][b]
            ]
            if not changed:
                raise RejectLevel("no pipe on the way whose clicks turning back would change")
            x, y = rng.choice(changed)
            grid[y][x] += BACK - PIPES
            pipes = [(x, y) for y in range(1, n + 1) for x in range(1, n + 1) if PIPES <= grid[y][x] < BOLTED]
            for x, y in rng.sample(pipes, min(len(pipes), knobs.back - 1)):  # the others as they fell
                grid[y][x] += BACK - PIPES
        grid[source[1]][source[0]], grid[drain[1]][drain[0]] = SOURCE, DRAIN
        level = Level.make(self.id, _turned(grid, rng.randrange(SYMMETRIES)))
        plan = long_plan(self, level, knobs.shortest, "clicks")
        back = {
            Move.click(*middle_of((x, y), level.width, level.height))
            for y, row in enumerate(level.grid)
            for x, code in enumerate(row)
            if code >= BACK
        }
        if back and not back & set(plan):
            raise RejectLevel("the fewest clicks turn no pipe anticlockwise")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a click turns a tile's pixels; the engine reads the pipes off them."""
        return _PipeGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest clicks, exactly, by A* over simple paths of tiles from the source to the drain.

        A plan only turns the tiles of one path, each the fewest quarters that open it on the sides
        the path enters and leaves by. The heuristic is the same cost with paths allowed to cross
        themselves, computed backwards from the drain, so it never overestimates; ``budget`` bounds
        the partial paths expanded.
        """
        board = _Board.read(level)
        found = _cheapest_path(board, budget)
        if found is None:
            return None
        return tuple(
            Move.click(*middle_of(cell, level.width, level.height))
            for cell, turns in found
            for _ in range(turns)
        )


def _turned(grid: list[list[int]], symmetry: int) -> list[list[int]]:
    """The board under a symmetry (see symmetry.py), each pipe turned to open the same way round."""

    def tile(code: int) -> int:
        if code < PIPES:
            return code
        sides = openings(code)
        want = sum(1 << turned_side(s, symmetry) for s in range(4) if sides >> s & 1)
        base = code - (code - PIPES) % 4  # the same kind, in its first position
        return next(base + t for t in range(4) if openings(base + t) == want)

    return [[tile(code) for code in row] for row in turned_grid(grid, symmetry)]


def _inside(cell: Cell, n: int) -> Cell:
    """The board cell next to a frame cell."""
    return min(max(cell[0], 1), n), min(max(cell[1], 1), n)


def _side(here: Cell, there: Cell) -> int:
    """The side of ``here`` that faces its neighbour ``there``."""
    return STEP.index((there[0] - here[0], there[1] - here[1]))


def _wiggly_path(rng: random.Random, n: int, start: Cell, goal: Cell, wiggle: int) -> list[Cell]:
    """The cheapest path from start to goal over the board when each cell costs a random 1..wiggle."""
    weight = {
        c: rng.randint(1, wiggle) for c in ordered((x, y) for y in range(1, n + 1) for x in range(1, n + 1))
    }
    best, came = {start: weight[start]}, {start: start}
    heap = [(weight[start], start)]
    while heap:
        cost, cell = heapq.heappop(heap)
        if cell == goal:
            break
        for dx, dy in STEP:
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in weight and cost + weight[nxt] < best.get(nxt, 1 << 30):
                best[nxt], came[nxt] = cost + weight[nxt], cell
                heapq.heappush(heap, (cost + weight[nxt], nxt))
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


def _bounds(board: _Board) -> dict[tuple[Cell, int], int]:
    """The fewest clicks left to reach the drain, for water entering a tile by a side.

    Paths may cross themselves here, so this is a lower bound of the real cost; it is computed by
    Dijkstra's search backwards from the drain, keyed by (tile, side entered by).
    """
    last = (
        board.drain[0] + STEP[board.inward(board.drain)][0],
        board.drain[1] + STEP[board.inward(board.drain)][1],
    )
    into: dict[tuple[Cell, int], list[tuple[int, tuple[Cell, int]]]] = {}
    heap: list[tuple[int, tuple[Cell, int]]] = []
    for cell, code in board.codes.items():
        for side_in in range(4):
            for side_out in range(4):
                cost = _TURNS[code][side_in][side_out]
                if cost is None:
                    continue
                if cell == last and side_out == (board.inward(board.drain) + 2) % 4:
                    heap.append((cost, (cell, side_in)))
                nxt = (cell[0] + STEP[side_out][0], cell[1] + STEP[side_out][1])
                if nxt in board.codes:
                    into.setdefault((nxt, (side_out + 2) % 4), []).append((cost, (cell, side_in)))
    heapq.heapify(heap)
    bound: dict[tuple[Cell, int], int] = {}
    while heap:
        cost, node = heapq.heappop(heap)
        if node in bound:
            continue
        bound[node] = cost
        for step, before in into.get(node, ()):
            if before not in bound:
                heapq.heappush(heap, (cost + step, before))
    return bound


# A node of the search: a tile, the side water enters it by, and the tiles the path has used (a bitmask
# over the board's cells in row-major order). Water leaving into the drain is the node (drain, -1, 0).
_Node = tuple[Cell, int, int]


def _cheapest_path(board: _Board, budget: int) -> list[tuple[Cell, int]] | None:
    """The tiles of a fewest-click path and the clicks each needs, by A* (see ``PipeConnect.solve``)."""
    bound = _bounds(board)
    bit = {cell: 1 << i for i, cell in enumerate(ordered(board.codes))}
    way_in = board.inward(board.source)
    first = (board.source[0] + STEP[way_in][0], board.source[1] + STEP[way_in][1])
    start: _Node = (first, (way_in + 2) % 4, bit[first])
    if start[:2] not in bound:
        return None
    goal: _Node = (board.drain, -1, 0)
    best = {start: 0}
    parents: dict[_Node, tuple[_Node, int] | None] = {start: None}
    heap = [(bound[start[:2]], 0, 0, start)]
    pushed = expanded = 0
    while heap and expanded < budget:
        _, g, _, node = heapq.heappop(heap)
        if g > best[node]:
            continue  # stale: reached more cheaply since
        if node == goal:
            return _unwind(parents, node)
        expanded += 1
        cell, side_in, used = node
        for side_out in range(4):
            cost = _TURNS[board.codes[cell]][side_in][side_out]
            nxt = (cell[0] + STEP[side_out][0], cell[1] + STEP[side_out][1])
            if cost is None:
                continue
            if nxt == board.drain:
                after, rest = goal, 0
            elif nxt in bit and not used & bit[nxt] and (nxt, (side_out + 2) % 4) in bound:
                after, rest = (nxt, (side_out + 2) % 4, used | bit[nxt]), bound[(nxt, (side_out + 2) % 4)]
            else:
                continue
            if g + cost < best.get(after, g + cost + 1):
                best[after], parents[after] = g + cost, (node, cost)
                pushed += 1
                heapq.heappush(heap, (g + cost + rest, g + cost, pushed, after))
    return None


def _unwind(parents: dict[_Node, tuple[_Node, int] | None], node: _Node) -> list[tuple[Cell, int]]:
    """The (tile, clicks) of the path that reached ``node``, from the source on."""
    steps: list[tuple[Cell, int]] = []
    link = parents[node]
    while link is not None:
        node, cost = link
        steps.append((node[0], cost))
        link = parents[node]
    return steps[::-1]


class _PipeGame(GridGame):
    """The engine side of pipe-connect: it turns a tile's pixels and reads its open sides off them.

    All pipes live in one sprite, a tile being a square of its pixels: fifty sprites would cost
    fifty renders a frame.
    """

    def __init__(self, level: Level) -> None:
        board = _Board.read(level)
        self.size = size = odd_cell(level.width, level.height)
        box = (level.width, level.height)
        pixels = np.full((level.height * size, level.width * size), -1, dtype=np.int8)
        for (x, y), code in board.codes.items():
            if code >= PIPES:
                kind, turns = divmod((code - PIPES) % 12, 4)
                pixels[y * size : (y + 1) * size, x * size : (x + 1) * size] = np.rot90(
                    arms(_FIRST[kind], size, DRY), -turns
                )
        for (x, y), colour in ((board.source, TAP), (board.drain, SINK)):
            pixels[y * size : (y + 1) * size, x * size : (x + 1) * size] = arms(
                1 << board.inward((x, y)), size, colour
            )
        checker = [
            (x, y, BACK_TILE if code >= BACK else BOLTED_TILE if code >= BOLTED else TILES[(x + y) % 2])
            for (x, y), code in board.codes.items()
        ]
        sprites = [
            layer_sprite(checker, "board", box, cell=size),
            Sprite(pixels, name="pipes", layer=1, tags=[]),
        ]
        for sprite in sprites:
            sprite.set_interaction(InteractionMode.INTANGIBLE)  # nothing moves, so nothing collides
        self.board = board
        super().__init__(
            PipeConnect.id, sprites, box, actions=(6,), cell=size, background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start reads the pipes as they start and lets the water run."""
        self.open = {cell: self._read(cell) for cell, code in self.board.codes.items() if code >= PIPES}
        self.wet: set[Cell] = set()
        self._flow()

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Turn the clicked pipe a quarter (anticlockwise on purple), unless bolted; let the water run."""
        code = self.board.codes.get(cell, 0) if cell is not None else 0
        if cell is not None and cell in self.open and not BOLTED <= code < BACK:
            tile = self._tile(cell)
            tile[:] = np.rot90(tile, 1 if code >= BACK else -1).copy()
            self.open[cell] = self._read(cell)
            if self._flow():
                self.next_level()
        return True

    def _tile(self, cell: Cell) -> np.ndarray:
        """A view of one tile's pixels in the pipes sprite (of the level as it is now)."""
        x, y, size = cell[0] * self.size, cell[1] * self.size, self.size
        pixels: np.ndarray = self.sprite("pipes").pixels
        return pixels[y : y + size, x : x + size]

    def _read(self, cell: Cell) -> int:
        """The sides a tile is open on: where its pipe's pixels reach the middle of an edge."""
        pixels = self._tile(cell)
        end, mid = self.size - 1, self.size // 2
        spots = ((0, mid), (mid, end), (end, mid), (mid, 0))
        return sum(1 << side for side, (r, c) in enumerate(spots) if pixels[r, c] >= 0)

    def _flow(self) -> bool:
        """Colour the pipes the water reaches; whether it reaches the drain."""
        source, drain = self.board.source, self.board.drain
        side = self.board.inward(source)
        wet: set[Cell] = set()
        reached = False
        front = [((source[0] + STEP[side][0], source[1] + STEP[side][1]), (side + 2) % 4)]
        while front:
            cell, side_in = front.pop()
            reached = reached or cell == drain
            if cell in wet or not self.open.get(cell, 0) >> side_in & 1:
                continue
            wet.add(cell)
            front += [
                ((cell[0] + dx, cell[1] + dy), (s + 2) % 4)
                for s, (dx, dy) in enumerate(STEP)
                if self.open[cell] >> s & 1
            ]
        for cell in wet ^ self.wet:
            tile = self._tile(cell)
            tile[tile >= 0] = WET if cell in wet else DRY
        self.wet = wet
        return reached
