"""A thin base for one-level grid games on ``arcengine``, and helpers to draw their sprites.

Every game of this package is a board of logical cells. A cell is ``cell`` x ``cell`` pixels of the
engine's own grid (the camera's viewport), and the camera scales that viewport up to the 64x64 frame,
letterboxing what is left. `GridGame` takes care of the engine's habits a game author would
otherwise trip over (see the package README): it ignores RESET and unoffered actions in ``step``,
turns ACTION6's frame coordinates into a logical cell, and completes the action for the game.

A level may carry *fuel* (the param ``fuel``, see [`fuelled`][continual_arc_games.base.fuelled]): a bar
one cell high below the board, full at every (re)start, that shortens as actions are spent; the
action that spends the last of it without winning loses the level, as the energy bar of ARC-AGI-3's
``ls20`` does. `GridGame` draws and spends it for every game, so a game only passes the level's fuel on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, GameState, InteractionMode, Level, Sprite

__all__ = [
    "DELTAS",
    "FUEL_LEFT",
    "FUEL_SPENT",
    "GridGame",
    "block",
    "frame_point",
    "fuel_bar",
    "layer_sprite",
    "patch",
]

#: ACTION1-4 as (dx, dy) steps, by ARC-AGI-3's convention: up, down, left, right.
DELTAS: dict[int, tuple[int, int]] = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}

# The engine treats any negative pixel as transparent.
_CLEAR = -1

#: The sentence a fuelled game's rules end with.
FUEL_RULE = (
    " On the harder levels a bar below the board counts the actions left: every action shortens it, and "
    "spending the last of it before the level is won loses the level."
)

#: The fuel bar's colours: what is left (white, as mirror-beam's turns left), what is spent (red).
FUEL_LEFT, FUEL_SPENT = 0, 8


def fuel_bar(width: int, cell: int, fuel: int, spent: int) -> np.ndarray:
    """The pixels of the fuel bar under a board ``width`` cells wide: ``cell`` rows, left part left.

    The bar's length is the share of the fuel left, rounded up, so that it stays visible until the
    last action is spent and is empty only then.
    """
    pixels = np.full((cell, width * cell), FUEL_SPENT, dtype=np.int8)
    left = -(-(fuel - spent) * width * cell // fuel) if fuel > 0 else 0
    pixels[:, : max(0, left)] = FUEL_LEFT
    return pixels


def frame_point(viewport: tuple[int, int], x: int, y: int) -> tuple[int, int]:
    """The frame pixel at the middle of viewport pixel (x, y), for a solver's ACTION6 moves.

    The camera scales a ``viewport`` of (width, height) pixels by the largest whole factor that fits
    in 64x64 and centres it; this repeats that arithmetic (``Camera._calculate_scale_and_offset``).
    """
    width, height = viewport
    scale = min(64 // width, 64 // height)
    x_offset, y_offset = (64 - width * scale) // 2, (64 - height * scale) // 2
    return x * scale + x_offset + scale // 2, y * scale + y_offset + scale // 2


def block(
    colour: int, name: str, x: int, y: int, *, cell: int = 1, layer: int = 1, tags: Sequence[str] = ()
) -> Sprite:
    """A solid one-cell sprite at logical cell (x, y), collidable pixel by pixel."""
    return patch([[colour]], name, x, y, cell=cell, layer=layer, tags=tags)


def patch(
    pattern: Sequence[Sequence[int]],
    name: str,
    x: int,
    y: int,
    *,
    cell: int = 1,
    layer: int = 1,
    tags: Sequence[str] = (),
) -> Sprite:
    """A sprite drawn from a small pattern (``-1`` clear), placed at logical cell (x, y).

    The pattern is given in logical cells when it is 1x1 (filled out to ``cell`` pixels), or in
    pixels otherwise, so a game can give a one-cell object an inner shape (a key's dots, a ring).
    """
    pixels = np.array(pattern, dtype=np.int8)
    if pixels.shape == (1, 1):
        # Filled out here rather than with the sprite's own scale: the engine would re-scale the
        # pixels on every render, and it renders both sprites of every collision test.
        pixels = np.full((cell, cell), pixels[0, 0], dtype=np.int8)
    # A fresh tag list every time: the engine's default is one list shared by every sprite.
    return Sprite(pixels, name=name, x=x * cell, y=y * cell, layer=layer, tags=list(tags))


def layer_sprite(
    cells: Iterable[tuple[int, int, int]], name: str, size: tuple[int, int], *, cell: int = 1, layer: int = 0
) -> Sprite:
    """One sprite covering the whole board, painted at the given (x, y, colour) cells, clear elsewhere.

    Walls and floors go in one such sprite each: the engine renders and collides sprite by sprite,
    so a wall per cell would make every step scan hundreds of sprites.
    """
    width, height = size
    pixels = np.full((height * cell, width * cell), _CLEAR, dtype=np.int8)
    for x, y, colour in cells:
        pixels[y * cell : (y + 1) * cell, x * cell : (x + 1) * cell] = colour
    return Sprite(pixels, name=name, x=0, y=0, layer=layer, tags=[])


class GridGame(ARCBaseGame):
    """An engine game with one level, a board of ``size`` logical cells of ``cell`` pixels each.

    Subclasses override `on_action` and keep all state that RESET must restore either in the
    level's sprites (the engine clones them back) or in fields they reinitialise in
    `on_set_level`, which the engine calls on every reset, and once from its own constructor
    before the subclass's ``__init__`` has run on.
    """

    def __init__(
        self,
        game_id: str,
        sprites: list[Sprite],
        size: tuple[int, int],
        *,
        actions: Sequence[int],
        cell: int = 1,
        background: int = 5,
        letterbox: int = 4,
        fuel: int = 0,
    ) -> None:
        self.cell = cell
        self.fuel = fuel
        self._spent: tuple[object, int] = (None, 0)  # (the level object spent on, actions spent)
        width, height = size
        if fuel > 0:  # the bar is a row below the board; clicks and moves never reach it
            bar = Sprite(fuel_bar(width, cell, fuel, 0), name="fuel", x=0, y=height * cell, layer=9, tags=[])
            sprites = [*sprites, bar.set_interaction(InteractionMode.INTANGIBLE)]
            height += 1
        level = Level(sprites=sprites, grid_size=(width * cell, height * cell), name=game_id)
        camera = Camera(
            0, 0, width * cell, height * cell, background=background, letter_box=letterbox, interfaces=[]
        )
        super().__init__(game_id, [level], camera=camera, available_actions=list(actions))

    def step(self) -> None:
        """Route the current action to `on_action`; complete it once that says it is done."""
        action = self.action.id
        done = True
        # The engine calls step for RESET too, and never checks the offered actions itself.
        if action is not GameAction.RESET and action.value in self._available_actions:
            cell = None
            if action is GameAction.ACTION6:
                cell = self.clicked_cell(int(self.action.data.get("x", 0)), int(self.action.data.get("y", 0)))
            done = self.on_action(action.value, cell)
            if done and self.fuel > 0:
                self._spend_fuel()
        if done:
            self.complete_action()

    def _spend_fuel(self) -> None:
        """Spend one action of fuel and redraw the bar; losing when the last is spent without a win.

        The count is kept against the level object the engine plays: a RESET clones the level
        afresh (its bar full again), so a count of another level object starts from nothing.
        """
        level = self.current_level
        spent = (self._spent[1] if self._spent[0] is level else 0) + 1
        self._spent = (level, spent)
        width = level.grid_size[0] // self.cell if level.grid_size else 0
        self.sprite("fuel").pixels = fuel_bar(width, self.cell, self.fuel, spent)
        if spent >= self.fuel and self._state is not GameState.WIN:
            self.lose()

    def on_action(self, action: int, cell: tuple[int, int] | None) -> bool:
        """Apply one frame of ``action`` (1-7); ``cell`` is ACTION6's logical cell, or None.

        Returns:
            True once the action is fully resolved; False to be called again after the engine has
            rendered another frame (an animation, such as a sliding piece).
        """
        return True

    def clicked_cell(self, x: int, y: int) -> tuple[int, int] | None:
        """The logical cell under frame pixel (x, y), or None in the letterbox."""
        spot = self.camera.display_to_grid(x, y)
        if spot is None:
            return None
        return spot[0] // self.cell, spot[1] // self.cell

    def sprite(self, name: str) -> Sprite:
        """The current level's sprite of that name (the first one, if several share it)."""
        return self.current_level.get_sprites_by_name(name)[0]

    def cell_of(self, sprite: Sprite) -> tuple[int, int]:
        """The logical cell of a sprite's top-left pixel."""
        return sprite.x // self.cell, sprite.y // self.cell

    def step_player(self, action: int, pixels: int | None = None) -> tuple[Sprite, list[Sprite]]:
        """Try to move the sprite named "player" one step the way arrow ``action`` (1-4) points.

        A step is a cell, or ``pixels`` when the game draws at scale 1. Returns the player and the
        sprites that stopped it (none when it moved; the engine put it back when any did).
        """
        dx, dy = DELTAS[action]
        step = self.cell if pixels is None else pixels
        player = self.sprite("player")
        return player, self.try_move_sprite(player, dx * step, dy * step)

    def move_to(self, sprite: Sprite, x: int, y: int) -> None:
        """Place a sprite's top-left pixel at logical cell (x, y), ignoring collisions."""
        sprite.set_position(x * self.cell, y * self.cell)
