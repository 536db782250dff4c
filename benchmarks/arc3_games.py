"""arc3's games at their served difficulties: the random floor, the solver's plan, the distinct levels.

Usage: python benchmarks/arc3_games.py [--levels N] [--draws M] [--game ID ...] [--jobs J] [--timing]
(needs Python 3.12 + arcengine)

Prints, per game and served difficulty (``tracks/arc3/levels.py``), the share of ``N`` stream-half
levels that each of the two random floors wins under the environment's rules (8 attempts, each to
its action cap): ``RandomPlayer`` clicking uniform pixels, and ``RandomPlayer(mode="patch")``
clicking the centre of a uniform connected patch of one colour (both draw the other actions
uniformly); then the solver's mean plan length (the level score's baseline), and the distinct levels among
``M`` generator draws with Chao1's estimate of how many there are. Every served difficulty must
stay below one random win in three for both players. ``--timing`` prints instead the mean and worst
milliseconds per level drawn, with and without the engine replay of the plan, at every difficulty:
a protocol draws about a thousand levels, so the mean should stay well under 50 ms where the search
allows (games/README.md names the difficulties that take longer).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from record import Unavailable

try:  # the games and arcengine install on Python 3.12 only
    from continual_arc.core.environment import EnvSettings
    from continual_arc.play.toy_learners import RandomPlayer
    from continual_arc.tracks.arc3.env import GameEnv
    from continual_arc.tracks.arc3.levels import SERVED_DIFFICULTIES, in_test_half
    from continual_arc.tracks.arc3.source import GameInstance
    from continual_arc_games import GAMES, RejectLevel
    from continual_arc_games.draw import draw_level, level_rng
except ModuleNotFoundError as missing:
    MISSING: str | None = f"needs Python 3.12 with the arc3 extra and the games ({missing})"
else:
    MISSING = None


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


def random_wins(game_id: str, difficulty: int, levels: int, mode: str) -> tuple[int, float]:
    """Levels of ``levels`` (stream half) that RandomPlayer in ``mode`` wins, and the mean plan."""
    spec, player, wins, plans = GAMES[game_id], RandomPlayer(mode=mode), 0, []
    for seed in range(levels):
        level, plan = draw_level(spec, ("benchmark", seed), difficulty, max_subdraws=64, accept=_stream_half)
        instance = GameInstance("benchmark", game_id, seed, difficulty, level, plan, 0, _no_demos)
        env = GameEnv(instance, EnvSettings())
        while not env.done:
            env.step(player.act(env.view(game_id, seed, 0, 0)))
        wins += env.result().solved
        plans.append(len(plan))
    return wins, statistics.mean(plans)


def _stream_half(level: object) -> bool:
    return not in_test_half(level)  # type: ignore[arg-type]


def _no_demos(index: int) -> object:
    raise IndexError("the benchmark buys no demonstration")


def distinct_levels(game_id: str, difficulty: int, draws: int) -> tuple[int, float]:
    """Distinct layouts among ``draws`` generator draws, and Chao1's estimate of all there are."""
    spec, counts = GAMES[game_id], {}
    for seed in range(draws):
        try:
            level = spec.generate(level_rng(game_id, difficulty, ("distinct", seed), 0), difficulty)
        except RejectLevel:
            continue
        counts[level] = counts.get(level, 0) + 1
    once = sum(1 for n in counts.values() if n == 1)
    twice = sum(1 for n in counts.values() if n == 2)
    estimate = len(counts) + (once * (once - 1) / 2 if twice == 0 else once * once / (2 * twice))
    return len(counts), estimate


def floor_row(game_id: str, difficulty: int, levels: int, draws: int) -> str:
    """One line of the table: both random floors' wins, the mean plan and the distinct levels."""
    shares = []
    for mode in RandomPlayer.MODES:
        wins, plan = random_wins(game_id, difficulty, levels, mode)
        shares.append(f"{wins:3}/{levels} = {wins / levels:.2f}")
    seen, estimate = distinct_levels(game_id, difficulty, draws)
    floors = "  ".join(f"{share:14}" for share in shares)
    return f"{game_id:16} {difficulty}  {floors}  {plan:5.1f}  {seen:5} ({estimate:.0f})"


def _row(job: tuple[str, int, int, int]) -> str:
    return floor_row(*job)


def floor_table(
    games: list[str], levels: int, draws: int, only: list[int] | None = None, jobs: int = 1
) -> None:
    """The random floor, the plan and the distinct levels of each game at each served difficulty.

    Rows are computed in ``jobs`` processes (each row is a pure function of its game and difficulty)
    and printed in order, so the table is the same whatever ``jobs`` is.
    """
    print(f"{'game':16} d  pixel wins       patch wins       plan  distinct of {draws} (Chao1)")
    rows = [(g, d, levels, draws) for g in games for d in only or SERVED_DIFFICULTIES[g]]
    if jobs <= 1:
        for row in rows:
            print(_row(row), flush=True)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for line in pool.imap(_row, rows):
            print(line, flush=True)


def main() -> None:
    if MISSING:
        raise Unavailable(MISSING)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=30)
    parser.add_argument("--draws", type=int, default=400)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument(
        "--difficulty", type=int, action="append", help="these difficulties (served or not) instead"
    )
    parser.add_argument("--timing", action="store_true", help="time the draws at every difficulty instead")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes computing the table's rows (default 1)"
    )
    args = parser.parse_args()
    if not args.timing:
        floor_table(args.game or sorted(GAMES), args.levels, args.draws, args.difficulty, args.jobs)
        return
    print(f"{'game':16} d  solve ms (worst)   +replay ms (worst)   plan")
    for game_id in args.game or sorted(GAMES):
        for difficulty in range(GAMES[game_id].max_difficulty + 1):
            mean, worst, length = measure(game_id, difficulty, args.levels, verify=False)
            mean_v, worst_v, _ = measure(game_id, difficulty, args.levels, verify=True)
            timing = f"{mean:6.1f} ({worst:5.1f})    {mean_v:6.1f} ({worst_v:5.1f})"
            print(f"{game_id:16} {difficulty}  {timing}    {length:5.1f}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("arc3_games", main)
