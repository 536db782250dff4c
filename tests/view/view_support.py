"""Helpers of the viewer's tests: snapshots of directories, records, and reading canvases in a browser."""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from continual_arc.play.rundir import read_run

CHROMIUM = Path(os.environ.get("CONTINUAL_ARC_CHROMIUM", "/usr/bin/chromium"))
"""Debian's chromium (``$CONTINUAL_ARC_CHROMIUM`` names another binary)."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _why_no_browser() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when Chromium and Playwright are both here."""
    if not CHROMIUM.exists():
        return f"headless Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "Playwright's Python package is not installed"
    return None


_NO_BROWSER = _why_no_browser()
browser = pytest.mark.skipif(_NO_BROWSER is not None, reason=_NO_BROWSER or "")
"""Marks a browser test, skipped (saying why) without Debian's Chromium or Playwright."""


@contextlib.contextmanager
def launched_chromium(sync_api: Any) -> Iterator[Any]:
    """Debian's Chromium, headless, launched through Playwright's sync API (the module, passed in)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@contextlib.contextmanager
def checked_page(chromium: Any) -> Iterator[Any]:
    """A fresh page, 1400 x 1000; on leaving, no script error nor console error may have happened."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda err: errors.append(str(err)))
    opened.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        yield opened
    finally:
        context.close()
    assert errors == [], errors


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` with its size and modification time (to prove nothing was written)."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


def records(path: Path) -> list[dict[str, Any]]:
    """A run's primary records, in order of step."""
    chosen = [r for r in read_run(path).records if r.get("episode_type", "primary") == "primary"]
    return sorted(chosen, key=lambda r: r["step"])


def screenshot_dir() -> Path:
    """Where the browser tests save their screenshots (``$CONTINUAL_ARC_VIEW_SCREENSHOTS`` or a temp dir)."""
    path = Path(os.environ.get("CONTINUAL_ARC_VIEW_SCREENSHOTS", "/tmp/continual-arc-view-screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


# Reads a grid drawn on a canvas back as colour indices: one pixel inside each cell, matched to the
# palette the page draws with. Returns null when the canvas is missing.
READ_CANVAS = """([selector, frame]) => {
  const canvas = document.querySelector(selector);
  if (!canvas) return null;
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const palette = (frame ? CAV.FRAME_PALETTE : CAV.ARC_PALETTE).map(rgb);
  const px = +canvas.dataset.cell;
  const gap = px >= 10 ? Math.max(1, Math.round(window.devicePixelRatio || 1)) : 0;
  const inside = Math.floor((px - gap) / 2);
  const ctx = canvas.getContext("2d");
  const out = [];
  for (let y = 0; y < +canvas.dataset.rows; y++) {
    const row = [];
    for (let x = 0; x < +canvas.dataset.cols; x++) {
      const d = ctx.getImageData(x * px + inside, y * px + inside, 1, 1).data;
      row.push(palette.findIndex((c) => c[0] === d[0] && c[1] === d[1] && c[2] === d[2]));
    }
    out.push(row);
  }
  return out;
}"""


def drawn(page: Any, selector: str, frame: bool = False) -> list[list[int]] | None:
    """The grid drawn on the canvas at ``selector``, read back from its pixels."""
    value: list[list[int]] | None = page.evaluate(READ_CANVAS, [selector, frame])
    return value


def check_first_card(page: Any, site: Any, track: str = "toy") -> None:
    """The Tasks page's first card (a grid task of ``track``'s stream) draws its instance as ``site`` has it.

    Its test pair and first demonstration's output are read back from the canvases' pixels.
    """
    first = page.get_attribute(".task-card >> nth=0", "data-task")
    doc = site.document(f"task/{track}/stream/{first}")
    assert isinstance(doc, dict)
    card = f".task-card[data-task='{first}']"
    page.wait_for_selector(f"{card}[data-loaded=true]")
    assert drawn(page, f"{card} canvas[data-role='task-test-in']") == doc["test"][0]
    assert drawn(page, f"{card} canvas[data-role='task-test-out']") == doc["test"][1]
    assert drawn(page, f"{card} canvas[data-role='task-demo-1-out']") == doc["demos"][0][1]
