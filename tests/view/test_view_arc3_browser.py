"""The viewer on an arc3 protocol in headless Chromium: a game level replayed frame by frame.

The explorer plays arc3-smoke; the page is opened on a stream instance and stepped through, and
what it draws (frame cells, action names, how each attempt ended, the cost meter, demonstrations)
is checked against the trajectory and the record. Needs Python 3.12 with continual-arc[arc3] (the
game engine), the view extra, Playwright and Debian's chromium; skipped, saying so, without them.
Screenshots are saved as in test_view_browser.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from view_support import browser, drawn, records, screenshot_dir

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")
pytestmark = [pytest.mark.browser, pytest.mark.slow, browser]

from continual_arc.core.games import decode_frame  # noqa: E402
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402

EXPLORER = "continual_arc_baselines.explorer:GameExplorer"
SHOTS = screenshot_dir()
PLAYED_FIRST = ("smoke",)  # the protocol's plays fork: before Chromium starts its threads
FAILED = {"lost", "reset", "action cap"}

# Colour indices of chosen cells of a frame canvas (one pixel inside each), by ARC-AGI-3's palette.
READ_CELLS = """([selector, cells]) => {
  const canvas = document.querySelector(selector);
  if (!canvas) return null;
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const palette = CAV.FRAME_PALETTE.map(rgb);
  const px = +canvas.dataset.cell;
  const ctx = canvas.getContext("2d");
  return cells.map(([x, y]) => {
    const d = ctx.getImageData(x * px + Math.floor(px / 2), y * px + Math.floor(px / 2), 1, 1).data;
    return palette.findIndex((c) => c[0] === d[0] && c[1] === d[1] && c[2] === d[2]);
  });
}"""


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The explorer's arc3-smoke protocol (what CI plays), under a results folder."""
    out = tmp_path_factory.mktemp("arc3-view") / "results" / "explorer"
    play_protocol(ProtocolSpec.named(EXPLORER, "arc3-smoke"), ProtocolOptions(out=out, jobs=2, resamples=200))
    return out


@pytest.fixture(scope="module")
def site(smoke: Path) -> Site:
    """What the module's server serves: the explorer's results."""
    return Site(build_catalog([smoke.parent]), live=True)


def run_id(results: Path, label: str) -> str:
    index = Site(build_catalog([results]), live=True).document("index")
    return next(str(r["id"]) for r in index["runs"] if r["label"] == label)


def trajectory(run_dir: Path, step: int) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((run_dir / "i" / f"{step}.json").read_text())
    return value


def cells_of(page: Any, selector: str, cells: list[tuple[int, int]]) -> list[int] | None:
    value: list[int] | None = page.evaluate(READ_CELLS, [selector, [list(c) for c in cells]])
    return value


def probes(frame: tuple[tuple[int, ...], ...], before: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]]:
    """A few cells to read: some the action changed (if any), and three fixed ones."""
    changed = [(x, y) for y in range(64) for x in range(64) if frame[y][x] != before[y][x]]
    return [*changed[:: max(1, len(changed) // 4)][:4], (0, 0), (31, 40), (63, 63)]


def name(action: dict[str, Any]) -> str:
    return f"ACTION6 ({action['x']}, {action['y']})" if action["action"] == "ACTION6" else action["action"]


def pick(run_dir: Path, clicks: bool) -> dict[str, Any]:
    """A short instance with a failed attempt (and clicks, demonstrations), solved if it can be."""
    return max(
        (r for r in records(run_dir) if len(r["actions"]) <= 160),
        key=lambda r: (
            any(a["action"] == "ACTION6" for a in r["actions"]) if clicks else r["solved"],
            any(a.get("ended") in FAILED for a in r["actions"]),
            r["demos_bought"],
            len(r["actions"]),
        ),
    )


def check_demo(page: Any, demo: dict[str, Any], table: list[str], number: int) -> None:
    """Demonstration ``number`` on the page: its last frame, its actions, then frames along its slider."""
    assert page.locator("#replay .game-demo").count() == number
    canvas = f"#replay canvas[data-role=demo-frame-{number}]"
    last = decode_frame(table[demo["frames"][-1][-1]])
    assert drawn(page, canvas, frame=True) == [list(r) for r in last]
    chips = page.locator(f"#replay .game-demo[data-demo='{number}'] .act")
    assert [chips.nth(i).inner_text() for i in range(chips.count())] == [name(a) for a in demo["actions"]]
    flat = [f for group in demo["frames"] for f in group]
    slider = f"#replay input[data-role=demo-frame-{number}-slider]"
    assert page.get_attribute(slider, "max") == str(len(flat) - 1)
    for i in (0, len(flat) // 2):
        page.fill(slider, str(i))
        frame = decode_frame(table[flat[i]])
        cells = [(0, 0), (10, 20), (32, 32), (50, 12), (63, 63)]
        assert cells_of(page, canvas, cells) == [frame[y][x] for x, y in cells]
    page.evaluate("document.activeElement.blur()")  # the slider keeps the arrow keys while focused


def step_through(page: Any, base: str, run: str, run_dir: Path, record: dict[str, Any], shot: str) -> None:
    """Open the replay of ``record`` and step it to its end, checking each step against the trajectory."""
    data = trajectory(run_dir, record["step"])
    table = data["frames"]
    page.goto("about:blank")  # the page reads its hash when it loads, not when the hash changes
    page.goto(f"{base}#run={run}&i={record['step']}")
    page.wait_for_selector(f"#replay[data-run='{run}'][data-step='{record['step']}'][data-at='0']")
    assert page.get_attribute("#replay", "data-kind") == "game"
    assert page.is_hidden("#replay .replay-body")
    opening = decode_frame(table[data["opening"][-1]])
    assert drawn(page, "#replay canvas[data-role=frame-after]", frame=True) == [list(r) for r in opening]
    assert page.is_hidden("#play [data-play=start]")
    assert "grid tasks only" in page.inner_text("#play .play-note")
    page.screenshot(path=str(SHOTS / f"{shot}-start.png"), full_page=True)
    current, demos, shots = opening, 0, set()
    for k, event in enumerate(data["events"], 1):
        page.keyboard.press("ArrowRight") if k % 2 else page.click("#replay [data-go=next]")
        assert page.get_attribute("#replay", "data-at") == str(k)
        feedback, action = event["feedback"], event["action"]
        assert page.get_attribute("#replay .meter", "data-spent") == str(feedback["spent"])
        if feedback["feedback"] == "game":
            assert page.inner_text("#replay .act.newest") == name(action)
            assert name(action) in page.inner_text("#replay .replay-caption")
            failed = feedback["ended"] in FAILED  # then the attempt it belonged to is already counted
            attempt = feedback["attempts_used"] + (0 if failed else 1)
            row = page.locator(f"#replay .attempt[data-attempt='{attempt}']")
            assert row.locator(".act.newest").count() == 1
            if feedback["ended"]:
                assert row.get_attribute("data-ended") == feedback["ended"]
                assert feedback["ended"] in row.inner_text()
            after = decode_frame(table[feedback["frames"][-1]])
            cells = probes(after, current)
            assert cells_of(page, "#replay canvas[data-role=frame-after]", cells) == [
                after[y][x] for x, y in cells
            ]
            before = cells_of(page, "#replay canvas[data-role=frame-before]", cells)
            assert before == [current[y][x] for x, y in cells]
            if action["action"] == "ACTION6":
                mark = page.locator("#replay .click-mark")
                assert (mark.get_attribute("data-x"), mark.get_attribute("data-y")) == (
                    str(action["x"]), str(action["y"]))  # fmt: skip
            current = opening if failed else after
            kind = "click" if action["action"] == "ACTION6" else "failed" if failed else None
        elif feedback["feedback"] == "demos" and not feedback["refused"]:
            demos += 1
            check_demo(page, feedback["demo"], table, demos)
            kind = "demo"
        else:
            kind = None
        if kind and kind not in shots:
            shots.add(kind)
            page.locator("#replay").screenshot(path=str(SHOTS / f"{shot}-{kind}.png"))
    assert demos == record["demos_bought"]
    ended = [a["ended"] for a in record["actions"] if a.get("ended")]
    rows = page.locator("#replay .attempt[data-ended]:not([data-ended=''])")
    assert [rows.nth(i).get_attribute("data-ended") for i in range(rows.count())] == ended
    assert page.get_attribute("#replay .meter", "data-charge") == str(record["charge"])
    assert f"charged {record['charge']} of 16" in page.inner_text("#replay .meter")
    assert f"{record['wrong_attempts']} failed attempt" in page.inner_text("#replay .meter")
    assert page.locator("#replay .meter .cell.wrong").count() == min(record["wrong_attempts"], 16 - demos)
    assert page.locator("#replay .meter .cell.demo").count() == demos
    page.locator("#replay").screenshot(path=str(SHOTS / f"{shot}-end.png"))
    page.keyboard.press("Home")
    assert page.get_attribute("#replay", "data-at") == "0"


def test_game_levels_step_frame_by_frame(page: Any, server: ServerThread, smoke: Path) -> None:
    # One test for both levels: under pytest -n 2 two tests could each play the protocol.
    stream = pick(smoke / "stream", clicks=False)
    assert any(a.get("ended") in FAILED for a in stream["actions"]), (
        "no short stream level has a failed attempt"
    )
    run = run_id(smoke.parent, "results/explorer / stream")
    step_through(page, server.url, run, smoke / "stream", stream, "game-stream")
    # A held-out level the explorer clicked, bought demonstrations on and lost attempts of.
    held = pick(smoke / "held-out", clicks=True)
    assert any(a["action"] == "ACTION6" for a in held["actions"]), "no held-out level was clicked"
    assert held["demos_bought"] > 0, "the explorer bought no demonstration on the level picked"
    run = run_id(smoke.parent, "results/explorer / held-out")
    step_through(page, server.url, run, smoke / "held-out", held, "game-held-out")
