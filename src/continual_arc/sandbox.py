"""The sandbox a learner's programs and agents run in, as a learner author meets it (a stable import path).

Defined in :mod:`continual_arc.core.sandbox`: :func:`start_sandboxed` starts a confined process
(:class:`SandboxedProcess`), reaching the tracking proxy through a :class:`ProxyBridge` at the
address :data:`PROXY_ENV` names inside.
"""

from .core.sandbox import PROXY_ENV, ProxyBridge, SandboxedProcess, start_sandboxed

__all__ = ["PROXY_ENV", "ProxyBridge", "SandboxedProcess", "start_sandboxed"]
