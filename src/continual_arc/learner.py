"""The learner protocol, as a learner author meets it (a stable import path).

Defined in [`continual_arc.play.learner`][continual_arc.play.learner]:
[`Learner`][continual_arc.play.learner.Learner] (generic over what the learner is shown, answers and is told:
[`GridLearner`][continual_arc.play.learner.GridLearner],
[`GameLearner`][continual_arc.play.learner.GameLearner]),
[`BaseLearner`][continual_arc.play.learner.BaseLearner],
[`load_learner`][continual_arc.play.learner.load_learner] (a learner built from ``module:Class``), and the
optional members as small runtime-checkable protocols ([`SavesState`][continual_arc.play.learner.SavesState],
[`LoadsState`][continual_arc.play.learner.LoadsState], [`Stateless`][continual_arc.play.learner.Stateless],
[`ResumesFrom`][continual_arc.play.learner.ResumesFrom], [`JoinsRun`][continual_arc.play.learner.JoinsRun],
[`LogsInstances`][continual_arc.play.learner.LogsInstances],
[`CountsInstances`][continual_arc.play.learner.CountsInstances],
[`TrainsWeights`][continual_arc.play.learner.TrainsWeights],
[`ShowsMemory`][continual_arc.play.learner.ShowsMemory], [`Closes`][continual_arc.play.learner.Closes],
[`Fingerprinted`][continual_arc.play.learner.Fingerprinted],
[`HasTeacher`][continual_arc.play.learner.HasTeacher],
[`TeacherPlaysFirst`][continual_arc.play.learner.TeacherPlaysFirst] with its
[`UnchargedCopy`][continual_arc.play.uncharged.UnchargedCopy]), and what names a teacher model
([`check_teacher_name`][continual_arc.core.teacher.check_teacher_name],
[`TEACHER_COUNTERS`][continual_arc.core.teacher.TEACHER_COUNTERS]). A learner that keeps files beyond its
state (a cache of searches) keeps them under [`data_dir`][continual_arc.data.directory.data_dir] and writes
them whole with ``atomic_write_text``. A learner whose model call the spend cap refused raises
[SpendCapReached][continual_arc.core.errors.SpendCapReached]: the runner stops the run there.
"""

from .core.errors import SpendCapReached
from .core.files import atomic_write_text
from .core.teacher import TEACHER_COUNTERS, check_teacher_name
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
    HasTeacher,
    JoinsRun,
    Learner,
    LearnerSpecError,
    LoadsState,
    LogsInstances,
    ResumesFrom,
    SavesState,
    ShowsMemory,
    Stateless,
    TeacherPlaysFirst,
    TrainsWeights,
    is_stateless,
    load_learner,
    load_object,
    saves_state,
)
from .play.uncharged import UnchargedCopy

__all__ = [
    "MEMBERS",
    "TEACHER_COUNTERS",
    "AnyLearner",
    "BaseLearner",
    "Closes",
    "CountsInstances",
    "Fingerprinted",
    "GameLearner",
    "GridLearner",
    "HasTeacher",
    "JoinsRun",
    "Learner",
    "LearnerSpecError",
    "LoadsState",
    "LogsInstances",
    "ResumesFrom",
    "SavesState",
    "ShowsMemory",
    "SpendCapReached",
    "Stateless",
    "TeacherPlaysFirst",
    "TrainsWeights",
    "UnchargedCopy",
    "atomic_write_text",
    "check_teacher_name",
    "data_dir",
    "is_stateless",
    "load_learner",
    "load_object",
    "saves_state",
]
