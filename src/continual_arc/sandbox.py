"""The sandbox a learner's programs and agents run in, as a learner author meets it (a stable import path).

Defined in [`continual_arc.core.sandbox`][continual_arc.core.sandbox]:
[`start_sandboxed`][continual_arc.core.sandbox.process.start_sandboxed] starts a confined process
([`SandboxedProcess`][continual_arc.core.sandbox.process.SandboxedProcess]), reaching the tracking proxy
through a [`ProxyBridge`][continual_arc.core.sandbox.process.ProxyBridge] at the address
[`PROXY_ENV`][continual_arc.core.sandbox.process.PROXY_ENV] names inside.
"""

from .core.sandbox import PROXY_ENV, ProxyBridge, SandboxedProcess, start_sandboxed

__all__ = ["PROXY_ENV", "ProxyBridge", "SandboxedProcess", "start_sandboxed"]
