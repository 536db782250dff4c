"""Print the figures by which the stages' contracts are judged (issue 28): how typed the code is.

Counts, over ``src/`` and ``baselines/src/`` (run from the repository's root, or give it):

* ``Any`` and ``dict[str, Any]`` as written in the code;
* ``get_track(`` calls (a track resolved by name);
* the modules that spell out a protocol's reset plays (``"stream-reset"`` as a literal);
* the lines of the arc3 games inside the core's ``src/``, and their share of the core's lines.

Usage: ``python scripts/contract_figures.py [ROOT]``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_ANY = re.compile(r"\bAny\b")
_DICT_ANY = re.compile(r"dict\[str, Any\]")
_GET_TRACK = re.compile(r"\bget_track\(")
_RESET_PLAY = re.compile(r"[\"']stream-reset[\"']")


def _sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _count(pattern: re.Pattern[str], files: list[Path]) -> int:
    return sum(len(pattern.findall(f.read_text())) for f in files)


def figures(root: Path) -> dict[str, object]:
    """The figures, by name, for the repository at ``root``."""
    core, baselines = _sources(root / "src"), _sources(root / "baselines" / "src")
    core_lines = sum(len(f.read_text().splitlines()) for f in core)
    games = [f for f in core if "games" in f.relative_to(root / "src").parts[:-1]]
    game_lines = sum(len(f.read_text().splitlines()) for f in games)
    return {
        "Any in src/": _count(_ANY, core),
        "dict[str, Any] in src/": _count(_DICT_ANY, core),
        "Any in baselines/src/": _count(_ANY, baselines),
        "dict[str, Any] in baselines/src/": _count(_DICT_ANY, baselines),
        "get_track( calls in src/": _count(_GET_TRACK, core),
        "modules naming a reset play": sum(1 for f in core if _RESET_PLAY.search(f.read_text())),
        "game lines in src/": game_lines,
        "games' share of src/ lines": f"{100 * game_lines / core_lines:.1f} %" if core_lines else "-",
    }


def main() -> None:
    """Print each figure on a line of its own."""
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()
    for name, value in figures(root).items():
        print(f"{name:34} {value}")


if __name__ == "__main__":
    main()
