"""slide-puzzle: slide coloured tiles one at a time into the hole until they form the target picture.

Legend of the level grid (rows x cols, one code per board cell): the low four bits are the frame
colour of the tile on the cell now (0 for the hole), the high four bits the colour the target
picture shows there (0 for the hole). Tile colours are from 6 to 15, distinct but for a pair of
twins (two tiles of one colour, either of which may go to either of their places). The param
``pinned``, when present, is 1 + the row-major index of a bolted tile (marked by a black dot): no
arrow moves it, so the hole never passes through its cell.

What each difficulty adds: 0 a 2x4 board of distinct tiles; 1 twins; 2 a 3x3 board with a pinned
tile; 3 a longer scramble of the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, block, layer_sprite
from .layouts import Cell
from .search import astar

__all__ = ["SlidePuzzle"]

HOLE = 0
TILE_HUES = tuple(range(6, 16))
RIM, GROUND, EDGE, BOLT = 2, 5, 4, 5
TILE, STEP = 4, 5  # board tiles: 4x4 pixels, one apart, inside a one-pixel rim
MINI, MINI_STEP = 2, 3  # the target picture's tiles


Board = tuple[int, ...]  # row-major tile colours, HOLE for the hole


@dataclass(frozen=True)
class _Knobs:
    shapes: tuple[tuple[int, int], ...]  # (rows, cols) of the board
    walk: int  # random slides made from the target picture to scramble it
    shortest: tuple[int, int]  # the fewest slides a served level needs: at least, at most
    twins: bool = False  # whether two tiles share a colour
    pinned: bool = False  # whether a tile (never the hole's place) is bolted in its place


_KNOBS = (
    _Knobs(((2, 4),), 10, (4, 8)),
    _Knobs(((2, 4), (4, 2)), 14, (8, 12), twins=True),
    _Knobs(((3, 3),), 16, (8, 12), twins=True, pinned=True),
    _Knobs(((3, 3),), 20, (12, 16), twins=True, pinned=True),
)


def _slide(board: Board, cols: int, action: int, pinned: int = -1) -> Board | None:
    """The board after ``action`` slides the tile beside the hole into it, or None if none can go."""
    hole = board.index(HOLE)
    source = _source(hole, cols, len(board), action)
    if source is None or source == pinned:
        return None
    after = list(board)
    after[hole], after[source] = after[source], HOLE
    return tuple(after)


def _layout(rows: int, cols: int) -> tuple[tuple[int, int], Cell]:
    """The viewport, and the top-left of the target picture's rim: beside the board, or below a wide one."""
    board = (STEP * cols + 1, STEP * rows + 1)
    picture = (MINI_STEP * cols + 1, MINI_STEP * rows + 1)
    if cols > rows:
        return (board[0], board[1] + 2 + picture[1]), (0, board[1] + 2)
    return (board[0] + 2 + picture[0], board[1]), (board[0] + 2, 0)


class SlidePuzzle:
    """The slide-puzzle game (see the module docstring for its level legend)."""

    id = "slide-puzzle"
    title = "Slide the tiles"
    rules = (
        "A framed board of coloured tiles with one empty cell, and beside or below it a smaller framed "
        "picture of the same tiles. ACTION1-4 (up, down, left, right) slide the tile next to the "
        "empty cell into it, moving the tile the way of the arrow: up moves the tile below the empty "
        "cell up. An arrow with no tile to move does nothing, and so does one that would move a tile "
        "with a black dot: it is bolted down. The level is won when the board shows the picture: "
        "every colour, and the empty cell, where the picture has them (two tiles of one colour may "
        "go to either of their places)."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A 2x4, 4x2 or 3x3 board, scrambled so that the fewest slides are 4-8 up to 12-16.

        From difficulty 1 two tiles share a colour; from 2 a tile is pinned where it belongs.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40 if knobs.pinned else 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        rows, cols = rng.choice(knobs.shapes)
        hues = rng.sample(TILE_HUES, rows * cols - 1 - knobs.twins)
        goal: Board = tuple(hues + hues[:1] if knobs.twins else hues)
        if knobs.twins:
            goal = tuple(rng.sample(goal, len(goal)))  # the twins anywhere
        hole = rng.randrange(rows * cols)
        goal = (*goal[:hole], HOLE, *goal[hole:])
        pinned = rng.choice([c for c in range(rows * cols) if c != hole]) if knobs.pinned else -1
        board, back = goal, 0
        for _ in range(knobs.walk):
            # Never straight back: a walk that undoes itself scrambles nothing.
            options = [a for a in DELTAS if a != back and _slide(board, cols, a, pinned) is not None]
            if not options:  # the pinned tile walled the hole into a corner: the way back is all
                options = [back]
            action = rng.choice(options)
            board = _slide(board, cols, action, pinned) or board
            back = {1: 2, 2: 1, 3: 4, 4: 3}[action]
        codes = [now | (due << 4) for now, due in zip(board, goal, strict=True)]
        params = {"pinned": pinned + 1} if knobs.pinned else {}
        level = Level.make(self.id, [codes[r * cols : (r + 1) * cols] for r in range(rows)], **params)
        plan = self.solve(level, self.budget)
        low, high = knobs.shortest
        if plan is None or not low <= len(plan) <= high:
            raise RejectLevel(f"the fewest slides are not {low}-{high}")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a sprite per tile, the board's rim and the target picture."""
        return _SlideGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest slides, by A* over boards with the tiles' summed distances to their places."""
        cols = level.width
        codes = [v for row in level.grid for v in row]
        start: Board = tuple(v & 15 for v in codes)
        goal: Board = tuple(v >> 4 for v in codes)
        cells = range(len(codes))
        pinned = level.param("pinned", 0) - 1
        # Tables, so that a successor costs a swap and its distance two lookups. A colour's distance
        # is to its nearest place, so twins never overestimate either.
        away = {
            tile: [
                min(abs(h // cols - i // cols) + abs(h % cols - i % cols) for h in cells if goal[h] == tile)
                for i in cells
            ]
            for tile in set(goal) - {HOLE}
        }
        slides = {
            hole: [
                (a, m, t)
                for a, m in ARROWS.items()
                if (t := _source(hole, cols, len(codes), a)) is not None and t != pinned
            ]
            for hole in cells
        }
        known = {start: sum(away[tile][i] for i, tile in enumerate(start) if tile != HOLE)}

        def successors(board: Board) -> Iterator[tuple[Move, Board]]:
            hole = board.index(HOLE)
            for _, move, source in slides[hole]:
                tile = board[source]
                after = list(board)
                after[hole], after[source] = tile, HOLE
                nxt = tuple(after)
                known[nxt] = known[board] - away[tile][source] + away[tile][hole]
                yield move, nxt

        return astar(start, successors, lambda board: board == goal, known.__getitem__, budget)


def _source(hole: int, cols: int, size: int, action: int) -> int | None:
    """The cell of the tile that ``action`` slides into the hole, or None when there is none.

    An arrow moves a tile in its own direction, so up moves the tile below the hole up.
    """
    dx, dy = DELTAS[action]
    x, y = hole % cols - dx, hole // cols - dy
    return y * cols + x if 0 <= x < cols and 0 <= y < size // cols else None


def _rim(x: int, y: int, width: int, height: int) -> list[tuple[int, int, int]]:
    """The one-pixel frame of a width x height box whose top-left pixel is (x, y)."""
    ring = [(x + i, y + j, RIM) for i in range(width) for j in (0, height - 1)]
    return ring + [(x + i, y + j, RIM) for i in (0, width - 1) for j in range(1, height - 1)]


class _SlideGame(GridGame):
    """The engine side of slide-puzzle: a tile is a sprite named by its colour."""

    def __init__(self, level: Level) -> None:
        self.rows, self.cols = level.height, level.width
        viewport, (px, py) = _layout(self.rows, self.cols)
        codes = [v for row in level.grid for v in row]
        picture = [
            (px + 1 + MINI_STEP * (i % self.cols) + a, py + 1 + MINI_STEP * (i // self.cols) + b, v >> 4)
            for i, v in enumerate(codes)
            if v >> 4 != HOLE
            for a in range(MINI)
            for b in range(MINI)
        ]
        frames = _rim(0, 0, STEP * self.cols + 1, STEP * self.rows + 1)
        frames += _rim(px, py, MINI_STEP * self.cols + 1, MINI_STEP * self.rows + 1)
        sprites = [layer_sprite(frames + picture, "rims", viewport)]
        pinned = level.param("pinned", 0) - 1
        for i, v in enumerate(codes):
            if v & 15 != HOLE:
                x, y = 1 + STEP * (i % self.cols), 1 + STEP * (i // self.cols)
                tags = ["tile", "pinned"] if i == pinned else ["tile"]
                tile = block(v & 15, f"tile{v & 15}", 0, 0, cell=TILE, layer=1, tags=tags)
                if i == pinned:  # a black dot in its middle
                    pixels = tile.pixels.copy()
                    pixels[TILE // 2 - 1 : TILE // 2 + 1, TILE // 2 - 1 : TILE // 2 + 1] = BOLT
                    tile = Sprite(pixels, name=f"tile{v & 15}", layer=1, tags=tags)
                sprites.append(tile.set_position(x, y))
        self.homes: dict[int, set[Cell]] = {}
        for i, v in enumerate(codes):
            spot = (1 + STEP * (i % self.cols), 1 + STEP * (i // self.cols))
            self.homes.setdefault(v >> 4, set()).add(spot)
        super().__init__(
            SlidePuzzle.id, sprites, viewport, actions=(1, 2, 3, 4), background=GROUND, letterbox=EDGE
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Slide the tile on the far side of the hole into it; check the picture."""
        dx, dy = DELTAS[action]
        tiles: dict[Cell, Sprite] = {(t.x, t.y): t for t in self.current_level.get_sprites_by_tag("tile")}
        spots = [(1 + STEP * c, 1 + STEP * r) for r in range(self.rows) for c in range(self.cols)]
        hole = next(spot for spot in spots if spot not in tiles)
        mover = tiles.get((hole[0] - STEP * dx, hole[1] - STEP * dy))
        if mover is not None and "pinned" not in mover.tags:
            mover.set_position(*hole)
        if all((t.x, t.y) in self.homes[int(t.name[4:])] for t in tiles.values()):
            self.next_level()
        return True
