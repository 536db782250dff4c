"""Installing a harness into an environment of its own: ``continual-arc-baselines harness install NAME``.

Installing is the only step that downloads anything (see `packages` for where it goes).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .openclaw import verify_install, warm_compile_cache
from .packages import HARNESSES, HarnessPackage

__all__ = ["install"]


def _run(argv: Sequence[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(argv), flush=True)
    subprocess.run(list(argv), check=True, env=env)


def _install_pypi(package: HarnessPackage, home: Path) -> None:
    python = getattr(sys, "_base_executable", sys.executable)  # not the benchmark's venv
    _run([python, "-m", "venv", str(home / "venv")])
    _run([str(home / "venv" / "bin" / "pip"), "install", "--quiet", package.package])


def _install_npm(package: HarnessPackage, home: Path) -> None:
    npm = shutil.which("npm")
    if npm is None or package.runtime is None:
        raise RuntimeError("installing an npm harness needs npm on PATH")
    _run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(home / "node"), package.runtime])
    node_bin = home / "node" / "node_modules" / package.runtime.split("@")[0] / "bin"
    # The harness's install scripts check the Node that runs them: run npm itself on the new Node.
    env = {**os.environ, "PATH": f"{node_bin}:{os.environ.get('PATH', '')}"}
    npm_cli = Path(npm).resolve()
    argv = [str(node_bin / "node"), str(npm_cli), "install", "--no-audit", "--no-fund"]
    _run([*argv, "--prefix", str(home / "app"), package.package], env=env)


def install(name: str, root: Path | None = None) -> Path:
    """Install the harness ``name`` (a key of `HARNESSES`) into its own folder; that folder.

    OpenClaw's install is then checked (`verify_install`:
    npm may have skipped its install scripts and still reported success) and it is run once, on a
    fixed local reply, to fill its compile cache
    (`warm_compile_cache`). Only a checked install
    is recorded as installed (``installed.json``).

    Raises:
        KeyError: no harness of that name. subprocess.CalledProcessError: an install step failed.
        RuntimeError: the install did not complete (the message says what is missing).
    """
    package = HARNESSES[name]
    home = package.home(root)
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    (_install_pypi if package.kind == "pypi" else _install_npm)(package, home)
    if name == "openclaw" and package.runtime is not None:
        verify_install(home, package.runtime.split("@")[1], package.version)
        warm_compile_cache(home)
    record = {
        "name": name,
        "version": package.version,
        "package": package.package,
        "runtime": package.runtime,
    }
    (home / "installed.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return home
