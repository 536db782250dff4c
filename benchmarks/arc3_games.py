"""Time to draw an arc3 level (generate + solve, and the engine replay that checks the plan).

Usage: python benchmarks/arc3_games.py [--levels N] [--game ID ...]   (needs Python 3.12 + arcengine)

Prints, per game and difficulty, the mean and worst milliseconds per served level with and without
the replay, the mean plan length and the sub-draws used. Run it before and after changing a game:
a protocol draws about a thousand levels, so the mean should stay well under 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from continual_arc.tracks.arc3.games import GAMES
from continual_arc.tracks.arc3.games.draw import draw_level


def measure(game_id: str, difficulty: int, levels: int, verify: bool) -> tuple[float, float, float]:
    """Mean and worst ms per level, and the mean plan length."""
    spec = GAMES[game_id]
    times, lengths = [], []
    for seed in range(levels):
        start = time.perf_counter()
        _, plan = draw_level(spec, ("benchmark", seed), difficulty, verify=verify)
        times.append(1000 * (time.perf_counter() - start))
        lengths.append(len(plan))
    return statistics.mean(times), max(times), statistics.mean(lengths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=50)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    args = parser.parse_args()
    print(f"{'game':16} d  solve ms (worst)   +replay ms (worst)   plan")
    for game_id in args.game or sorted(GAMES):
        for difficulty in range(GAMES[game_id].max_difficulty + 1):
            mean, worst, length = measure(game_id, difficulty, args.levels, verify=False)
            mean_v, worst_v, _ = measure(game_id, difficulty, args.levels, verify=True)
            timing = f"{mean:6.1f} ({worst:5.1f})    {mean_v:6.1f} ({worst_v:5.1f})"
            print(f"{game_id:16} {difficulty}  {timing}    {length:5.1f}")


if __name__ == "__main__":
    main()
