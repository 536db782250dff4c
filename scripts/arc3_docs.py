"""Write docs/arc3.md's section on the games, and a PNG of a level of each game at each served difficulty.

Run from the repository root, in the Python 3.12 environment (the games need ``arcengine``)::

    .venv312/bin/python scripts/arc3_docs.py

Each game gets its rules (the paragraph the game itself carries), its generator's knobs (the
games' README table, the one place they are listed), whether it is streamed or held out, the
difficulties the track serves (``SERVED_DIFFICULTIES``), and one picture per served difficulty
with the length of the solver's plan on it: the level's first frame in ARC-AGI-3's 16-colour
palette (listed at the section's head), two pixels a cell. The levels are drawn from the seed parts
``("docs",)``, which no schedule uses. The section replaces the text between the two marker lines
of docs/arc3.md, so the rest of that page stays hand-written.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from continual_arc.tracks.arc3.env import attempt_action_cap
from continual_arc.tracks.arc3.levels import LEVELS_PER_DIFFICULTY, SERVED_DIFFICULTIES
from continual_arc.tracks.arc3.track import HELD_OUT_GAMES
from continual_arc_games import GAMES
from continual_arc_games.draw import draw_level
from continual_arc_games.render import PALETTE, save_level_png

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "arc3.md"
PICTURES = ROOT / "docs" / "img" / "arc3"
TABLE = ROOT / "games" / "README.md"
BEGIN, END = "<!-- games: begin (scripts/arc3_docs.py) -->", "<!-- games: end -->"
PIXEL = 2


def knobs() -> dict[str, tuple[str, str]]:
    """Each game's actions and knobs, read from the games' README table, by id."""
    rows = re.findall(r"^\| `([a-z-]+)` \|(.*)$", TABLE.read_text(), re.MULTILINE)
    found = {}
    for game, rest in rows:
        cells = [cell.strip() for cell in rest.split(" | ")]
        found[game] = (cells[1], cells[2])  # mechanics, actions, knobs, solver
    return found


def palette() -> str:
    """The palette the pictures are drawn in: each colour's number and hexadecimal RGB."""
    cells = " · ".join(f"{i} `{r:02X}{g:02X}{b:02X}`" for i, (r, g, b) in enumerate(PALETTE))
    return f"The pictures' colours, 0 to 15 (ARC-AGI-3's palette): {cells}.\n"


def served(game: str) -> str:
    """The game's served difficulties, said in a sentence."""
    levels = SERVED_DIFFICULTIES[game]
    if len(levels) == 1:
        return f"Served at difficulty {levels[0]} only"
    rising = ", ".join(str(d) for d in levels)
    return (
        f"Served at difficulties {rising} (on the stream {LEVELS_PER_DIFFICULTY} levels at each in "
        "turn, the last thereafter; a test level at any of them)"
    )


def section() -> str:
    """The games' section: the palette, then one subsection per game, in id order, with its pictures.

    A game gets one picture per served difficulty, each drawn from the same seed parts, so that
    what a difficulty adds shows beside the one before it; the lowest is ``<game>.png``, the others
    ``<game>-d<difficulty>.png``.
    """
    table = knobs()
    parts = [palette()]
    for game in sorted(GAMES):
        spec = GAMES[game]
        pictures, plans = [], []
        for number, difficulty in enumerate(SERVED_DIFFICULTIES[game]):
            level, plan = draw_level(spec, ("docs",), difficulty)
            name = f"{game}.png" if number == 0 else f"{game}-d{difficulty}.png"
            save_level_png(spec, level, PICTURES / name, pixel=PIXEL)
            pictures.append(f"![a level of {game} at difficulty {difficulty}](img/arc3/{name})")
            caps = f"{len(plan)} actions, an attempt's cap {attempt_action_cap(len(plan))}"
            plans.append(f"difficulty {difficulty}: {caps}")
        actions, knob = table[game]
        role = "held out" if game in HELD_OUT_GAMES else "streamed"
        parts.append(
            f"### {spec.title} (`{game}`, {role})\n\n"
            f"{' '.join(pictures)}\n\n"
            f"{' '.join(spec.rules.split())}\n\n"
            f"Actions: ACTION{actions}. Knobs (difficulty 0 → {spec.max_difficulty}): {knob}. "
            f"{served(game)}. The pictured levels, left to right, have plans of: {'; '.join(plans)}.\n"
        )
    return "\n".join(parts)


def main() -> int:
    """Rewrite the pictures and the section between the markers."""
    PICTURES.mkdir(parents=True, exist_ok=True)
    page = PAGE.read_text()
    if BEGIN not in page or END not in page:
        print(f"{PAGE} lacks the marker lines {BEGIN!r} and {END!r}", file=sys.stderr)
        return 1
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{BEGIN}\n\n{section()}\n{END}{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
