r"""The trained learner: open weights whose LoRA adapters learn between rounds (the ``[train]`` extra).

Importing this package needs neither torch nor transformers; building a
`TrainedLearner` does. Play it with the core's
command, e.g.::

    continual-arc protocol --config arc1-smoke --out run \
      --learner continual_arc_baselines.trained:TrainedLearner \
      --learner-kwargs '{"model": "local/tiny@sha256:...", "weights": "/models/tiny", "max_tokens": 64}'

`QDLearner` is the same student trained instead to imitate a teacher model's move in each state it
met (``"teacher": "<model id>"`` among its keywords; see `continual_arc_baselines.trained.qd`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names' types, for the type checker alone: importing them loads torch
    from .learner import TrainedLearner
    from .qd import QDLearner

__all__ = ["QDLearner", "TrainedLearner"]


def __getattr__(name: str) -> type[TrainedLearner] | type[QDLearner]:
    # Lazily, so that the learner's spec resolves here while torch loads only when one is built.
    if name == "TrainedLearner":
        # Lazily: torch loads only when a learner is built (see above).
        from .learner import TrainedLearner

        return TrainedLearner
    if name == "QDLearner":
        # Lazily: torch loads only when a learner is built (see above).
        from .qd import QDLearner

        return QDLearner
    raise AttributeError(name)
