"""The two families of error the benchmark raises on purpose.

A [`ContinualArcError`][continual_arc.core.errors.ContinualArcError] is meant for a person: its message is one
sentence that says what is wrong and what to do, and the command line prints it as such (exit status 2)
instead of a traceback. A [`HarnessFault`][continual_arc.core.errors.HarnessFault] is an error of the
benchmark's own machinery during an instance (a task generator, a plug-in): it stops the run rather than being
charged to the learner.
"""

from __future__ import annotations

__all__ = ["ContinualArcError", "HarnessFault", "SpendCapReached"]


class ContinualArcError(Exception):
    """An error whose message, one sentence, is all a user needs to read."""


class HarnessFault(ContinualArcError):
    """A fault of the benchmark's machinery, not the learner's: it stops the run, never fails one instance."""


class SpendCapReached(ContinualArcError):
    """A learner's model call was refused under the run's spend cap: the run stops there, cleanly.

    Raised by a learner (its model client, or its harness, seeing the tracking proxy's 402); the
    runner ends the run at the round in progress, keeps every committed round, and records the stop
    ([continual_arc.play.runner][continual_arc.play.runner]). Resuming with a raised cap continues from there.
    """
