"""ice-slide: on ice the player slides until something stops it; patches of snow stop it at once.

Legend of the level grid: 0 ice, 1 wall (the ring and the rocks), 2 the player's start (on snow),
3 the exit, 4 snow, 5 a hole, 6 a cracked rock, 7 a crate (on ice). The param ``fuel``, when
present, is how many actions an attempt may spend (a bar below the rink; see ``engine.py``).

Each difficulty adds an element the one before lacks:

- 0: ice, rocks, snow patches and the exit.
- 1: holes: sliding (or stepping) onto one drops the player and loses the level, so a slide's whole
  line matters, not only where it ends.
- 2: cracked rocks: whatever slides into one stops against it, and the rock shatters into ice, so
  the first bump opens a way that later slides run through.
- 3: crates: the player stops against one and sends it sliding in its place; a crate stops against
  rocks, crates, the exit and on snow, shatters cracked rocks as the player does, and fills the
  first hole it slides onto (the hole becomes ice). Every drawn level at this difficulty needs a
  crate moved.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, fuelled, knobs_at, long_plan, retry
from .engine import DELTAS, FUEL_RULE, GridGame, block, layer_sprite
from .layouts import Cell, bordered_room, ordered
from .search import bfs

__all__ = ["IceSlide"]

ICE, WALL, START, EXIT, SNOW, HOLE, CRACKED, CRATE = range(8)
PLAYER, GOAL, WHITE, FROST, STONE, EDGE, PIT, FLAWED, BOX = 9, 14, 0, 10, 3, 4, 5, 2, 12


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    rocks: int  # inner wall cells
    snow: int  # snow cells besides the start's
    holes: int  # cells that lose the level when entered
    cracked: int  # rocks that shatter when something slides into them
    crates: int  # blocks that slide when the player runs into them
    shortest: int  # fewest moves a served level needs
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)


_KNOBS = (
    _Knobs(8, 6, 3, 0, 0, 0, 5),
    _Knobs(10, 9, 5, 4, 0, 0, 6, spare=3),
    _Knobs(11, 10, 5, 4, 3, 0, 7, spare=3),
    _Knobs(12, 12, 6, 4, 2, 2, 8, spare=3),
)

# The abstract state: the player's cell, the crates' cells (sorted), and the cells whose hole was
# filled or whose cracked rock shattered (sorted): everything a move can change.
_State = tuple[Cell, tuple[Cell, ...], tuple[Cell, ...]]


@dataclass(frozen=True)
class _Rink:
    walls: frozenset[Cell]
    snow: frozenset[Cell]
    start: Cell
    exit: Cell
    holes: frozenset[Cell] = frozenset()
    cracked: frozenset[Cell] = frozenset()
    crates: tuple[Cell, ...] = ()

    @classmethod
    def read(cls, level: Level) -> _Rink:
        start = level.cells(START)[0]
        snow = frozenset((*level.cells(SNOW), start))
        return cls(
            frozenset(level.cells(WALL)),
            snow,
            start,
            (level.cells(EXIT) or ((-1, -1),))[0],  # a layout still without its exit has none
            frozenset(level.cells(HOLE)),
            frozenset(level.cells(CRACKED)),
            level.cells(CRATE),
        )

    @property
    def opening(self) -> _State:
        """The state before the first move."""
        return self.start, tuple(sorted(self.crates)), ()

    def _crate_slide(self, crate: Cell, dx: int, dy: int, crates: set[Cell], gone: set[Cell]) -> None:
        """Slide the crate at ``crate`` (one of ``crates``) on, updating ``crates`` and ``gone``."""
        x, y = crate
        while True:
            ahead = (x + dx, y + dy)
            if ahead in self.cracked and ahead not in gone:
                gone.add(ahead)
                break
            if ahead in self.walls or ahead in crates or ahead == self.exit:
                break
            x, y = ahead
            if (x, y) in self.holes and (x, y) not in gone:
                crates.discard(crate)
                gone.add((x, y))  # the crate sinks into the hole and fills it
                return
            if (x, y) in self.snow:
                break
        crates.discard(crate)
        crates.add((x, y))

    def move(self, state: _State, dx: int, dy: int) -> _State | None:
        """The state after the player is sent (dx, dy) from ``state``: None when it falls into a hole.

        Snow and the exit stop the player on them; a rock straight ahead stops it where it is (a
        move that changes nothing gives back ``state`` itself).
        """
        (x, y), crates_now, gone_now = state
        crates, gone = set(crates_now), set(gone_now)
        while True:
            ahead = (x + dx, y + dy)
            if ahead in self.cracked and ahead not in gone:
                gone.add(ahead)
                break
            if ahead in crates:
                self._crate_slide(ahead, dx, dy, crates, gone)
                break
            if ahead in self.walls:
                break
            x, y = ahead
            if (x, y) in self.holes and (x, y) not in gone:
                return None
            if (x, y) in self.snow or (x, y) == self.exit:
                break
        return (x, y), tuple(sorted(crates)), tuple(sorted(gone))

    def successors(self, state: _State) -> Iterator[tuple[Move, _State]]:
        """Each arrow's move from ``state`` that changes it and drops no one into a hole."""
        for action, (dx, dy) in DELTAS.items():
            after = self.move(state, dx, dy)
            if after is not None and after != state:
                yield ARROWS[action], after


class IceSlide:
    """The ice-slide game (see the module docstring for its level legend and its difficulties)."""

    id = "ice-slide"
    title = "Slide on the ice"
    rules = (
        "The player is the blue square, moved by ACTION1-4 (up, down, left, right). On the light "
        "blue ice it keeps sliding the way it was sent, one cell per frame, until a grey wall or rock "
        "is straight ahead. White snow stops it on the cell it enters, and from snow it steps one "
        "cell at a time. The level is won when the player reaches the green exit, which also stops "
        "it mid-slide. Entering a black hole loses the level. A light grey cracked rock stops "
        "whatever slides into it and shatters into ice. An orange crate stops the player, which sends "
        "it sliding on the same way: it stops against rocks, crates and the exit, and on snow, and a "
        "crate that slides onto a hole fills it, leaving ice." + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 4_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A rink of 8 to 12 cells a side that needs at least 5 to 8 moves.

        Difficulty 1 adds holes, 2 cracked rocks and 3 crates (see the module docstring); from 1
        the level has fuel, 3 actions beyond the fewest. A cracked rock or crate is drawn only where
        the level needs it: the shortest plan must shatter a rock at difficulty 2 and move a crate
        at 3 (treating them as plain rocks leaves the level unsolved, or solved only by a longer
        plan).
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 60)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = bordered_room(knobs.side, knobs.side, WALL, ICE)
        inside = ordered((x, y) for y in range(1, knobs.side - 1) for x in range(1, knobs.side - 1))
        counts = (
            (WALL, knobs.rocks),
            (SNOW, knobs.snow),
            (HOLE, knobs.holes),
            (CRACKED, knobs.cracked),
            (CRATE, knobs.crates),
            (START, 1),
        )
        codes = [code for code, count in counts for _ in range(count)]
        picks = rng.sample(inside, len(codes))
        for (x, y), code in zip(picks, codes, strict=True):
            grid[y][x] = code
        rink = _Rink.read(Level.make(self.id, grid))
        depth = _first_passes(rink)
        needed = knobs.crates or knobs.cracked
        # Where cracked rocks and crates are drawn, the exit goes where they shorten or open the way:
        # where the player passes later, or never, with them fixed in place as rocks.
        fixed = (
            _first_passes(
                _Rink(
                    rink.walls | rink.cracked | set(rink.crates), rink.snow, rink.start, rink.exit, rink.holes
                )
            )
            if needed
            else {}
        )
        # The exit goes where the player first passes after enough moves; crates that would have
        # bounced off it change that, so the solver has the last word (long_plan below).
        far = [
            cell
            for cell in ordered(depth)
            if depth[cell] >= knobs.shortest
            and grid[cell[1]][cell[0]] in (ICE, SNOW)
            and not (needed and fixed.get(cell, depth[cell] + 1) <= depth[cell])
        ]
        if not far:
            raise RejectLevel(f"no cell is {knobs.shortest} moves away")
        x, y = rng.choice(far)
        grid[y][x] = EXIT
        level = Level.make(self.id, grid)
        plan = long_plan(self, level, knobs.shortest)
        if needed:
            plain = [[WALL if v in (CRATE, CRACKED) else v for v in row] for row in grid]
            easier = self.solve(Level.make(self.id, plain), self.budget)
            if easier is not None and len(easier) <= len(plan):
                raise RejectLevel("the level is as short with its crates and cracked rocks fixed in place")
        return fuelled(level, plan, knobs.spare)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a slide is an animation of one frame per cell, the player's or a crate's."""
        return _IceGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over (resting cell, crates, holes filled, rocks gone)."""
        rink = _Rink.read(level)
        return bfs(rink.opening, rink.successors, lambda state: state[0] == rink.exit, budget)


#: States the generator's survey of a rink visits at most (a bound that keeps a draw cheap: the
#: solver, not the survey, decides whether a level is served).
_SURVEY = 600


def _first_passes(rink: _Rink) -> dict[Cell, int]:
    """For every cell the player can cross or reach, the fewest moves that take it there.

    Only the first `_SURVEY` states reached are moved from, in breadth-first order.
    """
    depth: dict[Cell, int] = {}
    seen = {rink.opening}
    frontier = [rink.opening]
    moves = expanded = 0
    while frontier:
        moves += 1
        later = []
        for state in frontier:
            if expanded >= _SURVEY:
                break
            expanded += 1
            (x, y) = state[0]
            for dx, dy in DELTAS.values():
                after = rink.move(state, dx, dy)
                if after is None:
                    continue
                cx, cy = x, y
                while (cx, cy) != after[0]:
                    cx, cy = cx + dx, cy + dy
                    depth.setdefault((cx, cy), moves)
                if after not in seen:
                    seen.add(after)
                    later.append(after)
        frontier = later
    depth.pop(rink.start, None)
    return depth


class _IceGame(GridGame):
    """The engine side of ice-slide: each frame moves the player, or the crate it hit, one cell."""

    def __init__(self, level: Level) -> None:
        rink = _Rink.read(level)
        size = (level.width, level.height)
        snow = layer_sprite([(x, y, WHITE) for x, y in ordered(rink.snow)], "snow", size)
        holes = layer_sprite([(x, y, PIT) for x, y in ordered(rink.holes)], "holes", size)
        cracked = layer_sprite([(x, y, FLAWED) for x, y in ordered(rink.cracked)], "cracked", size)
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in rink.walls), "walls", size),
            snow.set_interaction(InteractionMode.INTANGIBLE),
            holes.set_interaction(InteractionMode.INTANGIBLE),
            cracked.set_interaction(InteractionMode.INTANGIBLE),
            block(GOAL, "exit", *rink.exit).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *rink.start, layer=2),
        ]
        for i, (x, y) in enumerate(rink.crates):
            crate = block(BOX, f"crate{i}", x, y, layer=2, tags=["crate"])
            sprites.append(crate.set_interaction(InteractionMode.INTANGIBLE))
        self._mover: Sprite | None = None  # the sprite sliding in the current action
        super().__init__(
            IceSlide.id,
            sprites,
            size,
            actions=(1, 2, 3, 4),
            background=FROST,
            letterbox=EDGE,
            fuel=level.param("fuel", 0),
        )

    def on_set_level(self, level: object) -> None:
        """Forget any slide in progress (a RESET ends it)."""
        self._mover = None

    def _crate_at(self, cell: Cell) -> Sprite | None:
        for crate in self.current_level.get_sprites_by_tag("crate"):
            if self.cell_of(crate) == cell:
                return crate
        return None

    def _ahead(self, cell: Cell, dx: int, dy: int) -> str:
        """What is on the next cell a slide from ``cell`` enters: "rock", "cracked", "crate", "exit" or ""."""
        x, y = cell[0] + dx, cell[1] + dy
        if self.sprite("cracked").pixels[y, x] == FLAWED:
            return "cracked"
        if self.sprite("walls").pixels[y, x] >= 0:
            return "rock"
        if self._crate_at((x, y)) is not None:
            return "crate"
        return "exit" if (x, y) == self.cell_of(self.sprite("exit")) else ""

    def _done(self) -> bool:
        self._mover = None
        return True

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Move the sliding sprite one cell; ask for another frame while its slide goes on."""
        dx, dy = DELTAS[action]
        mover = self._mover or self.sprite("player")
        here = self.cell_of(mover)
        ahead = self._ahead(here, dx, dy)
        is_player = mover.name == "player"
        if ahead == "cracked":
            self.sprite("cracked").pixels[here[1] + dy, here[0] + dx] = -1
            return self._done()
        if ahead == "crate" and is_player:
            crate = self._crate_at((here[0] + dx, here[1] + dy))
            assert crate is not None
            self._mover = crate
            return self.on_action(action, cell)  # the crate's first cell is this frame's
        if ahead in ("rock", "crate") or (ahead == "exit" and not is_player):
            return self._done()
        mover.move(dx, dy)
        x, y = here[0] + dx, here[1] + dy
        holes = self.sprite("holes")
        if holes.pixels[y, x] == PIT:
            if is_player:
                self.lose()
            else:
                holes.pixels[y, x] = -1  # filled: ice from now on
                self.current_level.remove_sprite(mover)
            return self._done()
        if is_player and (x, y) == self.cell_of(self.sprite("exit")):
            self.next_level()
            return self._done()
        if self.sprite("snow").pixels[y, x] == WHITE:
            return self._done()
        # Look one cell ahead now, so that a slide ending at a rock takes no extra, unchanged frame.
        nxt = self._ahead((x, y), dx, dy)
        if nxt == "crate" and is_player:  # a crate that cannot move stops the player as a rock does
            nxt = "rock" if self._ahead((x + dx, y + dy), dx, dy) in ("rock", "crate", "exit") else ""
        if nxt == "rock" or (nxt in ("crate", "exit") and not is_player):
            return self._done()
        self._mover = mover
        return False
