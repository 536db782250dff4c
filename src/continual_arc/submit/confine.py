"""The rights of a verified learner's process in the kernel sandbox, and what it got.

A learner's process must import its code and its packages, so it may read and execute the system's
folders, its Python (the installation, the environment's ``site-packages`` and the folders those
point to: editable installs), ``continual_arc``'s and the learner's source folders, and the
``PYTHONPATH`` of its environment. It writes only its own working folder. It reaches the tracking
proxy's port if a proxy is given, and no address at all otherwise. None of the folders it may read
may hold the data directory or the pack: Landlock grants a folder with everything under it, so such
a folder is refused before any process starts
([`SandboxConflict`][continual_arc.submit.confine.SandboxConflict]).
"""

from __future__ import annotations

import compileall
import contextlib
import importlib.util
import os
import shutil
import site
import stat
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from ..core.errors import ContinualArcError
from ..core.records import JSONObject, JSONValue
from ..core.sandbox import DATA_INSIDE, PROXY_ENV, Confinement, Limits, ProxyBridge
from ..data.directory import DATA_ENV, data_dir

__all__ = [
    "SandboxConflict",
    "SandboxUnreadable",
    "confinement",
    "in_force",
    "limits_block",
    "precompile",
    "proxy_bridge",
    "python_dirs",
    "sandboxed_env",
    "with_proxy",
]


class SandboxConflict(ContinualArcError, ValueError):
    """A folder the learner must read holds the data directory or the pack: the sandbox cannot hide it."""


class SandboxUnreadable(ContinualArcError, PermissionError):
    """Run by root, the learner runs as ``nobody``, who cannot read a folder it must import from."""


def _module_root(name: str) -> str | None:
    """The folder a top-level module is imported from (its package's parent), if it is found."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    origin = Path(spec.origin)
    return str(origin.parent.parent if origin.name == "__init__.py" else origin.parent)


def _pth_dirs(site_dir: str) -> list[str]:
    """The folders a ``.pth`` file of ``site_dir`` adds to the path (editable installs)."""
    found = []
    for pth in sorted(Path(site_dir).glob("*.pth")):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            for line in pth.read_text(encoding="utf-8").splitlines():
                if line and not line.startswith(("#", "import")) and Path(line).is_dir():
                    found.append(line)
    return found


def python_dirs(learner: str, env: Mapping[str, str]) -> list[str]:
    """The folders a learner's process must read to import ``continual_arc`` and the learner."""
    dirs = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    for site_dir in site.getsitepackages():
        dirs += [site_dir, *_pth_dirs(site_dir)]
    dirs += [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]
    top = learner.split(":", 1)[0].split(".", 1)[0]
    dirs += [root for name in ("continual_arc", top) if (root := _module_root(name))]
    return list(dict.fromkeys(os.path.realpath(d) for d in dirs))


def precompile(learner: str) -> None:
    """Compile ``continual_arc``'s and the learner's modules where their bytecode is missing or stale.

    A sandboxed process may not write beside its sources, so a module with no up-to-date bytecode
    would be compiled again by every learner process (one per test instance); here it is compiled
    once. Nothing is written when bytecode writing is off (``PYTHONDONTWRITEBYTECODE``), as Python's
    own imports would write nothing.
    """
    if sys.dont_write_bytecode:
        return
    top = learner.split(":", 1)[0].split(".", 1)[0]
    for name in dict.fromkeys(("continual_arc", top)):
        with contextlib.suppress(ImportError, ValueError):
            spec = importlib.util.find_spec(name)
            if spec is None:
                continue
            for folder in spec.submodule_search_locations or ():
                compileall.compile_dir(folder, quiet=2)
            if not spec.submodule_search_locations and spec.origin and spec.origin.endswith(".py"):
                compileall.compile_file(spec.origin, quiet=2)


def _check_withheld(read_dirs: Sequence[str], withheld: Sequence[Path]) -> None:
    for folder in withheld:
        hidden = Path(os.path.realpath(folder))
        for allowed in read_dirs:
            if hidden == Path(allowed) or Path(allowed) in hidden.parents:
                raise SandboxConflict(
                    f"the learner must read {allowed}, which holds a folder it must not reach; "
                    "move the data directory or the pack out of it"
                )


def _check_readable(read_dirs: Sequence[str]) -> None:
    """Under root, every folder the learner imports from must be open to others (it runs as nobody)."""
    if os.geteuid() != 0:
        return  # the learner runs as this user, who can read what it imports
    for folder in read_dirs:
        with contextlib.suppress(FileNotFoundError):
            mode = os.stat(folder).st_mode
            need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
            if mode & need != need:
                raise SandboxUnreadable(
                    f"the learner runs as user nobody and must read {folder}, which only its owner "
                    f"can: make it readable to all (chmod o+rX {folder}) or run verify as another user"
                )


def confinement(
    learner: str,
    env: Mapping[str, str],
    *,
    withheld: Sequence[Path],
    bridge: ProxyBridge | None,
    wall_seconds: float | None,
    empty_data: Path,
    limits: Limits | None = None,
) -> Confinement:
    """The rights of a learner's process whose environment is ``env`` (see the module docstring).

    Args:
        learner: the learner's import path, ``module:Class``.
        env: its environment; its ``PYTHONPATH`` is readable.
        withheld: folders it must not reach besides the data directory (the pack's).
        bridge: the proxy's bridge, or ``None`` for no network at all.
        wall_seconds: the wall-time cap of each process, also its CPU-time cap.
        empty_data: an empty folder of ours: where the data directory is, were the private root
            refused (with one, the learner sees an empty folder at
            [DATA_INSIDE][continual_arc.core.sandbox.process.DATA_INSIDE], a path that names nothing).
        limits: its memory, processes, file size, working folder, log and saved state (default
            [Limits][continual_arc.core.sandbox.limits.Limits]'s).

    Raises:
        SandboxConflict: a folder it must read holds the data directory or a withheld folder.
        SandboxUnreadable: run by root, a folder it must read is closed to other users.
    """
    read_dirs = python_dirs(learner, env)
    _check_withheld(read_dirs, [data_dir(), *withheld])
    _check_readable(read_dirs)
    return Confinement(
        read_dirs=tuple(read_dirs),
        port=None if bridge is None else bridge.port,
        bridge=None if bridge is None else bridge.path,
        wall_seconds=wall_seconds,
        cpu_seconds=None if wall_seconds is None else int(wall_seconds),
        limits=Limits() if limits is None else limits,
        isolate=True,
        data=(DATA_ENV, empty_data),
    )


def sandboxed_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` as a sandboxed learner's process is started with: its data directory at a fixed path.

    The path ([DATA_INSIDE][continual_arc.core.sandbox.process.DATA_INSIDE]) names nothing of the
    verification (its output folder, the play); the launcher puts an empty folder there.
    """
    return {**env, DATA_ENV: DATA_INSIDE}


@contextlib.contextmanager
def proxy_bridge(url: str | None) -> Iterator[ProxyBridge | None]:
    """A bridge to the tracking proxy at ``url`` for the sandbox's relay; ``None`` with no proxy."""
    if url is None:
        yield None
        return
    where = urlsplit(url)
    root = Path(tempfile.mkdtemp(prefix="carc-v-"))  # short: a Unix socket's path is short
    try:
        with ProxyBridge(root / "proxy.sock", where.hostname or "127.0.0.1", where.port or 80) as bridge:
            yield bridge
    finally:
        shutil.rmtree(root, ignore_errors=True)


def with_proxy(env: Mapping[str, str], url: str) -> dict[str, str]:
    """``env`` naming the proxy at ``url`` as a sandboxed learner reaches it (`PROXY_ENV`).

    Inside its network namespace the proxy is the relay on ``127.0.0.1`` at the proxy's port,
    whatever host serves it: the learner is told that address, with the URL's scheme and path
    (``/v1``, the proxy's OpenAI base, when it has none).
    """
    where = urlsplit(url)
    path = where.path.rstrip("/") or "/v1"
    return {**env, PROXY_ENV: f"{where.scheme or 'http'}://127.0.0.1:{where.port or 80}{path}"}


def in_force(
    reports: Sequence[Mapping[str, JSONValue]],
    *,
    sandbox: bool,
    proxy: str | None,
    wall_seconds: float | None,
) -> JSONObject:
    """What held for every process of one kind (a layer counts only if it held for all of them).

    ``unprivileged``: every process ran as a user other than root with no effective capability.
    """
    if not sandbox:
        return {"sandbox": False, "processes": 0}
    reports = [r for r in reports if "limit_hit" not in r]  # an instance a limit ended, not a process
    layers = ("network_namespace", "landlock_fs", "landlock_tcp", "pid_namespace", "private_root")
    first = reports[0] if reports else {}
    unprivileged = bool(reports) and all(
        r.get("uid") not in (None, 0) and r.get("capabilities") == 0 for r in reports
    )
    return {
        "sandbox": True,
        "processes": len(reports),
        **{layer: bool(reports) and all(bool(r.get(layer)) for r in reports) for layer in layers},
        "unprivileged": unprivileged,
        "proxy_port": first.get("proxy_port"),
        "cpu_seconds": first.get("cpu_seconds"),
        "file_bytes": first.get("file_bytes"),
        "memory_bytes": first.get("memory_bytes"),
        "pid_max": bool(reports) and all(bool(r.get("pid_max")) for r in reports),
        "wall_seconds": wall_seconds,
        "spend_cap": "the tracking proxy's" if proxy else "none needed: no proxy, so no model can be called",
    }


def limits_block(
    limits: Limits, reports: Mapping[str, Sequence[Mapping[str, JSONValue]]], *, sandbox: bool
) -> JSONObject:
    """``verification.json``'s ``limits``: each limit's value, and every instance one ended.

    ``reports`` are the sandbox's reports by kind of process, the limits' hits among them
    (``{"limit_hit": sentence, "play": name}``); unsandboxed, no limit was in force.
    """
    hits: list[JSONValue] = [
        {"play": report["play"], "sentence": report["limit_hit"]}
        for found in reports.values()
        for report in found
        if "limit_hit" in report
    ]
    values: JSONObject = {name: value for name, value in vars(limits).items()}
    return {"in_force": sandbox, **values, "hits": hits}
