"""The learner protocol, as a learner author meets it (a stable import path).

Defined in :mod:`continual_arc.play.learner`: :class:`Learner`, :class:`BaseLearner`, and
:func:`load_learner` (a learner built from ``module:Class``).
"""

from .play.learner import MEMBERS, BaseLearner, Learner, LearnerSpecError, load_learner, load_object

__all__ = ["MEMBERS", "BaseLearner", "Learner", "LearnerSpecError", "load_learner", "load_object"]
