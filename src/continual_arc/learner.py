"""The learner protocol, as a learner author meets it (a stable import path).

Defined in :mod:`continual_arc.play.learner`: :class:`Learner` (generic over what the learner is
shown, answers and is told: :data:`GridLearner`, :data:`GameLearner`), :class:`BaseLearner`,
:func:`load_learner` (a learner built from ``module:Class``), and the optional members as small
runtime-checkable protocols (:class:`SavesState`, :class:`LoadsState`, :class:`Stateless`,
:class:`ResumesFrom`, :class:`LogsInstances`, :class:`CountsInstances`, :class:`TrainsWeights`,
:class:`ShowsMemory`, :class:`Closes`, :class:`Fingerprinted`). A learner that keeps files
beyond its state (a cache of searches) keeps them under :func:`data_dir` and writes them whole
with ``atomic_write_text``. A learner whose model call the spend cap refused raises
[SpendCapReached][continual_arc.core.errors.SpendCapReached]: the runner stops the run there.
"""

from .core.errors import SpendCapReached
from .core.files import atomic_write_text
from .data.directory import data_dir
from .play.learner import (
    MEMBERS,
    AnyLearner,
    BaseLearner,
    Closes,
    CountsInstances,
    Fingerprinted,
    GameLearner,
    GridLearner,
    Learner,
    LearnerSpecError,
    LoadsState,
    LogsInstances,
    ResumesFrom,
    SavesState,
    ShowsMemory,
    Stateless,
    TrainsWeights,
    is_stateless,
    load_learner,
    load_object,
    saves_state,
)

__all__ = [
    "MEMBERS",
    "AnyLearner",
    "BaseLearner",
    "Closes",
    "CountsInstances",
    "Fingerprinted",
    "GameLearner",
    "GridLearner",
    "Learner",
    "LearnerSpecError",
    "LoadsState",
    "LogsInstances",
    "ResumesFrom",
    "SavesState",
    "ShowsMemory",
    "SpendCapReached",
    "Stateless",
    "TrainsWeights",
    "atomic_write_text",
    "data_dir",
    "is_stateless",
    "load_learner",
    "load_object",
    "saves_state",
]
