"""The model-free program library plays grids only, and says so in one sentence when handed a game level.

Its DSL search writes grid-to-grid programs; a game level has no grid to answer, only frames to
act on, so there is nothing for it to search. The model learners play levels through
`game_play`, and the model-free learner of arc3 is the explorer.
"""

from __future__ import annotations

from continual_arc.env import GameObservation, LearnerObservation

__all__ = ["grid_only"]

EXPLORER = "continual_arc_baselines.explorer:GameExplorer"
"""The learner that plays arc3's game levels."""


def grid_only(obs: LearnerObservation | GameObservation, learner: object) -> LearnerObservation:
    """``obs``, a grid instance's observation; a game level's is refused: ``learner`` searches grid programs.

    Raises:
        NotImplementedError: ``obs`` is a [`GameObservation`][continual_arc.core.games.GameObservation].
    """
    if isinstance(obs, GameObservation):
        raise NotImplementedError(
            f"{type(learner).__name__} searches programs from grid to grid, which cannot play arc3's game "
            f"levels: use {EXPLORER}, or a model learner"
        )
    return obs
