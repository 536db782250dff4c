"""colour-sort: carry coloured tokens, one at a time, into the bins of their colour.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3-5 a token of colour 0-2, 6-8 the
bin of colour 0-2 (one per colour in use), 9 a grey token (of no colour), 10-12 a paint pad of colour
0-2, 13 the black bin, which takes one token of any colour.

Each difficulty adds an element the one before lacks:

- 0: two colours, a token and a bin each.
- 1: a grey token, which no bin takes, and a paint pad: a token carried onto a pad takes the pad's
  colour, so every plan paints the grey token (and walks carrying a token of another colour go round
  the pad).
- 2: a third colour, and a second pad of another colour: the grey token's colour is a choice.
- 3: the black bin, which takes any one token and is then gone, and a second grey token; the bin
  shortens every shortest plan.
"""

from __future__ import annotations

import functools
import heapq
import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, USE, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .engine import DELTAS, GridGame, layer_sprite, patch
from .layouts import Cell, bordered_room, distances, ordered, passable

__all__ = ["ColourSort"]

FLOOR, WALL, START = range(3)
TOKENS, BINS, GREY_TOKEN, PADS, ANY_BIN = (3, 4, 5), (6, 7, 8), 9, (10, 11, 12), 13
# Frame colours: red, green and purple tokens, bins and pads; a grey token, a black bin that takes any
# colour; a blue player on white ground.
HUES = (8, 14, 15)
GREY = len(HUES)  # the colour index of a grey token
PLAYER, STONE, GROUND, EDGE, ASH, BLACK = 9, 3, 0, 4, 2, 5
CELL = 3  # pixels per cell: a token is a plus, a bin a ring, the token carried the player's middle

_DROP = Move(USE)


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    hues: int  # colours in use, each with one bin
    tokens: int  # tokens in all, every colour at least once
    walls: int  # inner wall cells
    shortest: int  # fewest moves a served level needs
    greys: int = 0  # grey tokens besides the coloured ones
    pads: int = 0  # paint pads, each of another colour in use
    any_bin: bool = False  # the black bin, which must shorten every shortest plan


_KNOBS = (
    _Knobs(6, 2, 2, 1, 8),
    _Knobs(7, 2, 2, 3, 14, greys=1, pads=1),
    _Knobs(7, 3, 3, 3, 18, greys=1, pads=2),
    _Knobs(7, 3, 3, 3, 22, greys=2, pads=2, any_bin=True),
)


@dataclass(frozen=True)
class _Board:
    walls: frozenset[Cell]
    start: Cell
    tokens: tuple[tuple[Cell, int], ...]  # (cell, colour), in row-major order within each colour
    bins: dict[int, Cell]  # colour to its bin's cell
    pads: dict[Cell, int]  # colour by cell
    any_bin: Cell | None  # the black bin's cell

    @classmethod
    def read(cls, level: Level) -> _Board:
        codes = (*TOKENS, GREY_TOKEN)
        tokens = tuple((cell, c) for c, code in enumerate(codes) for cell in level.cells(code))
        bins = {c: level.cells(code)[0] for c, code in enumerate(BINS) if level.cells(code)}
        pads = {cell: c for c, code in enumerate(PADS) for cell in level.cells(code)}
        any_bin = next(iter(level.cells(ANY_BIN)), None)
        return cls(frozenset(level.cells(WALL)), level.cells(START)[0], tokens, bins, pads, any_bin)

    @functools.cached_property
    def steps_from(self) -> dict[Cell, tuple[tuple[Cell, Move], ...]]:
        """Each open cell's open neighbours, with the move to each, in the order of ``DELTAS``."""
        width = 1 + max(x for x, _ in self.walls)
        height = 1 + max(y for _, y in self.walls)
        return {
            (x, y): tuple(
                ((x + dx, y + dy), ARROWS[action])
                for action, (dx, dy) in DELTAS.items()
                if (x + dx, y + dy) not in self.walls
            )
            for y in range(height)
            for x in range(width)
            if (x, y) not in self.walls
        }

    def walk(
        self, start: Cell, blocked: set[Cell], goals: set[Cell], through: frozenset[Cell] = frozenset()
    ) -> dict[Cell, tuple[Move, ...]]:
        """The moves of a shortest walk from ``start`` to each goal it can reach.

        Walks never cross ``blocked`` cells or a goal, except the goals in ``through`` (bins, which
        a walk may pass over): entering any other goal ends the walk.
        """
        came: dict[Cell, tuple[Cell, Move] | None] = {start: None}
        queue = deque([start])
        missing = len(goals - {start})
        while queue and missing:  # once every goal is reached, the rest of the room changes nothing
            here = queue.popleft()
            for cell, move in self.steps_from[here]:
                if cell in came or cell in blocked:
                    continue
                came[cell] = (here, move)
                if cell not in goals:
                    queue.append(cell)
                    continue
                missing -= 1
                if cell in through:
                    queue.append(cell)
        walks = {}
        for goal in goals & came.keys():
            moves: list[Move] = []
            link = came[goal]
            while link is not None:
                moves.append(link[1])
                link = came[link[0]]
            walks[goal] = tuple(reversed(moves))
        return walks


# The state between two events: (where the player is, the token carried or -1, its colour now (-1 when
# none is carried), bitmask binned, whether the black bin has taken a token).
_State = tuple[Cell, int, int, int, bool]


class ColourSort:
    """The colour-sort game (see the module docstring for its level legend)."""

    id = "colour-sort"
    title = "Sort the tokens"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. Walking onto a coloured plus picks that token up when the "
        "player's hands are empty, and its colour then shows in the player's middle; while carrying "
        "a token, other tokens stop the player like walls. Stepping onto a paint pad (four coloured "
        "corner dots) while carrying a token paints the token the pad's colour; a grey token has no "
        "ring until it is painted. ACTION5 drops the token carried into the ring the player stands "
        "on, if the ring is the token's colour or the black ring, which takes one token of any "
        "colour and is then gone; anywhere else it does nothing. The level is won when every token "
        "is in a ring."
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 6 or 7 cells a side, 2 or 3 colours, 2 or 3 coloured tokens, 1 to 3 walls.

        From difficulty 1, grey tokens (1 to 2) and paint pads (1 to 2) of colours in use; at 3, the
        black bin, kept only where it shortens the shortest plan. A served level needs at least 8,
        14, 18 or 22 moves.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = bordered_room(knobs.side, knobs.side, WALL, FLOOR)
        inside = ordered((x, y) for y in range(1, knobs.side - 1) for x in range(1, knobs.side - 1))
        hues = [h % knobs.hues for h in range(knobs.tokens)]
        codes = [WALL] * knobs.walls + [START] + list(BINS[: knobs.hues]) + [TOKENS[h] for h in hues]
        codes += [GREY_TOKEN] * knobs.greys + [PADS[h] for h in rng.sample(range(knobs.hues), knobs.pads)]
        codes += [ANY_BIN] * knobs.any_bin
        picks = rng.sample(inside, len(codes))
        for (x, y), code in zip(picks, codes, strict=True):
            grid[y][x] = code
        floor = [c for c in inside if grid[c[1]][c[0]] != WALL]
        if len(distances(floor[0], passable(grid, WALL), knobs.side, knobs.side)) != len(floor):
            raise RejectLevel("the inner walls cut the room in two")
        level = Level.make(self.id, grid)
        plan = long_plan(self, level, knobs.shortest)
        if knobs.any_bin:
            x, y = picks[-1]
            grid[y][x] = FLOOR
            without = self.solve(Level.make(self.id, grid), self.budget)
            if without is not None and len(without) <= len(plan):
                raise RejectLevel("the black bin shortens no shortest plan")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the token carried is drawn as the middle of the player's square."""
        return _SortGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest plan, by A* over the states between two pick-ups or drops.

        Between two such events nothing on the board changes, so the walk between them is a
        shortest walk with the tokens on the floor as obstacles (or, empty-handed, as the places
        where the walk ends). The heuristic follows the farthest token left on its own trip
        (to its bin, after dropping the token carried) in a room without tokens, plus one drop per
        token: it never overestimates. ``budget`` bounds the states expanded.
        """
        board = _Board.read(level)
        done = (1 << len(board.tokens)) - 1
        far = _Distances(board)
        start: _State = (board.start, -1, -1, 0, False)
        best = {start: 0}
        parents: dict[_State, tuple[_State, tuple[Move, ...]] | None] = {start: None}
        heap = [(far.bound(start), 0, 0, start)]
        pushed = expanded = 0
        while heap and expanded < budget:
            _, cost, _, state = heapq.heappop(heap)
            if cost > best[state]:
                continue  # reached more cheaply since
            if state[3] == done:
                return _unwind(parents, state)
            expanded += 1
            for leg, nxt in _legs(board, state):
                if cost + len(leg) < best.get(nxt, cost + len(leg) + 1):
                    best[nxt] = cost + len(leg)
                    parents[nxt] = (state, leg)
                    pushed += 1
                    heapq.heappush(heap, (cost + len(leg) + far.bound(nxt), cost + len(leg), pushed, nxt))
        return None


class _Distances:
    """Steps between the cells that matter in a room without tokens: lower bounds on real walks."""

    def __init__(self, board: _Board) -> None:
        self.board = board
        width = 1 + max(x for x, _ in board.walls)
        height = 1 + max(y for _, y in board.walls)
        spots = [board.start, *(cell for cell, _ in board.tokens), *board.bins.values(), *board.pads]
        spots += [board.any_bin] if board.any_bin is not None else []
        self.steps = {spot: distances(spot, lambda c: c not in board.walls, width, height) for spot in spots}

    def finish(self, at: Cell, colour: int, any_used: bool) -> int:
        """Fewest steps from ``at`` to a ring that takes a token carried there of ``colour``.

        The token ends in its colour's ring, in the black ring, or in the ring of the colour of the
        last pad it crossed; a walk through several pads is no shorter than one from the last.
        """
        board, steps = self.board, self.steps[at]
        ways = [steps[board.bins[colour]]] if colour in board.bins else []
        if board.any_bin is not None and not any_used:
            ways.append(steps[board.any_bin])
        ways += [
            steps[pad] + self.steps[pad][board.bins[hue]] for pad, hue in board.pads.items() if hue != colour
        ]
        return min(ways, default=_FAR)

    def bound(self, state: _State) -> int:
        """Moves still needed at least: the longest single token's errand, and one drop per token left.

        The token carried needs its walk to a ring that takes it; one on the floor, the walk to it
        and from there to such a ring.
        """
        at, carried, colour, binned, any_used = state
        tokens = self.board.tokens
        left = [i for i in range(len(tokens)) if not binned >> i & 1]
        errands = [
            self.finish(at, colour, any_used)
            if i == carried
            else self.steps[at][tokens[i][0]] + self.finish(tokens[i][0], tokens[i][1], any_used)
            for i in left
        ]
        return max(errands, default=0) + len(left)


_FAR = 10**6  # the bound of a token that no ring can ever take (the search then never ends there)


def _legs(board: _Board, state: _State) -> Iterator[tuple[tuple[Move, ...], _State]]:
    """Every next event from ``state``: picking up a token, painting the one carried, or dropping it."""
    at, carried, colour, binned, any_used = state
    floor = {cell: i for i, (cell, _) in enumerate(board.tokens) if not binned >> i & 1 and i != carried}
    if carried < 0:
        for cell, moves in sorted(board.walk(at, set(), set(floor)).items()):
            i = floor[cell]
            yield moves, (cell, i, board.tokens[i][1], binned, any_used)
        return
    rings = {board.bins[colour]} if colour in board.bins else set()
    if board.any_bin is not None and not any_used:
        rings.add(board.any_bin)
    # A pad of another colour repaints the token: stepping onto one is an event, and ends the walk.
    pads = {cell for cell, hue in board.pads.items() if hue != colour}
    for cell, moves in sorted(board.walk(at, set(floor), rings | pads, frozenset(rings - pads)).items()):
        if cell in pads:
            yield moves, (cell, carried, board.pads[cell], binned, any_used)
        else:
            used = any_used or cell != board.bins.get(colour)
            yield (*moves, _DROP), (cell, -1, -1, binned | 1 << carried, used)


def _unwind(parents: dict[_State, tuple[_State, tuple[Move, ...]] | None], state: _State) -> tuple[Move, ...]:
    legs: list[tuple[Move, ...]] = []
    link = parents[state]
    while link is not None:
        legs.append(link[1])
        link = parents[link[0]]
    return tuple(move for leg in reversed(legs) for move in leg)


def _token(hue: int) -> list[list[int]]:
    return [[-1, hue, -1], [hue, hue, hue], [-1, hue, -1]]


def _ring(hue: int) -> list[list[int]]:
    return [[hue] * 3, [hue, -1, hue], [hue] * 3]


def _frame_colour(hue: int) -> int:
    """The frame colour of a token's colour index (grey for GREY)."""
    return HUES[hue] if hue < GREY else ASH


class _SortGame(GridGame):
    """The engine side of colour-sort: what the player carries is the colour of its middle pixel."""

    def __init__(self, level: Level) -> None:
        board = _Board.read(level)
        size = (level.width, level.height)
        sprites = [layer_sprite(((x, y, STONE) for x, y in board.walls), "walls", size, cell=CELL)]
        for hue, (x, y) in sorted(board.bins.items()):
            sprites.append(
                patch(_ring(HUES[hue]), f"bin{hue}", x, y, cell=CELL).set_interaction(
                    InteractionMode.INTANGIBLE
                )
            )
        for (x, y), hue in sorted(board.pads.items()):
            dots = [[HUES[hue], -1, HUES[hue]], [-1] * 3, [HUES[hue], -1, HUES[hue]]]
            sprites.append(
                patch(dots, f"pad{x}_{y}", x, y, cell=CELL).set_interaction(InteractionMode.INTANGIBLE)
            )
        if board.any_bin is not None:
            black = patch(_ring(BLACK), "any_bin", *board.any_bin, cell=CELL)
            sprites.append(black.set_interaction(InteractionMode.INTANGIBLE))
        for i, ((x, y), hue) in enumerate(board.tokens):
            sprites.append(patch(_token(_frame_colour(hue)), f"token{i}", x, y, cell=CELL, tags=["token"]))
        sprites.append(patch([[PLAYER] * 3] * 3, "player", *board.start, cell=CELL, layer=2))
        self.bins = {cell: HUES[hue] for hue, cell in board.bins.items()}
        self.pads = {cell: HUES[hue] for cell, hue in board.pads.items()}
        self.any_bin = board.any_bin
        super().__init__(
            ColourSort.id,
            sprites,
            size,
            actions=(1, 2, 3, 4, 5),
            cell=CELL,
            background=GROUND,
            letterbox=EDGE,
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step, picking up a token walked onto empty-handed; or drop the token carried into its bin."""
        player = self.sprite("player")
        carried = int(player.pixels[1, 1])
        if action == 5:
            at = self.cell_of(player)
            black = self.current_level.get_sprites_by_name("any_bin")
            if carried != PLAYER and (self.bins.get(at) == carried or (black and at == self.any_bin)):
                if self.bins.get(at) != carried:
                    self.current_level.remove_sprite(black[0])  # the black ring takes one token
                player.pixels[1, 1] = PLAYER
                if not self.current_level.get_sprites_by_tag("token"):
                    self.next_level()
            return True
        dx, dy = DELTAS[action]
        hits = self.try_move_sprite(player, dx * CELL, dy * CELL)
        if len(hits) == 1 and "token" in hits[0].tags and carried == PLAYER:
            player.pixels[1, 1] = int(hits[0].pixels[1, 1])
            self.current_level.remove_sprite(hits[0])
            player.move(dx * CELL, dy * CELL)
        elif not hits and carried != PLAYER and self.cell_of(player) in self.pads:
            player.pixels[1, 1] = self.pads[self.cell_of(player)]  # the pad paints the token carried
        return True
