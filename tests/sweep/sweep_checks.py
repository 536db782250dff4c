"""What the sweep tests share: specs, records compared across sweeps, and a sweep interrupted twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_records
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.schedule import Schedule
from continual_arc.sweep.units import read_progress

HERE = Path(__file__).parent


def write_spec(path: Path, body: str, config: str = "toy-smoke", seeds: str = "[0, 1]") -> Path:
    path.write_text(f'configs = ["{config}"]\nseeds = {seeds}\n[run]\nresamples = 500\nplots = false\n{body}')
    return path


TOY_PAIR = (
    '[[learners]]\nname = "toy"\nclass = "continual_arc.testing:ToyRuleLearner"\n'
    "axes = {keep = [true, false]}\n"
)


def slow(pause: float) -> str:
    return f'[[learners]]\nname = "slow"\nclass = "slow_learner:SlowToyRule"\nkwargs = {{pause = {pause}}}\n'


def plays(sweep: Path) -> dict[str, list[dict[str, Any]]]:
    """Every play's records of a sweep (timing and names aside), checked to cover each slot once."""
    out = {}
    for protocol in sorted((sweep / "protocols").glob("*/*")):
        for play in PROTOCOL_PLAYS.values():
            records = read_records(protocol / play)
            slots = Schedule.load(protocol / "schedules" / f"{play}.json", verify=False).slots
            assert [r["step"] for r in records] == [s.step for s in slots], f"{protocol}/{play}"
            key = f"{protocol.parent.name}/{protocol.name}/{play}"
            out[key] = [{k: v for k, v in r.items() if k not in (*TIMING_FIELDS, "alias")} for r in records]
    return out


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _stream_worker(sweep: Path, least: int) -> tuple[Path, dict[str, Any]] | None:
    for protocol in sorted((sweep / "protocols").glob("*/*")):
        seen = read_progress(protocol, "stream")
        if seen and least <= seen["instances_done"] < seen["instances_total"]:
            return protocol, seen
    return None


def interrupted_sweep(spec: Path, out: Path, engine: list[str]) -> dict[str, Any]:
    """Run ``continual-arc sweep`` as its own process, kill a worker mid-stream, then the driver, then
    run it again to the end. What happened, for the test to check."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "continual_arc.cli", "sweep", str(spec), "--out", str(out), *engine]
    log = open(out.parent / f"{out.name}.log", "w")  # noqa: SIM115 - closed below
    driver = subprocess.Popen(command, env=env, stdout=log, stderr=log, start_new_session=True)
    try:
        protocol, seen = wait_for(lambda: _stream_worker(out, 2), 240, "a stream two instances in")
        os.kill(seen["pid"], signal.SIGKILL)  # the worker dies mid-play
        retried = wait_for(
            lambda: (p := read_progress(protocol, "stream")) and p["pid"] != seen["pid"] and p,
            240,
            "the stream's play to start again",
        )
        wait_for(
            lambda: _stream_worker(out, 1) or (protocol / "stream" / "summary.json").exists(), 240, "work"
        )
        os.killpg(driver.pid, signal.SIGKILL)  # then the driver dies, with whatever runs
        driver.wait()
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
        log.close()
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-3000:]
    resumes = json.loads((protocol / "stream" / "meta.json").read_text())["resumes"]
    return {"killed_worker": seen["pid"], "retried_by": retried["pid"], "stream_resumes": resumes,
            "output": again.stdout}  # fmt: skip
