"""keys-doors: walk a maze, pick up keys, open the doors of their colour, reach the exit.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 4-6 a key of colour
0-2, 7-9 a door of colour 0-2.

Each difficulty adds an element the one before lacks:

- 0: one key and its door on the way to the exit.
- 1: a decoy door of the key's colour, off the way, before the real one: a key spent on it is lost,
  and with it the level (and loops, ways round inside the maze).
- 2: a second colour: a second door, whose key lies behind the first.
- 3: a third colour, and so three doors to open in turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, block, layer_sprite, patch
from .exits import EXIT, FLOOR, START, WALL, Walk, walk_ends
from .layouts import Cell, carve_maze, distances, ordered, passable
from .mazes import maze_way, open_loops, place_in_turn, start_and_exit
from .search import bfs

__all__ = ["KeysDoors"]

KEYS, DOORS = (4, 5, 6), (7, 8, 9)
# Frame colours: yellow, red and purple keys and doors; blue player, green exit, grey walls.
HUES = (11, 8, 15)
PLAYER, GOAL, STONE, GROUND, EDGE = 9, 14, 2, 5, 4
CELL = 2  # pixels per cell, so a key (two dots) and a door (solid) look different


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the maze is rooms x rooms, on a (2 rooms + 1)-cell square grid
    doors: int  # doors on the way to the exit, each with its key
    loops: int  # extra openings that make alternative routes (never around a door)
    decoys: int = 0  # doors of the first key's colour off the way, before the first door


_KNOBS = (_Knobs(4, 1, 0), _Knobs(5, 1, 2, 1), _Knobs(6, 2, 3, 1), _Knobs(7, 3, 5, 1))


@dataclass(frozen=True)
class _Layout(Walk):
    keys: tuple[tuple[Cell, int], ...]  # (cell, colour)
    doors: tuple[tuple[Cell, int], ...]

    @classmethod
    def read(cls, level: Level) -> _Layout:
        keys = tuple((cell, c) for c, code in enumerate(KEYS) for cell in level.cells(code))
        doors = tuple((cell, c) for c, code in enumerate(DOORS) for cell in level.cells(code))
        return cls(*walk_ends(level), keys, doors)


# The abstract state: (x, y, bitmask of keys taken, bitmask of doors opened).
_State = tuple[int, int, int, int]


class KeysDoors:
    """The keys-doors game (see the module docstring for its level legend)."""

    id = "keys-doors"
    title = "Keys and doors"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. Walking onto a dotted key picks it up, and the keys carried are "
        "shown in the strip below the maze. A solid door of a key's colour blocks the way until the "
        "player walks into it carrying such a key: the door then opens, the player steps into its "
        "cell, and the key is used up, whichever door of its colour it opened. The level is won when "
        "the player reaches the green exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 4 + difficulty rooms a side with 1, 1, 2 or 3 doors and 0, 2, 3 or 5 loops.

        From difficulty 1 a decoy door of the first key's colour stands in a passage off the way to
        the exit, on the start's side of the first door; a level it cuts off from a key is rejected.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, WALL, FLOOR)
        start, exit_ = start_and_exit(rng, grid, WALL)
        path = maze_way(grid, WALL, start, exit_)
        # Doors go in the passages between rooms, so a door always blocks a corridor.
        # Not right beside the start: the first key needs somewhere to be.
        passages = [i for i, (x, y) in enumerate(path) if (x % 2) != (y % 2) and i >= 3]
        if len(passages) < knobs.doors:
            raise RejectLevel("the path to the exit is too short for its doors")
        door_cells = [path[i] for i in sorted(rng.sample(passages, knobs.doors))]
        hues = rng.sample(range(len(HUES)), knobs.doors)
        # A key per door, the i-th behind the (i-1)-th door, so the keys are fetched in order.
        key_cells = place_in_turn(
            rng,
            grid,
            WALL,
            start,
            door_cells,
            lambda c, keys: c not in (start, exit_, *keys, *door_cells),
            "no room for a key before its door",
        )
        open_loops(rng, grid, WALL, FLOOR, door_cells, knobs.loops)
        grid[start[1]][start[0]] = START
        grid[exit_[1]][exit_[0]] = EXIT
        for (dx, dy), (kx, ky), hue in zip(door_cells, key_cells, hues, strict=True):
            grid[dy][dx] = DOORS[hue]
            grid[ky][kx] = KEYS[hue]
        if not knobs.decoys:
            return Level.make(self.id, grid)
        # A decoy goes in a passage off the way, on the start's side of the first door.
        side = len(grid)
        before = distances(start, passable(grid, WALL, door_cells), side, side)
        spots = [
            (x, y)
            for x, y in ordered(before)
            if x % 2 != y % 2 and grid[y][x] == FLOOR and (x, y) not in path
        ]
        if len(spots) < knobs.decoys:
            raise RejectLevel("no passage off the way for a decoy door")
        for x, y in rng.sample(spots, knobs.decoys):
            grid[y][x] = DOORS[hues[0]]
        level = Level.make(self.id, grid)
        if self.solve(level, self.budget) is None:
            raise RejectLevel("a decoy door shuts the way to a key")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the maze, with a one-cell strip below it that shows the keys carried."""
        return _KeysDoorsGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest plan, by breadth-first search over (cell, keys taken, doors opened)."""
        layout = _Layout.read(level)
        key_at = {cell: i for i, (cell, _) in enumerate(layout.keys)}
        door_at = {cell: i for i, (cell, _) in enumerate(layout.doors)}

        def carried(state: _State, hue: int) -> int:
            taken = sum(1 for i, (_, h) in enumerate(layout.keys) if h == hue and state[2] >> i & 1)
            used = sum(1 for i, (_, h) in enumerate(layout.doors) if h == hue and state[3] >> i & 1)
            return taken - used

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            x, y, taken, opened = state
            for action, (dx, dy) in DELTAS.items():
                cell = (x + dx, y + dy)
                if cell in layout.walls:
                    continue
                door = door_at.get(cell)
                now_opened = opened
                if door is not None and not opened >> door & 1:
                    if carried(state, layout.doors[door][1]) <= 0:
                        continue  # a shut door without its key is a wall
                    now_opened |= 1 << door
                key = key_at.get(cell)
                now_taken = taken | (1 << key) if key is not None else taken
                yield ARROWS[action], (cell[0], cell[1], now_taken, now_opened)

        start: _State = (layout.start[0], layout.start[1], 0, 0)
        return bfs(start, successors, lambda s: (s[0], s[1]) == layout.exit, budget)


class _KeysDoorsGame(GridGame):
    """The engine side of keys-doors: sprites for walls, exit, keys, doors, player and the strip."""

    def __init__(self, level: Level) -> None:
        layout = _Layout.read(level)
        width, height = level.width, level.height
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in layout.walls), "walls", (width, height), cell=CELL),
            block(GOAL, "exit", *layout.exit, cell=CELL, tags=["exit"]),
            block(PLAYER, "player", *layout.start, cell=CELL, layer=3),
        ]
        for i, ((x, y), hue) in enumerate(layout.keys):
            dots = [[HUES[hue], -1], [-1, HUES[hue]]]
            sprites.append(patch(dots, f"key{i}", x, y, cell=CELL, tags=["key", f"hue{hue}"]))
        for i, ((x, y), hue) in enumerate(layout.doors):
            sprites.append(block(HUES[hue], f"door{i}", x, y, cell=CELL, tags=["door", f"hue{hue}"]))
        self.rows = height
        super().__init__(
            KeysDoors.id,
            sprites,
            (width, height + 1),
            actions=(1, 2, 3, 4),
            cell=CELL,
            background=GROUND,
            letterbox=EDGE,
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start carries no keys."""
        self.carried = [0] * len(HUES)

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player, resolving what it walks into."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        hits = self.try_move_sprite(player, dx * CELL, dy * CELL)
        if not hits:
            return True
        if any(s.name == "walls" for s in hits):
            return True
        target = hits[0]
        hue = next((int(t[3:]) for t in target.tags if t.startswith("hue")), -1)
        if "door" in target.tags:
            if self.carried[hue] <= 0:
                return True
            self.carried[hue] -= 1
            self.current_level.remove_sprite(target)
        elif "key" in target.tags:
            self.carried[hue] += 1
            self.current_level.remove_sprite(target)
        player.move(dx * CELL, dy * CELL)
        self._show_carried()
        if "exit" in target.tags:
            self.next_level()
        return True

    def _show_carried(self) -> None:
        for sprite in self.current_level.get_sprites_by_tag("strip"):
            self.current_level.remove_sprite(sprite)
        slot = 0
        for hue, count in enumerate(self.carried):
            for _ in range(count):
                dots = [[HUES[hue], -1], [-1, HUES[hue]]]
                mark: Sprite = patch(dots, f"carried{slot}", slot, self.rows, cell=CELL, tags=["strip"])
                mark.set_collidable(False)
                self.current_level.add_sprite(mark)
                slot += 1
