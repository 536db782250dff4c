"""The runner, as a learner author meets it (a stable import path).

[`run`][continual_arc.play.runner.run] plays a learner over a schedule into a run directory that survives a
crash. Defined in [`continual_arc.play.runner`][continual_arc.play.runner].
"""

from .core.learner_ref import LearnerRef
from .play.episode import LearnerError
from .play.options import RunOptions, RunProgress, RunResult
from .play.plugins import PluginError
from .play.rundir import RunDirError
from .play.runner import SpendCapReached, run, stop_sentence

__all__ = [
    "LearnerError",
    "LearnerRef",
    "PluginError",
    "RunDirError",
    "RunOptions",
    "RunProgress",
    "RunResult",
    "SpendCapReached",
    "run",
    "stop_sentence",
]
