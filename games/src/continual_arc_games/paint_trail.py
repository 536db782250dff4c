"""paint-trail: leave a trail of wet paint that covers exactly the silhouette shown beside the board.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start (a silhouette cell, painted from the
first frame), 3 a silhouette cell (floor the trail must paint), 4 the silhouette cell the trail must
end on (green: entering it before every other silhouette cell is painted loses), 5 the silhouette's
key cell (orange), 6 its door cell (maroon: it stops the player until the key cell is painted).

What each difficulty adds: 0 a silhouette with a fork; 1 inner walls; 2 a green cell the trail must
end on, where the trail would otherwise be free to end elsewhere; 3 a door cell that opens only once
the key cell is painted, where the trail would otherwise paint the door first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arcengine import ARCBaseGame

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, block, layer_sprite
from .layouts import Cell, bordered_room, inner_cells, ordered

__all__ = ["PaintTrail"]

FLOOR, WALL, START, SHAPE, FINISH, KEY, DOOR = range(7)
PLAYER, PAINT, STONE, GROUND, EDGE, LAST, UNLOCK, LOCKED = 9, 11, 3, 5, 4, 14, 12, 13
CELL = 2  # pixels per board cell; the silhouette panel beside the board uses one pixel per cell


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    cells: int  # cells of the silhouette, start included: the plan is one move shorter
    walls: int  # inner wall cells
    chords: int  # fewest silhouette edges beyond those of a simple path (each one a possible wrong turn)
    finish: bool = False  # whether the trail must end on a marked cell
    door: bool = False  # whether a silhouette cell is a door that its key cell, once painted, opens


_KNOBS = (
    _Knobs(6, 7, 0, 1),
    _Knobs(7, 9, 2, 2),
    _Knobs(8, 12, 3, 3, finish=True),
    _Knobs(9, 16, 4, 4, finish=True, door=True),
)


class PaintTrail:
    """The paint-trail game (see the module docstring for its level legend)."""

    id = "paint-trail"
    title = "Paint the silhouette"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. The cell it starts on is painted yellow, and so is every floor "
        "cell it enters. Wet paint stops the player like a wall, so no cell can be entered twice. "
        "The small picture right of the board is the room in miniature, with a yellow silhouette. "
        "Entering a floor cell outside the silhouette loses the level, and so does being left with "
        "no cell to move into. A green cell, where there is one, must be the trail's last: entering "
        "it while another silhouette cell is unpainted loses. A maroon door cell, where there is one, "
        "stops the player like a wall until the orange key cell has been painted. The level is won "
        "when the painted cells are exactly the silhouette."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 6 to 9 cells a side, a silhouette of 7 to 16 cells, 0 to 4 inner walls.

        The silhouette is a coiled random walk from the start, so a trail covering it exists; its
        cells touch each other in 1 to 4 more places than a plain path's would, so it has forks.
        From difficulty 2 the walk's last cell is the green end, and a level is served only when a
        trail free to end anywhere would end elsewhere. At difficulty 3 two more of the walk's cells
        are the key and the door, the key painted first by the walk, the door first by the trail the
        solver finds without them.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        # A door that changes the plan is rare (most coils have one trail to the green end): more tries.
        return retry(lambda: self._attempt(rng, knobs), 80 if knobs.door else 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        side = knobs.side
        grid = bordered_room(side, side, WALL, FLOOR)
        inside = inner_cells(side, side)
        for x, y in rng.sample(inside, knobs.walls):
            grid[y][x] = WALL
        start = rng.choice([c for c in inside if grid[c[1]][c[0]] == FLOOR])
        trail = _coil(rng, grid, start, knobs.cells)
        if _chords(trail) < knobs.chords:
            raise RejectLevel(f"the silhouette has fewer than {knobs.chords} forks")
        if not _can_strand(trail):
            raise RejectLevel("every trail inside the silhouette covers it")
        for x, y in trail:
            grid[y][x] = SHAPE
        grid[start[1]][start[0]] = START
        if knobs.finish:
            free = self.solve(Level.make(self.id, grid), self.budget)
            if free is None or _trail_end(start, free) == trail[-1]:
                raise RejectLevel("a trail free to end anywhere ends on the walk's last cell anyway")
            grid[trail[-1][1]][trail[-1][0]] = FINISH
        if knobs.door:
            _lock(rng, grid, trail, self.solve(Level.make(self.id, grid), self.budget))
            if self.solve(Level.make(self.id, grid), self.budget) is None:
                raise RejectLevel("no trail within the budget paints the key before the door")
        return Level.make(self.id, grid)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the board, and the silhouette in miniature to its right."""
        return _PaintGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A trail through every silhouette cell once, by depth-first search with pruning.

        Each move paints one new cell, so every winning plan has exactly one move fewer than the
        silhouette has cells: the first trail found is a shortest plan. ``budget`` bounds the cells
        the search steps into. Partial trails are cut when the cells left fall apart or two of them
        could only be entered and never left (each must then end the trail).
        """
        cells = ordered(_silhouette(level))
        index = {cell: i for i, cell in enumerate(cells)}
        near = [
            [
                (action, index[(x + dx, y + dy)])
                for action, (dx, dy) in DELTAS.items()
                if (x + dx, y + dy) in index
            ]
            for x, y in cells
        ]
        masks = [sum(1 << j for _, j in options) for options in near]
        start = index[level.cells(START)[0]]
        end = index[level.cells(FINISH)[0]] if level.cells(FINISH) else -1
        lock = (index[level.cells(KEY)[0]], index[level.cells(DOOR)[0]]) if level.cells(DOOR) else None
        actions = _trail(near, masks, start, ((1 << len(cells)) - 1) & ~(1 << start), budget, end, lock)
        return None if actions is None else tuple(ARROWS[a] for a in actions)


def _silhouette(level: Level) -> list[Cell]:
    """Every cell the trail must paint: the start, the plain ones, the green end, the key and door."""
    return [cell for code in (START, SHAPE, FINISH, KEY, DOOR) for cell in level.cells(code)]


def _lock(rng: random.Random, grid: list[list[int]], walk: list[Cell], free: tuple[Move, ...] | None) -> None:
    """Make two of the walk's cells the key and the door, so that the door changes the plan.

    The walk paints the key first (so a trail exists); ``free``, the solver's plan without them,
    paints the door first (so it no longer wins). Neither is the start or the green end.

    Raises:
        RejectLevel: when no such pair exists.
    """
    if free is None:
        raise RejectLevel("no trail within the budget")
    steps = {move: DELTAS[action] for action, move in ARROWS.items()}
    order = {walk[0]: 0}
    x, y = walk[0]
    for move in free:
        x, y = x + steps[move][0], y + steps[move][1]
        order[(x, y)] = len(order)
    inner = walk[1:-1]
    pairs = [
        (key, door) for i, key in enumerate(inner) for door in inner[i + 1 :] if order[door] < order[key]
    ]
    if not pairs:
        raise RejectLevel("the solver's trail paints the cells in the walk's order")
    (kx, ky), (dx, dy) = rng.choice(pairs)
    grid[ky][kx], grid[dy][dx] = KEY, DOOR


def _trail_end(start: Cell, plan: tuple[Move, ...]) -> Cell:
    """The cell a plan's trail ends on."""
    steps = {move: DELTAS[action] for action, move in ARROWS.items()}
    x, y = start
    for move in plan:
        x, y = x + steps[move][0], y + steps[move][1]
    return x, y


def _coil(rng: random.Random, grid: list[list[int]], start: Cell, length: int) -> list[Cell]:
    """A self-avoiding random walk of ``length`` floor cells that prefers to turn back on itself."""
    trail = [start]
    taken = {start}
    while len(trail) < length:
        x, y = trail[-1]
        options = [
            (x + dx, y + dy)
            for dx, dy in DELTAS.values()
            if grid[y + dy][x + dx] == FLOOR and (x + dx, y + dy) not in taken
        ]
        if not options:
            raise RejectLevel("the walk boxed itself in")
        # Weighting cells by the trail cells they touch makes a compact blob with forks, not a line.
        weights = [
            1 + 4 * sum((cx + dx, cy + dy) in taken for dx, dy in DELTAS.values()) for cx, cy in options
        ]
        step = rng.choices(options, weights)[0]
        trail.append(step)
        taken.add(step)
    return trail


def _chords(cells: list[Cell]) -> int:
    """How many more edges join the cells than the len(cells) - 1 of a simple path."""
    shape = set(cells)
    edges = sum((x + 1, y) in shape for x, y in shape) + sum((x, y + 1) in shape for x, y in shape)
    return edges - (len(cells) - 1)


def _can_strand(cells: list[Cell]) -> bool:
    """Whether some walk from the first cell, staying inside the shape, gets stuck before covering it.

    Without such a walk the player could not go wrong, and the level would teach nothing.
    """
    shape = frozenset(cells)

    def stuck(at: Cell, seen: frozenset[Cell]) -> bool:
        options = [(at[0] + dx, at[1] + dy) for dx, dy in DELTAS.values()]
        options = [c for c in options if c in shape and c not in seen]
        if not options:
            return len(seen) < len(shape)
        return any(stuck(c, seen | {c}) for c in options)

    return stuck(cells[0], frozenset(cells[:1]))


def _trail(
    near: list[list[tuple[int, int]]],
    masks: list[int],
    at: int,
    left: int,
    budget: int,
    end: int = -1,
    lock: tuple[int, int] | None = None,
) -> list[int] | None:
    """The actions of a walk from ``at`` through every cell of the bitmask ``left`` once, or None.

    With ``end`` at 0 or above the walk must finish on that cell; with ``lock`` (key, door) it enters
    the door only once the key is painted.
    """
    key, door = lock or (-1, -1)
    spent = 0

    def viable(at: int, left: int) -> bool:
        ends = 0
        rest = left
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            # A cell the trail passes through needs two neighbours among the cells left and the
            # current one; only the trail's last cell may have a single one.
            exits = (masks[i] & left).bit_count() + (masks[at] >> i & 1)
            # Only the trail's last cell may have a single one: the fixed end, if there is one.
            if exits == 0 or (exits == 1 and i != end and (ends := ends + 1) > int(end < 0)):
                return False
        reach = masks[at] & left
        seen = reach
        while reach:
            low = reach & -reach
            reach ^= low
            fresh = masks[low.bit_length() - 1] & left & ~seen
            seen |= fresh
            reach |= fresh
        return seen == left

    def walk(at: int, left: int) -> list[int] | None:
        nonlocal spent
        if not left:
            return []
        if spent >= budget or not viable(at, left):
            return None
        spent += 1
        options = [
            (action, j)
            for action, j in near[at]
            if left >> j & 1 and (j != end or left == 1 << j) and (j != door or not left >> key & 1)
        ]
        # Fewest onward exits first (Warnsdorff's rule): dead ends are taken before they strand.
        options.sort(key=lambda option: (masks[option[1]] & left).bit_count())
        for action, j in options:
            rest = walk(j, left & ~(1 << j))
            if rest is not None:
                return [action, *rest]
        return None

    return walk(at, left)


class _PaintGame(GridGame):
    """The engine side of paint-trail: the paint is one board-sized sprite, painted pixel by pixel."""

    def __init__(self, level: Level) -> None:
        width, height = level.width, level.height
        start = level.cells(START)[0]
        self.walls = frozenset(level.cells(WALL))
        self.shape = frozenset(_silhouette(level))
        self.key = level.cells(KEY)[0] if level.cells(KEY) else None
        self.finish = level.cells(FINISH)[0] if level.cells(FINISH) else None
        left = CELL * width + 1  # the panel's left edge, one pixel clear of the board
        panel = [(left + x, y, STONE) for x, y in self.walls]
        panel += [(left + x, y, LAST if (x, y) == self.finish else PAINT) for x, y in ordered(self.shape)]
        # The green end is drawn under the paint and stops nothing: the player may step on it.
        finish = layer_sprite(
            [(x, y, LAST) for x, y in level.cells(FINISH)], "finish", (width, height), cell=CELL
        )
        key = layer_sprite([(x, y, UNLOCK) for x, y in level.cells(KEY)], "key", (width, height), cell=CELL)
        sprites = [
            finish.set_collidable(False),
            key.set_collidable(False),
            *(block(LOCKED, "door", x, y, cell=CELL, layer=1) for x, y in level.cells(DOOR)),
            layer_sprite(((x, y, STONE) for x, y in self.walls), "walls", (width, height), cell=CELL),
            layer_sprite([(*start, PAINT)], "paint", (width, height), cell=CELL, layer=1),
            layer_sprite(panel, "panel", (left + width, CELL * height)).set_collidable(False),
            block(PLAYER, "player", *start, cell=CELL, layer=2),
        ]
        # The viewport mixes two cell sizes, so it is given in pixels (cells of one pixel).
        super().__init__(
            PaintTrail.id,
            sprites,
            (left + width, CELL * height),
            actions=(1, 2, 3, 4),
            background=GROUND,
            letterbox=EDGE,
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step into a free floor cell and paint it; wet paint and walls stop the player."""
        player, stopped = self.step_player(action, CELL)
        if stopped:
            return True
        x, y = player.x // CELL, player.y // CELL
        paint = self.sprite("paint")
        paint.pixels[y * CELL : (y + 1) * CELL, x * CELL : (x + 1) * CELL] = PAINT
        painted = int((paint.pixels == PAINT).sum()) // (CELL * CELL)
        doors = self.current_level.get_sprites_by_name("door")
        if doors and (x, y) == self.key:  # the key painted: the door opens
            self.current_level.remove_sprite(doors[0])
            doors = []
        shut = {(door.x // CELL, door.y // CELL) for door in doors}
        free = [
            (x + ex, y + ey)
            for ex, ey in DELTAS.values()
            if (x + ex, y + ey) not in self.walls | shut
            and paint.pixels[(y + ey) * CELL, (x + ex) * CELL] != PAINT
        ]
        if (x, y) not in self.shape or ((x, y) == self.finish and painted < len(self.shape)):
            self.lose()
        elif painted == len(self.shape):
            self.next_level()
        elif not free:
            self.lose()
        return True
