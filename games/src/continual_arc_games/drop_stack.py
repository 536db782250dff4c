"""drop-stack: drop the queued blocks into the well's columns to build the target picture.

Legend of the level grid, ``width`` columns wide: the first ``height`` rows (the ``height`` param) are
the target picture, 0 empty and 1 + c a block of colour c (0-3), every column's blocks resting on the
bottom; the rows after them list the blocks to drop, in order, left to right and row by row, as
1 + c, 5 a white wild block or 6 an orange bomb, padded with 0 after the last. The ``lid`` param, when
there is one, is the column shut by a lid until every other column is complete.

What each difficulty adds: 0 two colours; 1 a wild block that may stand for any colour; 2 a third
colour, an extra block and a bomb that must blast it away; 3 a lidded column, filled last.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, retry
from .engine import GridGame, block, frame_point, layer_sprite
from .layouts import Cell

__all__ = ["DropStack"]

HUES = (8, 11, 9, 14)  # red, yellow, blue, green
WILD, BOMB = len(HUES), len(HUES) + 1  # queue values past the colours: a wild block, a bomb
LOOKS = (*HUES, 0, 12)  # a queued value's frame colour: the hues, white wild blocks, orange bombs
STONE, GROUND, EDGE = 2, 5, 4


@dataclass(frozen=True)
class _Knobs:
    columns: int
    height: int  # the well's depth; a column of the picture is 1 to height blocks
    colours: int
    traps: int  # how many of three naive players (leftmost, rightmost, first fit by turns) must fail
    wild: int  # queued blocks turned into wild ones
    bomb: bool  # an extra block queued, and a bomb after it before its column needs the next block
    lid: bool  # a column shut until every other column is complete


_KNOBS = (
    _Knobs(3, 3, 2, 1, 0, False, False),
    _Knobs(4, 4, 2, 2, 1, False, False),
    _Knobs(5, 4, 3, 3, 1, True, False),
    _Knobs(5, 5, 3, 3, 1, True, True),
)

_State = tuple[tuple[int, ...], int, bool]  # the columns' heights, blocks dropped, the lid open


@dataclass(frozen=True)
class _Well:
    columns: tuple[tuple[int, ...], ...]  # each column's target colours, bottom first
    queue: tuple[int, ...]  # the colours to drop, in order (or WILD, BOMB)
    height: int
    lid: int  # the lidded column, or -1

    @classmethod
    def read(cls, level: Level) -> _Well:
        height = level.param("height")
        picture, rest = level.grid[:height], level.grid[height:]
        columns = tuple(tuple(row[c] - 1 for row in reversed(picture) if row[c]) for c in range(level.width))
        return cls(columns, tuple(v - 1 for row in rest for v in row if v), height, level.param("lid", -1))

    def fits(self, state: _State) -> list[int]:
        """The columns the next block may drop into without losing.

        A coloured block goes where the picture wants its colour next, a wild one where the picture
        wants any block, a bomb anywhere; never into the lidded column while its lid is shut.
        """
        heights, dropped, opened = state
        value = self.queue[dropped]
        return [
            c
            for c, h in enumerate(heights)
            if (opened or c != self.lid)
            and (value == BOMB or (h < len(self.columns[c]) and value in (WILD, self.columns[c][h])))
        ]

    def drop(self, state: _State, c: int) -> _State:
        """The state once the next block has landed in column ``c`` (a bomb takes the top block)."""
        heights, dropped, opened = state
        h = max(heights[c] - 1, 0) if self.queue[dropped] == BOMB else heights[c] + 1
        heights = (*heights[:c], h, *heights[c + 1 :])
        return heights, dropped + 1, opened or self.complete_but_lid(heights)

    def complete_but_lid(self, heights: tuple[int, ...]) -> bool:
        """Whether every column but the lidded one is as high as the picture's (the lid then opens)."""
        return all(h == len(self.columns[c]) for c, h in enumerate(heights) if c != self.lid)

    def start(self) -> _State:
        """No block dropped; the lid open only if there is none."""
        return (0,) * len(self.columns), 0, self.lid < 0


def _viewport(level: Level) -> tuple[int, int]:
    """The viewport in cells: the well and the picture side by side, the queue in rows below.

    Row 0 is open above the well (a dropped block appears there), rows 1 to ``height`` are the well,
    the next its floor, then a blank row, then the queue from row ``height`` + 3.
    """
    width, height = 2 * level.width + 4, level.param("height") + 3
    queued = sum(1 for row in level.grid[level.param("height") :] for v in row if v)
    return width, height + -(-queued // width)


def _queue_pixels(queue: tuple[int, ...], view: tuple[int, int], top: int) -> np.ndarray:
    """The queue's pixels: the blocks still to drop, in rows from ``top``, the next leftmost."""
    pixels = np.full((view[1], view[0]), -1, dtype=np.int8)
    for i, value in enumerate(queue):
        pixels[top + i // view[0], i % view[0]] = LOOKS[value]
    return pixels


class DropStack:
    """The drop-stack game (see the module docstring for its level legend)."""

    id = "drop-stack"
    title = "Stack to the picture"
    rules = (
        "On the left is a well of empty columns, on the right a picture of coloured stacks, and below "
        "them a row of blocks waiting in turn, the leftmost next. Clicking a column of the well "
        "(ACTION6) drops the next block into it: it falls until it lands on the bottom or on the "
        "blocks already there. A block that lands where the picture has no block of its colour "
        "spoils the picture and loses the level; only RESET continues. A white block counts as any "
        "colour. An orange bomb destroys the block it lands on, and itself. A column shut by a grey "
        "lid takes no block until every other column shows its picture. The level is won when the "
        "well shows the picture, every block having been dropped."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A picture of 3 to 5 columns, 3 to 5 deep, in 2 or 3 colours; its blocks queued to fill it.

        From difficulty 1 a queued block is wild; from 2 an extra block is queued and a bomb after it,
        before the column it can land in needs its next block; at 3 one column is lidded, its blocks
        queued last. With difficulty, 1 to 3 of three naive players must fail on it: one that always
        drops into the leftmost column that fits, one the rightmost, and one that takes the fitting
        columns in turn.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        n, depth = knobs.columns, knobs.height
        columns = [[rng.randrange(knobs.colours) for _ in range(rng.randint(1, depth))] for _ in range(n)]
        lid = rng.randrange(n) if knobs.lid else -1
        heights, order = [0] * n, list[int]()  # the columns in a random order that fills the picture
        while len(order) < sum(map(len, columns)):  # the lidded column last
            c = rng.choice([c for c in range(n) if heights[c] < len(columns[c]) and c != lid] or [lid])
            order.append(c)
            heights[c] += 1
        queue = [columns[c][order[:i].count(c)] for i, c in enumerate(order)]
        if knobs.bomb:  # an extra copy of a block, then a bomb, both before the block lands
            i = rng.choice([i for i, c in enumerate(order) if c != lid])
            before = max((j for j in range(i) if order[j] == order[i]), default=-1)
            # No block lands in that column between the two, so the copy fits there and is blasted.
            extra = rng.randint(before + 1, i)
            bomb = rng.randint(extra, i)
            queue = [*queue[:extra], queue[i], *queue[extra:bomb], BOMB, *queue[bomb:]]
        for i in rng.sample([i for i, v in enumerate(queue) if v != BOMB], knobs.wild):
            queue[i] = WILD
        picture = [[0] * n for _ in range(depth)]
        for c, stack in enumerate(columns):
            for h, colour in enumerate(stack):
                picture[depth - 1 - h][c] = 1 + colour
        rows = [[1 + v for v in queue[i : i + n]] for i in range(0, len(queue), n)]
        rows[-1] += [0] * (n - len(rows[-1]))
        level = Level.make(self.id, picture + rows, height=depth, **({"lid": lid} if lid >= 0 else {}))
        well = _Well.read(level)
        if _plan(well, self.budget) is None:
            raise RejectLevel("the queue cannot fill the picture")
        naive = [_naive(well, lambda fits, turn: fits[0]), _naive(well, lambda fits, turn: fits[-1])]
        naive.append(_naive(well, lambda fits, turn: fits[turn % len(fits)]))
        if sum(not won for won in naive) < knobs.traps:
            raise RejectLevel(f"fewer than {knobs.traps} naive players fail")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a dropped block falls a cell a frame until it collides with the stack."""
        return _DropGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A winning order of columns, by depth-first search over (heights, blocks dropped, lid open).

        Every plan drops every block, so any plan found is a shortest one; a state found to lead
        nowhere is remembered. ``budget`` bounds the states expanded.
        """
        view = _viewport(level)
        clicks = [Move.click(*frame_point(view, 1 + c, 1)) for c in range(level.width)]
        plan = _plan(_Well.read(level), budget)
        return tuple(clicks[c] for c in plan) if plan else None


def _plan(well: _Well, budget: int) -> list[int] | None:
    """The columns of a winning plan, by depth-first search, dead states remembered; see ``solve``."""
    goal = tuple(len(stack) for stack in well.columns)
    dead: set[_State] = set()
    plan: list[int] = []
    expanded = 0

    def search(state: _State) -> bool:
        nonlocal expanded
        if state[1] == len(well.queue):
            return state[0] == goal
        if state in dead or expanded >= budget:
            return False
        expanded += 1
        for c in well.fits(state):
            plan.append(c)
            if search(well.drop(state, c)):
                return True
            plan.pop()
        dead.add(state)
        return False

    return plan if search(well.start()) else None


def _naive(well: _Well, pick: Callable[[list[int], int], int]) -> bool:
    """Whether a player that never looks ahead wins: ``pick(fits, turn)`` chooses among fitting columns."""
    state = well.start()
    for turn in range(len(well.queue)):
        fits = well.fits(state)
        if not fits:
            return False
        state = well.drop(state, pick(fits, turn))
    return state[0] == tuple(len(stack) for stack in well.columns)


class _DropGame(GridGame):
    """The engine side of drop-stack: landed blocks are painted into one collidable stack sprite."""

    def __init__(self, level: Level) -> None:
        well = _Well.read(level)
        n, depth = level.width, well.height
        view = _viewport(level)
        frame = [(x, y) for y in range(1, depth + 2) for x in (0, n + 1, n + 2, 2 * n + 3)]
        frame += [(x, depth + 1) for x in range(2 * n + 4)]
        picture = [
            (n + 3 + c, depth - h, HUES[colour])
            for c, stack in enumerate(well.columns)
            for h, colour in enumerate(stack)
        ]
        stack = Sprite(np.full((view[1], view[0]), -1, dtype=np.int8), name="stack", layer=1, tags=[])
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in frame], "walls", view),
            layer_sprite(picture, "picture", view).set_interaction(InteractionMode.INTANGIBLE),
            stack,
            Sprite(_queue_pixels(well.queue, view, depth + 3), name="queue", tags=[]).set_interaction(
                InteractionMode.INTANGIBLE
            ),
        ]
        if well.lid >= 0:  # a grey bar just above the column's top
            sprites.append(layer_sprite([(1 + well.lid, 0, STONE)], "lid", view))
        self.well, self.view = well, view
        super().__init__(DropStack.id, sprites, view, actions=(6,), background=GROUND, letterbox=EDGE)

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """A click on a column spawns the next block above it; each later frame lets it fall a cell."""
        falling = self.current_level.get_sprites_by_name("falling")
        if falling:
            falling[0].move(0, 1)  # the frame before made sure it could
            return self._land_if_stopped(falling[0])
        if cell is None or not 1 <= cell[0] <= len(self.well.columns) or cell[1] > self.well.height:
            return True
        if cell[0] == 1 + self.well.lid and self.current_level.get_sprites_by_name("lid"):
            return True  # the lid is shut
        dropped = len(self.well.queue) - int((self.sprite("queue").pixels >= 0).sum())
        spawned = block(LOOKS[self.well.queue[dropped]], "falling", cell[0], 0, layer=2)
        self.current_level.add_sprite(spawned)
        rest = self.well.queue[dropped + 1 :]
        self.sprite("queue").pixels = _queue_pixels(rest, self.view, self.well.height + 3)
        return self._land_if_stopped(spawned)

    def _land_if_stopped(self, falling: Sprite) -> bool:
        """Land the block if nothing lets it fall further, checking it against the picture.

        A bomb takes the block it lands on with it. Once every block has dropped, the level is won if
        the well is full and lost if not; the lid opens when every other column is full.

        Returns:
            Whether the drop is over (landed), so that no frame shows a block that has stopped.
        """
        if not self.try_move_sprite(falling, 0, 1):
            falling.move(0, -1)  # only a probe: it can fall, in the next frame
            return False
        self.current_level.remove_sprite(falling)
        x, y = falling.x, falling.y
        colour = int(falling.pixels[0, 0])
        stack = self.sprite("stack").pixels
        picture = self.sprite("picture").pixels[:, len(self.well.columns) + 2 :]
        if colour == LOOKS[BOMB]:
            stack[y + 1, x] = -1  # the floor is a wall, so this is a block or the floor's empty row
        else:
            stack[y, x] = colour
            if y < 1 or picture[y, x] < 0 or colour not in (picture[y, x], LOOKS[WILD]):
                self.lose()
                return True
        lids = self.current_level.get_sprites_by_name("lid")
        full = [int((stack[:, 1 + c] >= 0).sum()) == len(want) for c, want in enumerate(self.well.columns)]
        if lids and all(done for c, done in enumerate(full) if c != self.well.lid):
            self.current_level.remove_sprite(lids[0])
        if not (self.sprite("queue").pixels >= 0).any():
            if all(full):
                self.next_level()
            else:
                self.lose()
        return True
