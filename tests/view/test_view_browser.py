"""The viewer in headless Chromium: what the page draws, checked against the records and trajectories.

Each test saves screenshots (``$CONTINUAL_ARC_VIEW_SCREENSHOTS``, by default
/tmp/continual-arc-view-screenshots). They need Debian's ``chromium`` (/usr/bin/chromium), driven by
Playwright's Python package through that binary; without it they are skipped, saying so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from view_support import browser, drawn, records, screenshot_dir

pytestmark = [pytest.mark.browser, browser]
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")

from continual_arc.core.environment import EnvSettings  # noqa: E402
from continual_arc.play.rundir import read_run  # noqa: E402
from continual_arc.tracks.registry import get_track  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.export import export_site  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402

SHOTS = screenshot_dir()


def ids(results: Path) -> dict[str, str]:
    index = Site(build_catalog([results]), live=True).document("index")
    return {r["label"]: r["id"] for r in index["runs"]}


def open_instance(page: Any, base: str, run: str, step: int) -> None:
    page.goto(f"{base}#run={run}&i={step}")
    page.wait_for_selector(f"#replay[data-run='{run}'][data-step='{step}'][data-at='0']")


def trajectory(run_dir: Path, step: int) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((run_dir / "i" / f"{step}.json").read_text())
    return value


def test_stepping_through_an_instance_draws_what_it_recorded(
    page: Any, server: ServerThread, results: Path
) -> None:
    run_dir = results / "toy-rule" / "stream-reset"
    record = max(records(run_dir), key=lambda r: (r["demos_bought"], r["step"]))
    assert record["demos_bought"] >= 2 and record["solved"]
    events = trajectory(run_dir, record["step"])["events"]
    open_instance(page, server.url, ids(results)["results/toy-rule / stream-reset"], record["step"])
    assert drawn(page, "#replay canvas[data-role=input]") == trajectory(run_dir, record["step"])["input"]
    assert page.get_attribute("#replay .meter", "data-spent") == "0"
    page.screenshot(path=str(SHOTS / "replay-start.png"), full_page=True)
    demos = 0
    for k, event in enumerate(events, 1):
        page.keyboard.press("ArrowRight") if k % 2 else page.click("#replay [data-go=next]")
        assert page.get_attribute("#replay", "data-at") == str(k)
        assert page.get_attribute("#replay .meter", "data-spent") == str(event["feedback"]["spent"])
        if event["action"]["action"] == "request_demos":
            demos += 1
            pair = event["feedback"]["pair"]
            assert drawn(page, f"#replay canvas[data-role=demo-in-{demos}]") == pair[0]
            assert drawn(page, f"#replay canvas[data-role=demo-out-{demos}]") == pair[1]
        assert page.locator("#replay .replay-demos .pair").count() == demos
    answers = page.locator("#replay .answer")
    verdicts = [a["correct"] for a in record["actions"] if a["action"] == "submit"]
    assert [answers.nth(i).get_attribute("data-correct") for i in range(answers.count())] == [
        str(v).lower() for v in verdicts
    ]
    assert drawn(page, "#replay canvas[data-role=answer-1]") == events[-1]["action"]["grid"]
    assert page.get_attribute("#replay .meter", "data-charge") == str(record["charge"])
    assert f"charged {record['charge']} of 16" in page.inner_text("#replay .meter")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#replay", "data-at") == str(len(events) - 1)
    page.keyboard.press("End")
    page.locator("#replay").screenshot(path=str(SHOTS / "replay-solved.png"))


def test_a_failed_instance_shows_every_wrong_answer_and_the_whole_budget(
    page: Any, server: ServerThread, results: Path
) -> None:
    run_dir = results / "random"
    record = records(run_dir)[0]
    events = trajectory(run_dir, record["step"])["events"]
    open_instance(page, server.url, ids(results)["results/random"], record["step"])
    page.click("#replay [data-go=last]")
    answers = page.locator("#replay .answer[data-correct=false]")
    assert answers.count() == record["wrong_attempts"] == 8
    assert drawn(page, "#replay canvas[data-role=answer-8]") == events[7]["action"]["grid"]
    assert page.get_attribute("#replay .meter", "data-charge") == "16"
    assert page.locator("#replay .meter .cell.wrong").count() == 8
    assert page.locator("#replay .meter .cell.failed").count() == 8
    page.locator("#replay").screenshot(path=str(SHOTS / "replay-failed.png"))


def test_the_strip_lights_a_task_and_sets_the_reset_beside(
    page: Any, server: ServerThread, results: Path
) -> None:
    stream = records(results / "toy-rule" / "stream")
    reset = {(r["task_id"], r["seed"]): r["charge"] for r in records(results / "toy-rule" / "stream-reset")}
    page.goto(server.url + "#run=" + ids(results)["results/toy-rule / stream"])
    page.wait_for_selector("#strip[data-columns]")
    assert page.get_attribute("#strip", "data-columns") == str(len(stream))
    columns = page.evaluate("CAV.page.strip.columns.map((c) => [c.step, c.task, c.charge, c.beside.charge])")
    assert columns == [
        [r["step"], r["task_id"], r["charge"], reset[(r["task_id"], r["seed"])]] for r in stream
    ]
    width = int(page.get_attribute("#strip", "data-column-width"))
    page.locator("#strip").scroll_into_view_if_needed()
    box = page.locator("#strip").bounding_box()
    j = len(stream) - 1
    page.mouse.move(box["x"] + j * width + width / 2, box["y"] + 60)
    task = stream[j]["task_id"]
    assert page.get_attribute("#strip", "data-lit-task") == task
    assert page.get_attribute("#strip", "data-lit-count") == str(sum(r["task_id"] == task for r in stream))
    assert task in page.inner_text("#strip-tip")
    page.screenshot(path=str(SHOTS / "strip-lit-and-protocol.png"), full_page=True)
    page.mouse.click(box["x"] + j * width + width / 2, box["y"] + 60)
    page.wait_for_selector(f"#replay[data-step='{stream[j]['step']}']")


def _answer(track: str, phase: str, task: str, seed: int) -> list[list[int]]:
    env: Any = get_track(track).open(phase, task, seed, EnvSettings())
    return [list(row) for row in env.instance.output]


def _paint(page: Any, grid: list[list[int]]) -> None:
    """Make ``grid`` in the editor as a person would: size it, clear it, click each cell in its colour."""
    page.fill("#play input[aria-label=rows]", str(len(grid)))
    page.fill("#play input[aria-label=columns]", str(len(grid[0])))
    page.click("#play [data-tool=resize]")
    page.click("#play [data-tool=clear]")
    page.locator("#play canvas[data-role=editor]").scroll_into_view_if_needed()
    box = page.locator("#play canvas[data-role=editor]").bounding_box()
    cell = box["width"] / len(grid[0])
    for colour in range(1, 10):
        cells = [(y, x) for y, row in enumerate(grid) for x, v in enumerate(row) if v == colour]
        if cells:
            page.click(f"#play .swatch[data-colour='{colour}']")
        for y, x in cells:
            page.mouse.click(box["x"] + (x + 0.5) * cell, box["y"] + (y + 0.5) * cell)


def _start(page: Any, task: str) -> dict[str, Any]:
    # A second start finds the first play's board still shown, so wait for the new token, not the board.
    before = page.get_attribute("#play", "data-token") or ""
    page.fill("#play .play-task", task)
    page.click("#play [data-play=start]")
    changed = "(old) => { const t = document.querySelector('#play').dataset.token; return t && t !== old; }"
    page.wait_for_function(changed, arg=before)
    page.wait_for_selector("#play .play-board:not([hidden]) canvas[data-role=play-input]")
    return {
        "seed": int(page.get_attribute("#play", "data-seed")),
        "token": page.get_attribute("#play", "data-token"),
    }


def test_playing_an_instance_to_a_win_and_to_a_loss(page: Any, server: ServerThread, results: Path) -> None:
    stream = records(results / "random")
    task = stream[0]["task_id"]
    replies: list[str] = []
    page.on("response", lambda r: replies.append(r.text()) if "/api/play" in r.url else None)
    page.goto(server.url + "#run=" + ids(results)["results/random"])
    page.wait_for_selector("#strip[data-columns]")
    won = _start(page, task)
    answer = _answer("toy", "stream", task, won["seed"])
    page.click("#play [data-act=demo]")
    page.wait_for_selector("#play canvas[data-role=play-demo-in-1]")
    _paint(page, answer)
    assert drawn(page, "#play canvas[data-role=editor]") == answer
    page.click("#play [data-act=submit]")
    page.wait_for_selector("#play[data-done=true]")
    assert page.get_attribute("#play .play-answers .answer", "data-correct") == "true"
    assert page.get_attribute("#play .outcome", "data-charge") == "1"
    outcome = page.inner_text("#play .outcome")
    learner = [r["charge"] for r in stream if r["task_id"] == task]
    assert "You were charged 1 of 16 and solved it." in outcome
    assert ", ".join(map(str, learner)) in outcome
    page.locator("#play").screenshot(path=str(SHOTS / "play-won.png"))
    lost = _start(page, task)
    assert lost["seed"] != won["seed"]
    page.click("#play [data-tool=copy]")
    page.click("#play [data-act=submit]")
    page.wait_for_selector("#play .play-answers .answer[data-correct=false]")
    page.click("#play [data-act=give-up]")
    page.wait_for_selector("#play[data-done=true]")
    assert page.get_attribute("#play .outcome", "data-charge") == "16"
    assert page.locator("#play .meter .cell.wrong").count() == 1
    page.locator("#play").screenshot(path=str(SHOTS / "play-lost.png"))
    assert replies and all(json.dumps(answer) not in reply.replace(" ", "") for reply in replies)


def test_the_export_opens_from_the_file_system(page: Any, results: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    export_site(build_catalog([results]), out)
    run_dir = results / "toy-rule" / "seen"
    step = records(run_dir)[3]["step"]
    run = ids(results)["results/toy-rule / seen"]
    page.goto(f"{(out / 'index.html').as_uri()}#run={run}&i={step}")
    page.wait_for_selector(f"#replay[data-run='{run}'][data-step='{step}'][data-at='0']")
    assert page.evaluate("location.protocol") == "file:"
    assert drawn(page, "#replay canvas[data-role=input]") == trajectory(run_dir, step)["input"]
    page.click("#replay [data-go=last]")
    assert page.get_attribute("#replay .meter", "data-charge") == str(records(run_dir)[3]["charge"])
    assert "static export" in page.inner_text("#play .play-note")
    assert page.is_disabled("#play [data-play=start]")
    page.wait_for_selector(".protocol svg.plane circle")
    page.screenshot(path=str(SHOTS / "export-file-url.png"), full_page=True)


def test_a_half_written_run_says_what_is_missing(
    page: Any, chromium: Any, copy_run: Callable[[str], Path]
) -> None:
    path = copy_run("random")
    lines = (path / "records.jsonl").read_text().splitlines(keepends=True)
    (path / "records.jsonl").write_text("".join(lines[:-1]) + lines[-1][:40])
    (path / "summary.json").unlink()
    (path / "i" / "0.json").unlink()
    with ServerThread(Site(build_catalog([path]), live=True)) as running:
        open_instance(page, running.url, "r0", 0)
        problems = page.inner_text("#run-head .problems")
        assert "cut short" in problems and "summary.json is missing" in problems
        assert page.get_attribute("#strip", "data-columns") == str(len(lines) - 1)
        assert "i/0.json is missing" in page.inner_text("#replay .replay-head")
        page.click("#replay [data-go=last]")
        assert page.locator("#replay .answer[data-correct=false]").count() == 8
        assert page.locator("#replay .answer figure.missing").count() == 8
        page.screenshot(path=str(SHOTS / "half-written-run.png"), full_page=True)


def _encode(frame: list[list[int]]) -> str:
    flat = [v for row in frame for v in row]
    runs, start = [], 0
    for i in range(1, len(flat) + 1):
        if i == len(flat) or flat[i] != flat[start]:
            n = i - start
            runs.append("abcdefghijklmnop"[flat[start]] + (str(n) if n > 1 else ""))
            start = i
    return "f1:" + "".join(runs)


def test_frames_and_a_learner_log(page: Any, copy_run: Callable[[str], Path]) -> None:
    path = copy_run("random")
    data = trajectory(path, 0)
    frames = [
        [[(x // 8 + y // 16 + k) % 16 for x in range(64)] for y in range(64)]
        for k in range(len(data["events"]))
    ]
    for event, frame in zip(data["events"], frames, strict=True):
        event["feedback"]["frames"] = [_encode(frame)]
    data["learner_log"] = {
        "messages": [
            {"role": "user", "content": "Here is the input."},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "function": {"name": "run_program", "arguments": "{\"code\": \"rot90\"}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "[[1, 2]]"},
        ],
        "events": [{"wrote_with": 3, "programs": ["rot90", "flip"]}],
        "solved_by": "rot90",
        "files": {"notes.md": ["first note", {"version": 2, "content": "second note", "at": 0}]},
        "model": {"name": "scripted"},
    }  # fmt: skip
    (path / "i" / "0.json").write_text(json.dumps(data))
    with ServerThread(Site(build_catalog([path]), live=True)) as running:
        open_instance(page, running.url, "r0", 0)
        assert page.is_hidden("#replay .replay-frames")
        page.click("#replay [data-go=next]")
        page.click("#replay [data-go=next]")
        assert drawn(page, "#replay .replay-frames canvas", frame=True) == frames[1]
        assert page.get_attribute("#replay .replay-frames input[type=range]", "max") == "1"
        assert page.locator("#replay .message").count() == 3
        assert "run_program" in page.inner_text("#replay .tool-call")
        assert page.locator("#replay ol.programs li").count() == 2
        assert page.locator("#replay .file select option").count() == 2
        assert "second note" in page.inner_text("#replay .file-body")
        page.locator("#replay").screenshot(path=str(SHOTS / "frames-and-learner-log.png"))


def test_an_auxiliary_episode_opens_in_the_replay(page: Any, practice: Path) -> None:
    addon = next(r for r in read_run(practice).records if r["episode_type"] == "addon")
    name = f"addon-{addon['addon_index']}"
    with ServerThread(Site(build_catalog([practice]), live=True)) as running:
        page.goto(running.url)
        page.wait_for_selector("#replay[data-at='0']")
        page.click(f"#addons button[data-addon='{name}']")
        page.wait_for_selector(f"#replay[data-step='{name}'][data-at='0']")
        assert "Auxiliary episode " + name in page.inner_text("#replay .replay-head")
        assert drawn(page, "#replay canvas[data-role=input]") == trajectory_of(practice, name)["input"]
        page.click("#replay [data-go=last]")
        assert page.get_attribute("#replay .meter", "data-charge") == str(addon["charge"])
        page.screenshot(path=str(SHOTS / "auxiliary-episode.png"), full_page=True)


def trajectory_of(run_dir: Path, name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((run_dir / "i" / f"{name}.json").read_text())
    return value
