"""portals: walled-off chambers joined only by pairs of portals; step into one to come out of its twin.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 4-9 the two cells of
portal pair 0-5. The param ``oneway``, when above 0, is a bitmask of the pairs that carry the player
one way only: from the pair's first cell in row-major order (a ring) to its second (drawn as the
ring's four corners and its middle), which is an exit and carries nobody back. The param ``fuel``,
at difficulty 4, is how many actions an attempt may spend (a bar below the maze; see ``engine.py``).

What each difficulty adds: 0 two chambers joined by a pair of portals, and a decoy pair; 1 a third
chamber; 2 a larger maze; 3 a one-way pair that the shortest way, were it two-way, would take
backwards; 4 fuel.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, fuelled, knobs_at, retry
from .engine import DELTAS, FUEL_RULE, GridGame, block, layer_sprite, patch
from .exits import EXIT, FLOOR, START, WALL, Walk, walk_ends
from .layouts import Cell, Grid, carve_maze, distances, ordered, passable
from .mazes import maze_rooms, open_loops
from .search import bfs

__all__ = ["Portals"]

PAIRS = tuple(range(4, 10))
# Frame colours: red, yellow, purple, orange, magenta and light blue portal rings.
HUES = (8, 11, 15, 12, 6, 10)
PLAYER, GOAL, STONE, GROUND, EDGE = 9, 14, 3, 0, 4
CELL = 3  # pixels per cell: a portal is a ring the player can stand in


Box = tuple[int, int, int, int]  # a chamber's inner cells: x0, y0, x1, y1 (inclusive)


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the maze is rooms x rooms, on a (2 rooms + 1)-cell square grid
    chambers: int  # parts the maze is walled into
    extra: int  # portal pairs besides the ones a tree over the chambers needs
    loops: int  # openings inside a chamber that make alternative routes
    shortest: int  # fewest moves a served level needs
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)
    oneway: bool = False  # whether a pair is one-way, and the route it would shorten barred


_KNOBS = (
    _Knobs(4, 2, 1, 1, 8),
    _Knobs(4, 3, 1, 2, 9),
    _Knobs(5, 3, 2, 3, 11),
    _Knobs(5, 4, 2, 4, 13, oneway=True),
    _Knobs(5, 4, 2, 4, 13, spare=4, oneway=True),
)


@dataclass(frozen=True)
class _Layout(Walk):
    twin: dict[Cell, Cell]  # each portal cell that carries the player to where it carries it
    pairs: tuple[tuple[Cell, Cell, int], ...]  # (cell, cell, pair number)
    exits: frozenset[Cell]  # the second cells of one-way pairs, which carry nobody

    @classmethod
    def read(cls, level: Level) -> _Layout:
        ends = [(level.cells(code), p) for p, code in enumerate(PAIRS)]
        pairs = tuple((cells[0], cells[1], p) for cells, p in ends if cells)
        oneway = level.param("oneway", 0)
        exits = frozenset(b for _, b, p in pairs if oneway >> p & 1)
        twin = {a: b for a, b, _ in pairs} | {b: a for a, b, _ in pairs if b not in exits}
        return cls(*walk_ends(level), twin, pairs, exits)


class Portals:
    """The portals game (see the module docstring for its level legend)."""

    id = "portals"
    title = "Portals"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it, and they split the room into chambers. Portals come in pairs, "
        "two rings of one colour. Stepping into a ring shows the player in it for a frame, then moves "
        "it to the other ring of that colour; standing in a ring does nothing until the player steps "
        "out and in again. A portal drawn as five dots instead of a ring is where a one-way pair comes "
        "out: stepping into it carries the player nowhere. The level is won when the player reaches "
        "the green exit." + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 2_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 4 or 5 rooms a side walled into 2 to 4 chambers, with 1 or 2 extra portal pairs.

        Pairs of portals join the chambers in a random tree, and the exit is in the chamber farthest
        from the start's along it; the extra pairs and the tree's other branches lead elsewhere.
        A few openings inside each chamber (1 to 4 in all) give its maze loops. From difficulty 3
        one pair is one-way, and a level is served only when the shortest way to the exit, were that
        pair two-way, would go through it backwards. At difficulty 4 the level has fuel: 4 actions
        beyond the fewest.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40 if knobs.oneway else 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, WALL, FLOOR)
        chambers = _wall_off(rng, grid, knobs.chambers)
        open_loops(rng, grid, WALL, FLOOR, (), knobs.loops)
        order = rng.sample(range(len(chambers)), len(chambers))
        links = [(order[rng.randrange(i)], order[i]) for i in range(1, len(order))]
        links += [(rng.randrange(len(chambers)), rng.randrange(len(chambers))) for _ in range(knobs.extra)]
        rooms = [ordered(rooms) for rooms in chambers]
        taken: list[Cell] = []
        for pair, (a, b) in enumerate(links):
            for chamber in (a, b):
                x, y = _spot(rng, rooms[chamber], taken)
                grid[y][x] = PAIRS[pair]
        depth = _tree_depths(links[: len(chambers) - 1], order[0])
        last = rng.choice([c for c in sorted(depth) if depth[c] == max(depth.values())])
        start = _spot(rng, _far_rooms(grid, rooms[order[0]]), taken)
        exit_ = _spot(rng, _far_rooms(grid, rooms[last]), taken)
        grid[start[1]][start[0]] = START
        grid[exit_[1]][exit_[0]] = EXIT
        level = Level.make(self.id, grid)
        plan = self.solve(level, self.budget)
        if plan is not None and knobs.oneway:
            level, plan = self._one_way(rng, grid, len(plan))
        if plan is None or len(plan) < knobs.shortest:
            raise RejectLevel(f"the exit is fewer than {knobs.shortest} moves away")
        return fuelled(level, plan, knobs.spare)

    def _one_way(self, rng: random.Random, grid: Grid, two_way: int) -> tuple[Level, tuple[Move, ...]]:
        """The level with one pair made one-way, chosen so the shortest way grows but stays open."""
        pairs = sorted({code - PAIRS[0] for row in grid for code in row if code in PAIRS})
        for pair in rng.sample(pairs, len(pairs)):
            level = Level.make(self.id, grid, oneway=1 << pair)
            plan = self.solve(level, self.budget)
            if plan is not None and len(plan) > two_way:
                return level, plan
        raise RejectLevel("no one-way pair bars the shortest way and leaves the exit reachable")

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a trip through a portal is an animation of two frames."""
        return _PortalsGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over the player's cell."""
        layout = _Layout.read(level)

        def successors(cell: Cell) -> Iterator[tuple[Move, Cell]]:
            for action, (dx, dy) in DELTAS.items():
                step = (cell[0] + dx, cell[1] + dy)
                if step not in layout.walls:
                    yield ARROWS[action], layout.twin.get(step, step)

        return bfs(layout.start, successors, lambda cell: cell == layout.exit, budget)


def _wall_off(rng: random.Random, grid: Grid, chambers: int) -> list[list[Cell]]:
    """Wall up passages of a perfect maze until it falls into ``chambers`` parts; their rooms.

    Walling up one passage of a perfect maze splits one part in two; a passage is only walled up
    when both halves keep a fair share of the rooms, so that each part has room for its portals.
    """
    side = len(grid)
    rooms = maze_rooms(grid)
    least = len(rooms) // (chambers + 2)
    passages = [
        (x, y)
        for y in range(1, side - 1)
        for x in range(1, side - 1)
        if x % 2 != y % 2 and grid[y][x] == FLOOR
    ]
    cuts = 0
    for x, y in rng.sample(passages, len(passages)):
        if cuts == chambers - 1:
            break
        grid[y][x] = WALL
        a, b = ((x - 1, y), (x + 1, y)) if x % 2 == 0 else ((x, y - 1), (x, y + 1))
        halves = [_rooms_of(grid, a), _rooms_of(grid, b)]
        if min(len(half) for half in halves) >= least:
            cuts += 1
        else:
            grid[y][x] = FLOOR
    parts: list[list[Cell]] = []
    for room in rooms:
        if not any(room in part for part in parts):
            parts.append(_rooms_of(grid, room))
    if len(parts) < chambers:
        raise RejectLevel("the maze would not split fairly")
    return parts


def _rooms_of(grid: Grid, room: Cell) -> list[Cell]:
    """The rooms (cells at odd x and y) joined to ``room``, in row-major order."""
    side = len(grid)
    reach = distances(room, passable(grid, WALL), side, side)
    return [c for c in ordered(reach) if c[0] % 2 == 1 and c[1] % 2 == 1]


def _far_rooms(grid: Grid, rooms: list[Cell]) -> list[Cell]:
    """The third of a chamber's rooms farthest from its nearest portal (all of them, if it has none)."""
    side = len(grid)
    portals = [room for room in rooms if grid[room[1]][room[0]] in PAIRS]
    if not portals:
        return rooms
    reach = [distances(p, passable(grid, WALL), side, side) for p in portals]
    gap = {room: min(r[room] for r in reach) for room in rooms if room not in portals}
    return sorted(gap, key=lambda room: (-gap[room], room))[: max(1, len(gap) // 3)]


def _spot(rng: random.Random, rooms: list[Cell], taken: list[Cell]) -> Cell:
    """A room of a chamber that holds nothing yet."""
    options = [room for room in rooms if room not in taken]
    if not options:
        raise RejectLevel("a chamber is full")
    room = rng.choice(options)
    taken.append(room)
    return room


def _tree_depths(links: list[tuple[int, int]], root: int) -> dict[int, int]:
    """How many links each chamber is from the root chamber."""
    depth = {root: 0}
    while len(depth) < len(links) + 1:
        for a, b in links:
            if a in depth and b not in depth:
                depth[b] = depth[a] + 1
            elif b in depth and a not in depth:
                depth[a] = depth[b] + 1
    return depth


class _PortalsGame(GridGame):
    """The engine side of portals: a step into a ring, then a frame later the jump to its twin."""

    def __init__(self, level: Level) -> None:
        layout = _Layout.read(level)
        size = (level.width, level.height)
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in layout.walls), "walls", size, cell=CELL),
            block(GOAL, "exit", *layout.exit, cell=CELL, tags=["exit"]).set_interaction(
                InteractionMode.INTANGIBLE
            ),
            block(PLAYER, "player", *layout.start, cell=CELL, layer=2),
        ]
        for a, b, pair in layout.pairs:
            hue = HUES[pair]
            ring = [[hue, hue, hue], [hue, -1, hue], [hue, hue, hue]]
            dots = [[hue, -1, hue], [-1, hue, -1], [hue, -1, hue]]  # a one-way pair's exit
            for end, (x, y) in enumerate((a, b)):
                shape = dots if (x, y) in layout.exits else ring
                portal = patch(shape, f"portal{pair}{end}", x, y, cell=CELL, tags=["portal"])
                sprites.append(portal.set_interaction(InteractionMode.INTANGIBLE))
        self.twin = layout.twin
        super().__init__(
            Portals.id,
            sprites,
            size,
            actions=(1, 2, 3, 4),
            cell=CELL,
            background=GROUND,
            letterbox=EDGE,
            fuel=level.param("fuel", 0),
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start has no jump pending."""
        self.jumping = False

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step; on entering a portal, ask for one more frame and jump to its twin in it."""
        player = self.sprite("player")
        if self.jumping:
            self.jumping = False
            self.move_to(player, *self.twin[self.cell_of(player)])
            return True
        dx, dy = DELTAS[action]
        if self.try_move_sprite(player, dx * CELL, dy * CELL):
            return True
        here = self.cell_of(player)
        if here == self.cell_of(self.sprite("exit")):
            self.next_level()
            return True
        self.jumping = here in self.twin
        return not self.jumping
