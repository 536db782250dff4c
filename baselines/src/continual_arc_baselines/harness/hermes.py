"""Hermes Agent (PyPI ``hermes-agent``, pinned 0.19.0) as a learner.

**How it is driven.** Each instance runs Hermes's own one-shot command line, ``hermes -z PROMPT``,
from its virtual environment (``harness install hermes``), in the sandbox, with
``HERMES_HOME`` set to the instance's copy of the workspace. A ``config.yaml`` written there for
the launch (not kept) points its ``custom`` provider at the tracking proxy's marked base URL; every
other setting is Hermes's default, so its persistent memory, its skills and its background review
(which replays a session and may save skills or memories once its nudge intervals are reached)
are on, as shipped. Hermes acts on the instance with its ``terminal`` tool, running ``arc``.

**Where its state lives.** ``HERMES_HOME``: ``memories/`` (``MEMORY.md``, ``USER.md``), ``skills/``,
``SOUL.md``, and ``state.db`` (its SQLite session store, which ``session_search`` reads). Logs,
locks, caches and the launch's ``config.yaml`` are not state.

**The variants** (`VARIANTS`) are the SystemLearner's:
the same command and settings, with the workspace reset before every instance (``memory_wiped``),
the storage request after every verdict (``asked_to_store``), or the one-program instruction in
the task (``keep_one_program``).
"""

from __future__ import annotations

import json
from pathlib import Path

from .packages import HARNESSES, installed
from .play import InstanceContext
from .system import Launch, SystemLearner

__all__ = ["HermesLearner"]


def _python_home(venv: Path) -> str:
    """The installation the venv's interpreter comes from (its standard library), to be readable."""
    for line in (venv / "pyvenv.cfg").read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home":
            return str(Path(value.strip()).parent)
    return "/usr"


class HermesLearner(SystemLearner):
    """Hermes Agent 0.19.0 through the stream (see the module docstring); the SystemLearner's keywords."""

    name = "hermes"
    version = HARNESSES["hermes"].version
    volatile = (
        "config.yaml",
        ".env",
        "logs",
        "cache",
        "sessions",
        "*.lock",
        "*-wal",
        "*-shm",
        "*-journal",
        ".skills_prompt_snapshot.json",
    )

    def launch(self, context: InstanceContext) -> Launch:
        """``hermes -z PROMPT`` with ``HERMES_HOME`` at the instance's workspace."""
        venv = installed("hermes") / "venv"
        model: dict[str, object] = {
            "provider": "custom",
            "default": context.model,
            "base_url": context.base_url,
            "api_key": "placeholder",  # the proxy holds the upstream's key
        }
        config = {"model": model}
        if context.effort:
            config["agent"] = {"reasoning_effort": context.effort}
        # JSON is YAML: no YAML writer is needed on this side.
        (context.workspace / "config.yaml").write_text(json.dumps(config, indent=1), encoding="utf-8")
        env = {
            "HERMES_HOME": str(context.workspace),
            "HOME": str(context.home),
            "TMPDIR": str(context.tmp),
            "PATH": f"{context.bin_dir}:{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
        }
        argv = (str(venv / "bin" / "hermes"), "-z", context.prompt)
        return Launch(argv, env, (str(venv.parent), _python_home(venv)))
