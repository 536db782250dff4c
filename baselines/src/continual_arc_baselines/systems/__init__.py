"""Systems played as they are, beside the learners: the bare model (`bare`)."""

from .bare import BareModelLearner

__all__ = ["BareModelLearner"]
