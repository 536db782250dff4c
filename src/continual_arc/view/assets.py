"""The page's files (HTML, CSS, JavaScript), shipped as package data: no build step, nothing fetched.

They are read once into memory by name, so that the server answers only the names listed here and
no request can reach any other file.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType

__all__ = ["CONTENT_TYPES", "mode_script", "static_files"]

CONTENT_TYPES: Mapping[str, str] = MappingProxyType(
    {
        ".html": "text/html; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".svg": "image/svg+xml",
    }
)
"""The types of the files served, by suffix (any other suffix is not served)."""


def static_files() -> dict[str, bytes]:
    """Every file of ``static/`` by its path relative to it (``index.html``, ``js/strip.js``, ...)."""
    root = resources.files(__package__ or "continual_arc.view").joinpath("static")
    out: dict[str, bytes] = {}
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        for child in folder.iterdir():
            name = f"{prefix}{child.name}"
            if child.is_dir():
                stack.append((child, f"{name}/"))
            elif any(name.endswith(suffix) for suffix in CONTENT_TYPES):
                out[name] = child.read_bytes()
    return dict(sorted(out.items()))


def mode_script(*, live: bool, runs: bool = True) -> str:
    """``mode.js``: tells the page whether a server answers (so it can play) or it is a static export.

    ``runs`` is whether the site holds any run: a site of the Tasks page alone says so here, so that
    the page asks for no run's document it does not have (each missing one a console error).
    """
    kind = "live" if live else "export"
    holds = "true" if runs else "false"
    return f'window.CAV_MODE = {{"kind": "{kind}", "runs": {holds}}};\n'
