"""Write docs/arc3.md's section on the games, and a PNG of one level of each game under docs/img/arc3/.

Run from the repository root, in the Python 3.12 environment (the games need ``arcengine``)::

    .venv312/bin/python scripts/arc3_docs.py

Each game gets its rules (the paragraph the game itself carries), its generator's knobs (the
games' README table, the one place they are listed), whether it is streamed or held out, the
length of its solver's plan on the pictured level, and the picture: the level's first frame in the
engine's 16-colour palette, two pixels a cell. The level is drawn at difficulty 0 (every level
served is) from the seed parts ``("docs",)``, which no schedule uses. The section replaces the
text between the two marker lines of docs/arc3.md, so the rest of that page stays hand-written.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from continual_arc.tracks.arc3.env import attempt_action_cap
from continual_arc.tracks.arc3.track import HELD_OUT_GAMES
from continual_arc_games import GAMES
from continual_arc_games.draw import draw_level
from continual_arc_games.render import save_level_png

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "arc3.md"
PICTURES = ROOT / "docs" / "img" / "arc3"
TABLE = ROOT / "games" / "README.md"
BEGIN, END = "<!-- games: begin (scripts/arc3_docs.py) -->", "<!-- games: end -->"
PIXEL = 2
# The pictured levels' difficulty (the track's DIFFICULTY when it served one difficulty, since gone).
DIFFICULTY = 0


def knobs() -> dict[str, tuple[str, str]]:
    """Each game's actions and knobs, read from the games' README table, by id."""
    rows = re.findall(r"^\| `([a-z-]+)` \|(.*)$", TABLE.read_text(), re.MULTILINE)
    found = {}
    for game, rest in rows:
        cells = [cell.strip() for cell in rest.split(" | ")]
        found[game] = (cells[1], cells[2])  # mechanics, actions, knobs, solver
    return found


def section() -> str:
    """The games' section: one subsection per game, in id order, each with its picture."""
    table = knobs()
    parts = []
    for game in sorted(GAMES):
        spec = GAMES[game]
        level, plan = draw_level(spec, ("docs",), DIFFICULTY)
        save_level_png(spec, level, PICTURES / f"{game}.png", pixel=PIXEL)
        actions, knob = table[game]
        role = "held out" if game in HELD_OUT_GAMES else "streamed"
        parts.append(
            f"### {spec.title} (`{game}`, {role})\n\n"
            f"![a level of {game}](img/arc3/{game}.png)\n\n"
            f"{' '.join(spec.rules.split())}\n\n"
            f"Actions: ACTION{actions}. Knobs (difficulty 0 → {spec.max_difficulty}): {knob}. "
            f"The pictured level's plan is {len(plan)} actions; an attempt's cap is "
            f"{attempt_action_cap(len(plan))}.\n"
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
