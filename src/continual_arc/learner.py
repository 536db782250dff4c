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
[`UnchargedCopy`][continual_arc.play.uncharged.UnchargedCopy]), what a learner keeps as its class declares it
([`declared_keeps`][continual_arc.play.learner.declared_keeps], [`Keeps`][continual_arc.play.learner.Keeps]),
and what names a teacher model
([`check_teacher_name`][continual_arc.core.teacher.check_teacher_name],
[`TEACHER_COUNTERS`][continual_arc.core.teacher.TEACHER_COUNTERS]). A learner that keeps files beyond its
state (a cache of searches) keeps them under [`data_dir`][continual_arc.data.directory.data_dir] and writes
them whole with ``atomic_write_text``.

Whether a learner keeps state is declared on its class, never found by building it: ``save_state``
and ``load_state`` methods on the class say it saves its state; a class attribute ``stateless = True``
says it keeps nothing. Where the answer depends on the keyword arguments (a ``keep`` switch), the class
attribute ``stateless_when`` holds the ``(argument, value)`` pairs under which it is stateless, the
class's defaults filling in the arguments not given (``()``: stateless whatever its arguments; ``None``,
the default: ``stateless`` says). A class attribute rather than a classmethod: the answer is data a
reader sees at a glance, and a subclass that fixes an argument in its own ``__init__`` restates it in
one line. A learner whose model call the spend cap refused raises
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
    Keeps,
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
    declared_keeps,
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
    "Keeps",
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
    "declared_keeps",
    "is_stateless",
    "load_learner",
    "load_object",
    "saves_state",
]
