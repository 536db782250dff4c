"""bridge-switches: stepping onto a switch raises or lowers every gate of its colour; reach the exit.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 4-6 a switch of colour
0-2, 7-9 a gate of colour 0-2 that starts raised (shut), 10-12 a gate of colour 0-2 that starts
lowered (open), 13-18 a linked switch that flips two colours: its own c and another o, in the order
(c, o) = (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1).

What each difficulty adds: 0 a switch and its gate; 1 a second colour; 2 a lowered gate on the way
that the first colour's press raises, and a second switch of that colour past its gate to lower it
again; 3 a third colour, whose switch is linked to another colour's gates.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, block, layer_sprite, patch
from .exits import EXIT, FLOOR, START, WALL, Walk, walk_ends
from .layouts import Cell, carve_maze
from .mazes import maze_way, open_loops, place_in_turn, start_and_exit
from .search import bfs

__all__ = ["BridgeSwitches"]

SWITCHES, RAISED, LOWERED = (4, 5, 6), (7, 8, 9), (10, 11, 12)
PAIRS = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))  # a linked switch's colours, code 13 + index
LINKED = tuple(range(13, 13 + len(PAIRS)))
# Frame colours: red, yellow and magenta switches and gates; blue player, green exit, grey walls.
HUES = (8, 11, 6)
PLAYER, GOAL, STONE, GROUND, EDGE = 9, 14, 2, 5, 4
CELL = 3  # pixels per cell: a raised gate is solid, a lowered one four corner dots, a switch a plus

_STEP = {move: DELTAS[action] for action, move in ARROWS.items()}


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the maze is rooms x rooms, on a (2 rooms + 1)-cell square grid
    hues: int  # colours, each with one switch and one raised gate on the way to the exit
    extra: int  # more gates of random colours and states, anywhere
    loops: int  # openings between rooms that bypass no raised gate
    presses: int  # fewest switch presses a served level's shortest plan makes
    shortest: int  # fewest moves a served level needs
    relock: bool  # a lowered gate of colour 0 on the way, and a second switch of colour 0 before it
    linked: bool  # the last colour's switch flips another colour's gates as well


_KNOBS = (
    _Knobs(4, 1, 1, 2, 1, 8, False, False),
    _Knobs(5, 2, 1, 2, 2, 12, False, False),
    _Knobs(5, 2, 3, 3, 3, 16, True, False),
    _Knobs(6, 3, 3, 4, 4, 20, True, True),
)


@dataclass(frozen=True)
class _Layout(Walk):
    switches: dict[Cell, int]  # cell to the colours it flips, as a bit mask
    gates: dict[Cell, tuple[int, bool]]  # cell to (colour, raised at the start)

    @classmethod
    def read(cls, level: Level) -> _Layout:
        switches = {cell: 1 << c for c, code in enumerate(SWITCHES) for cell in level.cells(code)}
        switches |= {
            cell: 1 << c | 1 << o
            for (c, o), code in zip(PAIRS, LINKED, strict=True)
            for cell in level.cells(code)
        }
        gates = {cell: (c, True) for c, code in enumerate(RAISED) for cell in level.cells(code)}
        gates |= {cell: (c, False) for c, code in enumerate(LOWERED) for cell in level.cells(code)}
        return cls(*walk_ends(level), switches, gates)

    def plan(self, budget: int, inert: bool = False) -> tuple[Move, ...] | None:
        """A shortest plan over (x, y, colours toggled); with ``inert``, switches do nothing."""

        def successors(state: tuple[int, int, int]) -> Iterator[tuple[Move, tuple[int, int, int]]]:
            x, y, toggled = state
            for action, (dx, dy) in DELTAS.items():
                cell = (x + dx, y + dy)
                if cell in self.walls:
                    continue
                gate = self.gates.get(cell)
                # A gate is shut when it started raised and its colour was toggled an even number of
                # times, or started lowered and was toggled an odd number.
                if gate is not None and gate[1] != bool(toggled >> gate[0] & 1):
                    continue
                after = toggled if inert else toggled ^ self.switches.get(cell, 0)
                yield ARROWS[action], (cell[0], cell[1], after)

        return bfs((*self.start, 0), successors, lambda s: (s[0], s[1]) == self.exit, budget)


class BridgeSwitches:
    """The bridge-switches game (see the module docstring for its level legend)."""

    id = "bridge-switches"
    title = "Switches and gates"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. Gates of a colour are either raised (a solid block, which stops "
        "the player) or lowered (four corner dots, which it walks over). Each time the player steps "
        "onto a switch (a plus sign), every gate of the switch's colour flips: raised ones lower and "
        "lowered ones rise. A switch whose middle is another colour flips the gates of both its "
        "colours. Standing on the switch does nothing more; it must be left and entered again. The "
        "level is won when the player reaches the green exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 4 to 6 rooms a side with 2 to 4 loops, 1 to 3 colours and 1 to 3 more gates.

        Each colour has a switch and a raised gate on the way to the exit, the switch reached before
        its gate; the other gates go anywhere, raised or lowered. From difficulty 2 a lowered gate of
        the first colour lies on the way past that colour's raised gate, with a second switch of the
        colour between them, and the shortest plan presses the colour twice; at difficulty 3 the
        last colour's switch also flips another colour. A served level cannot be won without
        pressing switches, needs 8 to 20 moves, and its shortest plan presses 1 to 4 times.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, WALL, FLOOR)
        side = len(grid)
        start, exit_ = start_and_exit(rng, grid, WALL)
        way = maze_way(grid, WALL, start, exit_)
        # Raised gates in the passages of the way (never right beside the start), in order along it.
        passages = [i for i, (x, y) in enumerate(way) if x % 2 != y % 2 and i >= 3]
        if len(passages) < knobs.hues + knobs.relock:
            raise RejectLevel("the way to the exit is too short for its gates")
        gates = [way[i] for i in sorted(rng.sample(passages, knobs.hues + knobs.relock))]
        # Each gate's colour and whether it starts raised, in order along the way: the first is colour
        # 0's; the lowered one of colour 0 (if any) goes anywhere after it, the others in turn.
        kinds = [(hue, True) for hue in range(knobs.hues)]
        if knobs.relock:
            kinds.insert(1 + rng.randrange(knobs.hues), (0, False))
        # A switch per gate, in a room the gate before it opens up, so they are pressed in turn.
        switches = place_in_turn(
            rng,
            grid,
            WALL,
            start,
            gates,
            lambda c, placed: c[0] % 2 == 1 and c[1] % 2 == 1 and c not in (start, exit_, *placed),
            "no room for a switch before its gate",
        )
        open_loops(rng, grid, WALL, FLOOR, gates, knobs.loops)
        others = [
            (x, y)
            for y in range(1, side - 1)
            for x in range(1, side - 1)
            if x % 2 != y % 2 and grid[y][x] == FLOOR and (x, y) not in gates
        ]
        for x, y in rng.sample(others, knobs.extra):
            grid[y][x] = rng.choice((RAISED, LOWERED))[rng.randrange(knobs.hues)]
        for (hue, raised), (gx, gy), (sx, sy) in zip(kinds, gates, switches, strict=True):
            grid[gy][gx] = (RAISED if raised else LOWERED)[hue]
            grid[sy][sx] = SWITCHES[hue]
        if knobs.linked:  # the last colour's switch flips another colour too
            sx, sy = switches[kinds.index((knobs.hues - 1, True))]
            other = rng.choice([hue for hue in range(knobs.hues) if hue != knobs.hues - 1])
            grid[sy][sx] = LINKED[PAIRS.index((knobs.hues - 1, other))]
        grid[start[1]][start[0]] = START
        grid[exit_[1]][exit_[0]] = EXIT
        return _check(Level.make(self.id, grid), knobs, self.budget)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: gates are sprites whose pixels and solidity a switch flips."""
        return _BridgeGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest plan, by breadth-first search over (cell, colours toggled an odd number of times)."""
        return _Layout.read(level).plan(budget)


def _check(level: Level, knobs: _Knobs, budget: int) -> Level:
    """The level, if it needs its switches, enough presses and enough moves; else RejectLevel."""
    layout = _Layout.read(level)
    plan = layout.plan(budget)
    if plan is None:
        raise RejectLevel("the exit cannot be reached")
    if len(plan) < knobs.shortest:
        raise RejectLevel(f"solved in {len(plan)} moves, fewer than {knobs.shortest}")
    if layout.plan(budget, inert=True) is not None:
        raise RejectLevel("the exit can be reached without a switch")
    x, y = layout.start
    presses = firsts = 0
    for move in plan:
        dx, dy = _STEP[move]
        x, y = x + dx, y + dy
        presses += (x, y) in layout.switches
        firsts += layout.switches.get((x, y), 0) & 1
    if presses < knobs.presses:
        raise RejectLevel(f"solved with {presses} presses, fewer than {knobs.presses}")
    if knobs.relock and firsts < 2:
        raise RejectLevel("the shortest plan flips the first colour only once")
    return level


def _colours(code: int) -> tuple[int, int]:
    """A switch's own colour (its arms) and the colour it also flips (its middle; its own if none)."""
    if code in LINKED:
        return PAIRS[LINKED.index(code)]
    hue = SWITCHES.index(code)
    return hue, hue


def _gate_pixels(hue: int, raised: bool) -> list[list[int]]:
    if raised:
        return [[hue] * CELL for _ in range(CELL)]
    return [[hue, -1, hue], [-1, -1, -1], [hue, -1, hue]]


class _BridgeGame(GridGame):
    """The engine side of bridge-switches."""

    def __init__(self, level: Level) -> None:
        layout = _Layout.read(level)
        size = (level.width, level.height)
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in layout.walls), "walls", size, cell=CELL),
            block(GOAL, "exit", *layout.exit, cell=CELL).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *layout.start, cell=CELL, layer=2),
        ]
        for i, ((x, y), mask) in enumerate(sorted(layout.switches.items())):
            hue, other = _colours(level.grid[y][x])
            arm, middle = HUES[hue], HUES[other]
            plus = [[-1, arm, -1], [arm, middle, arm], [-1, arm, -1]]
            tags = ["switch", *(f"hue{c}" for c in range(len(HUES)) if mask >> c & 1)]
            switch = patch(plus, f"switch{i}", x, y, cell=CELL, tags=tags)
            sprites.append(switch.set_interaction(InteractionMode.INTANGIBLE))
        for i, ((x, y), (hue, raised)) in enumerate(sorted(layout.gates.items())):
            gate = patch(
                _gate_pixels(HUES[hue], raised), f"gate{i}", x, y, cell=CELL, tags=["gate", f"hue{hue}"]
            )
            sprites.append(gate if raised else gate.set_interaction(InteractionMode.INTANGIBLE))
        super().__init__(
            BridgeSwitches.id,
            sprites,
            size,
            actions=(1, 2, 3, 4),
            cell=CELL,
            background=GROUND,
            letterbox=EDGE,
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player; on entering a switch, flip every gate of its colour (or two colours)."""
        player, stopped = self.step_player(action)
        if stopped:
            return True  # a wall or a raised gate
        here = self.cell_of(player)
        if here == self.cell_of(self.sprite("exit")):
            self.next_level()
            return True
        for switch in self.current_level.get_sprites_by_tag("switch"):
            if self.cell_of(switch) == here:
                for hue in (tag for tag in switch.tags if tag.startswith("hue")):
                    for gate in self.current_level.get_sprites_by_tag(hue):
                        if "gate" in gate.tags:
                            _flip(gate)
        return True


def _flip(gate: Sprite) -> None:
    """Raise a lowered gate or lower a raised one: its look and whether it stops the player."""
    hue = int(gate.pixels.max())
    raised = not gate.is_collidable
    gate.pixels = np.array(_gate_pixels(hue, raised), dtype=np.int8)
    gate.set_interaction(InteractionMode.TANGIBLE if raised else InteractionMode.INTANGIBLE)
