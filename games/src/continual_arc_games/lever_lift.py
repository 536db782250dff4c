"""lever-lift: a side view with gravity; work levers that raise and lower lifts to reach the exit.

Legend of the level grid: 0 air, 1 rock, 2 the player's start, 3 the exit, 4 and 5 a lever that
raises or lowers lift A, 6 and 7 the same for lift B, 8 lift A's platform where it starts, 9 the
rest of lift A's shaft (air the platform can move through), 10 and 11 the same for lift B, 12 a
linked lever that raises lift A and lowers lift B, 13 one that lowers A and raises B, and 14 the
key that unlocks the door. A lift's shaft is one column;
its top and bottom cells bound the platform's travel. The param ``fuel``, from difficulty 1, is how
many actions an attempt may spend (a bar below the ground; see ``engine.py``).

Each difficulty adds an element the one before lacks:

- 0: one lift, and levers that move it a row up or down.
- 1: a second lift, of its own colour, with levers of its own: the two must be set in turn.
- 2: a linked lever, which moves both lifts at once, one up and the other down; it replaces the
  lever that would set the second lift right, and every drawn level's plan pulls it.
- 3: a key: the door lets the player in only once it has walked onto the key, which lies off the
  way (every drawn level's plan is longer for it), so the lifts must be set for a round trip.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import LEFT, RIGHT, USE, Level, Move, RejectLevel, fuelled, knobs_at, retry
from .engine import FUEL_RULE, GridGame, block, layer_sprite, patch
from .layouts import Cell, Grid, new_grid
from .search import bfs

__all__ = ["LeverLift"]

AIR, ROCK, START, EXIT = range(4)
LEVERS = {4: (0, -1), 5: (0, 1), 6: (1, -1), 7: (1, 1)}  # code: (lift, rows moved: -1 up, 1 down)
# code: both lifts' moves, A's first
LINKED: dict[int, tuple[tuple[int, int], ...]] = {12: ((0, -1), (1, 1)), 13: ((0, 1), (1, -1))}
KEY = 14
GOLD = 11  # the key, and the lock on the door until it is taken
PLATFORMS, SHAFTS = (8, 10), (9, 11)
HUES = (12, 15)  # lift A orange, lift B purple, and their levers
PLAYER, DOOR, STONE, RAIL, SKY, EDGE = 9, 14, 3, 4, 5, 4
CELL = 4  # pixels per cell, so that a lever can show an arrow

_MOVES = {3: Move(LEFT), 4: Move(RIGHT), 5: Move(USE)}


@dataclass(frozen=True)
class _Knobs:
    size: tuple[int, int]  # columns and rows, rock ring included
    lifts: int
    levers: int  # levers per lift, half raising and half lowering (raising first)
    steps: tuple[int, ...]  # the rises and drops the ground may take from one column to the next
    pulls: int  # lever pulls the fewest-move win needs, at least
    shortest: int  # moves the fewest-move win needs, at least
    linked: bool = False  # whether a linked lever replaces the second lift's needed lever
    key: bool = False  # whether the door is locked until the player takes a key
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)


_KNOBS = (
    _Knobs((10, 8), 1, 2, (-1, 0, 0, 1), 1, 6),
    _Knobs((16, 10), 2, 2, (-2, -1, 0, 1, 1), 2, 15, spare=4),
    _Knobs((16, 10), 2, 2, (-2, -1, 0, 1, 1), 2, 15, linked=True, spare=4),
    _Knobs((16, 10), 2, 2, (-2, -1, 0, 1, 1), 2, 17, linked=True, key=True, spare=3),
)


@dataclass(frozen=True)
class _World:
    rock: frozenset[Cell]
    start: Cell
    exit: Cell
    levers: dict[Cell, tuple[tuple[int, int], ...]]  # cell: each (lift, rows moved) of its pull
    shafts: tuple[tuple[int, int, int], ...]  # per lift: column, top row, bottom row
    platforms: tuple[int, ...]  # per lift: the row its platform starts on
    key: Cell | None = None

    @classmethod
    def read(cls, level: Level) -> _World:
        shafts, platforms = [], []
        for platform, shaft in zip(PLATFORMS, SHAFTS, strict=True):
            cells = level.cells(platform) + level.cells(shaft)
            if cells:
                rows = [y for _, y in cells]
                shafts.append((cells[0][0], min(rows), max(rows)))
                platforms.append(level.cells(platform)[0][1])
        kinds: dict[int, tuple[tuple[int, int], ...]] = {code: (move,) for code, move in LEVERS.items()}
        kinds |= LINKED
        levers = {cell: moves for code, moves in kinds.items() for cell in level.cells(code)}
        keys = level.cells(KEY)
        start, exit_ = level.cells(START)[0], level.cells(EXIT)[0]
        rock = frozenset(level.cells(ROCK))
        return cls(rock, start, exit_, levers, tuple(shafts), tuple(platforms), keys[0] if keys else None)

    def solid(self, cell: Cell, platforms: tuple[int, ...]) -> bool:
        """Whether a cell is rock or a lift's platform where it is now."""
        return cell in self.rock or any(
            cell == (s[0], row) for s, row in zip(self.shafts, platforms, strict=True)
        )

    def fall(self, x: int, y: int, platforms: tuple[int, ...]) -> int:
        """The row the player comes to rest on, falling from (x, y)."""
        while not self.solid((x, y + 1), platforms):
            y += 1
        return y

    def act(self, state: _State, action: int) -> _State:
        """The state after one action by the rules: walk, climb a one-cell step, fall; or pull a lever."""
        x, y, platforms, held = state
        if action == 5:
            moves = self.levers.get((x, y))
            if moves is None:
                return state
            rows_now = list(platforms)
            for lift, rows in moves:
                _, top, bottom = self.shafts[lift]
                rows_now[lift] = min(bottom, max(top, platforms[lift] + rows))
            return x, y, tuple(rows_now), held
        dx = -1 if action == 3 else 1
        if not self.solid((x + dx, y), platforms):
            x, y = x + dx, self.fall(x + dx, y, platforms)
        elif not self.solid((x, y - 1), platforms) and not self.solid((x + dx, y - 1), platforms):
            x, y = x + dx, y - 1
        else:
            return state
        return x, y, platforms, held | ((x, y) == self.key)

    def won(self, state: _State) -> bool:
        """Whether the player stands in the door, with the key if the level has one."""
        return (state[0], state[1]) == self.exit and (self.key is None or bool(state[3]))


# The solver's state: the player's cell, each lift's platform row, and whether the key is taken.
_State = tuple[int, int, tuple[int, ...], int]


class LeverLift:
    """The lever-lift game (see the module docstring for its level legend)."""

    id = "lever-lift"
    title = "Levers and lifts"
    rules = (
        "A side view: grey rock, a blue player, a green door, and one or two lifts, each a coloured "
        "platform in a dark shaft, with levers of its colour, small triangles pointing up or down. "
        "ACTION3 and ACTION4 walk the player one cell left or right; walking into a one-cell step "
        "climbs it if there is headroom, a higher wall stops the player, and with nothing below the "
        "player falls until it lands (one frame per cell). ACTION5 while standing on a lever moves "
        "that lever's lift one cell the way its triangle points, unless the platform is at the end "
        "of its shaft. A lever with two triangles, one of each lift's colour, moves both lifts at once, "
        "each the way its triangle points. A door with a yellow lock lets the player in only after it "
        "has walked onto the yellow key, which unlocks it. The level is won when the player stands in "
        "the door. A fall the player cannot "
        "climb out of leaves the level unwinnable until RESET." + FUEL_RULE
    )
    actions = (LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """Ground of 10x8 to 16x10 cells, 1 or 2 lifts with 2 or 3 levers each, 1 or 2 pulls needed.

        Difficulty 1 adds the second lift, 2 the linked lever and 3 the key (see the
        module docstring). From difficulty 1 the level has fuel: 4, then 3, actions beyond the fewest.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 60)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        width, _ = knobs.size
        grid, stand, shafts = _ground(rng, knobs)
        # The start lies before the first shaft and the door beyond the last, so a lift is in the way.
        before = [x for x in range(1, shafts[0]) if stand[x] >= 0]
        beyond = [x for x in range(shafts[-1] + 1, width - 1) if stand[x] >= 0]
        start, door = rng.choice(before), rng.choice(beyond)
        grid[stand[start]][start] = START
        grid[stand[door]][door] = EXIT
        free = [x for x in range(1, width - 1) if stand[x] >= 0 and x not in (start, door)]
        for lift, shaft in enumerate(shafts):
            platform = next(y for y, row in enumerate(grid) if row[shaft] == PLATFORMS[lift])
            # One lever that moves the platform the way it must go lies before its shaft, within
            # reach; the others point either way and lie anywhere.
            need = 0 if platform > stand[shaft - 1] else 1
            codes = [need] + [(need + 1 + k) % 2 for k in range(knobs.levers - 1)]
            for k, code in enumerate(codes):
                spots = [x for x in free if x < shaft] if k == 0 else free
                if not spots:
                    raise RejectLevel("no room for a lever before its shaft")
                x = rng.choice(spots)
                free.remove(x)
                grid[stand[x]][x] = 4 + 2 * lift + code
                if knobs.linked and lift == 1 and k == 0:  # lift B set right only with A moved too
                    grid[stand[x]][x] = 13 if code == 0 else 12
        if knobs.key:  # off the stretch between the start and the door when there is room
            aside = [x for x in free if not start < x < door]
            x = rng.choice(aside or free)
            grid[stand[x]][x] = KEY
        if rng.random() < 0.5:  # the mirror image, so that the door is as often on the left
            grid = [row[::-1] for row in grid]
        level = Level.make(self.id, grid)
        plan = self.solve(level, self.budget)
        if plan is None:
            raise RejectLevel("no way to the door")
        if len(plan) < knobs.shortest:
            raise RejectLevel(f"{len(plan)} moves reach the door, fewer than {knobs.shortest}")
        if sum(1 for move in plan if move.action == USE) < knobs.pulls:
            raise RejectLevel("the way to the door hardly needs the levers")
        pulled = _pulled(_World.read(level), plan)
        if knobs.linked and not any(grid[y][x] in LINKED for x, y in pulled):
            raise RejectLevel("the way to the door pulls no linked lever")
        if knobs.key:
            unlocked = [[AIR if v == KEY else v for v in row] for row in grid]
            easier = self.solve(Level.make(self.id, unlocked), self.budget)
            if easier is not None and len(easier) >= len(plan):
                raise RejectLevel("the key lies on the way: it adds nothing")
        return fuelled(level, plan, knobs.spare)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: falls are animations, one frame per cell fallen."""
        return _LiftGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over (player cell, platform rows)."""
        world = _World.read(level)

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            for action, move in _MOVES.items():
                after = world.act(state, action)
                if after != state:
                    yield move, after

        start: _State = (*world.start, world.platforms, 0)
        return bfs(start, successors, world.won, budget)


def _pulled(world: _World, plan: tuple[Move, ...]) -> list[Cell]:
    """The cells of the levers ``plan`` pulls, in order."""
    state: _State = (*world.start, world.platforms, 0)
    pulled = []
    for move in plan:
        action = next(a for a, m in _MOVES.items() if m == move)
        if action == 5:
            pulled.append((state[0], state[1]))
        state = world.act(state, action)
    return pulled


def _ground(rng: random.Random, knobs: _Knobs) -> tuple[Grid, list[int], list[int]]:
    """Rock below a random skyline, rising two cells across each lift's shaft, spread over the middle.

    Two cells is too high to climb, so only a platform set level with the ground before the shaft
    makes the step between; any other height leaves a gap to fall into. Returns the grid, per column
    the row a player stands on there (-1 for the ring and shafts), and the shafts' columns.
    """
    width, height = knobs.size
    grid = new_grid(width, height, AIR)
    for x in range(width):
        grid[0][x] = grid[height - 1][x] = ROCK
    for y in range(height):
        grid[y][0] = grid[y][width - 1] = ROCK
    # Shaft i lies in the i-th of as many equal stretches of the middle, clear of the ends.
    low = width // (2 + knobs.lifts)
    stretch = (width - 2 * low) // knobs.lifts
    shafts = [low + i * stretch + rng.randrange(max(1, stretch - 1)) for i in range(knobs.lifts)]
    level = rng.randint(0, 2)
    stand = [-1] * width
    for x in range(1, width - 1):
        if x in shafts:
            level += 2
            continue
        # Leave room under the ring for the rises still to come; a step that would not fit goes back.
        ceiling = height - 4 - 2 * sum(1 for s in shafts if s > x)
        if x - 1 not in shafts:  # right after a shaft the ground stays two cells up
            step = rng.choice(knobs.steps)
            level = level + step if 0 <= level + step <= ceiling else level - step
            level = min(ceiling, max(0, level))
        for y in range(height - 1 - level, height - 1):
            grid[y][x] = ROCK
        stand[x] = height - 2 - level
    for lift, x in enumerate(shafts):
        top = max(1, stand[x - 1] - 3)
        for y in range(top, height - 1):
            grid[y][x] = SHAFTS[lift]
        rows = [y for y in range(top, height - 1) if abs(y - stand[x - 1]) >= knobs.pulls]
        if not rows:
            raise RejectLevel("no room for the platform to start out of place")
        grid[rng.choice(rows)][x] = PLATFORMS[lift]
    return grid, stand, shafts


def _arrow(colour: int, up: bool) -> list[list[int]]:
    """A lever: a small triangle of its lift's colour, pointing the way it moves the platform."""
    point, base = [-1, colour, colour, -1], [colour] * 4
    rows = [point, base] if up else [base, point]
    return [[-1] * 4, *rows, [-1] * 4]


def _lever(moves: tuple[tuple[int, int], ...]) -> list[list[int]]:
    """A lever's pixels: one triangle, or two for a linked lever."""
    if len(moves) == 1:
        lift, rows = moves[0]
        return _arrow(HUES[lift], rows < 0)
    top, bottom = (_arrow(HUES[lift], rows < 0) for lift, rows in moves)
    # A's triangle in the upper half and B's in the lower, each the way it moves its lift.
    return [top[1], top[2], bottom[1], bottom[2]]


# The door (an outline), the door still locked (a yellow bar across it), and the key.
_DOOR = [[DOOR] * 4, [DOOR, -1, -1, DOOR], [DOOR, -1, -1, DOOR], [DOOR, -1, -1, DOOR]]
_LOCKED = [[DOOR] * 4, [DOOR, -1, -1, DOOR], [DOOR, GOLD, GOLD, DOOR], [DOOR, -1, -1, DOOR]]
_KEY = [[-1] * 4, [GOLD, GOLD, GOLD, -1], [GOLD, -1, GOLD, GOLD], [GOLD, GOLD, GOLD, -1]]


class _LiftGame(GridGame):
    """The engine side of lever-lift: the player's moves are worked out by sprite collisions."""

    def __init__(self, level: Level) -> None:
        world = _World.read(level)
        size = (level.width, level.height)
        self.shafts = world.shafts
        rails = [(x, y, RAIL) for x, top, bottom in world.shafts for y in range(top, bottom + 1)]
        door = _DOOR if world.key is None else _LOCKED
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in world.rock), "rock", size, cell=CELL),
            layer_sprite(rails, "rails", size, cell=CELL).set_interaction(InteractionMode.INTANGIBLE),
            patch(door, "exit", *world.exit, cell=CELL, layer=1).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *world.start, cell=CELL, layer=3),
        ]
        for (x, _, _), row, hue, i in zip(world.shafts, world.platforms, HUES, range(2), strict=False):
            sprites.append(block(hue, f"lift{i}", x, row, cell=CELL, layer=2))
        if world.key is not None:
            key = patch(_KEY, "key", *world.key, cell=CELL, layer=1)
            sprites.append(key.set_interaction(InteractionMode.INTANGIBLE))
        for (x, y), moves in sorted(world.levers.items()):
            lever = patch(_lever(moves), f"lever{x}", x, y, cell=CELL, layer=1)
            sprites.append(lever.set_interaction(InteractionMode.INTANGIBLE))
        self.levers = dict(world.levers)
        self.key = world.key
        self.exit = world.exit
        super().__init__(
            LeverLift.id,
            sprites,
            size,
            actions=(3, 4, 5),
            cell=CELL,
            background=SKY,
            letterbox=EDGE,
            fuel=level.param("fuel", 0),
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start has the player standing, not falling, and the key not taken."""
        self.falling = False
        self.held = False

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """One frame of a move: a walk, a climb or a pull, then a frame per cell of any fall."""
        player = self.sprite("player")
        if self.falling:
            self.try_move_sprite(player, 0, CELL)
        elif action == 5:
            self._pull(self.cell_of(player))
        else:
            self._walk(player, -CELL if action == 3 else CELL)
        self.falling = self._can_fall(player)
        if self.falling:
            return False
        here = self.cell_of(player)
        if here == self.key and not self.held:  # taken: the key goes, and so does the door's lock
            self.held = True
            self.current_level.remove_sprite(self.sprite("key"))
            self.sprite("exit").pixels = patch(_DOOR, "exit", 0, 0, cell=CELL).pixels
        if here == self.exit and (self.key is None or self.held):
            self.next_level()
        return True

    def _walk(self, player: Sprite, dx: int) -> None:
        if not self.try_move_sprite(player, dx, 0):
            return
        # Blocked: climb the step if there is room above the player and above the step.
        if self.try_move_sprite(player, 0, -CELL):
            return
        if self.try_move_sprite(player, dx, 0):
            player.move(0, CELL)

    def _pull(self, spot: Cell) -> None:
        moves = self.levers.get(spot)
        if moves is None:
            return
        for lift, rows in moves:
            platform = self.sprite(f"lift{lift}")
            _, top, bottom = self.shafts[lift]
            if top <= platform.y // CELL + rows <= bottom:
                platform.move(0, rows * CELL)

    def _can_fall(self, player: Sprite) -> bool:
        blocked = self.try_move_sprite(player, 0, CELL)
        if not blocked:
            player.move(0, -CELL)  # only a probe: put it back
        return not blocked
