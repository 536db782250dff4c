"""The kernel sandbox for a long-lived process: no network but the proxy, files in its own folders.

Standard library only, at the bottom of the stages, so that the benchmark (``verify`` runs every
learner process in it) and the baselines (an agent harness runs in it) share one. The launcher
(``_launch.py``) is run as a file; [`start_sandboxed`][continual_arc.core.sandbox.process.start_sandboxed]
starts a program through it, and
[`SandboxedProcess.isolation`][continual_arc.core.sandbox.process.SandboxedProcess.isolation] says which
layers the kernel put in force.
"""

# The package's names are the launcher module's, re-exported whole: its __all__ is the one list.
from . import limits, process
from .limits import *  # noqa: F403
from .process import *  # noqa: F403

__all__: list[str] = []
__all__ += process.__all__
__all__ += limits.__all__
