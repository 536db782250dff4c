"""Two tiny games written into the layout ARC Prize's toolkit downloads public games into (for tests).

Each game is a corridor six cells long: ACTION3 and ACTION4 step the blue player left and right, and
reaching the green goal wins the level. Level 0's goal is 2 cells away, level 1's 4 cells, so the
fewest actions are 2 and 4; the human baselines the metadata gives are 3 and 5.
"""

from __future__ import annotations

import json
from pathlib import Path

SOURCE = """
import numpy as np
from arcengine import ARCBaseGame, Camera, GameAction, Level, Sprite


def _cell(colour, name, x):
    return Sprite(np.full((1, 1), colour, dtype=np.int8), name=name, x=x, y=0, layer=1, tags=[])


class {name}(ARCBaseGame):
    def __init__(self, seed: int = 0) -> None:
        levels = [
            Level(sprites=[_cell(9, "player", 0), _cell(14, "goal", x)], grid_size=(6, 1), name=f"goal{{x}}")
            for x in (2, 4)
        ]
        camera = Camera(0, 0, 6, 1, background=5, letter_box=4, interfaces=[])
        super().__init__("{game}", levels, camera=camera, available_actions=[3, 4])

    def step(self) -> None:
        if self.action.id in (GameAction.ACTION3, GameAction.ACTION4):
            player = self.current_level.get_sprites_by_name("player")[0]
            step = 1 if self.action.id is GameAction.ACTION4 else -1
            player.set_position(max(0, min(5, player.x + step)), 0)
            if player.x == self.current_level.get_sprites_by_name("goal")[0].x:
                self.next_level()
        self.complete_action()
"""

GAMES = ("tt01", "tt02")
BASELINES = [3, 5]


def write_game(folder: Path, game: str, version: str = "0001") -> Path:
    """Write ``game`` as the toolkit lays out a download: ``<game>/<version>/``, metadata and source."""
    where = folder / game / version
    where.mkdir(parents=True, exist_ok=True)
    name = game[:1].upper() + game[1:4]
    metadata = {"game_id": f"{game}-{version}", "title": game.upper(), "baseline_actions": BASELINES}
    (where / "metadata.json").write_text(json.dumps(metadata))
    (where / f"{name.lower()}.py").write_text(SOURCE.format(name=name, game=game))
    return where
