"""For tests and for trying the benchmark quickly (a stable import path).

Data-free toy task sources, trivial learners, a toy learner that really learns, and
:func:`check_learner`.

The toy tasks are :mod:`continual_arc.tracks.toy`'s; the learners :mod:`continual_arc.play.toy_learners`'s;
the checker :mod:`continual_arc.play.check_learner`'s.
"""

from .play.check_learner import check_learner
from .play.toy_learners import DemoBuyerLearner, GiveUpLearner, RandomLearner, RandomPlayer, ToyRuleLearner
from .tracks.toy import apply_rule, toy_fixed_source, toy_generative_source, toy_rule

__all__ = [
    "DemoBuyerLearner",
    "GiveUpLearner",
    "RandomLearner",
    "RandomPlayer",
    "ToyRuleLearner",
    "apply_rule",
    "check_learner",
    "toy_fixed_source",
    "toy_generative_source",
    "toy_rule",
]
