"""Speed of the arc3 track: steps through GameEnv against raw engine steps, and levels drawn a second.

Usage: python benchmarks/arc3.py [--steps N] [--levels N] [--game ID ...]   (Python 3.12 + arcengine)

For each game, the same random actions (the game's own, clicks on random cells) are played
twice from the same level of the track's difficulty: straight into the engine (``perform_action`` with
raw frames, a RESET on a win or a loss), and through ``GameEnv`` as the runner plays them (the
learner's view, the step, the feedback's JSON with its frame table), a fresh instance whenever one
ends. The overhead is the ratio of the two rates. Then it times drawing levels as the track serves
them: generate, solve, and replay the plan in the engine (``draw_level``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from record import Unavailable

try:  # the games and arcengine install on Python 3.12 only
    from arcengine import ActionInput
    from arcengine import GameAction as EngineAction

    from continual_arc.core.environment import EnvSettings
    from continual_arc.core.games import GameAction
    from continual_arc.tracks.arc3.env import GameEnv
    from continual_arc.tracks.arc3.source import GameSource
    from continual_arc_games import GAMES
    from continual_arc_games.draw import draw_level
except ModuleNotFoundError as missing:
    MISSING: str | None = f"needs Python 3.12 with the arc3 extra and the games ({missing})"
else:
    MISSING = None


def random_actions(game_id: str, count: int, seed: int) -> list[GameAction]:
    """``count`` actions the game offers, clicks on random cells, from a seeded rng."""
    rng = random.Random(seed)
    names = GAMES[game_id].actions
    out = []
    for _ in range(count):
        name = rng.choice(names)
        out.append(
            GameAction.click(rng.randrange(64), rng.randrange(64)) if name == "ACTION6" else GameAction(name)
        )
    return out


def raw_rate(game_id: str, actions: list[GameAction]) -> float:
    """Engine steps a second: ``perform_action`` with raw frames, a RESET after a win or a loss."""
    spec = GAMES[game_id]
    game = spec.build(GameSource("benchmark", [game_id], 0).instance(game_id, 0).level)
    reset = ActionInput(id=EngineAction.RESET)
    game.perform_action(reset, raw=True)
    start = time.perf_counter()
    for action in actions:
        data = {"x": action.x, "y": action.y} if action.x is not None else {}
        frame = game.perform_action(
            ActionInput(id=EngineAction.from_name(action.action), data=data), raw=True
        )
        if frame.state.name in ("WIN", "GAME_OVER"):
            game.perform_action(reset, raw=True)
    return len(actions) / (time.perf_counter() - start)


def env_rate(game_id: str, actions: list[GameAction]) -> float:
    """Steps a second through GameEnv as the runner plays them: view, step, the feedback as JSON."""
    source = GameSource("benchmark", [game_id], 0)
    instance = source.instance(game_id, 0)  # drawn before the clock starts
    env = GameEnv(instance)
    start = time.perf_counter()
    for action in actions:
        if env.done:
            env = GameEnv(instance, EnvSettings())
        obs = env.view("g", 0, 0, 0)
        env.observation_json(obs)
        env.feedback_json(env.step(action))
    return len(actions) / (time.perf_counter() - start)


def draw_rate(game_id: str, levels: int) -> float:
    """Levels served a second: generate, solve, and replay the plan in the engine."""
    start = time.perf_counter()
    for seed in range(levels):
        draw_level(GAMES[game_id], ("benchmark", "draw", seed), 0)
    return levels / (time.perf_counter() - start)


def main() -> None:
    if MISSING:
        raise Unavailable(MISSING)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--levels", type=int, default=30)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    args = parser.parse_args()
    print(f"{'game':16} {'engine steps/s':>14} {'GameEnv steps/s':>15} {'overhead':>8} {'levels/s':>9}")
    ratios, raws, envs, draws = [], [], [], []
    for game_id in args.game or sorted(GAMES):
        actions = random_actions(game_id, args.steps, 0)
        raw, through, drawn = (
            raw_rate(game_id, actions),
            env_rate(game_id, actions),
            draw_rate(game_id, args.levels),
        )
        ratios.append(raw / through)
        raws.append(raw)
        envs.append(through)
        draws.append(drawn)
        print(f"{game_id:16} {raw:14.0f} {through:15.0f} {raw / through:7.2f}x {drawn:9.1f}")
    print(
        f"{'median':16} {statistics.median(raws):14.0f} {statistics.median(envs):15.0f} "
        f"{statistics.median(ratios):7.2f}x {statistics.median(draws):9.1f}"
    )


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("arc3", main)
