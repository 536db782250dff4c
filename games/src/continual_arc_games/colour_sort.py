"""colour-sort: carry coloured tokens, one at a time, into the bins of their colour.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3-5 a token of colour 0-2, 6-8 the
bin of colour 0-2 (one per colour in use).
"""

from __future__ import annotations

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
TOKENS, BINS = (3, 4, 5), (6, 7, 8)
# Frame colours: red, green and purple tokens and bins; a blue player on white ground.
HUES = (8, 14, 15)
PLAYER, STONE, GROUND, EDGE = 9, 3, 0, 4
CELL = 3  # pixels per cell: a token is a plus, a bin a ring, the token carried the player's middle

_DROP = Move(USE)


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    hues: int  # colours in use, each with one bin
    tokens: int  # tokens in all, every colour at least once
    walls: int  # inner wall cells
    shortest: int  # fewest moves a served level needs


_KNOBS = (
    _Knobs(6, 2, 2, 1, 8),
    _Knobs(7, 2, 3, 3, 14),
    _Knobs(7, 3, 3, 4, 18),
    _Knobs(7, 3, 5, 5, 24),
)


@dataclass(frozen=True)
class _Board:
    walls: frozenset[Cell]
    start: Cell
    tokens: tuple[tuple[Cell, int], ...]  # (cell, colour), in row-major order within each colour
    bins: dict[int, Cell]  # colour to its bin's cell

    @classmethod
    def read(cls, level: Level) -> _Board:
        tokens = tuple((cell, c) for c, code in enumerate(TOKENS) for cell in level.cells(code))
        bins = {c: level.cells(code)[0] for c, code in enumerate(BINS) if level.cells(code)}
        return cls(frozenset(level.cells(WALL)), level.cells(START)[0], tokens, bins)

    def walk(self, start: Cell, blocked: set[Cell], goals: set[Cell]) -> dict[Cell, tuple[Move, ...]]:
        """The moves of a shortest walk from ``start`` to each goal it can reach.

        Walks never cross ``blocked`` cells or another goal: entering a goal ends the walk.
        """
        came: dict[Cell, tuple[Cell, Move] | None] = {start: None}
        queue = deque([start])
        while queue:
            x, y = queue.popleft()
            for action, (dx, dy) in DELTAS.items():
                cell = (x + dx, y + dy)
                if cell in came or cell in self.walls or cell in blocked:
                    continue
                came[cell] = ((x, y), ARROWS[action])
                if cell not in goals:
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


# The state between two events: (where the player is, the token carried or -1, bitmask binned).
_State = tuple[Cell, int, int]


class ColourSort:
    """The colour-sort game (see the module docstring for its level legend)."""

    id = "colour-sort"
    title = "Sort the tokens"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. Walking onto a coloured plus picks that token up when the "
        "player's hands are empty, and its colour then shows in the player's middle; while carrying "
        "a token, other tokens stop the player like walls. ACTION5 drops the token carried into the "
        "ring the player stands on, if the ring is the token's colour; anywhere else it does nothing. "
        "The level is won when every token is in a ring of its colour."
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 6 or 7 cells a side, 2 or 3 colours, 2 to 5 tokens, 1 to 5 walls, 8 to 24 moves."""
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = bordered_room(knobs.side, knobs.side, WALL, FLOOR)
        inside = ordered((x, y) for y in range(1, knobs.side - 1) for x in range(1, knobs.side - 1))
        picks = rng.sample(inside, knobs.walls + 1 + knobs.hues + knobs.tokens)
        hues = [h % knobs.hues for h in range(knobs.tokens)]
        codes = [WALL] * knobs.walls + [START] + list(BINS[: knobs.hues]) + [TOKENS[h] for h in hues]
        for (x, y), code in zip(picks, codes, strict=True):
            grid[y][x] = code
        floor = [c for c in inside if grid[c[1]][c[0]] != WALL]
        if len(distances(floor[0], passable(grid, WALL), knobs.side, knobs.side)) != len(floor):
            raise RejectLevel("the inner walls cut the room in two")
        level = Level.make(self.id, grid)
        long_plan(self, level, knobs.shortest)
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
        start: _State = (board.start, -1, 0)
        best = {start: 0}
        parents: dict[_State, tuple[_State, tuple[Move, ...]] | None] = {start: None}
        heap = [(far.bound(start), 0, 0, start)]
        pushed = expanded = 0
        while heap and expanded < budget:
            _, cost, _, state = heapq.heappop(heap)
            if cost > best[state]:
                continue  # reached more cheaply since
            if state[2] == done:
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
        spots = [board.start, *(cell for cell, _ in board.tokens), *board.bins.values()]
        self.steps = {spot: distances(spot, lambda c: c not in board.walls, width, height) for spot in spots}

    def bound(self, state: _State) -> int:
        """Moves still needed at least: the farthest token's trip, and one drop per token left."""
        at, carried, binned = state
        tokens = self.board.tokens
        left = [i for i in range(len(tokens)) if not binned >> i & 1]
        if carried >= 0:
            bin_cell = self.board.bins[tokens[carried][1]]
            lead, at = self.steps[at][bin_cell], bin_cell
        else:
            lead = 0
        trips = [
            self.steps[at][tokens[i][0]] + self.steps[tokens[i][0]][self.board.bins[tokens[i][1]]]
            for i in left
            if i != carried
        ]
        return lead + max(trips, default=0) + len(left)


def _legs(board: _Board, state: _State) -> Iterator[tuple[tuple[Move, ...], _State]]:
    """Every next event from ``state``: picking up a token on the floor, or dropping the one carried."""
    at, carried, binned = state
    floor = {cell: i for i, (cell, _) in enumerate(board.tokens) if not binned >> i & 1 and i != carried}
    if carried < 0:
        for cell, moves in sorted(board.walk(at, set(), set(floor)).items()):
            yield moves, (cell, floor[cell], binned)
        return
    bin_cell = board.bins[board.tokens[carried][1]]
    to_bin = board.walk(at, set(floor), {bin_cell}).get(bin_cell)
    if to_bin is not None:
        yield (*to_bin, _DROP), (bin_cell, -1, binned | 1 << carried)


def _unwind(parents: dict[_State, tuple[_State, tuple[Move, ...]] | None], state: _State) -> tuple[Move, ...]:
    legs: list[tuple[Move, ...]] = []
    link = parents[state]
    while link is not None:
        legs.append(link[1])
        link = parents[link[0]]
    return tuple(move for leg in reversed(legs) for move in leg)


def _token(hue: int) -> list[list[int]]:
    return [[-1, hue, -1], [hue, hue, hue], [-1, hue, -1]]


class _SortGame(GridGame):
    """The engine side of colour-sort: what the player carries is the colour of its middle pixel."""

    def __init__(self, level: Level) -> None:
        board = _Board.read(level)
        size = (level.width, level.height)
        sprites = [layer_sprite(((x, y, STONE) for x, y in board.walls), "walls", size, cell=CELL)]
        for hue, (x, y) in sorted(board.bins.items()):
            ring = [[HUES[hue]] * 3, [HUES[hue], -1, HUES[hue]], [HUES[hue]] * 3]
            sprites.append(
                patch(ring, f"bin{hue}", x, y, cell=CELL).set_interaction(InteractionMode.INTANGIBLE)
            )
        for i, ((x, y), hue) in enumerate(board.tokens):
            sprites.append(patch(_token(HUES[hue]), f"token{i}", x, y, cell=CELL, tags=["token"]))
        sprites.append(patch([[PLAYER] * 3] * 3, "player", *board.start, cell=CELL, layer=2))
        self.bins = {cell: HUES[hue] for hue, cell in board.bins.items()}
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
            if carried != PLAYER and self.bins.get(self.cell_of(player)) == carried:
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
        return True
