r"""mirror-beam: turn mirrors, by clicking them, until the light's beam reaches the target.

Legend of the level grid (the outer ring is wall, save the source and the target set into it):
0 floor, 1 wall, 2 the light source (it fires into the room, away from the ring), 3 the target,
4 a mirror ``/``, 5 a mirror ``\``, 6 and 7 a bolted ``/`` and ``\`` (grey glass: a click on it
turns nothing and spends no turn), 8 and 9 a linked ``/`` and ``\`` (magenta glass: a click on any
linked mirror turns every linked mirror of the room). The param ``clicks``, when above 0, is how
many times the mirrors may be turned: a strip below the room shows a mark per turn left, and
spending the last turn without the beam on the target loses the level. A level without it turns
freely (a hand-made room of the tests); every level drawn has it, a few turns more than the fewest
the level needs, so that clicking mirrors at random runs out long before it lights the target.

What each difficulty adds: 0 mirrors to turn, a few of them decoys; 1 inner walls; 2 bolted
mirrors, one of them on the beam's way when it has a mirror set right; 3 a linked pair of mirrors
both set wrong, which one click turns right together (and two clicks turn back wrong).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .engine import GridGame, frame_point, layer_sprite, patch
from .layouts import Cell, bordered_room, inner_cells
from .search import bfs
from .strokes import SIDE_STEPS, arms, band, odd_cell, paste
from .symmetry import SYMMETRIES, swaps_diagonals, turned_grid

__all__ = ["MirrorBeam"]

FLOOR, WALL, SOURCE, TARGET, SLASH, BACKSLASH = range(6)
BOLTED, LINKED = 6, 8  # the / of a bolted and of a linked mirror; the \ is one more
STONE, LAMP, GOAL, GLASS, LIGHT, GROUND, EDGE, BOLT_GLASS, LINK_GLASS = 2, 12, 14, 0, 11, 5, 4, 1, 6
LEFT_MARK, SPENT_MARK = 0, 8  # a turn left, a turn spent

Direction = tuple[int, int]


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, ring included
    turns: int  # mirrors on the beam's path from the source to the target
    scramble: int  # of those, how many start turned the wrong way
    decoys: int  # mirrors off that path
    walls: int  # inner wall cells
    shortest: int  # fewest clicks a served level needs
    spare: int  # turns allowed beyond the fewest
    bolted: bool = False  # a decoy, and a path mirror set right (else a second decoy), are bolted
    linked: bool = False  # two path mirrors set wrong are linked


_KNOBS = (
    _Knobs(7, 2, 2, 2, 0, 2, 0),
    _Knobs(8, 3, 3, 3, 2, 3, 0),
    _Knobs(10, 4, 3, 5, 4, 3, 1, bolted=True),
    _Knobs(12, 5, 5, 8, 6, 4, 1, bolted=True, linked=True),
)


def _reflect(kind: int, direction: Direction) -> Direction:
    """The direction a beam leaves a mirror of ``kind`` (SLASH or BACKSLASH) it met going ``direction``."""
    dx, dy = direction
    return (-dy, -dx) if kind == SLASH else (dy, dx)


def _mirror(kind: int, size: int, glass: int = GLASS) -> np.ndarray:
    """The pixels of a mirror: a diagonal band across a ``size`` square in ``glass``, clear elsewhere."""
    half = band(size)[1] - size // 2  # as thick as the beam
    ys, xs = np.indices((size, size))
    off = np.abs(xs + ys - (size - 1)) if kind == SLASH else np.abs(xs - ys)
    return np.where(off < half, glass, -1).astype(np.int8)


@dataclass(frozen=True)
class _Room:
    width: int
    height: int
    walls: frozenset[Cell]  # the ring (but the source and target) and the inner walls
    source: Cell
    heading: Direction  # the direction the source fires
    target: Cell
    mirrors: tuple[tuple[Cell, int], ...]  # (cell, kind) in row-major order
    index: dict[Cell, int]  # a mirror's place in ``mirrors``, by its cell
    clicks: int  # the turns allowed, 0 for no limit
    bolted: frozenset[int]  # the mirrors (indices) a click does not turn
    linked: int  # the bitmask of the linked mirrors, which turn together

    def turn(self, turned: int, i: int) -> int | None:
        """The bitmask of mirrors turned after a click on mirror ``i``; None when it is bolted."""
        if i in self.bolted:
            return None
        return turned ^ (self.linked if self.linked >> i & 1 else 1 << i)

    @property
    def box(self) -> tuple[int, int]:
        """The board in cells: the room, and below it the strip of turns left when they are limited."""
        return self.width, self.height + (self.clicks > 0)

    def click_at(self, cell: Cell) -> Move:
        """The click on a cell of the room."""
        width, height = self.box
        size = odd_cell(width, height)
        return Move.click(*frame_point((width * size, height * size), *_middle(cell, size)))

    @classmethod
    def read(cls, level: Level) -> _Room:
        (sx, sy), width, height = level.cells(SOURCE)[0], level.width, level.height
        heading = (int(sx == 0) - int(sx == width - 1), int(sy == 0) - int(sy == height - 1))
        codes = sorted(
            ((c, code) for code in range(SLASH, LINKED + 2) for c in level.cells(code)),
            key=lambda m: m[0][::-1],
        )
        # Even codes are a /, odd ones a \; 4-5 free, 6-7 bolted, 8-9 linked.
        mirrors = tuple((cell, SLASH + code % 2) for cell, code in codes)
        index = {cell: i for i, (cell, _) in enumerate(mirrors)}
        bolted = frozenset(i for i, (_, code) in enumerate(codes) if code // 2 == BOLTED // 2)
        linked = sum(1 << i for i, (_, code) in enumerate(codes) if code // 2 == LINKED // 2)
        walls = frozenset(level.cells(WALL))
        clicks = dict(level.params).get("clicks", 0)
        target = level.cells(TARGET)[0]
        return cls(width, height, walls, (sx, sy), heading, target, mirrors, index, clicks, bolted, linked)

    def trace(self, turned: int) -> tuple[bool, tuple[int, ...]]:
        """Where the beam goes when the mirrors in the bitmask ``turned`` are turned from the start.

        Returns:
            Whether it reaches the target, and the mirrors it meets (indices, in the order first met).
        """
        (x, y), (dx, dy) = self.source, self.heading
        met: list[int] = []
        for _ in range(4 * self.width * self.height):  # a beam from the ring cannot loop; a guard
            x, y = x + dx, y + dy
            if (x, y) == self.target:
                return True, tuple(met)
            if (x, y) in self.walls or (x, y) == self.source:
                break
            i = self.index.get((x, y))
            if i is not None:
                if i not in met:
                    met.append(i)
                kind = self.mirrors[i][1] ^ (turned >> i & 1)  # SLASH ^ 1 == BACKSLASH
                dx, dy = _reflect(kind, (dx, dy))
        return False, tuple(met)


class MirrorBeam:
    """The mirror-beam game (see the module docstring for its level legend)."""

    id = "mirror-beam"
    title = "Bend the beam"
    rules = (
        "An orange lamp set in the grey wall shines a yellow beam straight into the room; the beam "
        "runs until it meets a wall. Diagonal mirrors bounce it through a right angle. Clicking a "
        "mirror's white glass (ACTION6) turns it a quarter, so a / becomes a \\ and back; clicks "
        "anywhere else do nothing. A mirror of grey glass is bolted: clicking it turns nothing. The "
        "mirrors of magenta glass are linked: clicking any of them turns them all. The beam is "
        "redrawn after every click. The marks below the room "
        "count the turns left: each turn spends one, and spending the last one with the beam off the "
        "target loses the level. The level is won as soon as the beam reaches the green target in the "
        "wall."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 2_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 7 to 12 cells a side holding a beam's path through 2 to 5 mirrors.

        Difficulty 0 to 3 turns 2 to 4 of the path's mirrors the wrong way, adds 2 to 8 decoy mirrors
        and 0 to 6 inner walls, and serves only levels needing at least 2, 3, 3 or 4 clicks. From
        difficulty 2 a decoy and a path mirror set right (a second decoy when none is) are
        bolted; at 3 two path mirrors set wrong are linked, and a level is served only when its
        fewest clicks are not as many as they would be were the pair free. The room is then
        turned or mirrored at random. The level allows exactly the fewest turns it needs at
        difficulties 0 and 1, one more at 2 and 3.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        side = knobs.side
        grid = bordered_room(side, side, WALL, FLOOR)
        path, corners, target = _beam_path(rng, side, knobs.turns)
        source = path[0]
        grid[source[1]][source[0]] = SOURCE
        grid[target[1]][target[0]] = TARGET
        wrong = set(rng.sample(range(len(corners)), knobs.scramble))
        for i, ((x, y), kind) in enumerate(corners):
            grid[y][x] = kind ^ 1 if i in wrong else kind
        inside = inner_cells(side, side)
        free = [c for c in inside if c not in path]
        picks = rng.sample(free, knobs.decoys + knobs.walls)
        for i, (x, y) in enumerate(picks):
            grid[y][x] = rng.choice((SLASH, BACKSLASH)) if i < knobs.decoys else WALL
        decoys = picks[: knobs.decoys]
        right = [cell for i, (cell, _) in enumerate(corners) if i not in wrong]
        if knobs.bolted:
            for x, y in (rng.choice(right) if right else decoys[1], decoys[0]):
                grid[y][x] += BOLTED - SLASH
        if knobs.linked:
            for x, y in (corners[i][0] for i in rng.sample(sorted(wrong), 2)):
                grid[y][x] += LINKED - SLASH
        rows = _turned(grid, rng.randrange(SYMMETRIES))
        level = Level.make(self.id, rows)
        fewest = len(long_plan(self, level, knobs.shortest, "clicks"))
        if knobs.linked:
            unlinked = _fewest(_Room.read(_unlinked(level)), self.budget)
            if unlinked is not None and len(unlinked) == fewest:
                raise RejectLevel("the link changes nothing: as many clicks as were the mirrors free")
        return Level.make(self.id, rows, clicks=fewest + knobs.spare)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: mirrors are sprites the engine turns; the beam is one repainted sprite."""
        return _MirrorGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest clicks, by breadth-first search over the set of mirrors turned.

        Only mirrors the beam meets now are clicked: every click of a fewest-click plan turns a
        mirror on the final beam (the linked mirrors turn as one), and clicking them in the order
        that beam first meets what each turns, each is on the beam when its turn comes, so nothing
        shorter is lost. Bolted mirrors are never clicked. A plan longer than the turns allowed is
        none.
        """
        room = _Room.read(level)
        plan = _fewest(room, budget)
        return None if plan is None or 0 < room.clicks < len(plan) else plan


def _fewest(room: _Room, budget: int) -> tuple[Move, ...] | None:
    """The fewest clicks that bring the beam to the target, ignoring the turns allowed."""
    clicks = [room.click_at(cell) for cell, _ in room.mirrors]

    def successors(turned: int) -> list[tuple[Move, int]]:
        after = [(clicks[i], room.turn(turned, i)) for i in room.trace(turned)[1]]
        return [(click, state) for click, state in after if state is not None]

    return bfs(0, successors, lambda turned: room.trace(turned)[0], budget)


def _unlinked(level: Level) -> Level:
    """The level with its linked mirrors made free (each turned by its own clicks)."""
    rows = [[code - (LINKED - SLASH) if code >= LINKED else code for code in row] for row in level.grid]
    return Level(level.game, tuple(tuple(row) for row in rows), level.params)


def _beam_path(rng: random.Random, side: int, turns: int) -> tuple[list[Cell], list[tuple[Cell, int]], Cell]:
    """A self-avoiding beam from a ring cell through ``turns`` mirrors to another ring cell.

    Returns the cells from the source on (the target excluded), the mirrors as (cell, kind), and
    the target.
    """
    inside = range(1, side - 1)
    starts = [(0, y) for y in inside] + [(side - 1, y) for y in inside]
    starts += [(x, 0) for x in inside] + [(x, side - 1) for x in inside]
    x, y = rng.choice(starts)
    heading = (int(x == 0) - int(x == side - 1), int(y == 0) - int(y == side - 1))
    path, corners = [(x, y)], []
    for _ in range(turns):
        dx, dy = heading
        run = []
        while 0 < x + dx < side - 1 and 0 < y + dy < side - 1 and (x + dx, y + dy) not in path:
            x, y = x + dx, y + dy
            run.append((x, y))
        if not run:
            raise RejectLevel("the beam walked into itself")
        stop = rng.randrange(len(run))
        path += run[: stop + 1]
        x, y = run[stop]
        turn = rng.choice(((dy, dx), (-dy, -dx)))
        corners.append(((x, y), SLASH if turn == _reflect(SLASH, heading) else BACKSLASH))
        heading = turn
    dx, dy = heading
    while 0 < x + dx < side - 1 and 0 < y + dy < side - 1:
        x, y = x + dx, y + dy
        if (x, y) in path:
            raise RejectLevel("the last leg crosses the beam")
        path.append((x, y))
    return path, corners, (x + dx, y + dy)


def _middle(cell: Cell, size: int) -> tuple[int, int]:
    """The viewport pixel in the middle of a cell ``size`` pixels wide."""
    return cell[0] * size + size // 2, cell[1] * size + size // 2


def _mark(number: int, colour: int, room: _Room, size: int) -> Sprite:
    """The mark of a turn in the strip below the room: a square the beam's width, in cell ``number + 1``."""
    lo, hi = band(size)
    return Sprite(
        np.full((hi - lo, hi - lo), colour, dtype=np.int8),
        name=f"mark{number}",
        x=(number + 1) * size + lo,
        y=room.height * size + lo,
        layer=3,
        tags=[],
    )


def _turned(grid: list[list[int]], symmetry: int) -> list[list[int]]:
    """The room under a symmetry (see symmetry.py), its mirrors turned to bounce the same way."""
    swap = swaps_diagonals(symmetry)
    out = turned_grid(grid, symmetry)
    mirrors = range(SLASH, LINKED + 2)  # every kind of glass: a / is even, a \ odd
    return [[code ^ 1 if swap and code in mirrors else code for code in row] for row in out]


class _MirrorGame(GridGame):
    """The engine side of mirror-beam: it traces the beam itself from the mirror sprites' turns."""

    clicked: tuple[int, int] | None = None  # the viewport pixel of the click being handled

    def __init__(self, level: Level) -> None:
        room = _Room.read(level)
        box = room.box
        self.size = size = odd_cell(*box)
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in room.walls], "walls", box, cell=size),
            patch([[LAMP]], "source", *room.source, cell=size, layer=3),
            patch([[GOAL]], "target", *room.target, cell=size, layer=3),
            Sprite(np.full((1, 1), -1, dtype=np.int8), name="beam", layer=1, tags=[]),
        ]
        for i, ((x, y), kind) in enumerate(room.mirrors):
            pixels = _mirror(SLASH, size, self._glass(room, i))
            mirror = Sprite(pixels, name=f"mirror{i}", x=x * size, y=y * size, layer=2, tags=[])
            # Every mirror starts as a /, turned a quarter when the level's mirror is a \ .
            sprites.append(mirror.set_rotation(90 * (kind == BACKSLASH)))
        sprites += [_mark(k, LEFT_MARK, room, size) for k in range(room.clicks)]
        for sprite in sprites:
            sprite.set_interaction(InteractionMode.INTANGIBLE)  # nothing moves, so nothing collides
        self.room = room
        self.mirror_at = {cell: f"mirror{i}" for i, (cell, _) in enumerate(room.mirrors)}
        self.index = room.index
        super().__init__(
            MirrorBeam.id, sprites, box, actions=(6,), cell=size, background=GROUND, letterbox=EDGE
        )

    @staticmethod
    def _glass(room: _Room, i: int) -> int:
        """The colour of mirror ``i``'s glass: grey when bolted, magenta when linked, else white."""
        if i in room.bolted:
            return BOLT_GLASS
        return LINK_GLASS if room.linked >> i & 1 else GLASS

    def on_set_level(self, level: object) -> None:
        """Every (re)start shows the beam of the mirrors as they start, with every turn left."""
        self.spent = 0
        self._shine()

    def step(self) -> None:
        """Keep the clicked pixel: only a click on a mirror's glass turns it, not one beside it."""
        data = self.action.data
        self.clicked = self.camera.display_to_grid(int(data.get("x", 0)), int(data.get("y", 0)))
        super().step()

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Turn the clicked mirror a quarter and redraw the beam; win when it reaches the target.

        Only a click on the mirror's own pixels (its glass) turns it, and a bolted mirror never
        turns; a linked one turns every linked mirror. A turn spends a mark when turns are limited;
        the last one spent off the target loses.
        """
        name = self.mirror_at.get(cell) if cell is not None else None
        if name is None or self.clicked is None or cell is None:
            return True
        mirror, (px, py) = self.sprite(name), self.clicked
        glass = _mirror(SLASH if mirror.rotation // 90 % 2 == 0 else BACKSLASH, self.size)
        clicked = self.index[cell]
        if glass[py % self.size, px % self.size] < 0 or clicked in self.room.bolted:
            return True
        linked = self.room.linked
        together = [i for i in range(len(self.room.mirrors)) if linked >> i & 1]
        for i in together if clicked in together else [clicked]:
            self.sprite(f"mirror{i}").rotate(90)
        reached = self._shine()
        if self.room.clicks:
            mark = _mark(self.spent, SPENT_MARK, self.room, self.size)
            self.current_level.add_sprite(mark.set_interaction(InteractionMode.INTANGIBLE).set_layer(4))
            self.spent += 1
        if reached:
            self.next_level()
        elif self.room.clicks and self.spent >= self.room.clicks:
            self.lose()
        return True

    def _shine(self) -> bool:
        """Repaint the beam from the source; whether it reached the target."""
        room, size = self.room, self.size
        lit: dict[Cell, int] = {}  # the sides of each cell the beam runs out to, as bits

        def light(cell: Cell, heading: Direction) -> None:
            lit[cell] = lit.get(cell, 0) | 1 << SIDE_STEPS.index(heading)

        (x, y), (dx, dy) = room.source, room.heading
        reached = False
        for _ in range(4 * room.width * room.height):  # a beam from the ring cannot loop; a guard
            light((x, y), (dx, dy))
            x, y = x + dx, y + dy
            if (x, y) in room.walls or (x, y) == room.source:
                break
            light((x, y), (-dx, -dy))
            if (x, y) == room.target:
                reached = True
                break
            name = self.mirror_at.get((x, y))
            if name is not None:
                turns = self.sprite(name).rotation // 90
                dx, dy = _reflect(SLASH if turns % 2 == 0 else BACKSLASH, (dx, dy))
        pixels = np.full((room.height * size, room.width * size), -1, dtype=np.int8)
        for (cx, cy), sides in lit.items():
            paste(pixels, arms(sides, size, LIGHT), cx, cy)
        self.sprite("beam").pixels = pixels
        return reached
