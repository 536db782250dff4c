"""odd-one-out: in each round, click the one shape that breaks a likeness all the others share.

Legend of the level grid: one row per shape, rounds in order, each row ``[round, slot, form, hue,
size, turn]``: the round (0, 1, ...), the slot on a 3x3 board (row-major 0-8), the form (an index
into `FORMS`), the hue (an index into `HUES`), the size (1 small, 2 large, 3 a pair of small
copies side by side) and the quarter turns clockwise from the form as drawn in `FORMS` (0-3).

What each difficulty adds: 0 rounds where one shape breaks the others' form or colour; 1 size as a
likeness, and one other likeness varying to mislead; 2 the turn as a likeness; 3 the count: all the
shapes single but one shown twice (a pair), among more shapes and more misleading variety.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at
from .engine import GridGame, frame_point, layer_sprite
from .layouts import Cell
from .search import bfs
from .shape_fit import Shape, normal, turned

__all__ = ["FORMS", "HUES", "OddOneOut", "odd_one"]

#: Forms of three to five cells, none the same in any two of its four turns, so a turn always shows.
FORMS: tuple[Shape, ...] = (
    normal([(0, 0), (1, 0), (2, 0), (1, 1)]),  # T
    normal([(0, 0), (0, 1), (0, 2), (1, 2)]),  # L
    normal([(0, 0), (1, 0), (0, 1)]),  # a corner
    normal([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]),  # P
    normal([(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]),  # V
    normal([(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]),  # F
)
#: Frame colours of the shapes: red, blue, yellow, green, orange, purple, magenta, light blue.
HUES: tuple[int, ...] = (8, 9, 11, 14, 12, 15, 6, 10)
PENDING, PASSED, FAILED, GROUND, EDGE = 3, 0, 8, 5, 4
SLOT, COLS, TOP = 8, 3, 3  # an 8x8-pixel slot per shape on a 3x3 board, below a 3-pixel strip

# The likenesses, as columns of a grid row: form, hue, size, turn.
FORM, HUE, SIZE, TURN = 2, 3, 4, 5
PAIR = 6  # not a column: the size column's value 3, a likeness broken only among small shapes
_DOMAINS = {FORM: len(FORMS), HUE: len(HUES), SIZE: 2, TURN: 4}

Item = tuple[int, int, int, int, int, int]


@dataclass(frozen=True)
class _Knobs:
    rounds: int
    shapes: tuple[int, ...]  # how many shapes a round may show
    odd: tuple[int, ...]  # the likenesses one shape may break
    mixed: int  # other likenesses that vary among the shapes, to mislead


_KNOBS = (
    _Knobs(3, (4, 5), (FORM, HUE), 0),
    _Knobs(3, (5, 6), (FORM, HUE, SIZE), 1),
    _Knobs(4, (6, 7), (FORM, HUE, SIZE, TURN), 2),
    _Knobs(5, (8, 9), (FORM, HUE, SIZE, TURN, PAIR), 3),
)


def _breakers(items: Sequence[Item]) -> list[tuple[int, int]]:
    """Every (likeness, item index) where all the other items agree on the likeness and this one differs."""
    found = []
    for column in (FORM, HUE, SIZE, TURN):
        counts = Counter(item[column] for item in items)
        if len(counts) == 2 and min(counts.values()) == 1 and len(items) > 2:
            lone = next(value for value, n in counts.items() if n == 1)
            found.append((column, next(i for i, item in enumerate(items) if item[column] == lone)))
    return found


def odd_one(items: Sequence[Item]) -> int | None:
    """The index of the one item that breaks a likeness all the others share, if exactly one does."""
    found = _breakers(items)
    return found[0][1] if len(found) == 1 else None


def _rounds(level: Level) -> list[list[Item]]:
    rounds: list[list[Item]] = []
    for row in level.grid:
        item: Item = (row[0], row[1], row[2], row[3], row[4], row[5])
        while len(rounds) <= item[0]:
            rounds.append([])
        rounds[item[0]].append(item)
    return rounds


def _viewport() -> tuple[int, int]:
    return SLOT * COLS, TOP + SLOT * COLS


def _slot_pixel(slot: int) -> Cell:
    """The viewport pixel at the top-left of a slot."""
    row, col = divmod(slot, COLS)
    return SLOT * col, TOP + SLOT * row


class OddOneOut:
    """The odd-one-out game (see the module docstring for its level legend)."""

    id = "odd-one-out"
    title = "Odd one out"
    rules = (
        "A round shows several coloured shapes on a black board, and a row of grey marks at the top, "
        "one per round. All the shapes but one are alike in one way: the same form (however turned), "
        "the same colour, the same size, or (when they are all one form) turned the same way; the odd "
        "one differs from them in that way, while other ways may vary among all the shapes; or, at "
        "the highest difficulty, every shape is shown once but one, shown twice. Clicking "
        "the odd one (ACTION6, anywhere in its square of the 3x3 board) turns the next mark white and "
        "shows the next round; clicking another shape turns the mark red and the level is lost. The "
        "level is won when every round's odd one has been clicked (three rounds, more at higher "
        "difficulties)."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 100

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """Three to five rounds of 4 to 9 shapes, breaking form or colour at 0, any likeness at 2 and 3.

        Difficulty 1 adds size, 2 the turn, 3 the count (a pair of copies among single shapes).
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        rows: list[Item] = []
        for number in range(knobs.rounds):
            rows += _round(rng, knobs, number)
        return Level.make(self.id, rows)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: each round's shapes are sprites, swapped for the next round's on a right click."""
        return _OddGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The odd one of every round, by breadth-first search over the rounds passed.

        A wrong click loses, so only the odd one of a round leads on and the plan is one click a round.
        """
        rounds = _rounds(level)

        def successors(passed: int) -> Iterator[tuple[Move, int]]:
            items = rounds[passed]
            odd = odd_one(items)
            for i, item in enumerate(items):
                if i == odd:
                    x, y = _slot_pixel(item[1])
                    yield Move.click(*frame_point(_viewport(), x + SLOT // 2, y + SLOT // 2)), passed + 1

        return bfs(0, successors, lambda passed: passed == len(rounds), budget)


def _round(rng: random.Random, knobs: _Knobs, number: int) -> list[Item]:
    """One round's shapes, redrawn on the same rng until exactly one shape can be called odd."""
    for _ in range(29):
        try:
            return _try_round(rng, knobs, number)
        except RejectLevel:
            continue
    return _try_round(rng, knobs, number)


def _try_round(rng: random.Random, knobs: _Knobs, number: int) -> list[Item]:
    """One round's shapes: one breaks the chosen likeness; ``mixed`` others vary without a lone one."""
    count = rng.choice(knobs.shapes)
    odd = rng.choice(knobs.odd)
    paired = odd == PAIR
    if paired:  # the count is told among small shapes only: the pair's lone size is 3 among 1s
        odd = SIZE
    others = [c for c in (FORM, HUE, SIZE, TURN) if c != odd and not (odd == TURN and c == FORM)]
    mixed = rng.sample(others, min(knobs.mixed, len(others)))
    values: dict[int, list[int]] = {}
    for column, domain in _DOMAINS.items():
        if column in mixed:
            kinds = rng.sample(range(domain), min(domain, rng.choice((2, 3))))
            values[column] = [rng.choice(kinds) for _ in range(count)]
            if len(set(values[column])) == 1:
                raise RejectLevel("a likeness meant to vary came out all the same")
        else:
            values[column] = [rng.randrange(domain)] * count
    lone = rng.randrange(count)
    if paired:
        values[SIZE] = [0] * count
        values[SIZE][lone] = 2  # size 3, a pair
    else:
        values[odd][lone] = rng.choice(
            [v for v in range(_DOMAINS[odd]) if v != values[odd][0 if lone else 1]]
        )
    slots = sorted(rng.sample(range(COLS * COLS), count))
    items: list[Item] = [
        (number, slot, values[FORM][i], values[HUE][i], 1 + values[SIZE][i], values[TURN][i])
        for i, slot in enumerate(slots)
    ]
    if _breakers(items) != [(odd, lone)]:
        raise RejectLevel("more than one shape could be called odd")
    return items


def _pixels(form: int, hue: int, size: int, turn: int) -> np.ndarray:
    """A shape's pixels: its form turned, each cell a size x size square of its hue.

    Size 3 is two small copies side by side, a clear column apart.
    """
    if size == 3:
        one = _pixels(form, hue, 1, turn)
        gap = np.full((one.shape[0], 1), -1, dtype=np.int8)
        return np.concatenate([one, gap, one], axis=1)
    cells = turned(FORMS[form], turn)
    width, height = 1 + max(x for x, _ in cells), 1 + max(y for _, y in cells)
    pixels = np.full((height * size, width * size), -1, dtype=np.int8)
    for x, y in cells:
        pixels[y * size : (y + 1) * size, x * size : (x + 1) * size] = HUES[hue]
    return pixels


def _mark(number: int, colour: int) -> Sprite:
    """The mark of a round in the strip at the top: two pixels wide, one pixel apart from the next."""
    return layer_sprite(
        [(1 + 3 * number, 1, colour), (2 + 3 * number, 1, colour)], f"mark{number}", _viewport()
    )


class _OddGame(GridGame):
    """The engine side of odd-one-out: a round's shapes are sprites tagged ``item``."""

    def __init__(self, level: Level) -> None:
        self.rounds = _rounds(level)
        sprites = [_mark(k, PENDING) for k in range(len(self.rounds))]
        sprites += self._shapes(0)
        super().__init__(OddOneOut.id, sprites, _viewport(), actions=(6,), background=GROUND, letterbox=EDGE)

    def on_set_level(self, level: object) -> None:
        """Every (re)start begins at the first round."""
        self.passed = 0

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Judge a click on a shape's slot: on to the next round, or lost."""
        if cell is None or cell[1] < TOP:
            return True
        slot = (cell[1] - TOP) // SLOT * COLS + cell[0] // SLOT
        items = self.rounds[self.passed]
        chosen = next((i for i, item in enumerate(items) if item[1] == slot), None)
        if chosen is None:
            return True  # an empty slot
        if chosen != odd_one(items):
            self.current_level.add_sprite(_mark(self.passed, FAILED).set_layer(1))
            self.lose()
            return True
        self.current_level.add_sprite(_mark(self.passed, PASSED).set_layer(1))
        for sprite in self.current_level.get_sprites_by_tag("item"):
            self.current_level.remove_sprite(sprite)
        self.passed += 1
        if self.passed == len(self.rounds):
            self.next_level()
        else:
            for sprite in self._shapes(self.passed):
                self.current_level.add_sprite(sprite)
        return True

    def _shapes(self, number: int) -> list[Sprite]:
        """The sprites of a round's shapes, each centred in its slot."""
        sprites = []
        for _, slot, form, hue, size, turn in self.rounds[number]:
            pixels = _pixels(form, hue, size, turn)
            x, y = _slot_pixel(slot)
            x += (SLOT - pixels.shape[1]) // 2
            y += (SLOT - pixels.shape[0]) // 2
            sprites.append(Sprite(pixels, name=f"item{slot}", x=x, y=y, layer=2, tags=["item"]))
        return sprites
