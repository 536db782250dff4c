"""For tests and for trying the benchmark quickly (a stable import path).

Data-free toy task sources, trivial learners, a toy learner that really learns, and
[`check_learner`][continual_arc.play.check_learner.check_learner].

The toy tasks are [`continual_arc.tracks.toy`][continual_arc.tracks.toy]'s; the learners
[`continual_arc.play.toy_learners`][continual_arc.play.toy_learners]'s; the checker
[`continual_arc.play.check_learner`][continual_arc.play.check_learner]'s.
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
