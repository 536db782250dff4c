"""SHA-256 fingerprints of everything the games serve: levels, frames and solver plans.

The fingerprints pin the games' behaviour byte for byte, so that a refactor of the package (a
helper shared, a module moved) can be checked to change nothing a run could see. For every game, at
every difficulty and a few seeds, they hash:

- ``generate``: what the generator gives for the first sub-draws' rngs (the level's canonical JSON,
  or the text of its rejection);
- ``draw``: the level [draw_level][continual_arc_games.draw.draw_level] serves and the solver's plan for it;
- ``tight``: the solver's answer within a budget of 40 expansions (pins the order it expands in);
- ``frames``: every frame rendered while the plan is played, then while a fixed pseudo-random
  sequence of the game's actions is played from a reset (a reset after each win or loss).

Usage (from the repository's root; ``--package`` names the games' import package, so that the
same script fingerprints an older layout):

    python games/tests/fingerprints.py [--package continual_arc_games] [--write PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

#: The seeds at which every difficulty of every game is fingerprinted.
SEEDS = (0, 1, 2)
#: The sub-draws whose raw generator output is fingerprinted.
SUBDRAWS = 3
#: How many pseudo-random moves are played after the plan.
RANDOM_MOVES = 30
#: The solver's budget for the ``tight`` fingerprint.
TIGHT_BUDGET = 40
#: Where the digests computed before the games became a package are kept.
DIGESTS = Path(__file__).with_name("fingerprints.json")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plan_text(plan: Any) -> str:
    return "none" if plan is None else json.dumps([str(move) for move in plan])


def _generated(package: str, spec: Any, difficulty: int, seed: int) -> str:
    base = importlib.import_module(f"{package}.base")
    draw = importlib.import_module(f"{package}.draw")
    texts = []
    for subdraw in range(SUBDRAWS):
        rng = draw.level_rng(spec.id, difficulty, ("fingerprint", seed), subdraw)
        try:
            texts.append(spec.generate(rng, difficulty).to_json())
        except base.RejectLevel as reason:
            texts.append(f"rejected: {reason}")
    return _sha("\n".join(texts))


def _moves(package: str, plan: Any, actions: tuple[str, ...], seed: int) -> list[Any]:
    """The plan's moves, then a fixed pseudo-random sequence of the offered actions."""
    base = importlib.import_module(f"{package}.base")
    rng = random.Random(seed)
    clicks = [(move.x, move.y) for move in plan if move.action == base.CLICK]
    moves = list(plan)
    for _ in range(RANDOM_MOVES):
        action = rng.choice(actions)
        if action != base.CLICK:
            moves.append(base.Move(action))
        elif clicks and rng.random() < 0.5:
            moves.append(base.Move.click(*rng.choice(clicks)))
        else:
            moves.append(base.Move.click(rng.randrange(64), rng.randrange(64)))
    return moves


def _frames(package: str, spec: Any, level: Any, plan: Any, seed: int) -> str:
    session_module = importlib.import_module(f"{package}.session")
    session = session_module.Session(spec, level)
    digest = hashlib.sha256()
    for frame in session.frames:
        digest.update(frame.tobytes())
    for move in _moves(package, plan, session.actions, seed):
        if session.over:
            session.reset()
            digest.update(b"reset")
        session.step(move)
        digest.update(f"{move}:{session.won}:{session.lost}:{len(session.frames)}".encode())
        for frame in session.frames:
            digest.update(frame.tobytes())
    return digest.hexdigest()


def fingerprints(package: str = "continual_arc_games") -> dict[str, dict[str, str]]:
    """Every fingerprint, by ``"game/difficulty/seed"`` then by kind."""
    games = importlib.import_module(package)
    draw = importlib.import_module(f"{package}.draw")
    out: dict[str, dict[str, str]] = {}
    for game_id in sorted(games.GAMES):
        spec = games.GAMES[game_id]
        for difficulty in range(spec.max_difficulty + 1):
            for seed in SEEDS:
                level, plan = draw.draw_level(spec, ("fingerprint", seed), difficulty)
                out[f"{game_id}/{difficulty}/{seed}"] = {
                    "generate": _generated(package, spec, difficulty, seed),
                    "draw": _sha(level.to_json() + "\n" + _plan_text(plan)),
                    "tight": _sha(_plan_text(spec.solve(level, TIGHT_BUDGET))),
                    "frames": _frames(package, spec, level, plan, seed),
                }
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the fingerprints' JSON, or write it to ``--write``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="continual_arc_games")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args(argv)
    text = json.dumps(fingerprints(args.package), indent=1, sort_keys=True) + "\n"
    if args.write is None:
        sys.stdout.write(text)
    else:
        args.write.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
