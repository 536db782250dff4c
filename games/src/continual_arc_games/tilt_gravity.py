"""tilt-gravity: tilt the board so the balls roll into the goal hole, steering clear of the pits.

Legend of the level grid: 0 floor, 1 wall, 2 a ball, 3 the goal hole, 4 a pit, 5 sand (a ball
that rolls onto it stops there; the next tilt rolls it off). The param ``fuel``, from difficulty 4,
is how many tilts an attempt may spend (a bar below the room; see ``engine.py``).

What each difficulty adds: 0 a ball, walls and the hole; 1 pits that lose; 2 a second ball; 3 a
larger room with more pits; 4 fuel; 5 sand, and every level at 5 needs a ball stopped on it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, fuelled, knobs_at, retry
from .engine import DELTAS, FUEL_RULE, GridGame, block, layer_sprite
from .layouts import Cell, bordered_room, ordered
from .search import bfs

__all__ = ["TiltGravity"]

FLOOR, WALL, BALL, GOAL, PIT, SAND = range(6)
RED, GREEN, HOLE, STONE, GROUND, EDGE, DUNE = 8, 14, 5, 3, 0, 4, 11


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    balls: int
    pits: int
    walls: int  # inner wall cells
    shortest: int  # fewest tilts a served level needs
    spare: int | None = None  # fuel beyond the fewest tilts (None: no fuel bar)
    sand: int = 0  # sand cells; when any, the fewest tilts must stop a ball on one


_KNOBS = (
    _Knobs(7, 1, 0, 4, 2),
    _Knobs(8, 1, 2, 6, 3),
    _Knobs(9, 2, 2, 8, 4),
    _Knobs(10, 2, 4, 12, 5),
    _Knobs(10, 2, 4, 12, 5, spare=2),
    _Knobs(11, 2, 5, 12, 6, spare=1, sand=4),
)


@dataclass(frozen=True)
class _Board:
    walls: frozenset[Cell]
    goal: Cell
    pits: frozenset[Cell]
    balls: tuple[Cell, ...]
    sand: frozenset[Cell]

    @classmethod
    def read(cls, level: Level) -> _Board:
        pits, sand = frozenset(level.cells(PIT)), frozenset(level.cells(SAND))
        return cls(frozenset(level.cells(WALL)), level.cells(GOAL)[0], pits, level.cells(BALL), sand)

    def tilt(self, balls: tuple[Cell, ...], dx: int, dy: int) -> tuple[Cell, ...] | None:
        """The balls left after a tilt, sorted; None when one falls into a pit.

        Balls roll front first, each until a wall or a ball that has stopped, or onto sand, which
        stops it; one that reaches the goal drops in and leaves the board, so the balls behind it
        may follow it in.
        """
        stopped: list[Cell] = []
        for x, y in sorted(balls, key=lambda b: -(b[0] * dx + b[1] * dy)):
            while (x + dx, y + dy) not in self.walls and (x + dx, y + dy) not in stopped:
                x, y = x + dx, y + dy
                if (x, y) in self.pits:
                    return None
                if (x, y) == self.goal or (x, y) in self.sand:
                    break
            if (x, y) != self.goal:
                stopped.append((x, y))
        return tuple(sorted(stopped))


class TiltGravity:
    """The tilt-gravity game (see the module docstring for its level legend)."""

    id = "tilt-gravity"
    title = "Tilt the board"
    rules = (
        "ACTION1-4 tilt the whole board up, down, left or right, and every red ball rolls that way "
        "until a wall or another ball stops it; a ball that rolls onto yellow sand stops on it, and "
        "the next tilt rolls it off. A ball that rolls onto the green hole drops into it "
        "and is gone. A ball that rolls onto a black pit is lost, and so is the level: only RESET "
        "continues. The level is won when every ball has dropped into the green hole." + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 7 to 11 cells a side with 1-2 balls, 0-6 pits and 4-14 inner walls.

        From difficulty 4 the level has fuel: 2, then 1, tilts beyond the fewest. Difficulty 5 adds
        4 sand cells, and serves only levels whose fewest tilts stop a ball on sand.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = bordered_room(knobs.side, knobs.side, WALL, FLOOR)
        inside = ordered((x, y) for y in range(1, knobs.side - 1) for x in range(1, knobs.side - 1))
        codes = (
            [WALL] * knobs.walls + [GOAL] + [PIT] * knobs.pits + [BALL] * knobs.balls + [SAND] * knobs.sand
        )
        for (x, y), code in zip(rng.sample(inside, len(codes)), codes, strict=True):
            grid[y][x] = code
        level = Level.make(self.id, grid)
        plan = self.solve(level, self.budget)
        if plan is None:
            raise RejectLevel("no tilts bring every ball home")
        if len(plan) < knobs.shortest:
            raise RejectLevel(f"solved in {len(plan)} tilts, fewer than {knobs.shortest}")
        if knobs.sand and not sand_stops(level, plan):
            raise RejectLevel("the fewest tilts never stop a ball on sand")
        return fuelled(level, plan, knobs.spare)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: balls roll one cell per frame, so a tilt is a short animation."""
        return _TiltGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest tilts, by breadth-first search over the balls still on the board."""
        board = _Board.read(level)

        def successors(balls: tuple[Cell, ...]) -> Iterator[tuple[Move, tuple[Cell, ...]]]:
            for action, (dx, dy) in DELTAS.items():
                after = board.tilt(balls, dx, dy)
                if after is not None and after != balls:
                    yield ARROWS[action], after

        return bfs(board.balls, successors, lambda balls: not balls, budget)


def sand_stops(level: Level, plan: tuple[Move, ...]) -> int:
    """How many of the plan's tilts end with a ball resting on sand (by the solver's model)."""
    board = _Board.read(level)
    balls: tuple[Cell, ...] | None = board.balls
    deltas = {move: DELTAS[action] for action, move in ARROWS.items()}
    stops = 0
    for move in plan:
        if balls is None:
            break
        balls = board.tilt(balls, *deltas[move])
        stops += balls is not None and any(ball in board.sand for ball in balls)
    return stops


class _TiltGame(GridGame):
    """The engine side of tilt-gravity: each frame moves every free ball one cell."""

    def __init__(self, level: Level) -> None:
        board = _Board.read(level)
        size = (level.width, level.height)
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in board.walls), "walls", size),
            layer_sprite(
                [(*board.goal, GREEN)]
                + [(x, y, HOLE) for x, y in ordered(board.pits)]
                + [(x, y, DUNE) for x, y in ordered(board.sand)],
                "holes",
                size,
            ),
        ]
        sprites[1].set_interaction(InteractionMode.INTANGIBLE)
        for i, (x, y) in enumerate(board.balls):
            sprites.append(block(RED, f"ball{i}", x, y, layer=2, tags=["ball"]))
        self.goal, self.pits, self.sand = board.goal, board.pits, board.sand
        super().__init__(
            TiltGravity.id,
            sprites,
            size,
            actions=(1, 2, 3, 4),
            background=GROUND,
            letterbox=EDGE,
            fuel=level.param("fuel", 0),
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start is between tilts."""
        self.rolling = False
        self.settled: set[str] = set()  # balls stopped on sand during the tilt under way

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Roll every ball that can roll by one cell, front first; done when none can roll on.

        A ball that rolls onto sand is settled for the rest of the tilt (it stays a ball the others
        stop against); the next tilt starts with none settled.
        """
        if not self.rolling:
            self.rolling, self.settled = True, set()
        done = self._roll(*DELTAS[action])
        self.rolling = not done
        return done

    def _roll(self, dx: int, dy: int) -> bool:
        balls = sorted(self.current_level.get_sprites_by_tag("ball"), key=lambda b: -(b.x * dx + b.y * dy))
        for ball in balls:
            if ball.name in self.settled or self.try_move_sprite(ball, dx, dy):
                continue  # settled on sand, or blocked by a wall or a ball
            if self.cell_of(ball) in self.sand:
                self.settled.add(ball.name)
            if self.cell_of(ball) in self.pits:
                self.lose()
                return True
            if self.cell_of(ball) == self.goal:
                self.current_level.remove_sprite(ball)
        left = self.current_level.get_sprites_by_tag("ball")
        if not left:
            self.next_level()
            return True
        return not any(ball.name not in self.settled and self._can_roll(ball, dx, dy) for ball in left)

    def _can_roll(self, ball: Sprite, dx: int, dy: int) -> bool:
        blocked = self.try_move_sprite(ball, dx, dy)
        if not blocked:
            ball.move(-dx, -dy)  # only a probe: put it back
        return not blocked
