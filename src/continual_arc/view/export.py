"""``continual-arc view --export DIR``: the viewer's pages as static files, for publishing a result.

The directory holds the same page (``index.html``, ``static/``), a ``mode.js`` that tells it there
is no server (so playing is unavailable, and the page says so), and every document of
[`Site`][continual_arc.view.site.Site] as ``data/<name>.js``: one file per instance's replay,
loaded by the page only when that instance is shown. Each file is the document's JSON wrapped in
one call (``CAV.deliver("<name>", {...});``), because a page opened from the file system may load
scripts beside it but may not fetch JSON. Needs neither Starlette nor uvicorn.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.files import atomic_write_json
from ..core.jsonable import as_json
from ..core.records import JSONObject
from .assets import mode_script, static_files
from .catalog import Catalog
from .site import NotFound, Site

__all__ = ["MARKER", "ExportError", "export_site", "wrap_document"]

MARKER = "viewer-export.json"
"""Written into every export: a directory holding it may be exported into again."""


class ExportError(ContinualArcError, ValueError):
    """An export directory that would overwrite something else, or lies inside a run given."""


def wrap_document(name: str, document: object) -> str:
    """A document as the script the page loads: ``CAV.deliver("<name>", <json>);``."""
    body = json.dumps(document, separators=(",", ":"), allow_nan=False, default=as_json)
    return f"CAV.deliver({json.dumps(name)},{body});\n"


def _check_target(out: Path, catalog: Catalog) -> None:
    resolved = out.resolve()
    for root in catalog.roots:
        if resolved.is_relative_to(root) or root.is_relative_to(resolved):
            raise ExportError(
                f"{out} overlaps {root}, which was given to view: the viewer never writes there"
            )
    if out.exists() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise ExportError(
            f"{out} is not empty and holds no earlier export ({MARKER}): choose another directory"
        )


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def export_site(
    catalog: Catalog,
    out: Path | str,
    progress: Callable[[int, int], None] | None = None,
    *,
    leaderboard: JSONObject | None = None,
    site: Site | None = None,
) -> dict[str, int]:
    """Write the static viewer of ``catalog`` (and its *Leaderboard* page, if given) into ``out``.

    ``site`` gives the pages' documents (its Tasks and Figures pages as configured); by default a
    site of the catalog and the leaderboard alone. A task the Tasks page lists but cannot draw here
    (its track's data missing) is left out, its card saying so. Returns the counts of what was
    written (``left_out``: such tasks).

    Raises:
        ExportError: ``out`` overlaps a directory given, or is a non-empty directory of something else.
    """
    out = Path(out)
    _check_target(out, catalog)
    site = site or Site(catalog, live=False, leaderboard=leaderboard)
    files = static_files()
    _write(out / "index.html", files["index.html"])
    for name, body in files.items():
        if name != "index.html":
            _write(out / "static" / name, body)
    _write(out / "mode.js", mode_script(live=False, runs=bool(catalog.runs)))
    names = list(site.names())
    left_out = 0
    for done, name in enumerate(names, 1):
        try:
            document = site.document(name)
        except NotFound:
            if not name.startswith("task/"):
                raise
            left_out += 1  # a task that cannot be drawn here: its card says so, as when served
            continue
        _write(out / "data" / f"{name}.js", wrap_document(name, document))
        if progress is not None:
            progress(done, len(names))
    counts = {
        "documents": len(names) - left_out,
        "left_out": left_out,
        "runs": len(catalog.runs),
        "protocols": len(catalog.protocols),
    }
    atomic_write_json(out / MARKER, {"format": 1, **counts})
    return counts
