"""Running model-written Python safely: one locked-down subprocess per call, outputs back as JSON.

See [`run_program`][continual_arc_baselines.sandbox._run.run_program]. What the sandbox does and does not
prevent is documented in the baselines' README ("The sandbox");
[`SandboxResult`][continual_arc_baselines.sandbox._run.SandboxResult] says which isolation was in force for
each run.
"""

from continual_arc_baselines.sandbox._run import DEFAULT_PACKAGES, SandboxResult, run_program

__all__ = ["DEFAULT_PACKAGES", "SandboxResult", "run_program"]
